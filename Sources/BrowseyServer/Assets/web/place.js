// Keeping the reader's place: each folder's scroll position and the child last opened from it,
// across back and forward (the history entry's state), reloads (the same), and going up with
// the Up button or a breadcrumb (a per-tab memory, since that makes a new history entry).

import { $ } from "./dom.js";
import { tileTop } from "./gallery.js";
import { state } from "./state.js";

/** How many folders' places this tab keeps (the oldest goes first). */
const kept = 200;
const storageKey = "browsey.places";

/**
 * A folder's place: its scroll offset and the name of the child opened from it, if any.
 *
 * @typedef {{ scroll: number, child: string | null, reveal?: boolean }} Place
 */

/** @returns {Record<string, Place>} */
function memory() {
  try { return JSON.parse(sessionStorage.getItem(storageKey) || "{}") || {}; } catch { return {}; }
}

/**
 * Remembers the place in `folder` now shown (its scroll offset), and the child opened from it
 * when one is: in the current history entry and in this tab's memory.
 *
 * @param {string} folder
 * @param {string | null} [child]
 */
export function rememberPlace(folder, child) {
  const before = readHistoryPlace(folder);
  /** @type {Place} */
  const place = { scroll: Math.round($("list").scrollTop), child: child !== undefined ? child : before ? before.child : null };
  try { history.replaceState({ ...(history.state || {}), place: { folder, ...place } }, ""); } catch { /* too many calls: the tab memory still has it */ }
  const places = memory();
  delete places[folder];
  places[folder] = place;
  const folders = Object.keys(places);
  for (const old of folders.slice(0, Math.max(0, folders.length - kept))) delete places[old];
  try { sessionStorage.setItem(storageKey, JSON.stringify(places)); } catch { /* private mode */ }
}

/** @returns {Place | null} */
function readHistoryPlace(folder) {
  const saved = history.state && history.state.place;
  return saved && saved.folder === folder ? { scroll: saved.scroll || 0, child: saved.child || null } : null;
}

/**
 * Where `folder` should open: the place its history entry holds (back, forward, reload), else,
 * when `fromMemory`, this tab's memory of it (going up), else the top.
 *
 * @param {string} folder
 * @param {{ fromMemory?: boolean, child?: string | null }} options
 * @returns {Place | null}
 */
export function placeFor(folder, { fromMemory = false, child = null } = {}) {
  const saved = readHistoryPlace(folder) || (fromMemory ? memory()[folder] || null : null);
  if (!saved && !child) return null;
  // Going up reveals the child just left; back, forward and reload show the offset as it was.
  return { scroll: saved ? saved.scroll : 0, child: child || (saved ? saved.child : null), reveal: Boolean(child) };
}

/**
 * Scrolls the list to a place once its rows are known: the offset it had (moved, when the place
 * says to reveal it, just enough to show the child opened from it); the child is marked until
 * the next tap.
 *
 * @param {Place | null} place
 * @param {(index: number) => number} rowTop  the offset of the row at an index, in the layout shown
 * @param {number} rowSize  a row's height (a tile row's, in the grid)
 */
export function restorePlace(place, rowTop, rowSize) {
  const list = $("list");
  if (!place) { list.scrollTop = 0; return; }
  list.scrollTop = place.scroll;
  if (!place.child) return;
  const index = state.rows.findIndex((row) => !row.parent && row.name === place.child);
  if (index < 0) return;
  state.cameFrom = index;
  const top = rowTop(index);
  if (place.reveal && (top < list.scrollTop || top + rowSize > list.scrollTop + list.clientHeight)) {
    list.scrollTop = Math.max(0, top - (list.clientHeight - rowSize) / 2);
  }
}

/** The offset of an item's row or tile in the layout shown. */
export function itemTop(index, rowHeight) { return state.layout === "grid" ? tileTop(index) : index * rowHeight; }

let saving = 0;
/** Remembers the scroll offset a moment after scrolling stops (history allows only so many writes). */
export function scrolled() {
  clearTimeout(saving);
  const folder = state.folder;
  saving = setTimeout(() => { if (state.folder === folder && state.rows.length) rememberPlace(folder); }, 250);
}
