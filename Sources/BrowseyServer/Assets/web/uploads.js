// Uploads: never replacing (a taken name gets a free one), resumable, cancellable.

import { api, apiURL } from "./api.js";
import { $ } from "./dom.js";
import { formatSize } from "./format.js";
import { load } from "./listing.js";
import { join, nameOf } from "./paths.js";
import { state } from "./state.js";

export function upload(files) {
  if (!state.writable) return;
  const box = $("uploads");
  box.hidden = false;
  for (const file of files) uploadOne(file, join(state.folder, file.name), box);
}
function uploadOne(file, path, box) {
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
  const finish = (text, failed) => { status.textContent = text; row.classList.toggle("failed", failed); };
  const send = async (resume) => {
    let start = 0;
    if (resume) {
      try { start = (await api("upload", { path, size: String(file.size) })).received || 0; } catch { start = 0; }
    }
    request = new XMLHttpRequest();
    request.open("PUT", apiURL("file", { path, onConflict: "rename" }));
    if (file.size > 0) request.setRequestHeader("Content-Range", "bytes " + start + "-" + (file.size - 1) + "/" + file.size);
    request.upload.onprogress = (event) => { bar.value = start + event.loaded; status.textContent = formatSize(start + event.loaded) + " of " + formatSize(file.size); };
    request.onload = () => {
      let answer = {};
      try { answer = JSON.parse(request.responseText); } catch { /* not JSON */ }
      if (request.status === 201) {
        bar.value = bar.max; button.hidden = true;
        finish(answer.path && answer.path !== path ? "Done, as " + nameOf(answer.path) : "Done", false);
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
