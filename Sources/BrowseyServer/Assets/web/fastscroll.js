// The fast-scroll handle: in a long list, a handle at the right edge that appears while the list
// scrolls and can be dragged to any place at once, showing where it is (the name, or the size or
// date the list is sorted by). A pointer convenience: the list itself still scrolls by touch,
// wheel and keys, so the handle is hidden from assistive technology.

import { $ } from "./dom.js";
import { formatDate, formatSize } from "./format.js";
import { firstVisibleTile } from "./gallery.js";
import { prefs } from "./prefs.js";
import { state } from "./state.js";

/** A list this many screens long or longer gets the handle. */
const screens = 6;
/** The handle's height: a 44 px target. */
const size = 44;
let hideTimer = 0;
let dragging = false;
/** Where in the handle the finger took it, so it does not jump under the finger. */
let grabbed = 0;

function isLong() {
  const list = $("list");
  return list.clientHeight > 0 && list.scrollHeight > screens * list.clientHeight;
}

/** Puts the handle where the list's scroll offset is, and shows it for a moment. */
export function showFastScroll() {
  const handle = $("fast-scroll");
  if (!isLong()) { handle.hidden = true; return; }
  const list = $("list"), box = list.getBoundingClientRect();
  const track = list.clientHeight - size;
  const fraction = list.scrollTop / Math.max(1, list.scrollHeight - list.clientHeight);
  handle.style.top = box.top + fraction * track + "px";
  handle.hidden = false;
  if (dragging) $("fast-scroll-label").textContent = labelAt(list.scrollTop);
  clearTimeout(hideTimer);
  if (!dragging) hideTimer = setTimeout(() => { handle.hidden = true; }, 1500);
}

/** What the first row on screen is, in the order the list is sorted by. */
function labelAt(scrollTop) {
  const index = state.layout === "grid" ? firstVisibleTile() : Math.floor(scrollTop / rowSize());
  const item = state.rows[Math.min(state.rows.length - 1, Math.max(0, index))];
  if (!item) return "";
  const order = prefs.get("sort", "name");
  if (order === "size" && item.size != null) return formatSize(item.size);
  if (order === "date" && item.modified) return formatDate(item.modified);
  return item.name;
}

function rowSize() { return parseFloat(getComputedStyle(document.body).getPropertyValue("--row")) || 56; }

/** Follows the finger (or the mouse) that holds the handle. */
export function listenFastScroll() {
  const handle = $("fast-scroll"), label = $("fast-scroll-label");
  handle.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    dragging = true;
    grabbed = event.clientY - handle.getBoundingClientRect().top;
    handle.classList.add("dragging");
    label.hidden = false;
    showFastScroll();
  });
  handle.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    const list = $("list"), box = list.getBoundingClientRect();
    const track = list.clientHeight - size;
    const fraction = Math.min(1, Math.max(0, (event.clientY - grabbed - box.top) / Math.max(1, track)));
    list.scrollTop = fraction * (list.scrollHeight - list.clientHeight);
    showFastScroll();
  });
  const release = () => {
    if (!dragging) return;
    dragging = false;
    handle.classList.remove("dragging");
    label.hidden = true;
    showFastScroll();
  };
  handle.addEventListener("pointerup", release);
  handle.addEventListener("pointercancel", release);
}
