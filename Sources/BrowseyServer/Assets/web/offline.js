// Offline: when the server stops answering, a banner says so, pictures say "Not reachable"
// instead of showing a broken image, and everything recovers by itself once the server answers
// again (the folder reloads, pictures load, live updates reconnect): no tap needed.

import { $, all } from "./dom.js";

let offline = false;
let timer = 0;
/** The wait before the next check, growing from 1 s to 5 s while the server stays away. */
let delay = 1000;
/** @type {(() => void)[]} */
const recoverers = [];

/** Whether the server is known not to answer now. */
export function isOffline() { return offline; }

/** Runs `callback` each time the server answers again after being away. */
export function onRecovery(callback) { recoverers.push(callback); }

/** Whether an error is the network's (no answer at all), not a refusal the server sent. */
export function isNetworkError(error) { return error instanceof TypeError; }

/** What a person is told when an action could not reach the server. */
export const unreachableText = "The server is not reachable. Browsey tries again by itself.";

/** Whether the server answers now (any status: it is there). */
export async function reachable() {
  try { await fetch("/api/health", { cache: "no-store" }); return true; } catch { return false; }
}

/** The server did not answer: shows the banner and starts checking for its return. */
export function wentOffline() {
  if (offline) return;
  offline = true;
  document.body.classList.add("offline");
  $("offline").hidden = false;
  delay = 1000;
  schedule();
}

/** Something failed in a way that may be the network's: goes offline if the server is away. */
export async function suspect() {
  if (!offline && !(await reachable())) wentOffline();
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(probe, delay);
}

async function probe() {
  if (await reachable()) { recovered(); return; }
  delay = Math.min(delay * 1.5, 5000);
  schedule();
}

function recovered() {
  offline = false;
  document.body.classList.remove("offline");
  $("offline").hidden = true;
  for (const image of all("img.unreachable")) retryImage(/** @type {HTMLImageElement} */ (image));
  for (const callback of recoverers) callback();
}

/**
 * Watches a picture: when it fails because the server is away, it is marked (the page shows
 * "Not reachable" in its place, not a broken image) and loaded again on recovery. Answers, to
 * `otherwise`, failures that were the server's own (a picture it cannot make).
 *
 * @param {HTMLImageElement} image
 * @param {() => void} [otherwise]
 */
export function watchImage(image, otherwise) {
  image.addEventListener("error", async () => {
    if (!image.getAttribute("src")) return;
    if (offline || !(await reachable())) {
      wentOffline();
      image.classList.add("unreachable");
    } else if (otherwise) otherwise();
  });
  image.addEventListener("load", () => image.classList.remove("unreachable"));
}

/** @param {HTMLImageElement} image */
function retryImage(image) {
  const source = image.getAttribute("src");
  if (!source) return;
  // The same address again: a new URL object forces a fresh request for a failed image.
  image.removeAttribute("src");
  image.src = source;
}
