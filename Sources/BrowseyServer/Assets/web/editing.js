// Editing, with the conflict flow: a 409 never discards the user's text.

import { api, post } from "./api.js";
import { $ } from "./dom.js";
import { state } from "./state.js";
import { toast } from "./toast.js";
import { versionKey } from "./viewer.js";

export function startEditing() {
  const editing = state.editing;
  if (!editing) return;
  const text = editing.content;
  const area = document.createElement("textarea");
  area.className = "editor"; area.value = text; area.spellcheck = false;
  area.setAttribute("aria-label", "Text of " + editing.item.name);
  area.addEventListener("input", () => { editing.dirty = true; });
  $("viewer-body").textContent = "";
  $("viewer-body").append(area);
  editing.active = true; editing.dirty = false;
  $("viewer-edit").hidden = true; $("viewer-save").hidden = false;
  area.focus();
}
export async function save() {
  const editing = state.editing;
  if (!editing || !editing.active) return;
  const content = $("viewer-body").querySelector("textarea").value;
  const answer = await post("save", { path: editing.item.path, content, baseModified: editing.base.modified, baseSize: editing.base.size });
  if (answer.ok) {
    editing.base = { modified: answer.body.modified, size: answer.body.size };
    editing.seen.add(versionKey(answer.body));
    editing.dirty = false;
    $("conflict").hidden = true;
    toast("Saved");
  } else if (answer.status === 409) {
    const theirs = await api("view", { path: editing.item.path }).catch(() => null);
    editing.theirs = theirs;
    if (theirs) editing.seen.add(versionKey(theirs));
    $("conflict-theirs").textContent = theirs ? theirs.content : "(their version could not be read)";
    $("conflict").hidden = false;
  } else {
    toast(answer.message);
  }
}
export async function keepMine() {
  const editing = state.editing;
  if (!editing || !editing.theirs) return;
  editing.base = { modified: editing.theirs.modified, size: editing.theirs.size };
  await save();
}
export function takeTheirs() {
  const editing = state.editing;
  if (!editing || !editing.theirs) return;
  $("viewer-body").querySelector("textarea").value = editing.theirs.content;
  editing.base = { modified: editing.theirs.modified, size: editing.theirs.size };
  editing.dirty = false;
  $("conflict").hidden = true;
}
