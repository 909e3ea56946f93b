// Live updates: the folder shown reloads when the server says it changed.

import { apiURL } from "./api.js";
import { load } from "./listing.js";
import { suspect } from "./offline.js";
import { viewedFileChanged } from "./viewer.js";
import { state } from "./state.js";

export function listen(folder) {
  if (state.events) state.events.close();
  state.events = null;
  if (!window.EventSource) return;
  const source = new EventSource(apiURL("events", { path: folder }));
  const changed = (event) => {
    // The file open in the viewer changed: it is shown anew (edits are kept).
    try {
      const change = JSON.parse(event.data || "{}");
      if (state.viewing && (change.path === state.viewing.path || change.from === state.viewing.path)) viewedFileChanged(change);
    } catch { /* a reset has no data */ }
    clearTimeout(state.reloadTimer);
    state.reloadTimer = setTimeout(() => load(state.folder, { keepScroll: true }), 120);
  };
  for (const type of ["created", "deleted", "modified", "renamed", "reset"]) source.addEventListener(type, changed);
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED && state.events === source) state.events = null;
    suspect();  // the stream broke: is the server away?
  };
  state.events = source;
}
