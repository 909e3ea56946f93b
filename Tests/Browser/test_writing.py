"""Changing files through the web UI of a writable server: nothing is ever lost."""
import os
import time

from conftest import shot
from test_browsing import names, open_folder


def open_fresh_folder(page, server, name, files=None):
    """Makes the folder `name` at the top of the server's root, with `files` (name to text) in
    it, opens it and waits for /api/health; returns its path on the disk."""
    folder = os.path.join(server.root, name)
    os.makedirs(folder)
    for file_name, text in (files or {}).items():
        with open(os.path.join(folder, file_name), "w") as handle:
            handle.write(text)
    open_folder(page, server, "/" + name)
    wait_for_health(page)
    return folder


def wait_for_health(page):
    """Until the page has read /api/health (it then disables the hidden setting when the server
    lists no hidden names, and shows the writes when it is writable)."""
    page.wait_for_function("() => document.querySelector('#setting-hidden').disabled || !document.querySelector('#new-folder').closest('.writes').hidden")


def wait_until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_read_only_server_offers_no_changes(page, server):
    open_folder(page, server, "/docs")
    wait_for_health(page)
    assert page.locator("#new-folder").is_hidden() and page.locator("#upload-pick").is_hidden()
    page.locator(".row", has_text="main.swift").click()
    page.wait_for_selector("#viewer-body pre")
    assert page.locator("#viewer-edit").is_hidden()


def test_the_new_folder_form_closes_and_forgets_what_was_typed(page, writable_server):
    open_folder(page, writable_server)
    wait_for_health(page)
    page.click("#new-folder")
    page.fill("#new-folder-name", "half typed")
    page.keyboard.press("Escape")
    page.wait_for_selector("#new-folder-form", state="hidden")
    page.click("#new-folder")
    assert page.input_value("#new-folder-name") == "", "Escape closes the form and forgets the name"
    page.fill("#new-folder-name", "a/b")
    page.keyboard.press("Enter")
    page.wait_for_selector("#toast >> text=cannot hold")
    assert not os.path.exists(os.path.join(writable_server.root, "a"))
    page.fill("#new-folder-name", "left open")
    page.locator(".row", has_text="notes").first.click()
    page.wait_for_selector("#new-folder-form", state="hidden")
    page.click("#new-folder")
    assert page.input_value("#new-folder-name") == "", "another folder opens without the last one's form"


def test_a_folder_that_is_not_there_offers_no_upload_nor_new_folder(page, writable_server):
    page.allow_problem("status of 404")
    with page.expect_response(lambda response: "/api/health" in response.url):
        page.goto(writable_server.url("/no%20such%20folder"))
    page.wait_for_selector("#state.error >> text=Directory not found")
    page.wait_for_timeout(300)  # the health answer read: the writes would show by now
    assert page.locator("#new-folder").is_hidden() and page.locator("#upload-pick").is_hidden()
    open_folder(page, writable_server)
    page.wait_for_selector("#new-folder", state="visible")
    assert page.locator("#upload-pick").is_visible()


def test_the_folder_menu_lines_up_its_words_with_the_writes_shown(page, writable_server):
    open_folder(page, writable_server)
    wait_for_health(page)
    page.click("#folder-more")
    page.wait_for_selector("#trash-open", state="visible")
    starts = page.evaluate("""() => [...document.querySelectorAll('#folder-menu .menu-item:not([hidden])')].map((item) => {
        const text = [...item.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
        const range = document.createRange();
        range.selectNodeContents(text);
        return [item.textContent.trim(), Math.round(range.getBoundingClientRect().left)];
    })""")
    assert len(starts) >= 5 and len({left for _, left in starts}) == 1, "every item's words start at one edge: %s" % starts
    page.keyboard.press("Escape")


