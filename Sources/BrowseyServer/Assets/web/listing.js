// The list: only the rows on screen are drawn, so a folder of 10,000 entries stays smooth.

import { updateRights } from "./account.js";
import { api, apiURL, reach, readAnswer, withHidden } from "./api.js";
import { takeEarlyListing } from "./boot.js";
import { $ } from "./dom.js";
import { listen } from "./events.js";
import { formatCount, formatDate, formatSize, isFolder, kindOf } from "./format.js";
import { showGitBar } from "./git.js";
import { drawGrid, firstVisibleTile, grid, layoutFor, tileTop } from "./gallery.js";
import { svgIcon } from "./icons.js";
import { openInfo } from "./info.js";
import { join, nameOf, pageURL, parentOf } from "./paths.js";
import { itemTop, placeFor, rememberPlace, restorePlace } from "./place.js";
import { prefs } from "./prefs.js";
import { stopSelecting, toggleSelected } from "./selection.js";
import { closeOverlays } from "./settings.js";
import { shared } from "./shared.js";
import { state } from "./state.js";
import { openViewer } from "./viewer.js";
import { closeNewFolder, showWrites } from "./writes.js";

export function sortItems() {
  const order = prefs.get("sort", "name");
  const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  const items = state.items.slice();
  // The server lists folders first, then names as people order them: its order is the name order.
  if (order !== "name") items.sort((a, b) => {
    const folders = Number(isFolder(b)) - Number(isFolder(a));
    if (folders) return folders;
    if (order === "size" && a.size !== b.size) return (b.size || 0) - (a.size || 0);
    if (order === "date" && a.modified !== b.modified) return new Date(b.modified).getTime() - new Date(a.modified).getTime();
    return byName.compare(a.name, b.name);
  });
  state.rows = state.folder === "/" ? items : [{ name: "..", type: "directory", parent: true, path: parentOf(state.folder) }, ...items];
  state.images = items.filter((item) => kindOf(item) === "image");
}
/** The row height last read from the style sheet, and for which layout. */
let measured = { compact: /** @type {boolean | null} */ (null), height: 56 };
/**
 * The height of a row, in pixels: the style sheet's `--row` (smaller in the compact layout), read
 * once per layout rather than at every frame of a scroll.
 */
export function rowHeight() {
  const compact = document.body.classList.contains("compact");
  if (measured.compact !== compact) {
    measured = { compact, height: parseFloat(getComputedStyle(document.body).getPropertyValue("--row")) || 56 };
  }
  return measured.height;
}
export function clearRows() { for (const element of state.rendered.values()) element.remove(); state.rendered.clear(); }
/**
 * The rows or tiles of the drawing before a live change, by what they show, for the drawing
 * after it to use again (see `keepRows`).
 * @type {Map<string, HTMLElement>}
 */
const spare = new Map();
/**
 * What an entry's row or tile shows, as text: two entries with the same key are drawn alike,
 * wherever they stand in the list.
 * @param {any} item
 * @param {unknown} [more] what else the drawing depends on (a tile's thumbnail size)
 */
export function entryKey(item, more = null) {
  const selected = state.selecting && !item.parent ? state.selected.has(item.name) : null;
  return JSON.stringify([state.layout, state.folder, state.selecting, selected, more, item]);
}
/**
 * Before a live change is drawn: the rows and tiles on screen are set aside rather than dropped,
 * so an entry that did not change keeps its element. A tap on it while the list is drawn again
 * is not lost, and a tile does not ask for its thumbnail again. `dropSpareRows` removes the ones
 * the new drawing did not take.
 */
