// The web UI's entry module: wires the page's controls to the modules, keys and touch.

import { askForAccess, isGated } from "./access.js";
import { startAccount } from "./account.js";
import { $, all } from "./dom.js";
import { keepMine, save, startEditing, takeTheirs } from "./editing.js";
import { svgIcon } from "./icons.js";
import { listen } from "./events.js";
import { listenFastScroll, showFastScroll } from "./fastscroll.js";
import { moveFocus, rememberLayout } from "./gallery.js";
import { listenGit } from "./git.js";
import { openInfo } from "./info.js";
import { clearRows, drawRows, load, navigate, renderCrumbs, showLayout, showState, sortItems } from "./listing.js";
import { closeMenus, listenMenus, openMenuButton } from "./menu.js";
import { onRecovery } from "./offline.js";
import { parentOf, readLocation } from "./paths.js";
import { placeFor, rememberPlace, scrolled } from "./place.js";
import { showOriginal, zoomed } from "./picture.js";
import { prefs } from "./prefs.js";
import { markSelected, openResult, openSearch, runSearch } from "./search.js";
import { anyOverlay, applySettings, closeOverlays } from "./settings.js";
import { readShared, shared } from "./shared.js";
import { state } from "./state.js";
import { clearUploads, upload } from "./uploads.js";
import { closeViewer, onEditedFileChanged, openFromLocation, openViewer, setTextSize, step, viewer } from "./viewer.js";
import { toast } from "./toast.js";
import { askToEmpty, emptyTrash, openTrash, readRetention } from "./trash.js";
import { askToDeleteMany, beginAction, closeNewFolder, confirmAction, confirmDelete, deleteMany, download, newFolder, share, showWrites, transfer } from "./writes.js";
import { listenPicker, finishPicking } from "./picker.js";
import { selectedItems, startSelecting, stopSelecting, toggleAll } from "./selection.js";
import { apiURL } from "./api.js";
import { join, nameOf } from "./paths.js";
import { activate } from "./listing.js";
import { zoom } from "./zoom.js";