def test_new_folder_rename_copy_move_and_delete_with_undo(page, writable_server):
    root = writable_server.root
    folder = "made by %s #1" % page.kind
    open_folder(page, writable_server)
    page.click("#new-folder")
    page.fill("#new-folder-name", folder)
    page.keyboard.press("Enter")
    page.wait_for_selector(".row >> text=" + folder)
    assert os.path.isdir(os.path.join(root, folder))

    page.locator(".row", has_text=folder).click()
    page.wait_for_selector("#state >> text=This folder is empty.")
    with open(os.path.join(root, folder, "a.txt"), "w") as handle:
        handle.write("a")
    page.wait_for_selector(".row >> text=a.txt")
    # Rename: a taken name is refused in words, then a free one goes through.
    with open(os.path.join(root, folder, "taken.txt"), "w") as handle:
        handle.write("t")
    page.wait_for_selector(".row >> text=taken.txt")
    page.allow_problem("status of 409")  # the refusal asked for below
    page.click("[aria-label='Info for a.txt']")
    page.click("#action-rename")
    page.fill("#action-input", "taken.txt")
    page.click("#action-confirm")
    page.wait_for_selector("#action-error >> text=already exists")
    page.fill("#action-input", "b 100%.txt")
    page.click("#action-confirm")
    page.wait_for_selector(".row >> text=b 100%.txt")
    assert os.path.exists(os.path.join(root, folder, "b 100%.txt")) and not os.path.exists(os.path.join(root, folder, "a.txt"))
    # Copy into the same folder gets a free name; move goes to another folder.
    page.click("[aria-label='Info for b 100%.txt']")
    page.click("#action-copy")
    page.click("#picker-go")  # the picker opens in this folder: a copy here
    page.wait_for_selector(".row >> text=b 100% (copy).txt")
    page.click("[aria-label='Info for b 100% (copy).txt']")
    page.click("#action-move")
    page.click("#picker-up")
    page.locator(".picker-folder", has_text="archive").click()
    page.wait_for_selector("#picker-where >> text=archive")
    page.click("#picker-go")
    page.wait_for_selector(".row >> text=b 100% (copy).txt", state="detached")
    assert os.path.exists(os.path.join(root, "archive", "b 100% (copy).txt"))
    os.remove(os.path.join(root, "archive", "b 100% (copy).txt"))
    # Delete goes to the trash, and Undo brings it back.
    page.click("[aria-label='Info for taken.txt']")
    page.click("#action-delete")
    page.click("#delete-go")
    page.wait_for_selector("#toast >> text=Moved taken.txt to Trash")
    page.wait_for_selector(".row >> text=taken.txt", state="detached")
    assert not os.path.exists(os.path.join(root, folder, "taken.txt"))
    shot(page, "deleted-undo")
    page.click("#toast button")
    page.wait_for_selector(".row >> text=taken.txt")
    with open(os.path.join(root, folder, "taken.txt")) as handle:
        assert handle.read() == "t"


def test_uploads_by_picker_and_drop_never_replace_and_resume_after_a_cancel(page, writable_server, tmp_path):
    root = writable_server.root
    folder = "uploads %s" % page.kind
    open_fresh_folder(page, writable_server, folder)
    first = tmp_path / "photo #1 ü.txt"
    first.write_bytes(b"first")
    second = tmp_path / "100% sure.txt"
    second.write_bytes(b"second" * 1000)
    page.set_input_files("#upload-input", [str(first), str(second)])
    page.wait_for_selector(".upload >> text=Done >> nth=1")
    page.wait_for_selector(".row >> text=100% sure.txt")
    assert open(os.path.join(root, folder, "photo #1 ü.txt"), "rb").read() == b"first"
    # The same name again: a free name, never a replaced file.
    page.set_input_files("#upload-input", [str(first)])
    page.wait_for_selector(".upload >> text=Done, as photo #1 ü 1.txt")
    assert open(os.path.join(root, folder, "photo #1 ü.txt"), "rb").read() == b"first"
    # Dropped files upload too.
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File(["dropped"], "dropped #2.txt", { type: "text/plain" }));
        for (const type of ["dragover", "drop"]) document.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }""")
    page.wait_for_selector(".row >> text=dropped #2.txt")
    assert open(os.path.join(root, folder, "dropped #2.txt"), "rb").read() == b"dropped"
    # A large upload on a slow link: cancelled part way, then resumed from what the server holds.
    big = tmp_path / "big.bin"
    content = os.urandom(3 * 1024 * 1024)
    big.write_bytes(content)
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 512 * 1024})
    page.set_input_files("#upload-input", [str(big)])
    page.wait_for_function("() => [...document.querySelectorAll('.upload progress')].some(p => p.max > 1000000 && p.value > 300000)", timeout=15000)
    page.locator(".upload", has_text="big.bin").locator("button", has_text="Cancel").click()
    page.wait_for_selector(".upload >> text=Cancelled")
    assert not os.path.exists(os.path.join(root, folder, "big.bin")), "nothing under the real name until complete"
    session.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    page.locator(".upload", has_text="big.bin").locator("button", has_text="Resume").click()
    page.wait_for_selector(".upload:has-text('big.bin') >> text=Done", timeout=20000)
    assert open(os.path.join(root, folder, "big.bin"), "rb").read() == content
    shot(page, "uploads")


def save_in_editor(page, server, name, text):
    """Writes notes/NAME on disk, opens it in the page's editor and saves TEXT there; its path."""
    path = os.path.join(server.root, "notes", name)
    with open(path, "w") as handle:
        handle.write("first\n")
    open_folder(page, server, "/notes")
    page.locator(".row", has_text=name).click()
    page.wait_for_selector("#viewer-body pre")
    page.click("#viewer-edit")
    page.fill("#viewer-body textarea", text)
    page.click("#viewer-save")
    page.wait_for_selector("#toast >> text=Saved")
    return path


