/// The web UI's one page. Every folder's address answers with it; the script reads the folder
/// from the address.
enum WebPageSource {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="light dark">
        <title>Browsey</title>
        <link rel="stylesheet" href="/assets/app.css">
        <script src="/assets/app.js" defer></script>
        </head>
        <body>
        <header class="bar">
          <button id="back" class="icon-button" data-icon="back" aria-label="Up one folder" title="Up one folder (Backspace)">‹</button>
          <nav id="crumbs" aria-label="Folders"></nav>
          <button id="search-open" class="icon-button" data-icon="search" aria-label="Search" title="Search (Ctrl+K)">⌕</button>
          <button id="refresh" class="icon-button" data-icon="refresh" aria-label="Refresh" title="Refresh">↻</button>
          <button id="settings-open" class="icon-button" data-icon="settings" aria-label="Settings" title="Settings">⚙</button>
        </header>
        <div id="toolbar" class="toolbar">
          <label>Sort <select id="sort" aria-label="Sort by">
            <option value="name">Name</option><option value="size">Size</option><option value="date">Date</option>
          </select></label>
          <span id="count" class="muted" aria-live="polite"></span>
          <span class="writes" hidden>
            <button id="new-folder" class="small-button">New folder</button>
            <button id="upload-pick" class="small-button">Upload</button>
            <input id="upload-input" type="file" multiple hidden>
          </span>
        </div>
        <form id="new-folder-form" class="inline-form" hidden>
          <input id="new-folder-name" aria-label="New folder's name" placeholder="Folder name" autocomplete="off">
          <button class="small-button" type="submit">Create</button>
          <button class="small-button" type="button" id="new-folder-cancel">Cancel</button>
        </form>
        <section id="uploads" class="uploads" hidden aria-label="Uploads"></section>
        <div id="pull" class="pull" aria-hidden="true">Release to refresh</div>
        <main id="list" class="list" role="list" aria-label="Files" tabindex="-1">
          <div id="spacer" class="spacer"></div>
        </main>
        <div id="state" class="state" hidden></div>

        <div id="viewer" class="overlay" hidden role="dialog" aria-modal="true" aria-labelledby="viewer-title">
          <div class="sheet viewer-sheet">
            <header class="bar viewer-bar">
              <button id="viewer-close" class="icon-button" data-icon="close" aria-label="Close" title="Close (Esc)">✕</button>
              <h1 id="viewer-title"></h1>
              <button id="text-smaller" class="icon-button" aria-label="Smaller text" title="Smaller text">A−</button>
              <button id="text-larger" class="icon-button" aria-label="Larger text" title="Larger text">A+</button>
              <button id="viewer-edit" class="small-button" hidden>Edit</button>
              <button id="viewer-save" class="small-button" hidden>Save</button>
              <a id="viewer-download" class="icon-button" data-icon="download" aria-label="Download" title="Download" href="#">⤓</a>
            </header>
            <div id="conflict" class="conflict" hidden role="alert">
              <p><strong>This file changed on the server while you edited it.</strong> Your text is kept below;
              their version is here. Choose which one to keep.</p>
              <pre id="conflict-theirs"></pre>
              <button id="conflict-mine" class="small-button">Keep mine</button>
              <button id="conflict-theirs-take" class="small-button">Take theirs</button>
            </div>
            <div id="viewer-body" class="viewer-body"></div>
            <button id="viewer-prev" class="nav-button prev" aria-label="Previous image" hidden>‹</button>
            <button id="viewer-next" class="nav-button next" aria-label="Next image" hidden>›</button>
          </div>
        </div>

        <div id="info" class="overlay" hidden role="dialog" aria-modal="true" aria-labelledby="info-title">
          <div class="sheet info-sheet">
            <header class="bar"><h1 id="info-title">Info</h1>
              <button id="info-close" class="icon-button" data-icon="close" aria-label="Close" title="Close (Esc)">✕</button></header>
            <dl id="info-fields"></dl>
            <button id="info-copy" class="wide-button">Copy path</button>
            <div class="writes actions" hidden>
              <button id="action-rename" class="small-button">Rename</button>
              <button id="action-move" class="small-button">Move</button>
              <button id="action-copy" class="small-button">Copy</button>
              <button id="action-delete" class="small-button danger">Delete</button>
            </div>
            <form id="action-form" class="inline-form" hidden>
              <input id="action-input" autocomplete="off" spellcheck="false">
              <button id="action-confirm" class="small-button" type="submit">OK</button>
            </form>
            <p id="action-error" class="error-text" role="alert" hidden></p>
          </div>
        </div>

        <div id="search" class="overlay" hidden role="dialog" aria-modal="true" aria-label="Search">
          <div class="sheet search-sheet">
            <input id="search-input" type="search" placeholder="Search this folder and below" aria-label="Search"
              autocomplete="off" spellcheck="false" role="combobox" aria-expanded="true" aria-controls="search-results">
            <ul id="search-results" role="listbox" aria-label="Results"></ul>
            <p id="search-state" class="muted"></p>
          </div>
        </div>

        <div id="settings" class="overlay" hidden role="dialog" aria-modal="true" aria-labelledby="settings-title">
          <div class="sheet info-sheet">
            <header class="bar"><h1 id="settings-title">Settings</h1>
              <button id="settings-close" class="icon-button" data-icon="close" aria-label="Close" title="Close (Esc)">✕</button></header>
            <label class="setting"><input id="setting-compact" type="checkbox"> Compact rows</label>
            <label class="setting"><input id="setting-hidden" type="checkbox"> Show hidden files (when the server allows)</label>
          </div>
        </div>
        <div id="toast" class="toast" role="status" aria-live="polite" hidden></div>
        </body>
        </html>
        """#
}
