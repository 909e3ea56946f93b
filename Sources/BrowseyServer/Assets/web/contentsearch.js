// Search inside files: each hit is a file with its matching lines, the matches marked. The
// file's text only ever becomes text nodes (and <mark> elements made here), never markup.

import { kindOf } from "./format.js";
import { svgIcon } from "./icons.js";
import { parentOf } from "./paths.js";

/**
 * The line's text with its matches in <mark>: `matches` are [start, end) UTF-16 offsets, as
 * JavaScript strings count.
 * @param {string} text
 * @param {number[][]} matches
 */
export function markedText(text, matches) {
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const [start, end] of matches) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) fragment.append(document.createTextNode(text.slice(at, start)));
    const mark = document.createElement("mark");
    mark.textContent = text.slice(start, end);
    fragment.append(mark);
    at = end;
  }
  if (at < text.length) fragment.append(document.createTextNode(text.slice(at)));
  return fragment;
}

/**
 * A result row for a file found by its text: its name and folder, then each matching line with
 * its number; a click on a line opens the file there.
 * @param {any} result
 * @param {(result: any, line?: number) => void} open
 */
export function contentRow(result, open) {
  const item = document.createElement("li");
  item.setAttribute("role", "option");
  item.className = "content-hit";
  const icon = document.createElement("span");
  icon.className = "icon"; icon.append(svgIcon(kindOf(result)));
  const label = document.createElement("span");
  label.className = "content-label";
  const name = document.createElement("div"); name.textContent = result.name;
  const where = document.createElement("div"); where.className = "where"; where.textContent = parentOf(result.path);
  label.append(name, where);
  for (const line of result.lines || []) {
    const row = document.createElement("button");
    row.type = "button";
    row.className = "snippet";
    row.dataset.line = String(line.line);
    const number = document.createElement("span");
    number.className = "snippet-number"; number.textContent = String(line.line);
    const text = document.createElement("span");
    text.className = "snippet-text";
    text.append(markedText(line.text, line.matches || []));
    row.append(number, text);
    row.addEventListener("click", (event) => { event.stopPropagation(); open(result, line.line); });
    label.append(row);
  }
  item.append(icon, label);
  item.addEventListener("click", () => open(result));
  return item;
}
