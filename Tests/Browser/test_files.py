"""File management the way a phone's Files app does it: a folder picker for move and copy,
selection mode with select all and bulk move, copy, download and delete, Download folder as a
zip, Share (a copied link where the system has no share sheet), Open and Download in the info
sheet."""
import os
import zipfile

import pytest

from conftest import shot
from test_browsing import names, open_folder
from test_gallery import serious_violations
from test_writing import wait_for_health


def make_files(root, folder, *files):
    os.makedirs(os.path.join(root, folder), exist_ok=True)
    for name in files:
        with open(os.path.join(root, folder, name), "w") as handle:
            handle.write(name)


def test_selection_mode_moves_copies_downloads_and_deletes_many(page, writable_server):
    root = writable_server.root
    folder = "select %s" % page.kind
    make_files(root, folder, "a #1.txt", "b 100%.txt", "c ü.txt")
    os.makedirs(os.path.join(root, folder, "inbox"))
    open_folder(page, writable_server, "/" + folder)
    wait_for_health(page)
    page.click("#folder-more")
    page.click("#select-start")
    page.locator(".row", has_text="a #1.txt").click()
    page.locator(".row", has_text="b 100%.txt").click()
    assert page.text_content("#selection-count") == "2 selected"
    assert page.locator("#viewer").is_hidden(), "a tap selects, it does not open"
    shot(page, "selection")
    # Bulk copy into a folder picked by tapping.
    page.click("#bulk-copy")
    page.wait_for_selector("#picker-title >> text=Copy 2 items to…")
    page.locator(".picker-folder", has_text="inbox").click()
    page.wait_for_selector("#picker-where >> text=inbox")
    shot(page, "picker")
    page.click("#picker-go")
    page.wait_for_selector("#toast >> text=Copied 2 items to /%s/inbox" % folder)
    assert sorted(os.listdir(os.path.join(root, folder, "inbox"))) == ["a #1.txt", "b 100%.txt"]
    assert page.locator("#selection-bar").is_hidden(), "done: selection mode ends"
    # Select all, then download: each file arrives (a folder as a zip).
    page.click("#folder-more")
    page.click("#select-start")
    page.click("#select-all")
    assert page.text_content("#selection-count") == "4 selected"
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    page.click("#bulk-download")
    page.wait_for_timeout(2500)
    got = sorted(download.suggested_filename for download in downloads)
    assert got == ["a #1.txt", "b 100%.txt", "c ü.txt", "inbox.zip"], got
    # Bulk move, then bulk delete with one Undo.
    page.click("#folder-more")
    page.click("#select-start")
    page.locator(".row", has_text="c ü.txt").click()
    page.click("#bulk-move")
    page.locator(".picker-folder", has_text="inbox").click()
    page.wait_for_selector("#picker-where >> text=inbox")
    page.click("#picker-go")
    page.wait_for_selector(".row >> text=c ü.txt", state="detached")
    assert os.path.exists(os.path.join(root, folder, "inbox", "c ü.txt"))
    page.click("#folder-more")
    page.click("#select-start")
    page.locator(".row", has_text="a #1.txt").click()
    page.locator(".row", has_text="b 100%.txt").click()
    page.click("#bulk-delete")
    assert "Move 2 items to the Trash?" in page.text_content("#delete-many-question")
    page.click("#delete-many-go")
    page.wait_for_selector("#toast >> text=Moved 2 items to Trash")
    assert names(page) == ["..", "inbox"]
    page.click("#toast button")
    page.wait_for_selector(".row >> text=b 100%.txt")
    assert sorted(os.listdir(os.path.join(root, folder))) == ["a #1.txt", "b 100%.txt", "inbox"]


def test_download_folder_share_and_the_info_sheets_open_and_download(page, writable_server, tmp_path):
    root = writable_server.root
    folder = "share %s" % page.kind
    make_files(root, folder, "photo #1.txt", "notes.txt")
    open_folder(page, writable_server, "/" + folder)
    wait_for_health(page)
    page.click("#folder-more")
    with page.expect_download() as download:
        page.click("#download-folder")
    assert download.value.suggested_filename == folder + ".zip"
    target = tmp_path / "folder.zip"
    download.value.save_as(str(target))
    with zipfile.ZipFile(target) as archive:
        assert sorted(archive.namelist()) == ["notes.txt", "photo #1.txt"]
    page.click("[aria-label='Info for photo #1.txt']")
    with page.expect_download() as single:
        page.click("#info-download")
    assert single.value.suggested_filename == "photo #1.txt"
    # Chromium on Linux has no system share sheet: Share copies the link.
    page.click("#info-share")
    page.wait_for_selector("#toast >> text=Link copied")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == writable_server.url("/share%20" + page.kind + "/photo%20%231.txt?view=1"), link
    page.click("#info-open")
    page.wait_for_selector("#viewer-title >> text=photo #1.txt")
    page.goto(link)
    page.wait_for_selector("#viewer-body pre >> text=photo #1.txt")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_selection_mode_and_the_picker(page, writable_server, scheme):
    page.emulate_media(color_scheme=scheme)
    folder = "axe select %s %s" % (page.kind, scheme)
    make_files(writable_server.root, folder, "a.txt", "b.txt")
    os.makedirs(os.path.join(writable_server.root, folder, "sub"))
    open_folder(page, writable_server, "/" + folder)
    wait_for_health(page)
    page.click("#folder-more")
    assert serious_violations(page) == [], "the folder's menu"
    page.click("#select-start")
    page.locator(".row", has_text="a.txt").click()
    assert serious_violations(page) == [], "selection mode"
    shot(page, "selection-" + scheme)
    page.click("#bulk-move")
    page.wait_for_selector(".picker-folder >> text=sub")
    assert serious_violations(page) == [], "the picker"
    shot(page, "picker-" + scheme)
    page.keyboard.press("Escape")
