// Thumbnails and screen-sized previews from the server's `/api/thumb`, in the size class the
// device's pixels need.

import { apiURL } from "./api.js";
import { kindOf } from "./format.js";

/** The sizes the server makes: the longest side in pixels. */
export const sizeClasses = [128, 256, 512, 1024, 2048];

/**
 * The smallest size class that covers `pixels` device pixels, the largest when none does.
 * `slack` lets a class serve a little more than its size (1.15: a 129-px tile at 2x, 258 device
 * pixels, takes 256 rather than a four-times-larger 512; 1 % of upscaling no eye sees).
 *
 * @param {number} pixels
 * @param {number} [slack]
 */
export function sizeClass(pixels, slack = 1) {
  for (const size of sizeClasses) if (size * slack >= pixels) return size;
  return sizeClasses[sizeClasses.length - 1];
}

/** The size class for a grid tile `cssPixels` wide on this screen. */
export function tileClass(cssPixels) { return sizeClass(cssPixels * (window.devicePixelRatio || 1), 1.15); }

/**
 * The size class for the viewer: at least the screen's longest side in device pixels, so the
 * preview fills the screen in either orientation (a 390x844 phone at 2x: 1688, so 2048).
 */
export function screenClass() {
  const longest = Math.max(screen.width || 0, screen.height || 0, window.innerWidth, window.innerHeight);
  return sizeClass(longest * (window.devicePixelRatio || 1));
}

/** The address of an item's thumbnail of one size class. */
export function thumbURL(path, size) { return apiURL("thumb", { path, size: String(size) }); }

/** The address of the file itself, to show in the page. */
export function originalURL(path) { return apiURL("file", { path, download: "false" }); }

/** Whether the server said it can make a thumbnail of this item (listings add `thumbnail: true`). */
export function hasThumbnail(item) { return item.thumbnail === true; }

/** Pictures and videos: what makes a folder a gallery. */
export function isVisual(item) { const kind = kindOf(item); return kind === "image" || kind === "video"; }

/**
 * Whether the viewer shows a preview instead of the original: any picture the server can
 * thumbnail, except those whose original is the point (an animated GIF, a vector SVG).
 */
export function showsPreview(item) {
  const extension = (item.extension || "").toLowerCase();
  return hasThumbnail(item) && kindOf(item) === "image" && extension !== "gif" && extension !== "svg";
}
