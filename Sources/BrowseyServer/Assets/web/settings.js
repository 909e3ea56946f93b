// Settings and the overlays (dialogs) over the list.

import { $ } from "./dom.js";
import { prefs } from "./prefs.js";

export function applySettings() {
  document.body.classList.toggle("compact", prefs.get("compact", false));
  $("setting-compact", HTMLInputElement).checked = prefs.get("compact", false);
  $("setting-hidden", HTMLInputElement).checked = prefs.get("hidden", false);
  $("sort", HTMLSelectElement).value = prefs.get("sort", "name");
}
export function closeOverlays() {
  for (const id of ["info", "search", "settings", "trash", "git"]) $(id).hidden = true;
}
export function anyOverlay() { return ["access", "viewer", "info", "search", "settings", "trash", "picker", "git"].some((id) => !$(id).hidden); }
