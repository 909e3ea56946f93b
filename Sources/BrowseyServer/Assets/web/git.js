// Git in a repository folder: a bar under the toolbar (branch and state), and a sheet with the
// repository's Changes (staged, changed, untracked, each file's diff), its History (25 commits at a
// time), a commit's files and their diffs, and Revert with a question first and an Undo after.
//
// Diff lines are coloured here by kind (added, removed, context), not by the server's syntax
// highlighter: a hunk is a handful of lines cut out of a file, and a highlighter that reads whole
// files colours fragments wrongly (a string or comment opened above the hunk); the kind is what a
// reader of a diff looks for first, and the answer stays small.

import { api, post } from "./api.js";
import { $ } from "./dom.js";
import { formatDate } from "./format.js";
import { svgIcon } from "./icons.js";
import { state } from "./state.js";
import { toast } from "./toast.js";

/** What the sheet shows now, for Back: "changes", "history", a commit, or a diff over one of them. */
const view = { repoPath: "/", tab: "changes", commit: null, diffFrom: null, historySkip: 0, serial: 0 };

/** Words for a change's letters. */
const letters = { M: "modified", A: "added", D: "deleted", R: "renamed", C: "copied", T: "type changed", U: "conflict", "?": "untracked" };

/** Asks whether the folder lies in a repository, and shows the bar when it does. */
export async function showGitBar(folder) {
  const bar = $("git-bar");
  let status;
  try { status = await api("git", { path: folder }); } catch { bar.hidden = true; return; }
  if (folder !== state.folder) return;
  if (!status.isRepo) { bar.hidden = true; return; }
  view.repoPath = status.repoPath || "/";
  $("git-branch").textContent = status.branch || "no commits yet";
  const parts = [];
  if (status.staged) parts.push("+" + status.staged);
  if (status.unstaged) parts.push("~" + status.unstaged);
  if (status.untracked) parts.push("?" + status.untracked);
  const stateText = $("git-state");
  stateText.textContent = parts.length ? parts.join(" ") : "clean";
  stateText.classList.toggle("dirty", parts.length > 0);
  $("git-changes-open").setAttribute("aria-label", "Changes: " + (parts.length ? describeCounts(status) : "none"));
  bar.hidden = false;
}

function describeCounts(status) {
  const words = [];
  if (status.staged) words.push(status.staged + " staged");
  if (status.unstaged) words.push(status.unstaged + " changed");
  if (status.untracked) words.push(status.untracked + " untracked");
  return words.join(", ");
}

/** Opens the sheet on a tab. */
export function openGit(tab) {
  $("git").hidden = false;
  showTab(tab);
  $("git-close").focus();
}

function showTab(tab) {
  view.tab = tab; view.commit = null; view.diffFrom = null;
  $("git-tab-changes").setAttribute("aria-pressed", String(tab === "changes"));
  $("git-tab-history").setAttribute("aria-pressed", String(tab === "history"));
  $("git-tabs").hidden = false;
  $("git-back").hidden = true;
  if (tab === "changes") showChanges(); else { view.historySkip = 0; showHistory(); }
}

/** Back from a diff to where it was opened, or from a commit to the history. */
export function gitBack() {
  if (view.diffFrom === "commit" && view.commit) { view.diffFrom = null; showCommit(view.commit); return; }
  showTab(view.tab);
}

function body() { return $("git-body"); }

function setState(text, { error = false } = {}) {
  const box = document.createElement("p");
  box.className = "state" + (error ? " error" : "");
  box.textContent = text;
  body().replaceChildren(box);
}

async function showChanges() {
  const serial = ++view.serial;
  setState("Loading…");
  let changes;
  try { changes = await api("git/changes", { path: state.folder }); } catch (error) { setState(error.message, { error: true }); return; }
  if (serial !== view.serial) return;
  const sections = [["Staged", changes.staged, true], ["Changed", changes.unstaged, false], ["Untracked", changes.untracked, false]];
  const parts = [];
  for (const [title, list, staged] of sections) {
    if (!list.length) continue;
    const section = document.createElement("section");
    section.className = "git-section";
    const heading = document.createElement("h2");
    heading.textContent = title + " (" + list.length + ")";
    const rows = document.createElement("ul");
    rows.className = "git-files";
    for (const change of list) rows.append(changeRow(change, staged));
    section.append(heading, rows);
    parts.push(section);
  }
  if (!parts.length) { setState("No changes: the working tree matches the last commit."); return; }
  body().replaceChildren(...parts);
}

