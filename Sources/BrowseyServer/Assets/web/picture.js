// Pictures in the viewer: a preview the size the screen shows it instead of the original, the
// neighbours' previews fetched ahead so a swipe shows the next picture at once, a sharper class
// when a zoom needs one, and the original only past the largest class (deep zoom) or when asked
// for ("Original").

import { $ } from "./dom.js";
import { join } from "./paths.js";
import { watchImage } from "./offline.js";
import { state } from "./state.js";
import { originalURL, screenClass, showsPreview, sizeClass, sizeClasses, thumbURL } from "./thumbnails.js";
import { zoom } from "./zoom.js";

/** The picture shown, the size class of its preview, and the neighbours' previews being fetched (kept so they are not dropped). */
const shown = { image: /** @type {HTMLImageElement | null} */ (null), path: "", size: 0, ahead: /** @type {HTMLImageElement[]} */ ([]) };
/** Width over height of the pictures whose thumbnails this page has seen, by path. */
const aspects = new Map();
/** The largest preview class this page has asked for, by path: a fetched-ahead preview is shown as it is. */
const asked = new Map();

/** Notes a picture's shape from its thumbnail, so the viewer can ask for exactly the size it will show. */
export function noteAspect(path, image) { if (image.naturalWidth && image.naturalHeight) aspects.set(path, image.naturalWidth / image.naturalHeight); }

/**
 * The size class to ask for a picture's preview: what it needs, or a larger class this page
 * already asked for (fetched ahead, so in the browser's cache).
 */
function previewClass(path, guess = 0) {
  const size = neededClass(path, guess), before = asked.get(path) || 0;
  if (before >= size) return before;
  asked.set(path, size);
  return size;
}

/**
 * The size class a picture's preview needs: its longest side as the viewer will show it, in
 * device pixels, where its shape is known (from its thumbnail in the grid, or its preview) or
 * guessed (`guess`: a neighbour is taken to have the shape of the picture shown); else the
 * screen's longest side, which covers any shape. A 3:2 picture on a 390x844 phone at 2x shows
 * 780 device pixels wide: 1024 rather than 2048, a quarter of the pixels for the same sharpness.
 */
function neededClass(path, guess = 0) {
  const aspect = aspects.get(path) || guess;
  const body = $("viewer-body");
  const width = body.clientWidth, height = body.clientHeight;
  if (!aspect || !width || !height) return screenClass();
  const shownWidth = Math.min(width, height * aspect);
  return sizeClass(Math.max(shownWidth, shownWidth / aspect) * (window.devicePixelRatio || 1), 1.05);
}

/** Shows a picture in the viewer's body: its preview where the server makes one, else the file. */
export function showPicture(body, item) {
  const image = document.createElement("img");
  image.alt = item.name;
  image.draggable = false;
  const preview = showsPreview(item);
  shown.image = image; shown.path = item.path; shown.size = preview ? previewClass(item.path) : 0;
  image.dataset.source = preview ? "preview" : "original";
  image.src = preview ? thumbURL(item.path, shown.size) : originalURL(item.path);
  $("viewer-original").hidden = !preview;
  // The neighbours wait for this picture: until it shows, it has all the bandwidth.
  const settled = () => {
    image.removeEventListener("load", settled); image.removeEventListener("error", settled);
    noteAspect(item.path, image);
    if (preview && image.naturalWidth && holdsEverything(image)) $("viewer-original").hidden = true;
    fetchNeighbours(item);
  };
  image.addEventListener("load", settled);
  image.addEventListener("error", settled);
  watchImage(image);
  body.append(image);
  zoom.attach(image);
}

/** Forgets the picture when the viewer shows something else. */
export function leavePicture() { shown.image = null; $("viewer-original").hidden = true; }

/**
 * Whether a preview already has every pixel of the original: the server never makes one larger
 * than the original, so a preview smaller than the class asked for is the whole picture.
 */
function holdsEverything(image) { return Math.max(image.naturalWidth, image.naturalHeight) < shown.size; }

/**
 * Swaps the picture for another source once that has loaded and decoded; the zoom and pan stay.
 *
 * @param {string} address
 * @param {"preview" | "original"} source
 */
function swap(address, source) {
  const image = shown.image;
  if (!image) return;
  image.dataset.source = "loading";
  const next = new Image();
  next.src = address;
  next.decode().catch(() => { /* shown as it is, or not at all */ }).then(() => {
    if (shown.image !== image || !image.isConnected) return;
    image.src = next.src;
    image.dataset.source = source;
  });
}

/** Loads the original in place of the preview (the "Original" button, or a zoom past the largest class). */
export function showOriginal() {
  const image = shown.image;
  if (!image || !image.isConnected || image.dataset.source !== "preview") return;
  $("viewer-original").hidden = true;
  swap(originalURL(shown.path), "original");
}

/**
 * Called at every zoom step: past the preview's own pixels (more than one of its pixels to a
 * device pixel, 5 % allowed), the next class that holds enough takes over; past the largest
 * class, the original.
 */
export function zoomed(scale) {
  const image = shown.image;
  if (!image || image.dataset.source !== "preview" || !image.complete || !image.naturalWidth || holdsEverything(image)) return;
  const needed = Math.max(image.clientWidth, image.clientHeight) * scale * (window.devicePixelRatio || 1);
  if (needed <= Math.max(image.naturalWidth, image.naturalHeight) * 1.05) return;
  const sharper = sizeClasses.find((size) => size > shown.size && size * 1.05 >= needed);
  if (!sharper) return showOriginal();
  shown.size = sharper;
  asked.set(shown.path, Math.max(sharper, asked.get(shown.path) || 0));
  swap(thumbURL(shown.path, sharper), "preview");
}

/** Fetches the previews of the pictures before and after this one, for the next swipe. */
function fetchNeighbours(item) {
  const index = state.images.findIndex((image) => image.name === item.name);
  shown.ahead = [];
  if (index < 0 || state.images.length < 2) return;
  const count = state.images.length, guess = aspects.get(item.path) || 0;
  const neighbours = new Set([state.images[(index + 1) % count], state.images[(index - 1 + count) % count]]);
  for (const neighbour of neighbours) {
    if (neighbour.name === item.name || !showsPreview(neighbour)) continue;
    const path = join(state.folder, neighbour.name);
    const ahead = new Image();
    // Once here, its real shape is known: shown, it is asked for by that, and found in the cache.
    ahead.addEventListener("load", () => noteAspect(path, ahead), { once: true });
    ahead.src = thumbURL(path, previewClass(path, guess));
    shown.ahead.push(ahead);
  }
}
