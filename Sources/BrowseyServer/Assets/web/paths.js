// Addresses: the URL path is the folder, `?view=1` opens the viewer on a file.

import { shared } from "./shared.js";

/**
 * A page's address: the folder at `path`, or with `view`, the viewer on the file at `path`.
 * Through a share link, the link's page with the path inside it.
 *
 * @param {string} path
 * @param {{ view?: boolean }} options
 */
export function pageURL(path, { view = false } = {}) {
  if (shared) {
    const query = [...(path !== "/" ? ["path=" + encodeURIComponent(path)] : []), ...(view ? ["view=1"] : [])];
    return shared.page + (query.length ? "?" + query.join("&") : "");
  }
  return (path.split("/").map(encodeURIComponent).join("/") || "/") + (view ? "?view=1" : "");
}
export function parentOf(path) { const cut = path.lastIndexOf("/"); return cut <= 0 ? "/" : path.slice(0, cut); }
export function nameOf(path) { return path.slice(path.lastIndexOf("/") + 1); }
export function join(folder, name) { return (folder === "/" ? "" : folder) + "/" + name; }
export function readLocation() {
  let path = "/";
  if (shared) path = new URLSearchParams(location.search).get("path") || "/";
  else try { path = decodeURIComponent(location.pathname) || "/"; } catch { path = "/"; }
  if (!path.startsWith("/")) path = "/" + path;
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const viewing = new URLSearchParams(location.search).get("view") === "1";
  return viewing ? { folder: parentOf(path), file: path } : { folder: path, file: null };
}