function changeRow(change, staged) {
  const letter = change.indexStatus === "?" ? "?" : (staged ? change.indexStatus : change.workTreeStatus);
  const row = document.createElement("li");
  row.className = "git-file";
  const open = document.createElement("button");
  open.className = "git-file-open";
  const mark = document.createElement("span");
  mark.className = "git-letter git-letter-" + (letter === "?" ? "U" : letter);
  mark.textContent = letter;
  mark.setAttribute("aria-hidden", "true");
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = change.path + (change.originalPath ? " ← " + change.originalPath : "");
  open.append(mark, name);
  open.setAttribute("aria-label", change.path + ", " + (letters[letter] || letter) + (staged ? ", staged" : "") + ": show the diff");
  open.addEventListener("click", () => showDiff({ file: change.path, originalPath: change.originalPath, staged, from: "changes" }));
  row.append(open);
  if (state.writable && !(staged && change.workTreeStatus !== " " && change.workTreeStatus !== "?")) {
    const revertButton = document.createElement("button");
    revertButton.className = "small-button danger git-revert";
    revertButton.textContent = "Revert…";
    revertButton.setAttribute("aria-label", "Revert " + change.path);
    revertButton.addEventListener("click", () => askToRevert(change, row));
    row.append(revertButton);
  }
  return row;
}

/** Asks before a revert, in words that say what will happen, beside the file's row. */
function askToRevert(change, row) {
  for (const old of body().querySelectorAll(".git-confirm")) old.remove();
  const box = document.createElement("div");
  box.className = "confirm git-confirm";
  box.setAttribute("role", "group");
  const question = document.createElement("p");
  question.id = "git-revert-question";
  const untracked = change.indexStatus === "?" || change.indexStatus === "A";
  question.textContent = untracked
    ? "Move “" + change.path + "” to the Trash? You can restore it from the Trash."
    : "Discard the changes to “" + change.path + "”? It goes back to the last commit; the changed version is kept in the Trash.";
  box.setAttribute("aria-labelledby", question.id);
  const buttons = document.createElement("div");
  buttons.className = "confirm-buttons";
  const cancel = document.createElement("button");
  cancel.className = "small-button"; cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => box.remove());
  const go = document.createElement("button");
  go.id = "git-revert-go";
  go.className = "small-button danger-filled"; go.textContent = "Revert";
  go.addEventListener("click", () => revert(change, box));
  buttons.append(cancel, go);
  box.append(question, buttons);
  row.after(box);
  go.focus();
}

async function revert(change, box) {
  const answer = await post("git/revert", { path: view.repoPath, filePath: change.path });
  if (!answer.ok) {
    const error = document.createElement("p");
    error.className = "error-text"; error.setAttribute("role", "alert"); error.textContent = answer.message;
    box.replaceChildren(error);
    return;
  }
  const ids = answer.body.trashIds || [];
  const place = (view.repoPath === "/" ? "" : view.repoPath) + "/" + change.path.replace(/\/$/, "");
  const tracked = !(change.indexStatus === "?" || change.indexStatus === "A");
  toast("Reverted " + change.path, ids.length ? { label: "Undo", run: () => undoRevert(ids, place, tracked) } : undefined);
  await Promise.all([showChanges(), showGitBar(state.folder)]);
}

/** Puts a reverted file back from the Trash: a tracked file's last-commit version goes first. */
async function undoRevert(ids, place, tracked) {
  if (tracked) {
    const removed = await post("delete", { path: place });
    if (!removed.ok && removed.status !== 404) { toast(removed.message); return; }
  }
  for (const id of ids) {
    const answer = await post("restore", { id });
    if (!answer.ok) { toast(answer.message); return; }
  }
  toast("Restored " + place.split("/").pop());
  if (!$("git").hidden && view.tab === "changes" && !view.diffFrom) await showChanges();
  await showGitBar(state.folder);
}

async function showHistory() {
  const serial = ++view.serial;
  if (view.historySkip === 0) setState("Loading…");
  let page;
  try { page = await api("git/log", { path: state.folder, limit: 25, skip: view.historySkip }); } catch (error) { setState(error.message, { error: true }); return; }
  if (serial !== view.serial) return;
  let list = body().querySelector(".git-commits");
  if (view.historySkip === 0 || !list) {
    if (!page.commits.length) { setState("No commits yet."); return; }
    list = document.createElement("ul");
    list.className = "git-commits";
    body().replaceChildren(list);
  }
  for (const commit of page.commits) list.append(commitRow(commit));
  const oldMore = body().querySelector(".git-more");
  if (oldMore) oldMore.remove();
  if (page.hasMore) {
    const more = document.createElement("button");
    more.className = "wide-button git-more"; more.textContent = "Older commits";
    more.addEventListener("click", () => { view.historySkip += 25; showHistory(); });
    body().append(more);
  }
}

function commitRow(commit) {
  const row = document.createElement("li");
  const open = document.createElement("button");
  open.className = "git-commit";
  const subject = document.createElement("span");
  subject.className = "name"; subject.textContent = commit.message || "(no message)";
  const detail = document.createElement("span");
  detail.className = "detail";
  detail.textContent = commit.shortHash + " • " + commit.author + " • " + formatDate(commit.date);
  open.append(subject, detail);
  open.addEventListener("click", () => showCommit(commit.hash));
  row.append(open);
  return row;
}

