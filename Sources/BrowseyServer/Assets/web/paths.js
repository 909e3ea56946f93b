// Addresses: the URL path is the folder, `?view=1` opens the viewer on a file.

export function pageURL(path) { return path.split("/").map(encodeURIComponent).join("/") || "/"; }
export function parentOf(path) { const cut = path.lastIndexOf("/"); return cut <= 0 ? "/" : path.slice(0, cut); }
export function nameOf(path) { return path.slice(path.lastIndexOf("/") + 1); }
export function join(folder, name) { return (folder === "/" ? "" : folder) + "/" + name; }
export function readLocation() {
  let path = "/";
  try { path = decodeURIComponent(location.pathname) || "/"; } catch { path = "/"; }
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const viewing = new URLSearchParams(location.search).get("view") === "1";
  return viewing ? { folder: parentOf(path), file: path } : { folder: path, file: null };
}
