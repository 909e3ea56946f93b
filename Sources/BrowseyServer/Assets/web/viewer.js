// The viewer: images, media, PDF, text, Markdown; stepping through a folder's images.

import { api, apiURL } from "./api.js";
import { $ } from "./dom.js";
import { kindOf } from "./format.js";
import { join, nameOf, pageURL, parentOf } from "./paths.js";
import { closeMenus } from "./menu.js";
import { leavePicture, showPicture } from "./picture.js";
import { prefs } from "./prefs.js";
import { state } from "./state.js";
import { hasThumbnail, screenClass, thumbURL } from "./thumbnails.js";

export const viewer = { textSize: prefs.get("textSize", 14) };
export function setTextSize(size) {
  viewer.textSize = Math.max(10, Math.min(28, size));
  prefs.set("textSize", viewer.textSize);
  $("viewer-body").style.setProperty("--text-size", viewer.textSize + "px");
}
export async function openViewer(item, { push = true, line = 0 } = {}) {
  state.viewing = item;
  const overlay = $("viewer");
  overlay.hidden = false;
  $("viewer-title").textContent = item.name;
  $("viewer-download", HTMLAnchorElement).href = apiURL("file", { path: item.path });
  $("viewer-download").setAttribute("download", item.name);
  if (push) { history.pushState(null, "", pageURL(item.path, { view: true })); state.viewerPushed = true; }
  const kind = kindOf(item);
  const imageIndex = state.images.findIndex((image) => image.name === item.name);
  $("viewer-prev").hidden = $("viewer-next").hidden = !(kind === "image" && state.images.length > 1 && imageIndex >= 0);
  $("viewer-info").hidden = kind !== "image" && kind !== "video";
  leavePicture();
  // A− and A+ only where text is shown; set again once the server says what the file is.
  $("text-smaller").hidden = $("text-larger").hidden = true;
  closeMenus();
  const body = $("viewer-body");
  body.textContent = "";
  state.editing = null;
  $("viewer-edit").hidden = $("viewer-save").hidden = true;
  $("conflict").hidden = true;
  setTextSize(viewer.textSize);
  const source = apiURL("file", { path: item.path, download: "false" });
  if (kind === "image") {
    showPicture(body, item);
  } else if (kind === "video" || kind === "audio") {
    const media = document.createElement(kind);
    media.controls = true; media.src = source; media.preload = "metadata";
    // A video's poster is the server's frame of it, screen-sized, where it can make one.
    if (kind === "video" && hasThumbnail(item)) media.setAttribute("poster", thumbURL(item.path, screenClass()));
    media.setAttribute("aria-label", item.name);
    body.append(media);
  } else if (kind === "pdf") {
    const frame = document.createElement("iframe");
    frame.src = source; frame.title = item.name;
    body.append(frame);
  } else {
    const waiting = document.createElement("div");
    waiting.className = "state"; waiting.textContent = "Loading…";
    body.append(waiting);
    try {
      const view = await api("view", { path: item.path });
      if (state.viewing !== item) return;
      body.textContent = "";
      if (view.type === "text") {
        if (typeof view.html === "string") {
          // Markdown, rendered by the server with any raw HTML escaped (and the page's CSP runs no inline script).
          const article = document.createElement("article");
          article.className = "markdown";
          article.innerHTML = view.html;
          linkRelative(article, parentOf(item.path));
          addContents(article);
          body.append(article);
        } else {
          const pre = document.createElement("pre");
          // Highlighted by the server, every character of the source escaped there.
          if (typeof view.highlighted === "string") pre.innerHTML = view.highlighted; else pre.textContent = view.content;
          numberLines(pre);
          if (view.language) pre.dataset.language = view.language;
          body.append(pre);
          if (line) showLine(pre, line);
        }
        $("text-smaller").hidden = $("text-larger").hidden = false;
        state.editing = { item, content: view.content, base: { modified: view.modified, size: view.size }, active: false, seen: new Set([versionKey(view)]) };
        $("viewer-edit").hidden = !state.writable;
      } else {
        openViewer({ ...item, extension: view.extension }, { push: false, line });
      }
    } catch (error) {
      if (state.viewing !== item) return;
      waiting.textContent = error.message === "File type not viewable" ? "No preview for this file: download it instead." : error.message;
      // Shown again by itself when the server is back.
      if (error.name === "Unreachable") waiting.classList.add("unreachable");
    }
  }
  // Focus on the dialog's title, not on Close: a ring on Close would say a key was pressed.
  $("viewer-title").focus();
}


/// A Markdown file's relative images come from the server's files, and its relative links
/// open in this viewer; other links open in a new tab.
function linkRelative(article, folder) {
  const relative = (address) => !/^[a-z][a-z0-9+.-]*:/i.test(address) && !address.startsWith("/") && !address.startsWith("#");
  const resolve = (address) => {
    const parts = folder.split("/").filter(Boolean);
    let clean = address.split("#")[0].split("?")[0];
    try { clean = decodeURIComponent(clean); } catch { /* kept as written */ }
    for (const part of clean.split("/")) {
      if (part === "..") parts.pop(); else if (part && part !== ".") parts.push(part);
    }
    return "/" + parts.join("/");
  };
  for (const image of article.querySelectorAll("img[src]")) {
    const source = image.getAttribute("src");
    if (relative(source)) image.src = apiURL("file", { path: resolve(source), download: "false" });
  }
  for (const link of article.querySelectorAll("a[href]")) {
    const address = link.getAttribute("href");
    if (relative(address)) {
      const path = resolve(address);
      link.href = pageURL(path, { view: /\.[a-z0-9]+$/i.test(path) });
    } else if (!address.startsWith("#")) {
      link.target = "_blank"; link.rel = "noopener noreferrer";
    }
  }
}

