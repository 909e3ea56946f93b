// The gallery: a folder as a grid of square tiles, pictures and video posters from the server's
// thumbnails, folders and other files as icons. Drawn like the list: only the tiles on screen
// exist, so a folder of 10,000 pictures scrolls as smoothly as the list does.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { formatDuration, isFolder, kindOf } from "./format.js";
import { svgIcon } from "./icons.js";
import { addSelectionBox, entryKey, forget, onEntryClick, orderRendered, takeSpareRow } from "./listing.js";
import { join, pageURL } from "./paths.js";
import { watchImage } from "./offline.js";
import { noteAspect } from "./picture.js";
import { prefs } from "./prefs.js";
import { state } from "./state.js";
import { hasThumbnail, isVisual, thumbURL, tileClass } from "./thumbnails.js";

/** Pixels between tiles. */
const gap = 2;
/** How many folders' chosen layout this browser keeps (the oldest choice goes first). */
const remembered = 500;

/** The grid's geometry for the list's current width. */
export const grid = { columns: 3, tile: 128, pitch: 130, size: 256, width: 0 };

/**
 * Whether a folder looks like a gallery: at least 60 % of its files are pictures or videos the
 * server can thumbnail, and at least 4 of them. Folders do not count either way.
 */
export function looksLikeGallery(items) {
  // One pass of cheap checks: a folder of 10,000 text files costs well under a millisecond.
  let files = 0, visual = 0;
  for (const item of items) {
    if (item.type === "directory" || item.targetType === "directory") continue;
    files += 1;
    if (hasThumbnail(item) && isVisual(item)) visual += 1;
  }
  return visual >= 4 && visual >= 0.6 * files;
}

/** The layout a folder opens in: the one chosen for it in this browser, else what its files suggest. */
export function layoutFor(folder, items) {
  const chosen = prefs.get("layouts", {})[folder];
  if (chosen === "grid" || chosen === "list") return chosen;
  return looksLikeGallery(items) ? "grid" : "list";
}

/** Remembers the layout chosen for a folder. */
export function rememberLayout(folder, layout) {
  const layouts = prefs.get("layouts", {});
  delete layouts[folder];
  layouts[folder] = layout;
  const folders = Object.keys(layouts);
  for (const old of folders.slice(0, Math.max(0, folders.length - remembered))) delete layouts[old];
  prefs.set("layouts", layouts);
}

/** Reads the grid's geometry from the list's width: tiles at least 110 px (160 on a wide screen). */
export function measureGrid() {
  const width = $("list").clientWidth || window.innerWidth;
  if (width === grid.width) return grid;
  const smallest = width < 600 ? 110 : 160;
  grid.columns = Math.max(2, Math.floor((width + gap) / (smallest + gap)));
  grid.tile = (width - gap * (grid.columns - 1)) / grid.columns;
  grid.pitch = grid.tile + gap;
  grid.size = tileClass(grid.tile);
  grid.width = width;
  return grid;
}

/** The first item at least partly on screen, in the grid. */
export function firstVisibleTile() { measureGrid(); return Math.floor($("list").scrollTop / grid.pitch) * grid.columns; }

/** The scroll offset that shows the item at `index` at the top of the grid. */
export function tileTop(index) { measureGrid(); return Math.floor(index / grid.columns) * grid.pitch; }

/** Draws the tiles on screen (and two rows above and below), removing the rest. */
export function drawGrid() {
  const list = $("list"), geometry = measureGrid();
  const rows = Math.ceil(state.rows.length / geometry.columns);
  $("spacer").style.height = Math.max(0, rows * geometry.pitch - gap) + "px";
  const top = list.scrollTop, bottom = top + list.clientHeight;
  const first = Math.max(0, (Math.floor(top / geometry.pitch) - 2) * geometry.columns);
  const last = Math.min(state.rows.length, (Math.ceil(bottom / geometry.pitch) + 2) * geometry.columns);
  for (const [index, element] of state.rendered) {
    if (index < first || index >= last) { forget(element); state.rendered.delete(index); }
  }
  for (let index = first; index < last; index += 1) {
    const row = Math.floor(index / geometry.columns);
    let tile = state.rendered.get(index);
    if (!tile) {
      const item = state.rows[index], key = entryKey(item, grid.size);
      tile = takeSpareRow(key) || makeTile(item, index, key);
      tile.dataset.index = String(index);
      state.rendered.set(index, tile);
    }
    const left = (index % geometry.columns) * geometry.pitch;
    tile.style.cssText = "left:" + left + "px;top:" + row * geometry.pitch + "px;width:" + geometry.tile + "px;height:" + geometry.tile + "px";
    // Tiles on screen ask for their thumbnails now; the rows drawn ahead wait behind them.
    if ((row + 1) * geometry.pitch > top && row * geometry.pitch < bottom) request(tile);
  }
  orderRendered();
  requestAhead();
}

/** Asks for a tile's thumbnail, if it has one it has not asked for yet. */
function request(tile) {
  const image = tile.querySelector("img[data-src]");
  if (!image) return;
  image.src = image.dataset.src;
  delete image.dataset.src;
}

/** Videos' durations in seconds by path and version (`null`: the server gave none). */
const durations = new Map();
/** Video tiles waiting to ask for their duration, and how many are asking now (two at most). */
const durationQueue = [];
let durationsAsked = 0;

