// The info sheet of an item.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { formatDate, formatSize, isFolder } from "./format.js";
import { join } from "./paths.js";
import { state } from "./state.js";
import { toast } from "./toast.js";

export async function openInfo(item) {
  const path = item.path || join(state.folder, item.name);
  const fields = $("info-fields");
  const show = (values) => {
    fields.textContent = "";
    for (const [label, value] of values) {
      if (value == null || value === "") continue;
      const term = document.createElement("dt"); term.textContent = label;
      const detail = document.createElement("dd"); detail.textContent = value;
      fields.append(term, detail);
    }
  };
  const type = isFolder(item) ? "Folder" : item.type === "symlink" ? "Link" : (item.extension ? item.extension.toUpperCase() + " file" : "File");
  const base = [["Name", item.name], ["Type", type], ["Size", isFolder(item) ? "" : formatSize(item.size)],
    ["Extension", item.extension || ""], ["Modified", formatDate(item.modified)]];
  show([...base, ["Path", path]]);
  state.infoItem = item;
  $("action-form").hidden = true;
  $("action-error").hidden = true;
  $("info").hidden = false;
  $("info-copy").onclick = () => copy(path);
  $("info-close").focus();
  try {
    const stat = await api("stat", { path });
    show([...base, ["Created", formatDate(stat.created)], ["Path", path]]);
  } catch { /* the basic fields stay */ }
}
export async function copy(text) {
  try { await navigator.clipboard.writeText(text); }
  catch {
    const area = document.createElement("textarea");
    area.value = text; document.body.append(area); area.select();
    try { document.execCommand("copy"); } catch { /* nothing more to try */ }
    area.remove();
  }
  toast("Path copied");
}