export function keepRows() {
  for (const element of state.rendered.values()) spare.set(element.dataset.key || "", element);
  state.rendered.clear();
}
/** The element set aside for an entry drawn alike, if there is one, now taken. */
export function takeSpareRow(key) {
  const element = spare.get(key);
  if (element) spare.delete(key);
  return element;
}
export function dropSpareRows() { for (const element of spare.values()) forget(element); spare.clear(); }
/** Removes a row or tile, cancelling its thumbnail if it is still on its way. */
export function forget(element) {
  const image = element.querySelector("img");
  if (image && !image.complete) image.removeAttribute("src");
  element.remove();
}
/**
 * Puts the rows or tiles drawn in the spacer in list order, so the keyboard's Tab and a screen
 * reader meet them as they are seen: a row drawn on a scroll up, or a new entry's among the
 * elements a live change kept, would otherwise come after the rest. Only those out of place move.
 */
export function orderRendered() {
  const spacer = $("spacer");
  let cursor = spacer.firstElementChild;
  for (const index of [...state.rendered.keys()].sort((a, b) => a - b)) {
    const element = state.rendered.get(index);
    if (element === cursor) cursor = cursor.nextElementSibling;
    else spacer.insertBefore(element, cursor);
  }
}
/**
 * Shows the folder as a grid or a list from now on (the body's `grid` class, the toggle's
 * state); with `keepPlace`, the first item on screen stays on screen.
 *
 * @param {"grid" | "list"} layout
 */
export function showLayout(layout, { keepPlace = false } = {}) {
  const first = !keepPlace ? 0 : state.layout === "grid" ? firstVisibleTile() : Math.floor($("list").scrollTop / rowHeight());
  state.layout = layout;
  document.body.classList.toggle("grid", layout === "grid");
  $("layout-toggle").setAttribute("aria-pressed", String(layout === "grid"));
  if (!keepPlace) return;
  clearRows();
  $("list").scrollTop = layout === "grid" ? tileTop(first) : first * rowHeight();
  drawRows();
}
export function drawRows() {
  if (state.layout === "grid") return drawGrid();
  const list = $("list"), height = rowHeight();
  $("spacer").style.height = state.rows.length * height + "px";
  const first = Math.max(0, Math.floor(list.scrollTop / height) - 8);
  const last = Math.min(state.rows.length, Math.ceil((list.scrollTop + list.clientHeight) / height) + 8);
  for (const [index, element] of state.rendered) {
    if (index < first || index >= last) { element.remove(); state.rendered.delete(index); }
  }
  for (let index = first; index < last; index += 1) {
    if (state.rendered.has(index)) continue;
    const item = state.rows[index], key = entryKey(item);
    const element = takeSpareRow(key) || makeRow(item, index, key);
    element.dataset.index = String(index);
    element.classList.toggle("came-from", index === state.cameFrom);
    element.style.top = index * height + "px";
    state.rendered.set(index, element);
  }
  orderRendered();
}
export function makeRow(item, index, key = entryKey(item)) {
  const row = document.createElement("a");
  row.className = index === state.cameFrom ? "row came-from" : "row";
  row.setAttribute("role", "listitem");
  row.dataset.index = String(index);
  row.dataset.key = key;
  if (!item.parent) row.dataset.name = item.name;
  addSelectionBox(row, item);
  const path = item.parent ? item.path : join(state.folder, item.name);
  row.href = pageURL(path, { view: !isFolder(item) });
  const icon = document.createElement("span");
  icon.className = "icon"; icon.setAttribute("aria-hidden", "true");
  icon.append(svgIcon(item.parent ? "parent" : item.type === "symlink" ? "link" : kindOf(item)));
  const text = document.createElement("span");
  text.className = "text";
  const name = document.createElement("span");
  name.className = "name"; name.textContent = item.name;
  const detail = document.createElement("span");
  detail.className = "detail";
  detail.textContent = item.parent ? "Parent folder" : isFolder(item) ? formatDate(item.modified)
    : formatSize(item.size) + " • " + formatDate(item.modified);
  text.append(name, detail);
  row.append(icon, text);
  if (!item.parent) {
    const more = document.createElement("button");
    more.className = "icon-button more"; more.append(svgIcon("info"));
    more.setAttribute("aria-label", "Info for " + item.name);
    more.addEventListener("click", (event) => { event.preventDefault(); event.stopPropagation(); openInfo(item); });
    row.append(more);
  }
  row.addEventListener("click", (event) => onEntryClick(event, item));
  return row;
}

