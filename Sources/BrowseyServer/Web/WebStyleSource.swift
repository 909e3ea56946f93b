/// The web UI's styles: light and dark themes following the system, rows of a fixed height (the
/// list draws only the rows on screen), large touch targets.
enum WebStyleSource {
    static let css = #"""
        :root {
          --bg: #f7f7f8; --panel: #ffffff; --text: #1c1c1e; --muted: #6b6b70; --line: #e3e3e6;
          --accent: #0a63d1; --hover: #eef3fb; --danger: #b3261e; --shadow: 0 8px 30px rgba(0,0,0,.18);
          --row: 56px; --code: #f2f2f4;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #111113; --panel: #1c1c1f; --text: #ececef; --muted: #a0a0a8; --line: #2c2c31;
            --accent: #6aa8ff; --hover: #23262d; --danger: #ff8a80; --shadow: 0 8px 30px rgba(0,0,0,.6);
            --code: #17171a;
          }
        }
        body.compact { --row: 40px; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html, body { margin: 0; height: 100%; }
        body { font: 16px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--text);
          display: flex; flex-direction: column; }
        button, select, input { font: inherit; color: inherit; }
        .muted { color: var(--muted); }
        .bar { display: flex; align-items: center; gap: 4px; padding: 6px 8px; background: var(--panel);
          border-bottom: 1px solid var(--line); min-height: 52px; }
        body > .bar { position: sticky; top: 0; z-index: 2; padding-top: max(6px, env(safe-area-inset-top)); }
        .bar h1 { flex: 1; font-size: 17px; margin: 0 6px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .icon-button { min-width: 44px; min-height: 44px; border: 0; background: transparent; border-radius: 10px;
          font-size: 20px; cursor: pointer; display: inline-flex; align-items: center; justify-content: center;
          text-decoration: none; color: var(--text); }
        .icon-button:hover, .icon-button:focus-visible { background: var(--hover); }
        .icon-button[disabled] { opacity: .35; cursor: default; }
        :focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
        #crumbs { flex: 1; display: flex; align-items: center; overflow-x: auto; white-space: nowrap; scrollbar-width: none; }
        #crumbs a { color: var(--accent); text-decoration: none; padding: 10px 4px; border-radius: 6px; }
        #crumbs a[aria-current] { color: var(--text); font-weight: 600; }
        #crumbs .sep { color: var(--muted); padding: 0 2px; }
        .toolbar { display: flex; align-items: center; justify-content: space-between; padding: 6px 12px;
          font-size: 14px; color: var(--muted); }
        .toolbar select { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 4px 6px; }
        .list { flex: 1; overflow-y: auto; position: relative; -webkit-overflow-scrolling: touch; outline: none; }
        .spacer { position: relative; width: 100%; }
        .row { position: absolute; left: 0; right: 0; height: var(--row); display: flex; align-items: center;
          gap: 12px; padding: 0 4px 0 14px; border-bottom: 1px solid var(--line); background: var(--panel);
          cursor: pointer; text-decoration: none; color: inherit; }
        .row:hover, .row:focus-visible { background: var(--hover); }
        .row .icon, #search-results .icon { width: 28px; height: 28px; flex: none; display: inline-flex; align-items: center; justify-content: center; }
        .glyph { width: 24px; height: 24px; fill: none; stroke: currentColor; stroke-width: 1.6; stroke-linecap: round; stroke-linejoin: round; }
        body.compact .row .glyph { width: 20px; height: 20px; }
        .glyph-folder { stroke: #3b82c4; fill: rgba(59,130,196,.18); }
        .glyph-image { stroke: #2f9e5b; } .glyph-video { stroke: #c2410c; } .glyph-audio { stroke: #9333ea; }
        .glyph-pdf { stroke: #d0342c; } .glyph-archive { stroke: #a16207; } .glyph-code, .glyph-markdown { stroke: #0e7490; }
        .glyph-link, .glyph-parent, .glyph-file, .glyph-info { stroke: var(--muted); }
        @media (prefers-color-scheme: dark) {
          .glyph-folder { stroke: #6aa8ff; fill: rgba(106,168,255,.18); } .glyph-image { stroke: #4ade80; }
          .glyph-video { stroke: #fb923c; } .glyph-audio { stroke: #c084fc; } .glyph-pdf { stroke: #f87171; }
          .glyph-archive { stroke: #facc15; } .glyph-code, .glyph-markdown { stroke: #38bdf8; }
        }
        .row .text { flex: 1; min-width: 0; display: flex; flex-direction: column; }
        body.compact .row .text { flex-direction: row; justify-content: space-between; gap: 12px; }
        .row .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .row .detail { font-size: 13px; color: var(--muted); white-space: nowrap; }
        .row .more { flex: none; }
        .state { padding: 40px 20px; text-align: center; color: var(--muted); }
        .state.error { color: var(--danger); }
        .state button { margin-top: 12px; }
        .pull { height: 0; overflow: hidden; text-align: center; color: var(--muted); font-size: 14px; transition: height .15s; }
        .overlay { position: fixed; inset: 0; background: rgba(0,0,0,.45); z-index: 10; display: flex;
          align-items: flex-end; justify-content: center; }
        .overlay[hidden] { display: none; }
        .sheet { background: var(--panel); width: 100%; max-width: 980px; max-height: 100%; display: flex;
          flex-direction: column; border-radius: 14px 14px 0 0; box-shadow: var(--shadow); position: relative; }
        @media (min-width: 700px) { .overlay { align-items: center; } .sheet { border-radius: 14px; max-height: 92%; } }
        .viewer-sheet { height: 100%; }
        @media (min-width: 700px) { .viewer-sheet { height: 92%; } }
        .viewer-body { flex: 1; overflow: auto; display: flex; align-items: flex-start; justify-content: center;
          background: var(--bg); touch-action: pan-y pinch-zoom; }
        .viewer-body pre { margin: 0; padding: 14px; width: 100%; white-space: pre-wrap; word-break: break-word;
          font: var(--text-size, 14px)/1.5 ui-monospace, "SF Mono", Menlo, Consolas, monospace; background: var(--code); min-height: 100%; }
        .hl-c { color: #6a737d; font-style: italic; } .hl-s { color: #0a7f3f; } .hl-n { color: #b35900; }
        .hl-k { color: #a626a4; font-weight: 600; } .hl-t { color: #2553b8; } .hl-a { color: #986801; }
        @media (prefers-color-scheme: dark) {
          .hl-c { color: #8b949e; } .hl-s { color: #7ee787; } .hl-n { color: #ffa657; }
          .hl-k { color: #ff7ab2; } .hl-t { color: #79c0ff; } .hl-a { color: #d2a8ff; }
        }
        .markdown { width: 100%; max-width: 820px; padding: 8px 20px 40px; font-size: calc(var(--text-size, 14px) + 2px); line-height: 1.6; }
        .markdown h1, .markdown h2 { border-bottom: 1px solid var(--line); padding-bottom: .2em; }
        .markdown pre { background: var(--code); padding: 12px; border-radius: 8px; overflow: auto; white-space: pre; }
        .markdown code { font: .9em ui-monospace, "SF Mono", Menlo, Consolas, monospace; background: var(--code); padding: .1em .3em; border-radius: 4px; }
        .markdown pre code { background: none; padding: 0; }
        .markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
        .markdown th, .markdown td { border: 1px solid var(--line); padding: 6px 10px; }
        .markdown .align-left { text-align: left; } .markdown .align-center { text-align: center; } .markdown .align-right { text-align: right; }
        .markdown blockquote { margin: 0; padding: 0 14px; border-left: 4px solid var(--line); color: var(--muted); }
        .markdown li.task { list-style: none; margin-left: -1.3em; }
        .markdown img { max-width: 100%; }
        .markdown a { color: var(--accent); }
        .viewer-body > img, .viewer-body > video { max-width: 100%; max-height: 100%; margin: auto; object-fit: contain; }
        .viewer-body > img { transform-origin: center center; will-change: transform; user-select: none; -webkit-user-drag: none; }
        .viewer-body:has(> img) { overflow: hidden; align-items: center; touch-action: none; }
        .viewer-body audio { margin: 40px auto; width: 90%; }
        .viewer-body iframe { border: 0; width: 100%; height: 100%; background: #fff; }
        .viewer-body .state { margin: auto; }
        .nav-button { position: absolute; top: 50%; width: 48px; height: 64px; border: 0; border-radius: 10px;
          background: rgba(0,0,0,.35); color: #fff; font-size: 32px; cursor: pointer; }
        .nav-button.prev { left: 8px; } .nav-button.next { right: 8px; }
        .info-sheet dl { margin: 0; padding: 8px 16px; display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; }
        .info-sheet dt { color: var(--muted); } .info-sheet dd { margin: 0; word-break: break-all; }
        .wide-button { margin: 8px 16px 16px; padding: 12px; border-radius: 10px; border: 1px solid var(--line);
          background: var(--bg); cursor: pointer; }
        .setting { display: flex; gap: 10px; align-items: center; padding: 14px 16px; border-bottom: 1px solid var(--line); }
        .search-sheet { padding: 10px; gap: 8px; height: 80%; }
        @media (min-width: 700px) { .search-sheet { height: auto; max-height: 70%; align-self: flex-start; margin-top: 8vh; } }
        #search-input { width: 100%; padding: 12px; border-radius: 10px; border: 1px solid var(--line); background: var(--bg); }
        #search-results { list-style: none; margin: 0; padding: 0; overflow-y: auto; }
        #search-results li { padding: 10px 8px; border-radius: 8px; cursor: pointer; display: flex; gap: 10px; }
        #search-results li[aria-selected="true"], #search-results li:hover { background: var(--hover); }
        #search-results .where { color: var(--muted); font-size: 13px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .small-button { min-height: 36px; padding: 6px 12px; border-radius: 8px; border: 1px solid var(--line);
          background: var(--panel); cursor: pointer; }
        .small-button:hover { background: var(--hover); }
        .small-button.danger { color: var(--danger); }
        .writes:not([hidden]) { display: inline-flex; gap: 6px; }
        .actions { padding: 0 16px 12px; flex-wrap: wrap; }
        .inline-form:not([hidden]) { display: flex; gap: 6px; padding: 8px 12px; }
        .inline-form input { flex: 1; min-width: 0; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--line); background: var(--bg); }
        .error-text { color: var(--danger); padding: 0 16px; }
        .uploads { padding: 4px 12px; display: flex; flex-direction: column; gap: 6px; }
        .upload { display: grid; grid-template-columns: 1fr auto; gap: 2px 8px; align-items: center; background: var(--panel);
          border: 1px solid var(--line); border-radius: 10px; padding: 8px 10px; font-size: 14px; }
        .upload progress { grid-column: 1; width: 100%; height: 6px; }
        .upload .status { color: var(--muted); font-size: 13px; }
        .upload.failed .status { color: var(--danger); }
        body.dropping .list { outline: 3px dashed var(--accent); outline-offset: -6px; }
        .editor { width: 100%; min-height: 100%; border: 0; padding: 14px; resize: none; background: var(--code); color: var(--text);
          font: var(--text-size, 14px)/1.5 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
        .conflict { padding: 10px 14px; border-bottom: 1px solid var(--line); background: var(--hover); max-height: 45%; overflow: auto; }
        .conflict pre { max-height: 160px; overflow: auto; background: var(--code); padding: 8px; white-space: pre-wrap; }
        .toast button { margin-left: 12px; background: transparent; border: 1px solid currentColor; border-radius: 12px; padding: 2px 10px; cursor: pointer; }
        .toast { position: fixed; bottom: 20px; left: 50%; transform: translateX(-50%); background: var(--text);
          color: var(--bg); padding: 10px 16px; border-radius: 20px; z-index: 20; }
        """#
}
