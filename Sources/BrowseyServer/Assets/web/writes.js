// Writes: new folder, rename, move and copy (to a folder picked by tapping), delete with undo;
// one item from its info sheet or many from selection mode. And what reads like a write from
// the same places: download (a folder as a zip) and share.

import { apiURL, post } from "./api.js";
import { $, all } from "./dom.js";
import { isFolder } from "./format.js";
import { copy } from "./info.js";
import { load } from "./listing.js";
import { join, pageURL } from "./paths.js";
import { pickFolder } from "./picker.js";
import { selectedItems, stopSelecting } from "./selection.js";
import { state } from "./state.js";
import { hideToast, toast } from "./toast.js";
import { deleteLabel, deleteQuestion, trashKeeps } from "./trash.js";

/** Shows the writes where the reader may write and a folder is open (none on "Directory not found"). */
export function showWrites() { for (const element of all(".writes")) element.hidden = !state.writable || state.folderMissing; }
/** Closes the new folder's form and forgets what was typed in it. */
export function closeNewFolder() {
  $("new-folder-form").hidden = true;
  $("new-folder-name", HTMLInputElement).value = "";
}
export async function newFolder(event) {
  event.preventDefault();
  const name = $("new-folder-name", HTMLInputElement).value.trim();
  if (!name) return;
  // A name, not a path: the server would take `a/b` as a folder in a missing folder.
  if (name.includes("/") || name === "." || name === "..") return toast("A folder's name cannot hold “/” or be “.” or “..”.");
  const answer = await post("mkdir", { path: join(state.folder, name) });
  if (!answer.ok) return toast(answer.message);
  closeNewFolder();
  await load(state.folder, { keepScroll: true });
}
export function beginAction(kind) {
  const item = state.infoItem;
  if (!item) return;
  $("action-error").hidden = true;
  $("delete-confirm").hidden = true;
  if (kind === "delete") return askToDelete(item);
  if (kind === "move" || kind === "copy") return transfer(kind, [item]);
  state.action = kind;
  const input = $("action-input", HTMLInputElement);
  input.value = kind === "rename" ? item.name : state.folder;
  input.setAttribute("aria-label", kind === "rename" ? "New name" : "Destination folder");
  $("action-confirm").textContent = kind === "rename" ? "Rename" : kind === "move" ? "Move here" : "Copy here";
  $("action-form").hidden = false;
  input.focus();
  if (kind === "rename") {
    const dot = item.name.lastIndexOf(".");
    input.setSelectionRange(0, dot > 0 && !isFolder(item) ? dot : item.name.length);
  }
}
export async function confirmAction(event) {
  event.preventDefault();
  const item = state.infoItem, value = $("action-input", HTMLInputElement).value.trim();
  if (!item || !value) return;
  const path = join(state.folder, item.name);
  const answer = state.action === "rename" ? await post("rename", { path, newName: value })
    : await post(state.action, { path, destination: value });
  if (!answer.ok) { $("action-error").textContent = answer.message; $("action-error").hidden = false; hideToast(); return; }
  $("info").hidden = true;
  toast(state.action === "rename" ? "Renamed" : state.action === "move" ? "Moved" : "Copied");
  await load(state.folder, { keepScroll: true });
}
/**
 * Moves or copies items of the folder shown into a folder the person picks; says what happened
 * (or, for one that failed, why).
 *
 * @param {"move" | "copy"} kind
 * @param {any[]} items
 */
