// Uploads: never replacing (a taken name gets a free one), resumable, cancellable; a panel with
// the overall progress that folds into one line when everything is done; whole folders too.

import { api, apiURL, post } from "./api.js";
import { $ } from "./dom.js";
import { formatSize } from "./format.js";
import { load } from "./listing.js";
import { join, nameOf } from "./paths.js";
import { state } from "./state.js";

/**
 * Every upload of this page: its size, how much has gone, whether it is over (and how), and the
 * free name it was saved under when its own was taken.
 */
const batch = /** @type {{ size: number, sent: number, done: boolean, failed: boolean, renamed: string }[]} */ ([]);
let foldTimer = 0;

/**
 * Uploads files into the folder shown; a file picked with its folder (`webkitRelativePath`)
 * goes into the same folders, made first.
 *
 * @param {File[]} files
 */
export async function upload(files) {
  if (!state.writable || !files.length) return;
  const box = $("uploads");
  box.hidden = false;
  box.classList.remove("folded");
  const into = state.folder;
  const folders = new Set();
  for (const file of files) {
    const relative = file.webkitRelativePath || "";
    const parts = relative.split("/").slice(0, -1);
    for (let index = 1; index <= parts.length; index += 1) folders.add(parts.slice(0, index).join("/"));
  }
  // Parents before children; a folder already there is fine (409).
  for (const folder of [...folders].sort((a, b) => a.length - b.length)) await post("mkdir", { path: join(into, folder) });
  for (const file of files) uploadOne(file, join(into, file.webkitRelativePath || file.name), $("upload-cards"));
  showTotal();
}

/** The panel's first line: how many, how far overall; folded into one line when all are done. */
function showTotal() {
  const size = batch.reduce((sum, entry) => sum + entry.size, 0), sent = batch.reduce((sum, entry) => sum + entry.sent, 0);
  const over = batch.filter((entry) => entry.done).length, failed = batch.filter((entry) => entry.failed).length;
  const bar = $("upload-total-bar", HTMLProgressElement);
  bar.max = Math.max(1, size); bar.value = sent;
  const files = batch.length === 1 ? "1 file" : batch.length + " files";
  $("upload-total-text").textContent = over < batch.length
    ? "Uploading " + files + " — " + Math.floor((100 * sent) / Math.max(1, size)) + " %"
    : failed ? (batch.length - failed) + " of " + files + " uploaded, " + failed + " failed" : "Uploaded " + files + renamedNote();
  clearTimeout(foldTimer);
  // Everything done and nothing failed: the cards go, one line stays for a moment, then nothing.
  if (batch.length && over === batch.length && !failed) foldTimer = setTimeout(fold, 1200);
}

/** What the total line adds when names were taken: those files are kept under free names. */
function renamedNote() {
  const renamed = batch.filter((entry) => entry.renamed).map((entry) => entry.renamed);
  if (!renamed.length) return "";
  const shown = renamed.slice(0, 2).join(", ") + (renamed.length > 2 ? ", …" : "");
  return " (" + (renamed.length === 1 ? "a name was taken: saved as " : renamed.length + " names were taken: saved as ") + shown + ")";
}

function fold() {
  $("uploads").classList.add("folded");
  for (const card of [...$("upload-cards").children]) card.remove();
  foldTimer = setTimeout(clearUploads, 4000);
}

/** Clears the panel: finished uploads go (running and failed ones stay). */
export function clearUploads() {
  for (let index = batch.length - 1; index >= 0; index -= 1) if (batch[index].done && !batch[index].failed) batch.splice(index, 1);
  for (const card of [...$("upload-cards").children]) if (card.classList.contains("finished")) card.remove();
  if (!batch.length) { $("uploads").hidden = true; $("uploads").classList.remove("folded"); } else showTotal();
}

function uploadOne(file, path, box) {
  const entry = { size: file.size, sent: 0, done: false, failed: false, renamed: "" };
  batch.push(entry);
  const row = document.createElement("div");
  row.className = "upload";
  const name = document.createElement("span"); name.textContent = file.name;
  const button = document.createElement("button"); button.className = "small-button";
  const bar = document.createElement("progress"); bar.max = file.size || 1; bar.value = 0;
  bar.setAttribute("aria-label", "Upload of " + file.name);
  const status = document.createElement("span"); status.className = "status";
  row.append(name, button, bar, status);
  box.append(row);
  let request = null;
  const finish = (text, failed, over = false) => {
    status.textContent = text; row.classList.toggle("failed", failed);
    entry.failed = failed; entry.done = over || failed;
    row.classList.toggle("finished", over && !failed);
    showTotal();
  };
  const send = async (resume) => {
    let start = 0;
    if (resume) {
      try { start = (await api("upload", { path, size: String(file.size) })).received || 0; } catch { start = 0; }
    }
    request = new XMLHttpRequest();
    request.open("PUT", apiURL("file", { path, onConflict: "rename" }));
    if (file.size > 0) request.setRequestHeader("Content-Range", "bytes " + start + "-" + (file.size - 1) + "/" + file.size);
    request.upload.onprogress = (event) => {
      bar.value = start + event.loaded; entry.sent = start + event.loaded;
      status.textContent = formatSize(start + event.loaded) + " of " + formatSize(file.size);
      showTotal();
    };
    request.onload = () => {
      let answer = {};
      try { answer = JSON.parse(request.responseText); } catch { /* not JSON */ }
      if (request.status === 201) {
        bar.value = bar.max; button.hidden = true; entry.sent = entry.size;
        if (answer.path && answer.path !== path) entry.renamed = nameOf(answer.path);
        finish(entry.renamed ? "Done, as " + entry.renamed : "Done", false, true);
        clearTimeout(state.reloadTimer);
        state.reloadTimer = setTimeout(() => load(state.folder, { keepScroll: true }), 120);
      } else {
        finish(answer.message || answer.error || ("Failed (" + request.status + ")"), true);
        button.textContent = "Retry"; button.onclick = () => send(true);
      }
    };
    request.onerror = () => { finish("Connection lost", true); button.textContent = "Resume"; button.onclick = () => send(true); };
    request.onabort = () => { finish("Cancelled", true); button.textContent = "Resume"; button.onclick = () => send(true); };
    button.textContent = "Cancel"; button.hidden = false;
    button.onclick = () => request.abort();
    finish(start ? "Resuming at " + formatSize(start) : "Starting…", false);
    request.send(file.slice(start));
  };
  send(false);
}
