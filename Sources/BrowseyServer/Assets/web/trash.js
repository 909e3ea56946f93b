// The Trash screen: what deletes put aside on the server, restored one by one or emptied for good;
// and the question a delete asks first, in words that say what will happen.

import { api, post } from "./api.js";
import { $ } from "./dom.js";
import { formatDate, formatSize, isFolder, kindOf } from "./format.js";
import { svgIcon } from "./icons.js";
import { load } from "./listing.js";
import { parentOf } from "./paths.js";
import { state } from "./state.js";
import { toast } from "./toast.js";

/**
 * The server's trash limits as `/api/trash` gives them: `undefined` until asked, `null` when
 * deletes are for good (`--no-trash`).
 *
 * @type {{ days: number, maximumBytes: number } | null | undefined}
 */
let retention;

/** Asks the server how long its trash keeps things (a writable server only: the list needs it). */
export async function readRetention() {
  try { retention = (await api("trash", {})).retention || null; } catch { retention = undefined; }
  return retention;
}

/** Whether deletes go to a trash they can come back from (unknown counts as yes: the server says). */
export function trashKeeps() { return retention !== null; }

/** One sentence on how long the trash keeps things, or that deletes are for good. */
export function retentionText() {
  if (retention === null) return "This server has no trash: deleted items are gone for good.";
  if (!retention) return "";
  const days = retention.days === 1 ? "1 day" : retention.days + " days";
  return "Items stay in the Trash for " + days + ", or until it holds more than "
    + formatSize(retention.maximumBytes) + " (the oldest go first).";
}

/**
 * The question a delete asks, for `count` items of which `first` is one: what will happen to
 * them, and for how long they can come back.
 */
export function deleteQuestion(first, count) {
  const what = count > 1 ? count + " items" : "“" + first.name + "”" + (isFolder(first) ? " and everything in it" : "");
  if (retention === null) return "Delete " + what + " for good? This cannot be undone.";
  const days = retention ? " for " + (retention.days === 1 ? "1 day" : retention.days + " days") : "";
  return "Move " + what + " to the Trash? You can restore " + (count > 1 ? "them" : "it") + " from Trash" + days + ".";
}

/** The label of the button that deletes: it says where things go. */
export function deleteLabel() { return retention === null ? "Delete for good" : "Move to Trash"; }

/** Opens the Trash screen and lists what it holds. */
export async function openTrash() {
  $("trash").hidden = false;
  $("trash-empty-confirm").hidden = true;
  $("trash-close").focus();
  await refreshTrash();
}

/** Lists the trash again (after a restore, an emptying, or on opening). */
export async function refreshTrash() {
  const list = $("trash-items"), status = $("trash-state");
  status.hidden = false; status.className = "state"; status.textContent = "Loading…";
  let answer;
  try { answer = await api("trash", {}); } catch (error) {
    list.textContent = "";
    status.className = "state error"; status.textContent = error.message;
    return;
  }
  retention = answer.retention || null;
  $("trash-retention").textContent = retentionText();
  const items = answer.items || [];
  list.textContent = "";
  for (const item of items) list.append(trashRow(item));
  status.hidden = items.length > 0;
  status.textContent = retention === null ? "" : "The Trash is empty.";
  $("trash-empty", HTMLButtonElement).disabled = items.length === 0;
  $("trash-count").textContent = items.length ? (items.length === 1 ? "1 item" : items.length + " items") : "";
}

function trashRow(item) {
  const row = document.createElement("li");
  row.className = "trash-item";
  const icon = document.createElement("span");
  icon.className = "icon"; icon.setAttribute("aria-hidden", "true");
  icon.append(svgIcon(kindOf(item)));
  const text = document.createElement("span");
  text.className = "text";
  const name = document.createElement("span");
  name.className = "name"; name.textContent = item.name;
  const detail = document.createElement("span");
  detail.className = "detail";
  const from = parentOf(item.originalPath);
  detail.textContent = "From " + (from === "/" ? "Home" : from) + " • " + formatSize(item.size) + " • deleted " + formatDate(item.deletedAt);
  text.append(name, detail);
  const restore = document.createElement("button");
  restore.className = "small-button"; restore.textContent = "Restore";
  restore.setAttribute("aria-label", "Restore " + item.name);
  restore.addEventListener("click", () => restoreItem(item, row));
  row.append(icon, text, restore);
  return row;
}

async function restoreItem(item, row) {
  const answer = await post("restore", { id: item.id });
  if (!answer.ok) {
    let error = row.querySelector(".error-text");
    if (!error) { error = document.createElement("p"); error.className = "error-text"; error.setAttribute("role", "alert"); row.append(error); }
    error.textContent = answer.status === 409 ? "Something else now has its place in " + parentOf(item.originalPath) + "." : answer.message;
    return;
  }
  toast("Restored " + item.name);
  await Promise.all([refreshTrash(), load(state.folder, { keepScroll: true })]);
}

/** Asks before the trash is emptied: that cannot be undone. */
export function askToEmpty() {
  const count = $("trash-items").children.length;
  $("trash-empty-question").textContent = "Delete " + (count === 1 ? "1 item" : count + " items") + " for good? This cannot be undone.";
  $("trash-empty-confirm").hidden = false;
  $("trash-empty-go").focus();
}

/** Empties the trash for good. */
export async function emptyTrash() {
  $("trash-empty-confirm").hidden = true;
  const answer = await post("trash/empty", {});
  if (!answer.ok) { toast(answer.message); return; }
  toast(answer.body.removed === 1 ? "Deleted 1 item for good" : "Deleted " + answer.body.removed + " items for good");
  await refreshTrash();
  $("trash-close").focus();
}
