"""Deleting on a phone: the delete says what it will do, and the Trash screen lists, restores and
empties, with the server's retention shown."""
import os

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


def delete_by_info(page, name):
    page.click("[aria-label='Info for %s']" % name)
    page.click("#action-delete")
    page.wait_for_selector("#delete-confirm:visible")
    page.click("#delete-go")
    page.wait_for_selector(".row >> text=%s" % name, state="detached")


def open_trash(page):
    page.click("#folder-more")
    page.click("#trash-open")
    page.wait_for_selector("#trash-state", state="hidden")


def test_delete_asks_in_words_then_the_trash_restores_and_empties(page, writable_server):
    root = writable_server.root
    folder = "trash %s" % page.kind
    make_files(root, folder, "keep me #1.txt", "old 100%.txt", "older.txt")
    os.makedirs(os.path.join(root, folder, "album"))
    open_folder(page, writable_server, "/" + folder)
    wait_for_health(page)
    # One tap on Delete deletes nothing: the sheet says where the item goes and for how long.
    page.click("[aria-label='Info for album']")
    page.click("#action-delete")
    question = page.text_content("#delete-question")
    assert "Move “album” and everything in it to the Trash?" in question and "30 days" in question, question
    assert page.text_content("#delete-go") == "Move to Trash"
    shot(page, "delete-question")
    page.click("#delete-cancel")
    assert os.path.isdir(os.path.join(root, folder, "album"))
    page.keyboard.press("Escape")
    delete_by_info(page, "keep me #1.txt")
    page.wait_for_selector("#toast >> text=Moved keep me #1.txt to Trash")
    # The message is one line beside its Undo, or wraps only at the screen's width less a margin:
    # not at half the screen, where a box placed from the middle would wrap it.
    lines, width, screen = page.evaluate("""() => { const box = document.getElementById("toast");
        const range = document.createRange(); range.selectNodeContents(box.firstChild);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        return [tops.size, box.getBoundingClientRect().width, window.innerWidth]; }""")
    assert lines == 1 or width >= screen - 40, (lines, width, screen)
    assert not os.path.exists(os.path.join(root, folder, "keep me #1.txt"))
    # The Trash screen lists it, newest first, with where it came from and the retention.
    open_trash(page)
    # The Undo message still showing covers none of the sheet's buttons.
    assert page.locator("#toast").is_visible()
    toast, empty = page.locator("#toast").bounding_box(), page.locator("#trash-empty").bounding_box()
    assert toast["y"] + toast["height"] <= empty["y"] or toast["y"] >= empty["y"] + empty["height"], (toast, empty)
    first = page.locator(".trash-item").first
    assert first.locator(".name").text_content() == "keep me #1.txt"
    assert "From /" + folder in first.locator(".detail").text_content()
    assert "30 days" in page.text_content("#trash-retention")
    assert "2.1 GB" in page.text_content("#trash-retention")
    first.locator("button", has_text="Restore").click()
    page.wait_for_selector("#toast >> text=Restored keep me #1.txt")
    page.keyboard.press("Escape")
    page.wait_for_selector(".row >> text=keep me #1.txt")
    assert open(os.path.join(root, folder, "keep me #1.txt")).read() == "keep me #1.txt"
    # Emptying asks first, then deletes for good.
    delete_by_info(page, "old 100%.txt")
    delete_by_info(page, "older.txt")
    open_trash(page)
    assert page.locator(".trash-item .name").all_text_contents()[:2] == ["older.txt", "old 100%.txt"]
    shot(page, "trash")
    page.click("#trash-empty")
    assert "for good" in page.text_content("#trash-empty-question")
    shot(page, "trash-empty-question")
    page.click("#trash-empty-go")
    page.wait_for_selector("#trash-state >> text=The Trash is empty.")
    assert page.locator(".trash-item").count() == 0
    assert writable_server.get_json("/api/trash")["items"] == []
    assert page.locator("#trash-empty").is_disabled()
    assert "older.txt" not in names(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_the_delete_question_and_the_trash(page, writable_server, scheme):
    page.emulate_media(color_scheme=scheme)
    folder = "axe trash %s %s" % (page.kind, scheme)
    make_files(writable_server.root, folder, "a.txt", "b.txt")
    open_folder(page, writable_server, "/" + folder)
    wait_for_health(page)
    page.click("[aria-label='Info for a.txt']")
    page.click("#action-delete")
    page.wait_for_selector("#delete-confirm:visible")
    assert serious_violations(page) == [], "the delete question"
    page.click("#delete-go")
    page.wait_for_selector(".row >> text=a.txt", state="detached")
    open_trash(page)
    assert serious_violations(page) == [], "the trash"
    shot(page, "trash-" + scheme)