def test_editing_keeps_the_users_text_when_the_file_changed_meanwhile(page, writable_server):
    path = save_in_editor(page, writable_server, "edit %s.txt" % page.kind, "mine, edited\n")
    assert open(path).read() == "mine, edited\n"
    # Someone else changes it; saving shows both versions and loses nothing.
    page.allow_problem("status of 409")  # the server's conflict answer, asked for here
    time.sleep(0.02)
    with open(path, "w") as handle:
        handle.write("theirs, from elsewhere\n")
    page.fill("#viewer-body textarea", "mine, second edit\n")
    page.keyboard.press("Control+s")
    page.wait_for_selector("#conflict-theirs >> text=theirs, from elsewhere")
    assert page.input_value("#viewer-body textarea") == "mine, second edit\n"
    assert open(path).read() == "theirs, from elsewhere\n"
    shot(page, "conflict")
    page.wait_for_selector("#toast", state="hidden")  # the first save's toast is gone
    page.click("#conflict-mine")
    page.wait_for_selector("#toast >> text=Saved")
    assert open(path).read() == "mine, second edit\n"
    # And the other way: take theirs (a moment later: file times tick in milliseconds or coarser).
    time.sleep(0.05)
    with open(path, "w") as handle:
        handle.write("theirs again\n")
    page.fill("#viewer-body textarea", "mine, third\n")
    page.click("#viewer-save")
    page.wait_for_selector("#conflict-theirs >> text=theirs again", timeout=10000)
    page.click("#conflict-theirs-take")
    assert page.input_value("#viewer-body textarea") == "theirs again\n"
    assert wait_until(lambda: open(path).read() == "theirs again\n")


def test_a_late_event_for_a_version_the_editor_has_had_is_no_news_but_an_unknown_one_or_a_deletion_is(page, writable_server):
    name = "late %s.txt" % page.kind
    save_in_editor(page, writable_server, name, "mine, saved\n")
    page.evaluate("() => import('/assets/toast.js').then(module => module.hideToast())")
    page.fill("#viewer-body textarea", "mine, saved, and more not yet saved\n")
    # The change events as the server sends them, one of them as late as it can come: after the
    # save it tells of, the user typing on.
    deliver = """async ([type, path, sizeChange]) => {
        const { state } = await import('/assets/state.js');
        const { viewedFileChanged } = await import('/assets/viewer.js');
        const saved = state.editing.base;
        viewedFileChanged({ type, path, item: { size: saved.size + sizeChange, modified: saved.modified } });
      }"""
    file_path = "/notes/" + name
    page.evaluate(deliver, ["modified", file_path, 0])
    page.wait_for_timeout(300)
    assert page.locator("#toast").is_hidden(), "the page's own save, told late, is no news"
    page.evaluate(deliver, ["modified", file_path, 5])
    page.wait_for_selector("#toast >> text=changed on the server")
    page.evaluate("() => import('/assets/toast.js').then(module => module.hideToast())")
    page.evaluate(deliver, ["deleted", file_path, 0])
    page.wait_for_selector("#toast >> text=changed on the server")
    assert page.input_value("#viewer-body textarea") == "mine, saved, and more not yet saved\n"


def test_hidden_files_show_only_when_asked_and_only_where_the_server_allows(page, server, writable_server):
    open_folder(page, server)
    wait_for_health(page)
    page.click("#folder-more")  # Settings is in the folder's menu
    page.click("#settings-open")
    assert page.locator("#setting-hidden").is_hidden(), "this server never lists hidden names"
    page.keyboard.press("Escape")
    open_folder(page, writable_server, "/notes")
    assert ".secret note" not in names(page)
    page.click("#folder-more")  # Settings is in the folder's menu
    page.click("#settings-open")
    page.check("#setting-hidden")
    page.keyboard.press("Escape")
    page.wait_for_selector(".row >> text=.secret note")
    page.click("#folder-more")  # Settings is in the folder's menu
    page.click("#settings-open")
    page.uncheck("#setting-hidden")
    page.keyboard.press("Escape")
    page.wait_for_selector(".row >> text=.secret note", state="detached")
