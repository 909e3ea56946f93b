// The info sheet of an item.

import { isSignedIn, makeLink } from "./account.js";
import { api, apiURL } from "./api.js";
import { $ } from "./dom.js";
import { formatDate, formatDuration, formatSize, isFolder, kindOf } from "./format.js";
import { join, pageURL } from "./paths.js";
import { state } from "./state.js";
import { hasThumbnail, sizeClass, thumbURL } from "./thumbnails.js";
import { toast } from "./toast.js";

export async function openInfo(item) {
  const path = item.path || join(state.folder, item.name);
  const fields = $("info-fields");
  const show = (values) => {
    fields.textContent = "";
    for (const [label, value] of values) {
      if (value == null || value === "") continue;
      const term = document.createElement("dt"); term.textContent = label;
      const detail = document.createElement("dd"); detail.textContent = value;
      fields.append(term, detail);
    }
  };
  const type = isFolder(item) ? "Folder" : item.type === "symlink" ? "Link" : (item.extension ? item.extension.toUpperCase() + " file" : "File");
  const base = [["Name", item.name], ["Type", type], ["Size", isFolder(item) ? "" : formatSize(item.size)],
    ["Extension", item.extension || ""], ["Modified", formatDate(item.modified)]];
  show([...base, ["Path", path]]);
  const kind = kindOf(item);
  const picture = $("info-picture", HTMLImageElement);
  picture.hidden = !(hasThumbnail(item) && (kind === "image" || kind === "video"));
  if (picture.hidden) picture.removeAttribute("src");
  else { picture.alt = item.name; picture.src = thumbURL(path, sizeClass(180 * (window.devicePixelRatio || 1), 1.15)); }
  state.infoItem = item;
  $("action-form").hidden = true;
  $("action-error").hidden = true;
  $("info").hidden = false;
  $("info-copy").onclick = () => copy(location.origin + pageURL(path, { view: !isFolder(item) }), "Link copied");
  // On a server with one access token: a link that carries it, only when asked for by name.
  $("info-copy-access").hidden = !state.tokenServer;
  $("info-copy-access").onclick = async () => {
    const session = await api("session", { include: "token" }).catch(() => null);
    if (!session || !session.token) { toast("The server did not give its access token"); return; }
    const url = new URL(location.origin + pageURL(path, { view: !isFolder(item) }));
    url.searchParams.set("token", session.token);
    copy(url.toString(), "Link with access copied: whoever has it can open everything here");
  };
  // Signed in: a share link, which opens this item alone for whoever has it.
  $("info-link").hidden = !isSignedIn();
  $("info-link-address").hidden = true;
  $("info-link").onclick = () => makeLink(path);
  const download = $("info-download", HTMLAnchorElement);
  download.href = apiURL(isFolder(item) ? "archive" : "file", { path });
  download.download = isFolder(item) ? item.name + ".zip" : item.name;
  download.textContent = isFolder(item) ? "Download as zip" : "Download";
  $("info-close").focus();
  const [stat, view] = await Promise.all([
    api("stat", { path }).catch(() => null),
    kind === "image" || kind === "video" ? api("view", { path }).catch(() => null) : Promise.resolve(null),
  ]);
  if (state.infoItem !== item || (!stat && !view)) return;  // the basic fields stay
  const described = !view ? [] : view.video ? videoFields(view.video) : pictureFields(view);
  show([...base, ...described, ["Created", stat ? formatDate(stat.created) : ""], ["Path", path]]);
}

/**
 * What `/api/view` says of a picture: its size in pixels (upright: the width and height a person
 * sees), when it was taken and with what camera, where the file says so.
 */
export function pictureFields(view) {
  const image = view.image || {};
  const size = image.width && image.height ? image : view.dimensions;
  const dimensions = size && size.width && size.height ? size.width + " × " + size.height : "";
  return [["Dimensions", dimensions], ["Taken", formatTaken(image.taken)], ["Camera", cameraName(image.camera)]];
}

/** What `/api/view` says of a video: how long it plays and its size as shown. */
export function videoFields(video) {
  const dimensions = video.width && video.height ? video.width + " × " + video.height : "";
  return [["Duration", typeof video.duration === "number" ? formatDuration(video.duration) : ""], ["Dimensions", dimensions]];
}

/**
 * A date taken, as the camera's clock showed it: EXIF's `2024:05:01 10:30:00` or ISO 8601; a
 * date without a zone is shown as written, not moved to this browser's zone.
 */
export function formatTaken(taken) {
  if (typeof taken !== "string" || !taken) return "";
  const exif = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)/.exec(taken);
  const text = exif ? exif[1] + "-" + exif[2] + "-" + exif[3] + "T" + exif[4] : taken;
  return formatDate(text) || taken;
}

/** A camera's name from what the server gives: a string, or a make and a model. */
export function cameraName(camera) {
  if (typeof camera === "string") return camera.trim();
  if (!camera || typeof camera !== "object") return "";
  const make = String(camera.make || "").trim(), model = String(camera.model || "").trim();
  // Many models already start with the make ("Canon EOS R5"): say it once.
  return model.toLowerCase().startsWith(make.toLowerCase()) ? model : (make + " " + model).trim();
}
export async function copy(text, done = "Copied") {
  try { await navigator.clipboard.writeText(text); }
  catch {
    const area = document.createElement("textarea");
    area.value = text; document.body.append(area); area.select();
    try { document.execCommand("copy"); } catch { /* nothing more to try */ }
    area.remove();
  }
  toast(done);
}
