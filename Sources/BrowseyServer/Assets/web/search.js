// Search, from the folder shown down.

import { api, withHidden } from "./api.js";
import { $ } from "./dom.js";
import { kindOf } from "./format.js";
import { svgIcon } from "./icons.js";
import { navigate } from "./listing.js";
import { parentOf } from "./paths.js";
import { state } from "./state.js";
import { openViewer } from "./viewer.js";

export function openSearch() {
  $("search").hidden = false;
  const input = $("search-input", HTMLInputElement);
  input.focus(); input.select();
  if (input.value) runSearch();
}
export function runSearch() {
  clearTimeout(state.searchTimer);
  state.searchTimer = setTimeout(async () => {
    const text = $("search-input", HTMLInputElement).value.trim();
    const serial = ++state.searchSerial;
    if (!text) { showResults([], ""); return; }
    $("search-state").textContent = "Searching…";
    try {
      const body = await api("search", withHidden({ path: state.folder, q: text, limit: "50" }));
      if (serial === state.searchSerial) showResults(body.results || [], text);
    } catch (error) {
      if (serial === state.searchSerial) { showResults([], text); $("search-state").textContent = error.message; }
    }
  }, 150);
}
function showResults(results, text) {
  state.searchResults = results;
  state.searchIndex = results.length ? 0 : -1;
  const list = $("search-results");
  list.textContent = "";
  results.forEach((result, index) => {
    const item = document.createElement("li");
    item.setAttribute("role", "option");
    item.id = "result-" + index;
    item.setAttribute("aria-selected", String(index === state.searchIndex));
    const icon = document.createElement("span");
    icon.className = "icon"; icon.append(svgIcon(kindOf(result)));
    const label = document.createElement("span");
    label.style.minWidth = "0";
    const name = document.createElement("div"); name.textContent = result.name;
    const where = document.createElement("div"); where.className = "where"; where.textContent = parentOf(result.path);
    label.append(name, where);
    item.append(icon, label);
    item.addEventListener("click", () => openResult(result));
    list.append(item);
  });
  $("search-state").textContent = text && !results.length ? "Nothing found." : "";
  markSelected();
}
export function markSelected() {
  [...$("search-results").children].forEach((item, index) => item.setAttribute("aria-selected", String(index === state.searchIndex)));
  const current = $("result-" + state.searchIndex);
  if (current) { current.scrollIntoView({ block: "nearest" }); $("search-input").setAttribute("aria-activedescendant", current.id); }
}
export async function openResult(result) {
  $("search").hidden = true;
  if (result.type === "directory") return navigate(result.path);
  await navigate(parentOf(result.path));
  const item = state.items.find((entry) => entry.name === result.name) || { name: result.name, extension: result.extension, type: result.type };
  openViewer({ ...item, path: result.path });
}