/**
 * While selecting, a real checkbox on an entry (a row or a tile), so its state is announced;
 * the entry's tap is what toggles it.
 * @param {HTMLElement} element
 * @param {any} item
 */
export function addSelectionBox(element, item) {
  if (!state.selecting || item.parent) return;
  const box = document.createElement("input");
  box.type = "checkbox"; box.className = "check"; box.tabIndex = -1;
  box.checked = state.selected.has(item.name);
  box.setAttribute("aria-label", "Select " + item.name);
  if (box.checked) element.classList.add("selected");
  element.append(box);
}

/**
 * What a click on an entry (a row or a tile) means: with a modifier, what the browser does with
 * the link; while selecting, a change of the selection; else the entry opens.
 * @param {MouseEvent} event
 * @param {any} item
 */
export function onEntryClick(event, item) {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  if (state.selecting && !item.parent) toggleSelected(item); else activate(item);
}
export function activate(item) {
  if (item.parent) return navigate(item.path);
  const path = join(state.folder, item.name);
  if (isFolder(item)) navigate(path); else openViewer({ ...item, path });
}
export function showState(text, { error = false, retry = false } = {}) {
  const box = $("state");
  box.hidden = !text;
  box.className = "state" + (error ? " error" : "");
  box.textContent = text || "";
  if (retry) {
    const button = document.createElement("button");
    button.className = "wide-button"; button.textContent = "Try again";
    button.addEventListener("click", () => load(state.folder));
    box.append(document.createElement("br"), button);
  }
}
/**
 * The breadcrumbs: Home, the folders, the current one. When they do not fit, the middle ones
 * give way to one "…" (a link to the deepest folder it stands for), from Home's side first, so
 * Home, the parent and the current folder stay; a current name still too long ends in "…".
 */
export function renderCrumbs() {
  const nav = $("crumbs");
  const parts = state.folder.split("/").filter(Boolean);
  const pathTo = (index) => "/" + parts.slice(0, index + 1).join("/");
  const add = (label, path, current, hidden = "") => {
    const link = document.createElement("a");
    link.href = pageURL(path); link.textContent = label;
    if (current) link.setAttribute("aria-current", "page");
    if (hidden) { link.className = "collapsed"; link.setAttribute("aria-label", hidden); link.title = hidden; }
    link.addEventListener("click", (event) => { event.preventDefault(); navigate(path); });
    nav.append(link);
  };
  const separator = () => {
    const sep = document.createElement("span");
    sep.className = "sep"; sep.textContent = "›"; sep.setAttribute("aria-hidden", "true");
    nav.append(sep);
  };
  /** Draws them with the first `folded` folders folded into one "…". */
  const draw = (folded) => {
    nav.textContent = "";
    add(shared ? shared.name : "Home", "/", parts.length === 0);
    parts.forEach((part, index) => {
      if (index < folded) {
        if (index === folded - 1) { separator(); add("…", pathTo(index), false, "Up to " + parts.slice(0, folded).join(" › ")); }
        return;
      }
      separator();
      add(part, pathTo(index), index === parts.length - 1);
    });
  };
  let folded = 0;
  draw(folded);
  // Fold from the top down while they do not fit, or while the current name, cut short, has
  // less than half the room.
  const crowded = () => {
    const current = /** @type {HTMLElement | null} */ (nav.querySelector("[aria-current]"));
    return nav.scrollWidth > nav.clientWidth + 1
      || (current !== null && current.scrollWidth > current.clientWidth && current.clientWidth < nav.clientWidth / 2);
  };
  while (folded < parts.length - 1 && crowded()) { folded += 1; draw(folded); }
  $("back", HTMLButtonElement).disabled = state.folder === "/";
  document.title = (parts.length ? parts[parts.length - 1] : shared ? shared.name : "Home") + " — Browsey";
}
/**
 * Shows a folder: asks for its listing and draws it. `keepScroll` keeps the offset (a refresh,
 * a live change); otherwise the list opens at `place` (see place.js), or at the top.
 *
 * @param {string} folder
 * @param {{ keepScroll?: boolean, place?: import("./place.js").Place | null }} options
 */
