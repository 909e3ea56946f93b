// The first folder's listing, asked for as soon as the page starts: the page loads this module
// on its own (`async`), so the request goes out while the rest of the modules are still on their
// way instead of after all of them. The listing module takes the answer over.

import { apiURL, withHidden } from "./api.js";
import { readLocation } from "./paths.js";
import { shared } from "./shared.js";

/** The listing asked for at start: its address, and the answer on its way until it is taken. */
const early = { url: apiURL("list", withHidden({ path: readLocation().folder })), response: /** @type {Promise<Response> | null} */ (null) };
// Not through a share link: it may open one file, with no folder to list.
if (!shared) {
  early.response = fetch(early.url, { headers: { Accept: "application/json" } });
  // Nobody may ever take it (an address the page does not list): a failure then is nobody's error.
  early.response.catch(() => { /* the listing asks again and reports */ });
}

/**
 * The answer to the listing asked for at start, once, when `url` is that listing's address;
 * null otherwise (another folder, another option, or already taken).
 *
 * @param {string} url
 * @returns {Promise<Response> | null}
 */
export function takeEarlyListing(url) {
  if (url !== early.url || !early.response) return null;
  const response = early.response;
  early.response = null;
  return response;
}
