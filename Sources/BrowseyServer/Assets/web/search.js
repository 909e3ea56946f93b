// Search, from the folder shown down.

import { api, withHidden } from "./api.js";
import { contentRow } from "./contentsearch.js";
import { $ } from "./dom.js";
import { kindOf } from "./format.js";
import { svgIcon } from "./icons.js";
import { navigate } from "./listing.js";
import { parentOf } from "./paths.js";
import { state } from "./state.js";
import { openViewer } from "./viewer.js";

/** Names or Contents: the switch above the results. */
function setScope(scope) {
  state.searchScope = scope;
  for (const button of $("search-scope").querySelectorAll("button")) {
    button.setAttribute("aria-checked", String(button.dataset.scope === scope));
  }
  $("search-input").setAttribute("placeholder", scope === "content" ? "Search inside text files here and below" : "Search this folder and below");
}
let scopeWired = false;
export function openSearch() {
  if (!scopeWired) {
    scopeWired = true;
    for (const button of $("search-scope").querySelectorAll("button")) {
      button.addEventListener("click", () => {
        // The other scope's results go at once: they would answer a question no longer asked.
        state.searchSerial++;
        setScope(button.dataset.scope || "names"); showResults([], ""); runSearch(); $("search-input").focus();
      });
    }
  }
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
      const content = state.searchScope === "content";
      const query = withHidden({ path: state.folder, q: text, limit: "50" });
      const body = await api("search", content ? { ...query, in: "content" } : query);
      if (serial === state.searchSerial) showResults(body.results || [], text, body);
    } catch (error) {
      if (serial === state.searchSerial) { showResults([], text); $("search-state").textContent = error.message; }
    }
  }, 150);
}
/**
 * @param {any[]} results
 * @param {string} text
 * @param {{hasMore?: boolean, complete?: boolean}} [answer] a content search's answer: whether more files match
 */
function showResults(results, text, answer) {
  state.searchResults = results;
  state.searchIndex = results.length ? 0 : -1;
  const list = $("search-results");
  list.textContent = "";
  results.forEach((result, index) => {
    if (Array.isArray(result.lines)) {
      const row = contentRow(result, openResult);
      row.id = "result-" + index;
      list.append(row);
      return;
    }
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
  const partial = answer && answer.complete === false;
  const more = answer && answer.hasMore
    ? "More files match than are shown: add a word to narrow the search."
    : partial ? "The index is still being built: more files may match." : "";
  $("search-state").textContent = text && !results.length ? (partial ? "Nothing found yet: the index is still being built." : "Nothing found.") : more;
  markSelected();
}
export function markSelected() {
  [...$("search-results").children].forEach((item, index) => item.setAttribute("aria-selected", String(index === state.searchIndex)));
  const current = $("result-" + state.searchIndex);
  if (current) { current.scrollIntoView({ block: "nearest" }); $("search-input").setAttribute("aria-activedescendant", current.id); }
}
/**
 * Opens a result: a folder is browsed, a file viewed (a file found by its text at `line`, its
 * first matching line by default).
 * @param {any} result
 * @param {number} [line]
 */
export async function openResult(result, line) {
  $("search").hidden = true;
  if (result.type === "directory") return navigate(result.path);
  await navigate(parentOf(result.path));
  const item = state.items.find((entry) => entry.name === result.name) || { name: result.name, extension: result.extension, type: result.type };
  const at = line || (Array.isArray(result.lines) && result.lines.length ? result.lines[0].line : 0);
  openViewer({ ...item, path: result.path }, { line: at });
}
