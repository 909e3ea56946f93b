// Selection mode: rows and tiles get checkboxes, a tap selects instead of opening, and a bar at the bottom
// moves, copies, downloads or deletes everything selected at once.

import { $, all } from "./dom.js";
import { clearRows, drawRows } from "./listing.js";
import { state } from "./state.js";

/** Turns selection mode on, with nothing selected. */
export function startSelecting() {
  state.selecting = true;
  state.selected = new Set();
  document.body.classList.add("selecting");
  $("selection-bar").hidden = false;
  $("delete-many-confirm").hidden = true;
  clearRows(); drawRows();  // the rows again, with their checkboxes
  showSelection();
}

/** Turns selection mode off. */
export function stopSelecting() {
  if (!state.selecting) return;
  state.selecting = false;
  state.selected = new Set();
  document.body.classList.remove("selecting");
  $("selection-bar").hidden = true;
  clearRows(); drawRows();
  showSelection();
}

/** Selects or unselects one item. */
export function toggleSelected(item) {
  if (state.selected.has(item.name)) state.selected.delete(item.name); else state.selected.add(item.name);
  showSelection();
}

/** Selects every item of the folder, or none when all are selected already. */
export function toggleAll() {
  state.selected = state.selected.size === state.items.length ? new Set() : new Set(state.items.map((item) => item.name));
  showSelection();
}

/** The selected items, in the folder's order. */
export function selectedItems() { return state.items.filter((item) => state.selected.has(item.name)); }

/** Shows the selection: the rows' checkboxes, the count, and which actions apply. */
export function showSelection() {
  const count = state.selected.size;
  $("selection-count").textContent = count === 1 ? "1 selected" : count + " selected";
  $("select-all").textContent = count && count === state.items.length ? "Select none" : "Select all";
  for (const id of ["bulk-move", "bulk-copy", "bulk-download", "bulk-delete"]) $(id, HTMLButtonElement).disabled = count === 0;
  for (const row of all(".row[data-name], .tile[data-name]")) {
    const chosen = state.selecting && state.selected.has(row.dataset.name || "");
    row.classList.toggle("selected", chosen);
    const box = /** @type {HTMLInputElement | null} */ (row.querySelector("input.check"));
    if (box) box.checked = chosen;
  }
}
