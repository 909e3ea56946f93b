// The folder picker: where a move or a copy goes, chosen by tapping through folders rather than
// typing a path. It answers the chosen folder, or null when cancelled.

import { api, withHidden } from "./api.js";
import { $ } from "./dom.js";
import { isFolder } from "./format.js";
import { svgIcon } from "./icons.js";
import { join, nameOf, parentOf } from "./paths.js";

/** The picker now open: its folder, what it may not enter, and how to answer. */
const picking = {
  folder: "/",
  /** Folders being moved or copied: neither they nor anything in them can be the destination. */
  excluded: /** @type {string[]} */ ([]),
  answer: /** @type {(folder: string | null) => void} */ (() => {}),
  serial: 0,
};

/**
 * Asks for a destination folder: `title` heads the sheet ("Move 2 items to…"), `action` names
 * the button ("Move here"); starts in `folder`.
 *
 * @param {{ title: string, action: string, folder: string, excluded: string[] }} options
 * @returns {Promise<string | null>}
 */
export function pickFolder({ title, action, folder, excluded }) {
  $("picker-title").textContent = title;
  $("picker-go").textContent = action;
  picking.excluded = excluded;
  $("picker").hidden = false;
  const answered = new Promise((resolve) => { picking.answer = resolve; });
  show(folder);
  $("picker-close").focus();
  return /** @type {Promise<string | null>} */ (answered);
}

/** Closes the picker with an answer: the folder shown, or null. */
export function finishPicking(chosen) {
  $("picker").hidden = true;
  const answer = picking.answer;
  picking.answer = () => {};
  answer(chosen ? picking.folder : null);
}

function isExcluded(path) { return picking.excluded.some((item) => path === item || path.startsWith(item + "/")); }

async function show(folder) {
  const serial = ++picking.serial;
  picking.folder = folder;
  $("picker-where").textContent = folder === "/" ? "Home" : nameOf(folder);
  $("picker-where").title = folder;
  $("picker-up", HTMLButtonElement).disabled = folder === "/";
  $("picker-go", HTMLButtonElement).disabled = isExcluded(folder);
  const list = $("picker-folders"), status = $("picker-state");
  list.textContent = "";
  status.hidden = false; status.className = "state"; status.textContent = "Loading…";
  let items;
  try { items = (await api("list", withHidden({ path: folder }))).items || []; } catch (error) {
    if (serial !== picking.serial) return;
    status.className = "state error"; status.textContent = error.message;
    return;
  }
  if (serial !== picking.serial) return;
  const folders = items.filter(isFolder);
  for (const item of folders) {
    const path = join(folder, item.name);
    const entry = document.createElement("li");
    const button = document.createElement("button");
    button.className = "picker-folder";
    const icon = document.createElement("span");
    icon.className = "icon"; icon.append(svgIcon("folder"));
    const name = document.createElement("span");
    name.className = "name"; name.textContent = item.name;
    button.append(icon, name);
    if (isExcluded(path)) { button.disabled = true; button.title = "Being moved: it cannot go into itself"; }
    button.addEventListener("click", () => show(path));
    entry.append(button);
    list.append(entry);
  }
  status.hidden = folders.length > 0;
  status.textContent = "No folders here.";
}

/** Wires the picker's buttons. */
export function listenPicker() {
  $("picker-up").addEventListener("click", () => { if (picking.folder !== "/") show(parentOf(picking.folder)); });
  $("picker-go").addEventListener("click", () => finishPicking(true));
  $("picker-cancel").addEventListener("click", () => finishPicking(false));
  $("picker-close").addEventListener("click", () => finishPicking(false));
}