/// A long note (four headings or more) opens with a table of contents; links within the note
/// (contents, footnotes, `#heading`) scroll the viewer instead of changing the page's address.
function addContents(article) {
  const headings = [...article.querySelectorAll("h1[id], h2[id], h3[id]")];
  if (headings.length >= 4) {
    const nav = document.createElement("nav");
    nav.className = "toc";
    const list = document.createElement("ul");
    for (const heading of headings) {
      const entry = document.createElement("li");
      entry.className = "toc-" + heading.tagName.toLowerCase();
      const link = document.createElement("a");
      link.href = "#" + heading.id;
      link.textContent = heading.textContent;
      entry.append(link);
      list.append(entry);
    }
    nav.append(list);
    article.prepend(nav);
  }
  article.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href^='#']") : null;
    if (!link) return;
    const target = article.querySelector("#" + CSS.escape(decodeURIComponent(link.getAttribute("href").slice(1))));
    if (target) { event.preventDefault(); target.scrollIntoView({ block: "start" }); }
  });
}

/**
 * Scrolls a numbered code view to line `line` (from 1) and marks it.
 * @param {HTMLElement} pre
 * @param {number} line
 */
function showLine(pre, line) {
  const target = pre.querySelectorAll(".line")[line - 1];
  if (!target) return;
  target.classList.add("target");
  target.scrollIntoView({ block: "center" });
}

/** Files longer than this many lines are shown without numbers (the page stays quick). */
const numberedLines = 20000;

/**
 * Gives each line of a code view its own block, numbered by the style sheet: a wrapped line
 * continues indented past the numbers, so it never looks like a line of its own. The server's
 * highlighting spans may cross lines; each is closed at a line's end and opened again after it.
 *
 * @param {HTMLElement} pre
 */
export function numberLines(pre) {
  const html = pre.innerHTML;
  const tokens = html.split(/(<span[^>]*>|<\/span>|\n)/);
  const lines = [];
  /** @type {string[]} */
  const open = [];
  let line = "";
  for (const token of tokens) {
    if (token === "\n") {
      lines.push(line + "</span>".repeat(open.length));
      if (lines.length > numberedLines) return;
      line = open.join("");
    } else if (token.startsWith("<span")) { open.push(token); line += token; }
    else if (token === "</span>") { open.pop(); line += token; }
    else line += token;
  }
  // A last line break ends the last line; it does not start an empty one.
  if (line.replace(/<[^>]*>/g, "") !== "" || !lines.length) lines.push(line + "</span>".repeat(open.length));
  pre.innerHTML = lines.map((text) => "<span class=\"line\">" + (text || " ") + "</span>").join("");
  pre.classList.add("numbered");
  pre.style.setProperty("--digits", String(String(lines.length).length));
}

/** One version of a file, as the server tells it (size and modification time), as a key. */
export function versionKey(version) { return version.size + "@" + new Date(version.modified).getTime(); }

let toastChanged = () => {};
/** How the viewer tells that an edited file changed meanwhile (set by the page, which has toasts). */
export function onEditedFileChanged(callback) { toastChanged = callback; }
/**
 * The file shown changed on the server: it is shown again, at the same scroll offset, unless it
 * is being edited (the edits are kept, and a save shows both versions).
 */
export function viewedFileChanged(change = {}) {
  const item = state.viewing;
  if (!item || $("viewer").hidden) return;
  // A version of the file the page has already had (its own saves, the version it opened, the
  // one a conflict showed): its event can come late, after the user has moved on. The file
  // deleted or renamed away is always news.
  const editing = state.editing;
  const away = change.type === "deleted" || (change.type === "renamed" && change.from === item.path);
  if (editing && !away && change.item && editing.seen.has(versionKey(change.item))) return;
  if (state.editing && state.editing.active) { toastChanged(); return; }
  const kind = kindOf(item);
  if (["image", "video", "audio", "pdf"].includes(kind)) return;
  const scroll = $("viewer-body").scrollTop;
  openViewer(item, { push: false }).then(() => { $("viewer-body").scrollTop = scroll; });
}

export function step(offset) {
  if (!state.viewing || state.images.length < 2) return;
  const index = state.images.findIndex((image) => image.name === state.viewing.name);
  if (index < 0) return;
  const next = state.images[(index + offset + state.images.length) % state.images.length];
  const path = join(state.folder, next.name);
  history.replaceState(null, "", pageURL(path, { view: true }));
  openViewer({ ...next, path }, { push: false });
}
export function closeViewer({ fromHistory = false } = {}) {
  if ($("viewer").hidden) return;
  if (state.editing && state.editing.active && state.editing.dirty && !fromHistory
    && !window.confirm("Close without saving your changes?")) return;
  $("viewer").hidden = true;
  closeMenus();
  $("viewer-body").textContent = "";
  leavePicture();
  state.viewing = null;
  if (!fromHistory) {
    if (state.viewerPushed) history.back(); else history.replaceState(null, "", pageURL(state.folder));
  }
  state.viewerPushed = false;
  $("list").focus();
}

export function openFromLocation(where) {
  const name = nameOf(where.file);
  const item = state.items.find((entry) => entry.name === name) || { name, extension: name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : null, type: "file" };
  state.viewerPushed = false;
  openViewer({ ...item, path: where.file }, { push: false });
}
