/// The web UI's script: no framework and no build step. The address is the state (the path is
/// the folder, `?view=1` opens the viewer on a file), so links, history and reloads just work.
/// Lists draw only the rows on screen, so a folder of 10,000 entries stays smooth.
enum WebScriptSource {
    static let javascript = #"""
        "use strict";
        (() => {
        const $ = (id) => document.getElementById(id);
        const state = {
          folder: "/", items: [], rows: [], rendered: new Map(),
          viewing: null, viewerPushed: false, images: [], events: null, reloadTimer: 0,
          searchSerial: 0, searchTimer: 0, searchResults: [], searchIndex: -1, loadSerial: 0,
          writable: false, infoItem: null, action: null, editing: null,
        };

        // MARK: Preferences, kept in this browser
        const prefs = {
          get(key, fallback) {
            try { const value = localStorage.getItem("browsey." + key); return value === null ? fallback : JSON.parse(value); }
            catch { return fallback; }
          },
          set(key, value) { try { localStorage.setItem("browsey." + key, JSON.stringify(value)); } catch { /* private mode */ } },
        };

        // MARK: Talking to the server
        // encodeURIComponent, not URLSearchParams: the server reads `+` as a plus sign, as RFC 3986 has it.
        function apiURL(name, params) {
          return "/api/" + name + "?" + Object.entries(params).map(([key, value]) => key + "=" + encodeURIComponent(value)).join("&");
        }
        async function api(name, params) {
          const response = await fetch(apiURL(name, params), { headers: { Accept: "application/json" } });
          let body = {};
          try { body = await response.json(); } catch { /* not JSON */ }
          if (!response.ok) throw new Error(body.message || body.error || ("The server answered " + response.status));
          return body;
        }
        function withHidden(params) { if (prefs.get("hidden", false) && state.hiddenAllowed !== false) params.hidden = "1"; return params; }
        /// A JSON write; answers the status and the body, whatever the status.
        async function post(name, body) {
          const response = await fetch("/api/" + name, {
            method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body),
          });
          let answer = {};
          try { answer = await response.json(); } catch { /* not JSON */ }
          return { status: response.status, ok: response.ok, body: answer, message: answer.message || answer.error || ("The server answered " + response.status) };
        }

        // MARK: Addresses
        function pageURL(path) { return path.split("/").map(encodeURIComponent).join("/") || "/"; }
        function parentOf(path) { const cut = path.lastIndexOf("/"); return cut <= 0 ? "/" : path.slice(0, cut); }
        function nameOf(path) { return path.slice(path.lastIndexOf("/") + 1); }
        function join(folder, name) { return (folder === "/" ? "" : folder) + "/" + name; }
        function readLocation() {
          let path = "/";
          try { path = decodeURIComponent(location.pathname) || "/"; } catch { path = "/"; }
          if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
          const viewing = new URLSearchParams(location.search).get("view") === "1";
          return viewing ? { folder: parentOf(path), file: path } : { folder: path, file: null };
        }

        // MARK: Formatting for people
        function formatSize(bytes) {
          if (bytes == null) return "";
          const units = ["bytes", "KB", "MB", "GB", "TB"];
          let value = bytes, unit = 0;
          while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
          return unit === 0 ? (bytes === 1 ? "1 byte" : bytes + " bytes") : value.toFixed(value < 10 ? 1 : 0) + " " + units[unit];
        }
        const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
        function formatDate(text) { const date = new Date(text); return isNaN(date) ? "" : dateFormat.format(date); }
        const kinds = {
          image: ["png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "avif", "heic"],
          video: ["mp4", "mov", "webm", "m4v"],
          audio: ["mp3", "m4a", "aac", "wav", "flac", "ogg", "oga", "opus"],
          pdf: ["pdf"],
          archive: ["zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "rar"],
          markdown: ["md", "markdown"],
          code: ["swift", "js", "mjs", "cjs", "ts", "tsx", "jsx", "py", "rb", "go", "rs", "c", "h", "cpp", "hpp", "cc", "java", "kt",
            "cs", "php", "sh", "bash", "zsh", "json", "yaml", "yml", "toml", "html", "htm", "xhtml", "css", "scss", "xml", "sql", "lua", "zig"],
        };
        function kindOf(item) {
          if (item.type === "directory" || item.targetType === "directory") return "folder";
          const extension = (item.extension || "").toLowerCase();
          for (const [kind, list] of Object.entries(kinds)) if (list.includes(extension)) return kind;
          return "file";
        }
        // Icons drawn here (no emoji font or icon font needed: both are missing on many machines).
        const page = "M6.5 3h7.5l5 5v12a1 1 0 0 1-1 1h-11.5a1 1 0 0 1-1-1v-16a1 1 0 0 1 1-1z M14 3v5h5";
        const iconPaths = {
          folder: "M3 6.5a1.5 1.5 0 0 1 1.5-1.5h4.5l2 2h8.5a1.5 1.5 0 0 1 1.5 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-15a1.5 1.5 0 0 1-1.5-1.5z",
          file: page,
          markdown: page + " M8.5 13h7 M8.5 16.5h5",
          pdf: page + " M8.5 13.5h7 M8.5 16.5h7",
          code: "M9 8l-4.5 4 4.5 4 M15 8l4.5 4-4.5 4",
          image: "M4 5h16v14h-16z M4 16l5-5 4 4 3-3 4 4 M15.5 8a1.5 1.5 0 1 0 0.01 0",
          video: "M3 6.5h12.5v11h-12.5z M15.5 10.5l5-3v9l-5-3",
          audio: "M9 17.5a2.5 2.5 0 1 1-5 0a2.5 2.5 0 1 1 5 0z M9 17.5v-12l11-2v12 M20 15.5a2.5 2.5 0 1 1-5 0a2.5 2.5 0 1 1 5 0z",
          archive: "M4 8h16v12h-16z M3 4h18v4h-18z M10 12h4",
          link: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1 M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
          parent: "M9 13l-5-5 5-5 M4 8h10a6 6 0 0 1 0 12h-3",
          info: "M12 3a9 9 0 1 0 0.01 0z M12 11v6 M12 7.5v.5",
          search: "M10.5 4a6.5 6.5 0 1 0 0.01 0z M15.5 15.5l5 5",
          refresh: "M20 12a8 8 0 1 1-2.3-5.7 M20 4v5h-5",
          settings: "M4 7h9 M17 7h3 M15 5v4 M4 17h3 M11 17h9 M9 15v4",
          back: "M15 5l-7 7 7 7",
          close: "M6 6l12 12 M18 6l-12 12",
          download: "M12 4v11 M7 10l5 5 5-5 M5 20h14",
        };
        function svgIcon(name) {
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          svg.setAttribute("viewBox", "0 0 24 24");
          svg.setAttribute("aria-hidden", "true");
          svg.classList.add("glyph", "glyph-" + name);
          const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
          path.setAttribute("d", iconPaths[name] || page);
          svg.append(path);
          return svg;
        }
        function isFolder(item) { return kindOf(item) === "folder"; }

        // MARK: The list
        function sortItems() {
          const order = prefs.get("sort", "name");
          const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
          const items = state.items.slice();
          // The server lists folders first, then names as people order them: its order is the name order.
          if (order !== "name") items.sort((a, b) => {
            const folders = Number(isFolder(b)) - Number(isFolder(a));
            if (folders) return folders;
            if (order === "size" && a.size !== b.size) return (b.size || 0) - (a.size || 0);
            if (order === "date" && a.modified !== b.modified) return new Date(b.modified) - new Date(a.modified);
            return byName.compare(a.name, b.name);
          });
          state.rows = state.folder === "/" ? items : [{ name: "..", type: "directory", parent: true, path: parentOf(state.folder) }, ...items];
          state.images = items.filter((item) => kindOf(item) === "image");
        }
        function rowHeight() { return document.body.classList.contains("compact") ? 40 : 56; }
        function clearRows() { for (const element of state.rendered.values()) element.remove(); state.rendered.clear(); }
        function drawRows() {
          const list = $("list"), height = rowHeight();
          $("spacer").style.height = state.rows.length * height + "px";
          const first = Math.max(0, Math.floor(list.scrollTop / height) - 8);
          const last = Math.min(state.rows.length, Math.ceil((list.scrollTop + list.clientHeight) / height) + 8);
          for (const [index, element] of state.rendered) {
            if (index < first || index >= last) { element.remove(); state.rendered.delete(index); }
          }
          for (let index = first; index < last; index += 1) {
            if (state.rendered.has(index)) continue;
            const element = makeRow(state.rows[index], index);
            element.style.top = index * height + "px";
            $("spacer").appendChild(element);
            state.rendered.set(index, element);
          }
        }
        function makeRow(item, index) {
          const row = document.createElement("a");
          row.className = "row";
          row.setAttribute("role", "listitem");
          row.dataset.index = index;
          const path = item.parent ? item.path : join(state.folder, item.name);
          row.href = isFolder(item) ? pageURL(path) : pageURL(path) + "?view=1";
          const icon = document.createElement("span");
          icon.className = "icon"; icon.setAttribute("aria-hidden", "true");
          icon.append(svgIcon(item.parent ? "parent" : item.type === "symlink" ? "link" : kindOf(item)));
          const text = document.createElement("span");
          text.className = "text";
          const name = document.createElement("span");
          name.className = "name"; name.textContent = item.name;
          const detail = document.createElement("span");
          detail.className = "detail";
          detail.textContent = item.parent ? "Parent folder" : isFolder(item) ? formatDate(item.modified)
            : formatSize(item.size) + " • " + formatDate(item.modified);
          text.append(name, detail);
          row.append(icon, text);
          if (!item.parent) {
            const more = document.createElement("button");
            more.className = "icon-button more"; more.append(svgIcon("info"));
            more.setAttribute("aria-label", "Info for " + item.name);
            more.addEventListener("click", (event) => { event.preventDefault(); event.stopPropagation(); openInfo(item); });
            row.append(more);
          }
          row.addEventListener("click", (event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            activate(item);
          });
          return row;
        }
        function activate(item) {
          if (item.parent) return navigate(item.path);
          const path = join(state.folder, item.name);
          if (isFolder(item)) navigate(path); else openViewer({ ...item, path });
        }
        function showState(text, { error = false, retry = false } = {}) {
          const box = $("state");
          box.hidden = !text;
          box.className = "state" + (error ? " error" : "");
          box.textContent = text || "";
          if (retry) {
            const button = document.createElement("button");
            button.className = "wide-button"; button.textContent = "Try again";
            button.addEventListener("click", () => load(state.folder));
            box.append(document.createElement("br"), button);
          }
        }
        function renderCrumbs() {
          const nav = $("crumbs");
          nav.textContent = "";
          const parts = state.folder.split("/").filter(Boolean);
          const add = (label, path, current) => {
            const link = document.createElement("a");
            link.href = pageURL(path); link.textContent = label;
            if (current) link.setAttribute("aria-current", "page");
            link.addEventListener("click", (event) => { event.preventDefault(); navigate(path); });
            nav.append(link);
          };
          add("Home", "/", parts.length === 0);
          parts.forEach((part, index) => {
            const sep = document.createElement("span");
            sep.className = "sep"; sep.textContent = "›"; sep.setAttribute("aria-hidden", "true");
            nav.append(sep);
            add(part, "/" + parts.slice(0, index + 1).join("/"), index === parts.length - 1);
          });
          nav.scrollLeft = nav.scrollWidth;
          $("back").disabled = state.folder === "/";
          document.title = (parts.length ? parts[parts.length - 1] : "Home") + " — Browsey";
        }
        async function load(folder, { keepScroll = false } = {}) {
          const serial = ++state.loadSerial;
          const changed = folder !== state.folder;
          state.folder = folder;
          renderCrumbs();
          if (changed) { state.items = []; state.rows = []; clearRows(); drawRows(); }
          if (!keepScroll) showState(state.items.length ? "" : "Loading…");
          try {
            const body = await api("list", withHidden({ path: folder }));
            if (serial !== state.loadSerial) return;
            state.items = body.items || [];
            const scroll = $("list").scrollTop;
            sortItems();
            clearRows();
            if (!keepScroll) $("list").scrollTop = 0; else $("list").scrollTop = scroll;
            drawRows();
            $("count").textContent = state.items.length === 1 ? "1 item" : state.items.length + " items";
            showState(state.items.length ? "" : "This folder is empty.");
            if (performance.getEntriesByName("browsey:navigate").length) {
              performance.measure("browsey:rows-visible", "browsey:navigate");
              performance.clearMarks("browsey:navigate");
            }
          } catch (error) {
            if (serial !== state.loadSerial) return;
            state.items = []; state.rows = []; clearRows(); drawRows();
            $("count").textContent = "";
            showState(error.message, { error: true, retry: true });
          }
          if (changed || !state.events) listen(folder);
        }
        function navigate(folder, { push = true } = {}) {
          performance.clearMarks("browsey:navigate");
          performance.mark("browsey:navigate");
          if (push) history.pushState(null, "", pageURL(folder));
          closeOverlays();
          return load(folder);
        }

        // MARK: Live updates
        function listen(folder) {
          if (state.events) state.events.close();
          state.events = null;
          if (!window.EventSource) return;
          const source = new EventSource(apiURL("events", { path: folder }));
          const changed = () => {
            clearTimeout(state.reloadTimer);
            state.reloadTimer = setTimeout(() => load(state.folder, { keepScroll: true }), 120);
          };
          for (const type of ["created", "deleted", "modified", "renamed", "reset"]) source.addEventListener(type, changed);
          source.onerror = () => { if (source.readyState === EventSource.CLOSED && state.events === source) state.events = null; };
          state.events = source;
        }

        // MARK: The viewer
        const viewer = { textSize: prefs.get("textSize", 14) };
        function setTextSize(size) {
          viewer.textSize = Math.max(10, Math.min(28, size));
          prefs.set("textSize", viewer.textSize);
          $("viewer-body").style.setProperty("--text-size", viewer.textSize + "px");
        }
        async function openViewer(item, { push = true } = {}) {
          state.viewing = item;
          const overlay = $("viewer");
          overlay.hidden = false;
          $("viewer-title").textContent = item.name;
          $("viewer-download").href = apiURL("file", { path: item.path });
          $("viewer-download").setAttribute("download", item.name);
          if (push) { history.pushState(null, "", pageURL(item.path) + "?view=1"); state.viewerPushed = true; }
          const kind = kindOf(item);
          const imageIndex = state.images.findIndex((image) => image.name === item.name);
          $("viewer-prev").hidden = $("viewer-next").hidden = !(kind === "image" && state.images.length > 1 && imageIndex >= 0);
          const textual = !["image", "video", "audio", "pdf"].includes(kind);
          $("text-smaller").hidden = $("text-larger").hidden = !textual;
          const body = $("viewer-body");
          body.textContent = "";
          state.editing = null;
          $("viewer-edit").hidden = $("viewer-save").hidden = true;
          $("conflict").hidden = true;
          setTextSize(viewer.textSize);
          const source = apiURL("file", { path: item.path, download: "false" });
          if (kind === "image") {
            const image = document.createElement("img");
            image.src = source; image.alt = item.name;
            image.draggable = false;
            body.append(image);
            zoom.attach(image);
          } else if (kind === "video" || kind === "audio") {
            const media = document.createElement(kind);
            media.controls = true; media.src = source; media.preload = "metadata";
            media.setAttribute("aria-label", item.name);
            body.append(media);
          } else if (kind === "pdf") {
            const frame = document.createElement("iframe");
            frame.src = source; frame.title = item.name;
            body.append(frame);
          } else {
            const waiting = document.createElement("div");
            waiting.className = "state"; waiting.textContent = "Loading…";
            body.append(waiting);
            try {
              const view = await api("view", { path: item.path });
              if (state.viewing !== item) return;
              body.textContent = "";
              if (view.type === "text") {
                if (typeof view.html === "string") {
                  // Markdown, rendered by the server with any raw HTML escaped (and the page's CSP runs no inline script).
                  const article = document.createElement("article");
                  article.className = "markdown";
                  article.innerHTML = view.html;
                  linkRelative(article, parentOf(item.path));
                  body.append(article);
                } else {
                  const pre = document.createElement("pre");
                  // Highlighted by the server, every character of the source escaped there.
                  if (typeof view.highlighted === "string") pre.innerHTML = view.highlighted; else pre.textContent = view.content;
                  if (view.language) pre.dataset.language = view.language;
                  body.append(pre);
                }
                state.editing = { item, content: view.content, base: { modified: view.modified, size: view.size }, active: false };
                $("viewer-edit").hidden = !state.writable;
              } else {
                openViewer({ ...item, extension: view.extension }, { push: false });
              }
            } catch (error) {
              if (state.viewing !== item) return;
              waiting.textContent = error.message === "File type not viewable" ? "No preview for this file: download it instead." : error.message;
            }
          }
          $("viewer-close").focus();
        }
        // Zoom and pan for images: pinch, double-tap (or double-click), the wheel; drag to pan.
        const zoom = {
          image: null, scale: 1, x: 0, y: 0, pointers: new Map(), pinch: null, lastTap: 0, tap: null, touchToggled: -1000,
          get zoomed() { return this.scale > 1.01; },
          attach(image) {
            this.image = image; this.scale = 1; this.x = 0; this.y = 0; this.pointers.clear(); this.pinch = null;
            this.apply();
          },
          /// Gestures anywhere in the viewer act on its image (a small image is a small target).
          listen(area) {
            const active = () => this.image && this.image.isConnected;
            area.addEventListener("wheel", (event) => {
              if (!active()) return;
              event.preventDefault();
              this.zoomAt(this.scale * Math.exp(-event.deltaY / 300), event.clientX, event.clientY);
            }, { passive: false });
            // A touch double tap is handled on its own (below); the dblclick the browser adds to it is not a second one.
            area.addEventListener("dblclick", (event) => { if (active() && performance.now() - this.touchToggled > 500) this.toggle(event.clientX, event.clientY); });
            area.addEventListener("pointerdown", (event) => {
              if (!active()) return;
              this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
              if (this.pointers.size === 2) {
                const [a, b] = [...this.pointers.values()];
                this.pinch = { distance: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), scale: this.scale };
                this.tap = null;
              } else {
                this.tap = event.pointerType === "touch" ? { time: performance.now(), x: event.clientX, y: event.clientY } : null;
              }
            });
            area.addEventListener("pointermove", (event) => {
              const previous = this.pointers.get(event.pointerId);
              if (!previous || !active()) return;
              const current = { x: event.clientX, y: event.clientY };
              this.pointers.set(event.pointerId, current);
              if (this.pointers.size === 2 && this.pinch) {
                const [a, b] = [...this.pointers.values()];
                this.zoomAt(this.pinch.scale * Math.hypot(a.x - b.x, a.y - b.y) / this.pinch.distance, (a.x + b.x) / 2, (a.y + b.y) / 2);
              } else if (this.zoomed) {
                this.x += current.x - previous.x; this.y += current.y - previous.y; this.apply();
              }
            });
            const up = (event) => {
              this.pointers.delete(event.pointerId);
              if (this.pointers.size < 2) this.pinch = null;
              // A tap is short and still; two taps in a row toggle the zoom.
              const tap = this.tap;
              this.tap = null;
              if (event.type !== "pointerup" || !tap || performance.now() - tap.time > 250
                || Math.hypot(event.clientX - tap.x, event.clientY - tap.y) > 10) return;
              if (performance.now() - this.lastTap < 300) {
                this.toggle(event.clientX, event.clientY);
                this.lastTap = 0; this.touchToggled = performance.now();
              }
              else this.lastTap = performance.now();
            };
            area.addEventListener("pointerup", up);
            area.addEventListener("pointercancel", up);
          },
          toggle(x, y) { if (this.zoomed) { this.scale = 1; this.x = 0; this.y = 0; this.apply(); } else this.zoomAt(2.5, x, y); },
          zoomAt(scale, clientX, clientY) {
            const next = Math.max(1, Math.min(8, scale));
            const box = this.image.getBoundingClientRect();
            // Keep the point under the fingers (or the cursor) where it is.
            const originX = box.left + box.width / 2 - this.x, originY = box.top + box.height / 2 - this.y;
            const ratio = next / this.scale;
            this.x = (this.x - (clientX - originX)) * ratio + (clientX - originX);
            this.y = (this.y - (clientY - originY)) * ratio + (clientY - originY);
            this.scale = next;
            if (!this.zoomed) { this.x = 0; this.y = 0; }
            this.apply();
          },
          apply() {
            if (!this.image) return;
            this.image.style.transform = "translate(" + this.x + "px, " + this.y + "px) scale(" + this.scale + ")";
            this.image.style.cursor = this.zoomed ? "grab" : "zoom-in";
            this.image.dataset.zoom = this.scale.toFixed(2);
          },
        };

        /// A Markdown file's relative images come from the server's files, and its relative links
        /// open in this viewer; other links open in a new tab.
        function linkRelative(article, folder) {
          const relative = (address) => !/^[a-z][a-z0-9+.-]*:/i.test(address) && !address.startsWith("/") && !address.startsWith("#");
          const resolve = (address) => {
            const parts = folder.split("/").filter(Boolean);
            let clean = address.split("#")[0].split("?")[0];
            try { clean = decodeURIComponent(clean); } catch { /* kept as written */ }
            for (const part of clean.split("/")) {
              if (part === "..") parts.pop(); else if (part && part !== ".") parts.push(part);
            }
            return "/" + parts.join("/");
          };
          for (const image of article.querySelectorAll("img[src]")) {
            const source = image.getAttribute("src");
            if (relative(source)) image.src = apiURL("file", { path: resolve(source), download: "false" });
          }
          for (const link of article.querySelectorAll("a[href]")) {
            const address = link.getAttribute("href");
            if (relative(address)) {
              const path = resolve(address);
              link.href = pageURL(path) + (/\.[a-z0-9]+$/i.test(path) ? "?view=1" : "");
            } else if (!address.startsWith("#")) {
              link.target = "_blank"; link.rel = "noopener noreferrer";
            }
          }
        }

        function step(offset) {
          if (!state.viewing || state.images.length < 2) return;
          const index = state.images.findIndex((image) => image.name === state.viewing.name);
          if (index < 0) return;
          const next = state.images[(index + offset + state.images.length) % state.images.length];
          const path = join(state.folder, next.name);
          history.replaceState(null, "", pageURL(path) + "?view=1");
          openViewer({ ...next, path }, { push: false });
        }
        function closeViewer({ fromHistory = false } = {}) {
          if ($("viewer").hidden) return;
          if (state.editing && state.editing.active && state.editing.dirty && !fromHistory
            && !window.confirm("Close without saving your changes?")) return;
          $("viewer").hidden = true;
          $("viewer-body").textContent = "";
          state.viewing = null;
          if (!fromHistory) {
            if (state.viewerPushed) history.back(); else history.replaceState(null, "", pageURL(state.folder));
          }
          state.viewerPushed = false;
          $("list").focus();
        }

        // MARK: Editing, with the conflict flow: a 409 never discards the user's text
        function startEditing() {
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
        async function save() {
          const editing = state.editing;
          if (!editing || !editing.active) return;
          const content = $("viewer-body").querySelector("textarea").value;
          const answer = await post("save", { path: editing.item.path, content, baseModified: editing.base.modified, baseSize: editing.base.size });
          if (answer.ok) {
            editing.base = { modified: answer.body.modified, size: answer.body.size };
            editing.dirty = false;
            $("conflict").hidden = true;
            toast("Saved");
          } else if (answer.status === 409) {
            const theirs = await api("view", { path: editing.item.path }).catch(() => null);
            editing.theirs = theirs;
            $("conflict-theirs").textContent = theirs ? theirs.content : "(their version could not be read)";
            $("conflict").hidden = false;
          } else {
            toast(answer.message);
          }
        }
        async function keepMine() {
          const editing = state.editing;
          if (!editing || !editing.theirs) return;
          editing.base = { modified: editing.theirs.modified, size: editing.theirs.size };
          await save();
        }
        function takeTheirs() {
          const editing = state.editing;
          if (!editing || !editing.theirs) return;
          $("viewer-body").querySelector("textarea").value = editing.theirs.content;
          editing.base = { modified: editing.theirs.modified, size: editing.theirs.size };
          editing.dirty = false;
          $("conflict").hidden = true;
        }

        // MARK: Writes: new folder, rename, move, copy, delete with undo
        function showWrites() { for (const element of document.querySelectorAll(".writes")) element.hidden = !state.writable; }
        async function newFolder(event) {
          event.preventDefault();
          const name = $("new-folder-name").value.trim();
          if (!name) return;
          const answer = await post("mkdir", { path: join(state.folder, name) });
          if (!answer.ok) return toast(answer.message);
          $("new-folder-form").hidden = true;
          $("new-folder-name").value = "";
          await load(state.folder, { keepScroll: true });
        }
        function beginAction(kind) {
          const item = state.infoItem;
          if (!item) return;
          $("action-error").hidden = true;
          if (kind === "delete") return remove(item);
          state.action = kind;
          const input = $("action-input");
          input.value = kind === "rename" ? item.name : state.folder;
          input.setAttribute("aria-label", kind === "rename" ? "New name" : "Destination folder");
          $("action-confirm").textContent = kind === "rename" ? "Rename" : kind === "move" ? "Move here" : "Copy here";
          $("action-form").hidden = false;
          input.focus();
          if (kind === "rename") {
            const dot = item.name.lastIndexOf(".");
            input.setSelectionRange(0, dot > 0 && !isFolder(item) ? dot : item.name.length);
          }
        }
        async function confirmAction(event) {
          event.preventDefault();
          const item = state.infoItem, value = $("action-input").value.trim();
          if (!item || !value) return;
          const path = join(state.folder, item.name);
          const answer = state.action === "rename" ? await post("rename", { path, newName: value })
            : await post(state.action, { path, destination: value });
          if (!answer.ok) { $("action-error").textContent = answer.message; $("action-error").hidden = false; return; }
          $("info").hidden = true;
          toast(state.action === "rename" ? "Renamed" : state.action === "move" ? "Moved" : "Copied");
          await load(state.folder, { keepScroll: true });
        }
        async function remove(item) {
          const answer = await post("delete", { path: join(state.folder, item.name) });
          if (!answer.ok) { $("action-error").textContent = answer.message; $("action-error").hidden = false; return; }
          $("info").hidden = true;
          await load(state.folder, { keepScroll: true });
          const id = answer.body.trashId;
          toast("Deleted " + item.name, id ? { label: "Undo", run: async () => {
            const restored = await post("restore", { id });
            toast(restored.ok ? "Restored " + item.name : restored.message);
            await load(state.folder, { keepScroll: true });
          } } : null);
        }

        // MARK: Uploads: never replacing (a taken name gets a free one), resumable, cancellable
        function upload(files) {
          if (!state.writable) return;
          const box = $("uploads");
          box.hidden = false;
          for (const file of files) uploadOne(file, join(state.folder, file.name), box);
        }
        function uploadOne(file, path, box) {
          const row = document.createElement("div");
          row.className = "upload";
          const name = document.createElement("span"); name.textContent = file.name;
          const button = document.createElement("button"); button.className = "small-button";
          const bar = document.createElement("progress"); bar.max = file.size || 1; bar.value = 0;
          bar.setAttribute("aria-label", "Upload of " + file.name);
          const status = document.createElement("span"); status.className = "status";
          row.append(name, button, bar, status);
          box.append(row);
          let request = null;
          const finish = (text, failed) => { status.textContent = text; row.classList.toggle("failed", failed); };
          const send = async (resume) => {
            let start = 0;
            if (resume) {
              try { start = (await api("upload", { path, size: String(file.size) })).received || 0; } catch { start = 0; }
            }
            request = new XMLHttpRequest();
            request.open("PUT", apiURL("file", { path, onConflict: "rename" }));
            if (file.size > 0) request.setRequestHeader("Content-Range", "bytes " + start + "-" + (file.size - 1) + "/" + file.size);
            request.upload.onprogress = (event) => { bar.value = start + event.loaded; status.textContent = formatSize(start + event.loaded) + " of " + formatSize(file.size); };
            request.onload = () => {
              let answer = {};
              try { answer = JSON.parse(request.responseText); } catch { /* not JSON */ }
              if (request.status === 201) {
                bar.value = bar.max; button.hidden = true;
                finish(answer.path && answer.path !== path ? "Done, as " + nameOf(answer.path) : "Done", false);
                clearTimeout(state.reloadTimer);
                state.reloadTimer = setTimeout(() => load(state.folder, { keepScroll: true }), 120);
              } else {
                finish(answer.message || answer.error || ("Failed (" + request.status + ")"), true);
                button.textContent = "Retry"; button.onclick = () => send(true);
              }
            };
            request.onerror = () => { finish("Connection lost", true); button.textContent = "Resume"; button.onclick = () => send(true); };
            request.onabort = () => { finish("Cancelled", true); button.textContent = "Resume"; button.onclick = () => send(true); };
            button.textContent = "Cancel"; button.hidden = false;
            button.onclick = () => request.abort();
            finish(start ? "Resuming at " + formatSize(start) : "Starting…", false);
            request.send(file.slice(start));
          };
          send(false);
        }

        // MARK: Info, search, settings
        async function openInfo(item) {
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
        async function copy(text) {
          try { await navigator.clipboard.writeText(text); }
          catch {
            const area = document.createElement("textarea");
            area.value = text; document.body.append(area); area.select();
            try { document.execCommand("copy"); } catch { /* nothing more to try */ }
            area.remove();
          }
          toast("Path copied");
        }
        function toast(text, action) {
          const box = $("toast");
          box.textContent = text; box.hidden = false;
          if (action) {
            const button = document.createElement("button");
            button.textContent = action.label;
            button.addEventListener("click", () => { box.hidden = true; action.run(); });
            box.append(button);
          }
          clearTimeout(toast.timer);
          toast.timer = setTimeout(() => { box.hidden = true; }, action ? 6000 : 1800);
        }
        function openSearch() {
          $("search").hidden = false;
          const input = $("search-input");
          input.focus(); input.select();
          if (input.value) runSearch();
        }
        function runSearch() {
          clearTimeout(state.searchTimer);
          state.searchTimer = setTimeout(async () => {
            const text = $("search-input").value.trim();
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
            const text = document.createElement("span");
            text.style.minWidth = "0";
            const name = document.createElement("div"); name.textContent = result.name;
            const where = document.createElement("div"); where.className = "where"; where.textContent = parentOf(result.path);
            text.append(name, where);
            item.append(icon, text);
            item.addEventListener("click", () => openResult(result));
            list.append(item);
          });
          $("search-state").textContent = text && !results.length ? "Nothing found." : "";
          markSelected();
        }
        function markSelected() {
          [...$("search-results").children].forEach((item, index) => item.setAttribute("aria-selected", String(index === state.searchIndex)));
          const current = $("result-" + state.searchIndex);
          if (current) { current.scrollIntoView({ block: "nearest" }); $("search-input").setAttribute("aria-activedescendant", current.id); }
        }
        async function openResult(result) {
          $("search").hidden = true;
          if (result.type === "directory") return navigate(result.path);
          await navigate(parentOf(result.path));
          const item = state.items.find((entry) => entry.name === result.name) || { name: result.name, extension: result.extension, type: result.type };
          openViewer({ ...item, path: result.path });
        }
        function applySettings() {
          document.body.classList.toggle("compact", prefs.get("compact", false));
          $("setting-compact").checked = prefs.get("compact", false);
          $("setting-hidden").checked = prefs.get("hidden", false);
          $("sort").value = prefs.get("sort", "name");
        }
        function closeOverlays() {
          for (const id of ["info", "search", "settings"]) $(id).hidden = true;
        }
        function anyOverlay() { return ["viewer", "info", "search", "settings"].some((id) => !$(id).hidden); }

        // MARK: Wiring
        function start() {
          for (const button of document.querySelectorAll("[data-icon]")) { button.textContent = ""; button.append(svgIcon(button.dataset.icon)); }
          applySettings();
          zoom.listen($("viewer-body"));
          $("list").addEventListener("scroll", () => requestAnimationFrame(drawRows), { passive: true });
          window.addEventListener("resize", () => requestAnimationFrame(drawRows));
          $("back").addEventListener("click", () => { if (state.folder !== "/") navigate(parentOf(state.folder)); });
          $("refresh").addEventListener("click", () => load(state.folder, { keepScroll: true }));
          $("search-open").addEventListener("click", openSearch);
          $("settings-open").addEventListener("click", () => { $("settings").hidden = false; $("settings-close").focus(); });
          $("sort").addEventListener("change", (event) => { prefs.set("sort", event.target.value); sortItems(); clearRows(); drawRows(); });
          $("setting-compact").addEventListener("change", (event) => { prefs.set("compact", event.target.checked); applySettings(); clearRows(); drawRows(); });
          $("setting-hidden").addEventListener("change", (event) => { prefs.set("hidden", event.target.checked); load(state.folder, { keepScroll: true }); });
          $("viewer-close").addEventListener("click", () => closeViewer());
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
          $("new-folder-cancel").addEventListener("click", () => { $("new-folder-form").hidden = true; });
          $("new-folder-form").addEventListener("submit", newFolder);
          for (const kind of ["rename", "move", "copy", "delete"]) $("action-" + kind).addEventListener("click", () => beginAction(kind));
          $("action-form").addEventListener("submit", confirmAction);
          $("upload-pick").addEventListener("click", () => $("upload-input").click());
          $("upload-input").addEventListener("change", (event) => { upload([...event.target.files]); event.target.value = ""; });
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
          fetch("/api/health").then((response) => response.json()).then((health) => {
            state.writable = health.readonly === false;
            state.hiddenAllowed = health.hidden === true;
            showWrites();
            // Hidden names only where the server lists them at all.
            $("setting-hidden").disabled = health.hidden !== true;
            $("setting-hidden").closest("label").hidden = health.hidden !== true;
          }).catch(() => { /* read-only it is */ });
          $("settings-close").addEventListener("click", () => { $("settings").hidden = true; });
          for (const id of ["viewer", "info", "search", "settings"]) {
            $(id).addEventListener("click", (event) => {
              if (event.target !== $(id)) return;
              if (id === "viewer") closeViewer(); else $(id).hidden = true;
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
            const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
            if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") { event.preventDefault(); closeOverlays(); openSearch(); return; }
            if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s" && state.editing && state.editing.active) { event.preventDefault(); save(); return; }
            if (event.key === "Tab") {
              // Keyboard focus stays inside an open dialog.
              const open = ["search", "info", "settings", "viewer"].map((id) => $(id)).find((overlay) => !overlay.hidden);
              if (open) {
                const focusable = [...open.querySelectorAll("button, a[href], input, select, textarea, [tabindex]")]
                  .filter((element) => !element.disabled && element.offsetParent !== null && element.tabIndex >= 0);
                if (focusable.length) {
                  const first = focusable[0], last = focusable[focusable.length - 1];
                  if (!open.contains(document.activeElement)) { event.preventDefault(); first.focus(); }
                  else if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
                  else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
                }
              }
              return;
            }
            if (event.key === "Escape") {
              if (!$("search").hidden || !$("info").hidden || !$("settings").hidden) closeOverlays(); else closeViewer();
              return;
            }
            if (!$("viewer").hidden) {
              if (typing) return;
              if (event.key === "ArrowRight") step(1); else if (event.key === "ArrowLeft") step(-1);
              return;
            }
            if (typing || anyOverlay()) return;
            if (event.key === "Backspace" && state.folder !== "/") { event.preventDefault(); navigate(parentOf(state.folder)); }
            else if (event.key === "/") { event.preventDefault(); openSearch(); }
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
            const where = readLocation();
            if (!where.file) closeViewer({ fromHistory: true });
            const loading = where.folder !== state.folder ? load(where.folder) : Promise.resolve();
            if (where.file) loading.then(() => openFromLocation(where));
          });
          const where = readLocation();
          load(where.folder).then(() => { if (where.file) openFromLocation(where); });
        }
        function openFromLocation(where) {
          const name = nameOf(where.file);
          const item = state.items.find((entry) => entry.name === name) || { name, extension: name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : null, type: "file" };
          state.viewerPushed = false;
          openViewer({ ...item, path: where.file }, { push: false });
        }
        start();
        })();
        """#
}