/** Shows a video tile's duration on its badge: known already, or asked of `/api/view` in turn. */
function askDuration(tile) {
  const key = tile.dataset.video;
  delete tile.dataset.video;
  if (durations.has(key)) { showDuration(tile, durations.get(key)); return; }
  durationQueue.push([tile, key]);
  askNextDurations();
}

function askNextDurations() {
  while (durationsAsked < 2 && durationQueue.length) {
    const [tile, key] = /** @type {[HTMLElement, string]} */ (durationQueue.shift());
    if (!tile.isConnected) continue;  // scrolled away meanwhile: asked again if it comes back
    if (durations.has(key)) { showDuration(tile, durations.get(key)); continue; }
    durationsAsked += 1;
    api("view", { path: tile.dataset.path || "" })
      .then((view) => { durations.set(key, view.video && typeof view.video.duration === "number" ? view.video.duration : null); })
      .catch(() => { /* offline or not viewable: the badge stays a play sign */ })
      .finally(() => {
        durationsAsked -= 1;
        if (durations.has(key)) showDuration(tile, durations.get(key)); else tile.dataset.video = key;
        askNextDurations();
      });
  }
}

/** Writes a duration on a tile's badge (nothing when there is none). */
function showDuration(tile, seconds) {
  const label = tile.querySelector(".badge .duration");
  if (!label || seconds == null) return;
  label.textContent = formatDuration(seconds);
  if (label.parentElement) label.parentElement.classList.add("timed");
}

/**
 * Once every thumbnail on screen has arrived (or failed), asks for those of the rows drawn
 * ahead: on a cold server the screen's pictures are decoded first, not among the next rows'.
 */
function requestAhead() {
  const waiting = [...state.rendered.values()].map((tile) => tile.querySelector("img[src]"))
    .filter((image) => image && !image.complete);
  if (waiting.length) {
    for (const image of waiting.filter((one) => !one.dataset.watched)) {
      image.dataset.watched = "1";
      image.addEventListener("load", requestAhead, { once: true });
      image.addEventListener("error", requestAhead, { once: true });
    }
    return;
  }
  for (const tile of state.rendered.values()) {
    request(tile);
    // Durations too wait for the screen's pictures: each costs the server an ffprobe run.
    if (tile.dataset.video) askDuration(tile);
  }
}

/** A tile: a picture's thumbnail (its name as the alternative text), or an icon and a name. */
function makeTile(item, index, key) {
  const tile = document.createElement("a");
  const kind = item.parent ? "parent" : kindOf(item);
  tile.className = "tile tile-" + kind;
  tile.setAttribute("role", "listitem");
  tile.dataset.index = String(index);
  tile.dataset.key = key;
  const path = item.parent ? item.path : join(state.folder, item.name);
  tile.href = pageURL(path, { view: !isFolder(item) });
  tile.title = item.parent ? "Parent folder" : item.name;
  if (!item.parent) tile.dataset.name = item.name;
  addSelectionBox(tile, item);
  const icon = document.createElement("span");
  icon.className = "icon"; icon.setAttribute("aria-hidden", "true");
  icon.append(svgIcon(item.parent ? "parent" : item.type === "symlink" ? "link" : kind));
  tile.append(icon);
  if (!item.parent && hasThumbnail(item)) {
    tile.classList.add("thumbnail");
    const image = document.createElement("img");
    image.alt = item.name;
    image.decoding = "async";
    image.draggable = false;
    image.addEventListener("load", () => { image.classList.add("loaded"); noteAspect(path, image); }, { once: true });
    // A thumbnail the server could not make after all: the icon and the name stay.
    // (While the server is away, it is marked "not reachable" and loaded again on its return.)
    watchImage(image, () => { image.remove(); tile.classList.remove("thumbnail"); });
    image.dataset.src = thumbURL(path, grid.size);
    tile.append(image);
  }
  const name = document.createElement("span");
  name.className = "name"; name.textContent = item.parent ? ".." : item.name;
  tile.append(name);
  if (kind === "video") {
    // A play sign, and the duration once the server has said it (read out with the name).
    const badge = document.createElement("span");
    badge.className = "badge";
    const play = svgIcon("play"); play.setAttribute("aria-hidden", "true");
    const duration = document.createElement("span"); duration.className = "duration";
    badge.append(play, duration);
    tile.append(badge);
    if (hasThumbnail(item)) {
      tile.dataset.path = path;
      tile.dataset.video = path + "\u0000" + item.size + "\u0000" + item.modified;
    }
  }
  tile.addEventListener("click", (event) => onEntryClick(event, item));
  return tile;
}

/** Arrow keys move between tiles (up and down by a row), scrolling the one reached into view. */
export function moveFocus(event) {
  const from = /** @type {HTMLElement} */ (event.target);
  if (state.layout !== "grid" || !from.classList || !from.classList.contains("tile")) return;
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -grid.columns, ArrowDown: grid.columns };
  if (!(event.key in steps) || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  const index = Math.max(0, Math.min(state.rows.length - 1, Number(from.dataset.index) + steps[event.key]));
  const list = $("list"), top = tileTop(index);
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + grid.tile > list.scrollTop + list.clientHeight) list.scrollTop = top + grid.tile - list.clientHeight;
  drawGrid();
  const target = state.rendered.get(index);
  if (target) target.focus();
}