/** Switches the folder between grid and list, keeping the place, and remembers the choice for it. */
function toggleLayout() {
  const layout = state.layout === "grid" ? "list" : "grid";
  rememberLayout(state.folder, layout);
  showLayout(layout, { keepPlace: true });
  rememberPlace(state.folder);
}
function start() {
  for (const button of all("[data-icon]")) { button.textContent = ""; button.append(svgIcon(button.dataset.icon)); }
  applySettings();
  zoom.listen($("viewer-body"));
  zoom.changed = zoomed;
  history.scrollRestoration = "manual";
  $("list").addEventListener("scroll", () => { requestAnimationFrame(() => { drawRows(); showFastScroll(); }); scrolled(); }, { passive: true });
  listenFastScroll();
  listenGit();
  // The server back after being away: the folder, live updates and an unfinished view catch up.
  onRecovery(() => {
    load(state.folder, { keepScroll: true });
    listen(state.folder);
    if (state.viewing && !$("viewer").hidden && $("viewer-body").querySelector(".state.unreachable")) openViewer(state.viewing, { push: false });
  });
  // The row marked as the one just left is marked until the next touch.
  $("list").addEventListener("pointerdown", () => {
    if (state.cameFrom < 0) return;
    state.cameFrom = -1;
    for (const row of all(".came-from")) row.classList.remove("came-from");
  });
  window.addEventListener("pagehide", () => { if (state.rows.length) rememberPlace(state.folder); });
  // A turned phone shows a picture larger: the zoom check asks for a sharper class if it needs one.
  window.addEventListener("resize", () => requestAnimationFrame(() => { drawRows(); renderCrumbs(); zoomed(zoom.scale); }));
  $("back").addEventListener("click", () => { if (state.folder !== "/") navigate(parentOf(state.folder)); });
  $("layout-toggle").addEventListener("click", toggleLayout);
  $("list").addEventListener("keydown", moveFocus);
  $("viewer-original").addEventListener("click", showOriginal);
  $("viewer-info").addEventListener("click", () => { if (state.viewing) openInfo(state.viewing); });
  $("refresh").addEventListener("click", () => load(state.folder, { keepScroll: true }));
  $("search-open").addEventListener("click", openSearch);
  $("settings-open").addEventListener("click", () => { $("settings").hidden = false; $("settings-close").focus(); });
  $("sort").addEventListener("change", (event) => { prefs.set("sort", $("sort", HTMLSelectElement).value); sortItems(); clearRows(); drawRows(); });
  $("setting-compact").addEventListener("change", () => { prefs.set("compact", $("setting-compact", HTMLInputElement).checked); applySettings(); clearRows(); drawRows(); });
  $("setting-hidden").addEventListener("change", () => { prefs.set("hidden", $("setting-hidden", HTMLInputElement).checked); load(state.folder, { keepScroll: true }); });
  $("viewer-close").addEventListener("click", () => closeViewer());
  listenMenus();
  onEditedFileChanged(() => toast("This file changed on the server. Your edits are kept; saving shows both."));
  $("viewer-prev").addEventListener("click", () => step(-1));
  $("viewer-next").addEventListener("click", () => step(1));
  $("text-smaller").addEventListener("click", () => setTextSize(viewer.textSize - 2));
  $("text-larger").addEventListener("click", () => setTextSize(viewer.textSize + 2));
  $("info-close").addEventListener("click", () => { $("info").hidden = true; });
  $("viewer-edit").addEventListener("click", startEditing);
  $("viewer-save").addEventListener("click", save);
  $("conflict-mine").addEventListener("click", keepMine);
  $("conflict-theirs-take").addEventListener("click", takeTheirs);
  $("new-folder").addEventListener("click", () => { $("new-folder-form").hidden = false; $("new-folder-name").focus(); });
  $("new-folder-cancel").addEventListener("click", closeNewFolder);
  $("new-folder-form").addEventListener("submit", newFolder);
  for (const kind of ["rename", "move", "copy", "delete"]) $("action-" + kind).addEventListener("click", () => beginAction(kind));
  $("action-form").addEventListener("submit", confirmAction);
  $("delete-go").addEventListener("click", confirmDelete);
  listenPicker();
  $("select-start").addEventListener("click", startSelecting);
  $("select-done").addEventListener("click", stopSelecting);
  $("select-all").addEventListener("click", toggleAll);
  $("bulk-move").addEventListener("click", () => transfer("move", selectedItems()));
  $("bulk-copy").addEventListener("click", () => transfer("copy", selectedItems()));
  $("bulk-download").addEventListener("click", () => { download(selectedItems()); stopSelecting(); });
  $("bulk-delete").addEventListener("click", askToDeleteMany);
  $("delete-many-go").addEventListener("click", deleteMany);
  $("delete-many-cancel").addEventListener("click", () => { $("delete-many-confirm").hidden = true; });
  // Download folder: the folder shown, as a zip (its address is set when the menu opens).
  $("folder-more").addEventListener("click", () => {
    const link = $("download-folder", HTMLAnchorElement);
    link.href = apiURL("archive", { path: state.folder });
    link.download = (state.folder === "/" ? "Home" : nameOf(state.folder)) + ".zip";
  });
  $("info-open").addEventListener("click", () => { const item = state.infoItem; if (!item) return; $("info").hidden = true; activate(item); });
  $("info-share").addEventListener("click", () => { const item = state.infoItem; if (item) share(item, item.path || join(state.folder, item.name)); });
  $("delete-cancel").addEventListener("click", () => { $("delete-confirm").hidden = true; $("action-delete").focus(); });
  $("trash-open").addEventListener("click", () => { $("settings").hidden = true; openTrash(); });
  $("trash-close").addEventListener("click", () => { $("trash").hidden = true; });
  $("trash-empty").addEventListener("click", askToEmpty);
  $("trash-empty-go").addEventListener("click", emptyTrash);
  $("trash-empty-cancel").addEventListener("click", () => { $("trash-empty-confirm").hidden = true; $("trash-empty").focus(); });
  $("upload-pick").addEventListener("click", () => $("upload-input").click());
  $("upload-folder").addEventListener("click", () => $("upload-folder-input").click());
  $("upload-folder-input").addEventListener("change", () => { const picker = $("upload-folder-input", HTMLInputElement); upload([...picker.files]); picker.value = ""; });
  $("uploads-clear").addEventListener("click", clearUploads);
  // Sheets stay above the on-screen keyboard: the part of the window it covers pads the overlays.
  if (window.visualViewport) {
    const viewport = window.visualViewport;
    const fit = () => {
      const covered = Math.max(0, window.innerHeight - viewport.height - viewport.offsetTop);
      document.documentElement.style.setProperty("--keyboard", covered + "px");
    };
    viewport.addEventListener("resize", fit);
    viewport.addEventListener("scroll", fit);
  }
  $("upload-input").addEventListener("change", () => { const picker = $("upload-input", HTMLInputElement); upload([...picker.files]); picker.value = ""; });
  document.addEventListener("dragover", (event) => {
    if (!state.writable || !event.dataTransfer || ![...event.dataTransfer.types].includes("Files")) return;
    event.preventDefault(); document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (event) => { if (!event.relatedTarget) document.body.classList.remove("dropping"); });
  document.addEventListener("drop", (event) => {
    document.body.classList.remove("dropping");
    if (!state.writable || !event.dataTransfer || !event.dataTransfer.files.length) return;
    event.preventDefault();
    upload([...event.dataTransfer.files]);
  });
  // Through a share link: nothing writes, searches or signs in, and the server says nothing of itself.
  if (shared) document.body.classList.add("shared");
  else fetch("/api/health").then(async (response) => {
    // Behind the access-token gate: the token first; the page starts again once it is given.
    if (isGated(response)) { askForAccess(); return; }
    const health = await response.json();
    state.writable = health.readonly === false;
    state.hiddenAllowed = health.hidden === true;
    state.tokenServer = health.auth === true;
    showWrites();
    if (state.writable) readRetention();
    startAccount(health.readonly === false);
    // Hidden names only where the server lists them at all.
    $("setting-hidden", HTMLInputElement).disabled = health.hidden !== true;
    $("setting-hidden").closest("label").hidden = health.hidden !== true;
  }).catch(() => { /* read-only it is */ });
  // WebDAV, when the server serves it: the address to mount, and where each system takes it.
  if (!shared) fetch("/dav/", { method: "OPTIONS" }).then((response) => {
    if (!response.headers.get("DAV")) return;
    const address = `${location.origin}/dav/`;
    $("dav-address").textContent = `Mount as a drive (WebDAV): ${address} — Finder: Go › Connect to Server; ` +
      `Windows: Map network drive; Linux: ${address.replace(/^http/, "dav")}`;
    $("dav-address").hidden = false;
  }).catch(() => { /* no WebDAV */ });
  $("settings-close").addEventListener("click", () => { $("settings").hidden = true; });
  for (const id of ["viewer", "info", "search", "settings", "trash", "picker"]) {
    $(id).addEventListener("click", (event) => {
      if (event.target !== $(id)) return;
      if (id === "viewer") closeViewer(); else if (id === "picker") finishPicking(false); else $(id).hidden = true;
    });
  }
  $("search-input").addEventListener("input", runSearch);
  $("search-input").addEventListener("keydown", (event) => {
    const count = state.searchResults.length;
    if (event.key === "ArrowDown" && count) { state.searchIndex = (state.searchIndex + 1) % count; markSelected(); event.preventDefault(); }
    else if (event.key === "ArrowUp" && count) { state.searchIndex = (state.searchIndex - 1 + count) % count; markSelected(); event.preventDefault(); }
    else if (event.key === "Enter" && state.searchIndex >= 0) { event.preventDefault(); openResult(state.searchResults[state.searchIndex]); }
  });
  document.addEventListener("keydown", (event) => {
    // Behind the access-token gate no key reaches the page under the token form (Tab stays in it).
    if (!$("access").hidden && event.key !== "Tab") return;
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") { event.preventDefault(); closeOverlays(); openSearch(); return; }
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s" && state.editing && state.editing.active) { event.preventDefault(); save(); return; }
    if (event.key === "Tab") {
      // Keyboard focus stays inside an open dialog.
      const open = ["access", "picker", "search", "info", "settings", "trash", "git", "viewer"].map((id) => $(id)).find((overlay) => !overlay.hidden);
      if (open) {
        const focusable = all("button, a[href], input, select, textarea, [tabindex]", open)
          .filter((element) => !(/** @type {HTMLButtonElement} */ (element).disabled) && element.offsetParent !== null && element.tabIndex >= 0);
        if (focusable.length) {
          const first = focusable[0], last = focusable[focusable.length - 1];
          if (!open.contains(document.activeElement)) { event.preventDefault(); first.focus(); }
          else if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
          else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
        }
      }
      return;
    }
    const menuButton = openMenuButton();
    if (event.key === "Escape" && menuButton) { closeMenus(); menuButton.focus(); return; }
    if (event.key === "Escape" && !$("picker").hidden) { finishPicking(false); return; }
    if (event.key === "Escape" && state.selecting && !anyOverlay()) { stopSelecting(); return; }
    if (event.key === "Escape" && !$("new-folder-form").hidden && !anyOverlay()) { closeNewFolder(); $("new-folder").focus(); return; }
    if (event.key === "Escape") {
      if (!$("search").hidden || !$("info").hidden || !$("settings").hidden || !$("trash").hidden || !$("git").hidden) closeOverlays(); else closeViewer();
      return;
    }
    if (!$("viewer").hidden) {
      if (typing || !$("info").hidden) return;
      if (event.key === "ArrowRight") step(1); else if (event.key === "ArrowLeft") step(-1);
      else if (event.key === "i" && !$("viewer-info").hidden && $("info").hidden) openInfo(state.viewing);
      return;
    }
    if (typing || anyOverlay()) return;
    if (event.key === "Backspace" && state.folder !== "/") { event.preventDefault(); navigate(parentOf(state.folder)); }
    else if (event.key === "/") { event.preventDefault(); openSearch(); }
    else if (event.key === "g" && !event.ctrlKey && !event.metaKey && !event.altKey) toggleLayout();
  });
  // Touch: swipe between images, swipe the viewer down to close, pull the list to refresh.
  let touch = null;
  $("viewer").addEventListener("touchstart", (event) => { const t = event.touches[0]; touch = { x: t.clientX, y: t.clientY }; }, { passive: true });
  $("viewer").addEventListener("touchend", (event) => {
    if (!touch || event.touches.length) return;
    const t = event.changedTouches[0], dx = t.clientX - touch.x, dy = t.clientY - touch.y;
    touch = null;
    if (zoom.image && zoom.image.isConnected && (zoom.zoomed || zoom.pinch || event.changedTouches.length > 1)) return;  // panning or pinching, not swiping
    if (Math.abs(dx) > 60 && Math.abs(dx) > Math.abs(dy) && !$("viewer-prev").hidden) step(dx < 0 ? 1 : -1);
    else if (dy > 120 && Math.abs(dy) > Math.abs(dx) && $("viewer-body").scrollTop <= 0) closeViewer();
  });
  let pull = null;
  $("list").addEventListener("touchstart", (event) => { pull = $("list").scrollTop <= 0 ? event.touches[0].clientY : null; }, { passive: true });
  $("list").addEventListener("touchmove", (event) => {
    if (pull === null) return;
    const distance = event.touches[0].clientY - pull;
    $("pull").style.height = Math.max(0, Math.min(48, distance / 2)) + "px";
  }, { passive: true });
  $("list").addEventListener("touchend", (event) => {
    if (pull === null) return;
    const distance = event.changedTouches[0].clientY - pull;
    pull = null;
    $("pull").style.height = "0";
    if (distance > 90) load(state.folder, { keepScroll: true });
  });
  window.addEventListener("popstate", () => {
    if (shared) { openShared(); return; }
  const where = readLocation();
    if (!where.file) closeViewer({ fromHistory: true });
    const loading = where.folder !== state.folder ? load(where.folder, { place: placeFor(where.folder, { fromMemory: true }) }) : Promise.resolve();
    if (where.file) loading.then(() => openFromLocation(where));
  });
  if (shared) { openShared(); return; }
  const where = readLocation();
  // A reload or a return to this page: the tab's memory too, since a place saved on the way out
  // (pagehide) may not have reached the history entry.
  const entry = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType("navigation")[0]);
  const returning = Boolean(entry) && (entry.type === "reload" || entry.type === "back_forward");
  load(where.folder, { place: placeFor(where.folder, { fromMemory: returning }) }).then(() => { if (where.file) openFromLocation(where); });
}
/** A share link's page: its folder, or its one file in the viewer. */
async function openShared() {
  let item;
  try { item = await readShared(); } catch (error) { showState(error.message, { error: true }); return; }
  const where = readLocation();
  if (item.folder) {
    load(where.folder, { place: placeFor(where.folder) }).then(() => { if (where.file) openFromLocation(where); });
    return;
  }
  // One file: the viewer, over a list that holds only it.
  state.folder = "/";
  state.items = [{ name: item.name, type: "file", path: item.path, extension: item.name.includes(".") ? item.name.slice(item.name.lastIndexOf(".") + 1) : null }];
  sortItems(); clearRows(); drawRows(); renderCrumbs();
  openFromLocation({ folder: "/", file: item.path });
}
start();