async function showCommit(hash) {
  const serial = ++view.serial;
  view.commit = hash; view.diffFrom = null;
  $("git-tabs").hidden = true; $("git-back").hidden = false;
  setState("Loading…");
  let answer;
  try { answer = await api("git/commit", { path: state.folder, hash }); } catch (error) { setState(error.message, { error: true }); return; }
  if (serial !== view.serial) return;
  const commit = answer.commit;
  const head = document.createElement("div");
  head.className = "git-commit-head";
  const title = document.createElement("h2");
  title.textContent = commit.message;
  const text = document.createElement("p");
  text.className = "git-commit-body"; text.textContent = commit.body;
  text.hidden = !commit.body;
  const meta = document.createElement("p");
  meta.className = "detail";
  meta.textContent = commit.shortHash + " • " + commit.author + " • " + formatDate(commit.date) + " • "
    + commit.stats.files + (commit.stats.files === 1 ? " file" : " files") + ", +" + commit.stats.additions + " −" + commit.stats.deletions;
  head.append(title, meta, text);
  const files = document.createElement("ul");
  files.className = "git-files";
  for (const file of commit.files) {
    const row = document.createElement("li");
    row.className = "git-file";
    const open = document.createElement("button");
    open.className = "git-file-open";
    const mark = document.createElement("span");
    mark.className = "git-letter git-letter-" + file.status; mark.textContent = file.status; mark.setAttribute("aria-hidden", "true");
    const name = document.createElement("span");
    name.className = "name"; name.textContent = file.path + (file.originalPath ? " ← " + file.originalPath : "");
    open.append(mark, name);
    open.setAttribute("aria-label", file.path + ", " + (letters[file.status] || file.status) + ": show the diff");
    open.addEventListener("click", () => showDiff({ file: file.path, originalPath: file.originalPath, hash: commit.hash, from: "commit" }));
    row.append(open);
    files.append(row);
  }
  const neighbours = document.createElement("div");
  neighbours.className = "confirm-buttons git-neighbours";
  for (const [label, other] of [["Newer", commit.previousCommit], ["Older", commit.nextCommit]]) {
    if (!other) continue;
    const button = document.createElement("button");
    button.className = "small-button"; button.textContent = label + ": " + other.shortHash;
    button.setAttribute("aria-label", label + " commit: " + other.message);
    button.addEventListener("click", () => showCommit(other.hash));
    neighbours.append(button);
  }
  body().replaceChildren(head, files, neighbours);
}

/**
 * One file's diff, in the sheet: a commit's (`hash`) or the working tree's (`staged` or not).
 *
 * @param {{ file: string, originalPath?: string, hash?: string, staged?: boolean, from: string }} what
 */
async function showDiff({ file, originalPath, hash, staged, from }) {
  const serial = ++view.serial;
  view.diffFrom = from;
  $("git-tabs").hidden = true; $("git-back").hidden = false;
  setState("Loading…");
  /** @type {Record<string, string>} */
  const params = { path: state.folder, file };
  if (originalPath) params.originalPath = originalPath;
  if (hash) params.hash = hash;
  if (staged) params.staged = "1";
  let diff;
  try { diff = await api("git/diff", params); } catch (error) { setState(error.message, { error: true }); return; }
  if (serial !== view.serial) return;
  const title = document.createElement("h2");
  title.className = "git-diff-title"; title.textContent = file;
  const parts = [title];
  if (diff.binary) parts.push(note("A binary file: no lines to compare."));
  else if (!diff.hunks.length) parts.push(note("No changes in the text."));
  for (const hunk of diff.hunks) parts.push(hunkTable(hunk));
  if (diff.truncated) parts.push(note("The diff is longer than this: the rest is left out."));
  body().replaceChildren(...parts);
}

function note(text) {
  const box = document.createElement("p");
  box.className = "note"; box.textContent = text;
  return box;
}

function hunkTable(hunk) {
  const block = document.createElement("div");
  block.className = "git-hunk";
  const head = document.createElement("div");
  head.className = "git-hunk-head";
  head.textContent = "Lines " + hunk.newStart + "–" + (hunk.newStart + Math.max(hunk.newLines - 1, 0)) + (hunk.header ? " • " + hunk.header : "");
  block.append(head);
  for (const line of hunk.lines) {
    const row = document.createElement("div");
    row.className = "git-line git-" + line.kind;
    const old = document.createElement("span");
    old.className = "git-number"; old.textContent = line.oldLine == null ? "" : String(line.oldLine);
    const now = document.createElement("span");
    now.className = "git-number"; now.textContent = line.newLine == null ? "" : String(line.newLine);
    const sign = document.createElement("span");
    sign.className = "git-sign"; sign.textContent = line.kind === "added" ? "+" : line.kind === "removed" ? "−" : " ";
    const text = document.createElement("span");
    text.className = "git-text"; text.textContent = line.text;
    row.append(old, now, sign, text);
    block.append(row);
  }
  return block;
}

/** Wires the bar's and the sheet's buttons. */
export function listenGit() {
  $("git-changes-open").addEventListener("click", () => openGit("changes"));
  $("git-history-open").addEventListener("click", () => openGit("history"));
  $("git-tab-changes").addEventListener("click", () => showTab("changes"));
  $("git-tab-history").addEventListener("click", () => showTab("history"));
  $("git-back").addEventListener("click", gitBack);
  $("git-close").addEventListener("click", () => { $("git").hidden = true; $("git-changes-open").focus(); });
  $("git-branch-icon").replaceChildren(svgIcon("branch"));
}
