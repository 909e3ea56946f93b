// Writes: new folder, rename, move, copy, delete with undo.

import { post } from "./api.js";
import { $, all } from "./dom.js";
import { isFolder } from "./format.js";
import { load } from "./listing.js";
import { join } from "./paths.js";
import { state } from "./state.js";
import { toast } from "./toast.js";
import { deleteLabel, deleteQuestion, trashKeeps } from "./trash.js";

export function showWrites() { for (const element of all(".writes")) element.hidden = !state.writable; }
export async function newFolder(event) {
  event.preventDefault();
  const name = $("new-folder-name", HTMLInputElement).value.trim();
  if (!name) return;
  const answer = await post("mkdir", { path: join(state.folder, name) });
  if (!answer.ok) return toast(answer.message);
  $("new-folder-form").hidden = true;
  $("new-folder-name", HTMLInputElement).value = "";
  await load(state.folder, { keepScroll: true });
}
export function beginAction(kind) {
  const item = state.infoItem;
  if (!item) return;
  $("action-error").hidden = true;
  $("delete-confirm").hidden = true;
  if (kind === "delete") return askToDelete(item);
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
  if (!answer.ok) { $("action-error").textContent = answer.message; $("action-error").hidden = false; return; }
  $("info").hidden = true;
  toast(state.action === "rename" ? "Renamed" : state.action === "move" ? "Moved" : "Copied");
  await load(state.folder, { keepScroll: true });
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
  if (!answer.ok) { $("action-error").textContent = answer.message; $("action-error").hidden = false; return; }
  $("info").hidden = true;
  await load(state.folder, { keepScroll: true });
  const id = answer.body.trashId;
  toast((id || trashKeeps() ? "Moved " + item.name + " to Trash" : "Deleted " + item.name + " for good"), id ? { label: "Undo", run: async () => {
    const restored = await post("restore", { id });
    toast(restored.ok ? "Restored " + item.name : restored.message);
    await load(state.folder, { keepScroll: true });
  } } : null);
}
