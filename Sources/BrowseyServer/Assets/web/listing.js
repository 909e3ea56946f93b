// The list: only the rows on screen are drawn, so a folder of 10,000 entries stays smooth.

import { updateRights } from "./account.js";
import { api, apiURL, readAnswer, withHidden } from "./api.js";
import { takeEarlyListing } from "./boot.js";
import { $ } from "./dom.js";
import { listen } from "./events.js";
import { formatDate, formatSize, isFolder, kindOf } from "./format.js";
import { drawGrid, firstVisibleTile, layoutFor, tileTop } from "./gallery.js";
import { svgIcon } from "./icons.js";
import { openInfo } from "./info.js";
import { join, pageURL, parentOf } from "./paths.js";
import { prefs } from "./prefs.js";
import { closeOverlays } from "./settings.js";
import { state } from "./state.js";
import { openViewer } from "./viewer.js";

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
    const element = makeRow(state.rows[index], index);
    element.style.top = index * height + "px";
    $("spacer").appendChild(element);
    state.rendered.set(index, element);
  }
}
export function makeRow(item, index) {
  const row = document.createElement("a");
  row.className = "row";
  row.setAttribute("role", "listitem");
  row.dataset.index = index;
  const path = item.parent ? item.path : join(state.folder, item.name);
  row.href = isFolder(item) ? pageURL(path) : pageURL(path) + "?view=1";
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
  row.addEventListener("click", (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    activate(item);
  });
  return row;
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
export function renderCrumbs() {
  const nav = $("crumbs");
  nav.textContent = "";
  const parts = state.folder.split("/").filter(Boolean);
  const add = (label, path, current) => {
    const link = document.createElement("a");
    link.href = pageURL(path); link.textContent = label;
    if (current) link.setAttribute("aria-current", "page");
    link.addEventListener("click", (event) => { event.preventDefault(); navigate(path); });
    nav.append(link);
  };
  add("Home", "/", parts.length === 0);
  parts.forEach((part, index) => {
    const sep = document.createElement("span");
    sep.className = "sep"; sep.textContent = "›"; sep.setAttribute("aria-hidden", "true");
    nav.append(sep);
    add(part, "/" + parts.slice(0, index + 1).join("/"), index === parts.length - 1);
  });
  nav.scrollLeft = nav.scrollWidth;
  $("back", HTMLButtonElement).disabled = state.folder === "/";
  document.title = (parts.length ? parts[parts.length - 1] : "Home") + " — Browsey";
}
export async function load(folder, { keepScroll = false } = {}) {
  const serial = ++state.loadSerial;
  const changed = folder !== state.folder;
  state.folder = folder;
  renderCrumbs();
  if (changed) { state.items = []; state.rows = []; clearRows(); drawRows(); }
  if (!keepScroll) showState(state.items.length ? "" : "Loading…");
  try {
    const params = withHidden({ path: folder });
    const early = takeEarlyListing(apiURL("list", params));
    const body = early ? await readAnswer(await early) : await api("list", params);
    if (serial !== state.loadSerial) return;
    state.items = body.items || [];
    const scroll = $("list").scrollTop;
    sortItems();
    // A folder's layout is decided when it opens, not again when a live change reloads it.
    if (changed || !keepScroll) showLayout(layoutFor(folder, state.items));
    clearRows();
    if (!keepScroll) $("list").scrollTop = 0; else $("list").scrollTop = scroll;
    drawRows();
    updateRights(folder);
    $("count").textContent = state.items.length === 1 ? "1 item" : state.items.length + " items";
    showState(state.items.length ? "" : "This folder is empty.");
    if (performance.getEntriesByName("browsey:navigate").length) {
      performance.measure("browsey:rows-visible", "browsey:navigate");
      performance.clearMarks("browsey:navigate");
    }
  } catch (error) {
    if (serial !== state.loadSerial) return;
    state.items = []; state.rows = []; clearRows(); drawRows();
    $("count").textContent = "";
    showState(error.message, { error: true, retry: true });
  }
  if (changed || !state.events) listen(folder);
}
export function navigate(folder, { push = true } = {}) {
  performance.clearMarks("browsey:navigate");
  performance.mark("browsey:navigate");
  if (push) history.pushState(null, "", pageURL(folder));
  closeOverlays();
  return load(folder);
}