export async function transfer(kind, items) {
  if (!items.length) return;
  const what = items.length === 1 ? "“" + items[0].name + "”" : items.length + " items";
  const destination = await pickFolder({
    title: (kind === "move" ? "Move " : "Copy ") + what + " to…", action: kind === "move" ? "Move here" : "Copy here",
    folder: state.folder, excluded: items.filter(isFolder).map((item) => join(state.folder, item.name)),
  });
  if (destination == null) return;
  let done = 0, failure = "";
  for (const item of items) {
    const answer = await post(kind, { path: join(state.folder, item.name), destination });
    if (answer.ok) done += 1; else failure = failure || item.name + ": " + answer.message;
  }
  $("info").hidden = true;
  stopSelecting();
  const verb = kind === "move" ? "Moved " : "Copied ";
  toast(failure ? (done ? verb + done + " of " + items.length + ". " : "") + failure
    : verb + (items.length === 1 ? items[0].name : items.length + " items") + " to " + (destination === "/" ? "Home" : destination));
  await load(state.folder, { keepScroll: true });
}
/** The address that downloads an item: a file as it is, a folder as a zip. */
export function downloadURL(item, path) { return apiURL(isFolder(item) ? "archive" : "file", { path }); }
/** Downloads items one after another (a folder as a zip). */
export function download(items) {
  items.forEach((item, index) => setTimeout(() => {
    const link = document.createElement("a");
    link.href = downloadURL(item, join(state.folder, item.name));
    link.download = isFolder(item) ? item.name + ".zip" : item.name;
    document.body.append(link); link.click(); link.remove();
  }, index * 400));
}
/** A link to an item on this server: its folder, or its file opened in the viewer. */
export function linkTo(item, path) { return location.origin + pageURL(path, { view: !isFolder(item) }); }
/** Shares an item's link through the system's share sheet where the browser has one, else copies it. */
export async function share(item, path) {
  const url = linkTo(item, path);
  if (navigator.share) {
    try { await navigator.share({ title: item.name, url }); return; } catch (error) { if (error.name === "AbortError") return; }
  }
  await copy(url, "Link copied");
}
/** Asks before the selected items are deleted, in the selection bar. */
export function askToDeleteMany() {
  const items = selectedItems();
  if (!items.length) return;
  $("delete-many-question").textContent = deleteQuestion(items[0], items.length);
  $("delete-many-go").textContent = deleteLabel();
  $("delete-many-confirm").hidden = false;
  $("delete-many-go").focus();
}
/** Deletes the selected items; one Undo brings them all back. */
export async function deleteMany() {
  $("delete-many-confirm").hidden = true;
  const items = selectedItems(), ids = [];
  let failure = "";
  for (const item of items) {
    const answer = await post("delete", { path: join(state.folder, item.name) });
    if (answer.ok) { if (answer.body.trashId) ids.push(answer.body.trashId); } else failure = failure || item.name + ": " + answer.message;
  }
  stopSelecting();
  await load(state.folder, { keepScroll: true });
  if (failure) { toast(failure); return; }
  const what = items.length === 1 ? items[0].name : items.length + " items";
  toast(ids.length ? "Moved " + what + " to Trash" : "Deleted " + what + " for good", ids.length ? { label: "Undo", run: async () => {
    for (const id of ids) await post("restore", { id });
    toast("Restored " + what);
    await load(state.folder, { keepScroll: true });
  } } : null);
}
/** Shows, in the info sheet, what a delete will do, with the button that does it. */
function askToDelete(item) {
  $("action-form").hidden = true;
  $("delete-question").textContent = deleteQuestion(item, 1);
  $("delete-go").textContent = deleteLabel();
  $("delete-confirm").hidden = false;
  $("delete-go").focus();
}
/** Deletes the item the info sheet shows, once the question was answered. */
export function confirmDelete() {
  $("delete-confirm").hidden = true;
  if (state.infoItem) remove(state.infoItem);
}
export async function remove(item) {
  const answer = await post("delete", { path: join(state.folder, item.name) });
  if (!answer.ok) { $("action-error").textContent = answer.message; $("action-error").hidden = false; hideToast(); return; }
  $("info").hidden = true;
  await load(state.folder, { keepScroll: true });
  const id = answer.body.trashId;
  toast((id || trashKeeps() ? "Moved " + item.name + " to Trash" : "Deleted " + item.name + " for good"), id ? { label: "Undo", run: async () => {
    const restored = await post("restore", { id });
    toast(restored.ok ? "Restored " + item.name : restored.message);
    await load(state.folder, { keepScroll: true });
  } } : null);
}
