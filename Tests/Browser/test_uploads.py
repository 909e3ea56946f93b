"""Uploads on a phone: one panel with the overall progress that folds away when everything is
done, whole folders, and messages that never sit over the next error."""
import os

from conftest import shot
from test_writing import open_fresh_folder


def test_the_upload_panel_shows_overall_progress_and_folds_away_when_done(page, writable_server, tmp_path):
    folder = open_fresh_folder(page, writable_server, "panel %s" % page.kind)
    files = []
    for index in range(4):
        path = tmp_path / ("scan %d.txt" % index)
        path.write_bytes(b"x" * (1000 * (index + 1)))
        files.append(str(path))
    page.set_input_files("#upload-input", files)
    page.wait_for_selector("#upload-total-text >> text=Uploaded 4 files")
    # The files are in the list while the panel still says so.
    for index in range(4):
        page.wait_for_selector(".row >> text=scan %d.txt" % index, timeout=3000)
    assert page.locator("#uploads").is_visible()
    shot(page, "uploads-done")
    # The cards go by themselves, then the panel: the list gets its room back.
    page.wait_for_selector(".upload", state="detached", timeout=5000)
    page.wait_for_selector("#uploads", state="hidden", timeout=8000)
    assert sorted(os.listdir(folder)) == ["scan 0.txt", "scan 1.txt", "scan 2.txt", "scan 3.txt"]


def test_an_upload_whose_name_is_taken_says_the_name_it_was_saved_under(page, writable_server, tmp_path):
    folder = open_fresh_folder(page, writable_server, "taken %s" % page.kind, {"note é.txt": "mine"})
    path = tmp_path / "note é.txt"
    path.write_text("theirs")
    page.set_input_files("#upload-input", str(path))
    page.wait_for_selector("#upload-total-text >> text=Uploaded 1 file (a name was taken: saved as note é 1.txt)")
    assert open(os.path.join(folder, "note é.txt")).read() == "mine", "the file already there is kept"
    assert open(os.path.join(folder, "note é 1.txt")).read() == "theirs"


def test_a_whole_folder_uploads_with_its_subfolders(page, writable_server, tmp_path):
    source = tmp_path / "Holiday #1"
    (source / "day 2").mkdir(parents=True)
    (source / "a.txt").write_text("a")
    (source / "day 2" / "b ü.txt").write_text("b")
    folder = open_fresh_folder(page, writable_server, "folder upload %s" % page.kind)
    page.set_input_files("#upload-folder-input", str(source))
    page.wait_for_selector("#upload-total-text >> text=Uploaded 2 files")
    assert open(os.path.join(folder, "Holiday #1", "a.txt")).read() == "a"
    assert open(os.path.join(folder, "Holiday #1", "day 2", "b ü.txt")).read() == "b"
    page.wait_for_selector(".row >> text=Holiday #1")


def test_an_error_is_never_covered_by_an_old_message(page, writable_server):
    folder = open_fresh_folder(page, writable_server, "toasts %s" % page.kind, {"one.txt": "one.txt", "two.txt": "two.txt"})
    page.allow_problem("status of 409")
    page.click("[aria-label='Info for one.txt']")
    page.click("#info-share")
    page.wait_for_selector("#toast >> text=Link copied")
    page.click("#action-rename")
    page.fill("#action-input", "two.txt")
    page.click("#action-confirm")
    page.wait_for_selector("#action-error >> text=already exists")
    assert page.locator("#toast").is_hidden(), "the old message is gone when the error shows"