export async function load(folder, { keepScroll = false, place = null } = {}) {
  const serial = ++state.loadSerial;
  const changed = folder !== state.folder;
  state.folder = folder;
  // Another folder: nothing of the last one's stays on screen while this one loads.
  if (changed) { state.cameFrom = -1; $("count").textContent = ""; stopSelecting(); closeNewFolder(); }
  renderCrumbs();
  if (changed) { state.items = []; state.rows = []; clearRows(); drawRows(); }
  if (!keepScroll) showState(state.items.length ? "" : "Loading…");
  try {
    const params = withHidden({ path: folder });
    const early = takeEarlyListing(apiURL("list", params));
    const body = early ? await readAnswer(await reach(early)) : await api("list", params);
    if (serial !== state.loadSerial) return;
    state.items = body.items || [];
    const scroll = $("list").scrollTop;
    sortItems();
    // A folder's layout is decided when it opens, not again when a live change reloads it.
    if (changed || !keepScroll) showLayout(layoutFor(folder, state.items));
    if (keepScroll) keepRows(); else clearRows();
    drawRows();  // the spacer's new height first: an offset past the old one would be cut short
    if (keepScroll) $("list").scrollTop = scroll;
    else restorePlace(place, (index) => itemTop(index, rowHeight()), state.layout === "grid" ? grid.pitch : rowHeight());
    drawRows();
    dropSpareRows();
    state.folderMissing = false;
    if (!shared) { showWrites(); updateRights(folder); showGitBar(folder); }
    $("count").textContent = formatCount(state.items.length);
    showState(state.items.length ? "" : "This folder is empty.");
    if (performance.getEntriesByName("browsey:navigate").length) {
      performance.measure("browsey:rows-visible", "browsey:navigate");
      performance.clearMarks("browsey:navigate");
    }
  } catch (error) {
    if (serial !== state.loadSerial) return;
    // Behind the access-token gate: the form asks, nothing else is said, no live updates start.
    if (error.name === "AccessRequired") { showState(""); return; }
    // The server away during a refresh: what is shown stays (the banner says the rest).
    if (error.name === "Unreachable" && keepScroll && !changed && state.items.length) return;
    state.items = []; state.rows = []; clearRows(); drawRows();
    $("count").textContent = "";
    // No folder to write in: no upload or new folder until one opens.
    state.folderMissing = true;
    showWrites();
    showState(error.message, { error: true, retry: error.name !== "Unreachable" });
  }
  if (!shared && (changed || !state.events)) listen(folder);
}
/**
 * Goes to a folder with a new history entry. The folder left keeps its place (and, when the
 * new one is its child, which child); going up opens the folder where it was left, with the
 * child just left in view and marked.
 */
export function navigate(folder, { push = true } = {}) {
  performance.clearMarks("browsey:navigate");
  performance.mark("browsey:navigate");
  const from = state.folder;
  if (state.rows.length) rememberPlace(from, parentOf(folder) === from && folder !== from ? nameOf(folder) : undefined);
  if (push) history.pushState(null, "", pageURL(folder));
  closeOverlays();
  const goingUp = folder !== from && (folder === "/" || from.startsWith(folder + "/"));
  const child = goingUp ? from.slice(folder === "/" ? 1 : folder.length + 1).split("/")[0] : null;
  return load(folder, { place: placeFor(folder, { fromMemory: goingUp, child }) });
}
