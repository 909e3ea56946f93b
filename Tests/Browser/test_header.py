"""The header and toolbar on a phone: the name gets the room, breadcrumbs fold in the middle,
counts have thousands separators and never go stale, targets are 44 px, primary actions look
primary, nothing stays highlighted after a tap, and no focus ring shows on Close from a link."""
import os
import shutil

import pytest

from conftest import shot
from test_browsing import open_folder
from test_gallery import serious_violations
from test_writing import wait_for_health

DEEP = "/deep/level one/level two/level three/level four/the folder with a rather long name"


def test_the_viewer_title_gets_the_room_and_text_sizes_only_show_for_text(page, server):
    os.makedirs(os.path.join(server.root, "archives"), exist_ok=True)
    with open(os.path.join(server.root, "archives", "a rather long archive name.zip"), "wb") as handle:
        handle.write(b"PK\x05\x06" + b"\x00" * 18)
    try:
        check_viewer_title(page, server)
    finally:  # the shared tree's root is listed by other tests
        shutil.rmtree(os.path.join(server.root, "archives"))


def check_viewer_title(page, server):
    page.goto(server.url("/docs/notes%20%231.md?view=1"))
    page.wait_for_selector("#viewer-body .markdown")
    title = page.locator("#viewer-title")
    width = title.evaluate("e => e.getBoundingClientRect().width")
    assert width > 200, "the name has the bar's room (%d px)" % width
    assert title.evaluate("e => e.scrollWidth <= e.clientWidth"), "the whole name shows"
    # Opened from a link, focus is on the dialog's title and no ring shows on Close.
    assert page.evaluate("() => document.activeElement.id") == "viewer-title"
    assert not page.evaluate("() => document.querySelector('#viewer-close').matches(':focus-visible')")
    page.click("#viewer-more")
    assert page.locator("#text-larger").is_visible() and page.locator("#viewer-download").is_visible()
    shot(page, "viewer-menu")
    page.keyboard.press("Escape")
    assert page.locator("#viewer-menu").is_hidden() and page.locator("#viewer").is_visible()
    page.allow_problem("status of 400")  # the server's "File type not viewable", asked for here
    page.goto(server.url("/archives/a%20rather%20long%20archive%20name.zip?view=1"))
    page.wait_for_selector("#viewer-body .state >> text=No preview")
    page.click("#viewer-more")
    assert page.locator("#text-larger").is_hidden() and page.locator("#text-smaller").is_hidden()
    assert page.locator("#viewer-download").is_visible()


def test_breadcrumbs_fold_in_the_middle_and_counts_read_well(page, server):
    os.makedirs(server.root + DEEP, exist_ok=True)
    try:
        check_crumbs(page, server)
    finally:
        shutil.rmtree(os.path.join(server.root, "deep"))


def check_crumbs(page, server):
    page.goto(server.url(DEEP.replace(" ", "%20")))
    page.wait_for_selector("#state >> text=This folder is empty.")
    crumbs = page.locator("#crumbs")
    assert crumbs.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "nothing cut off at the left"
    labels = page.locator("#crumbs a").all_inner_texts()
    assert labels[0] == "Home" and labels[-1] == "the folder with a rather long name", labels
    current = page.locator("#crumbs a[aria-current]").bounding_box()
    assert current["width"] >= 100, "the current folder keeps room: %s" % current
    if page.kind == "phone":
        assert "…" in labels, labels
    shot(page, "crumbs")
    # The folded part goes up to the deepest folder it stands for.
    if "…" in labels:
        page.locator("#crumbs a", has_text="…").click()
        page.wait_for_selector("#crumbs a[aria-current]")
        assert page.locator("#crumbs a[aria-current]").inner_text() != "the folder with a rather long name"
    # 10,000 items, with the separator; the toolbar stays on one line.
    open_folder(page, server, "/many")
    page.wait_for_selector("#count >> text=10,000 items")
    toolbar = page.locator("#toolbar").bounding_box()
    assert toolbar["height"] <= 60, toolbar


def test_no_stale_count_while_a_folder_loads(page, server):
    open_folder(page, server, "/")
    page.route("**/api/list?path=%2Fmany*", lambda route: (page.wait_for_timeout(800), route.continue_()))
    page.locator(".row", has_text="many").click()
    page.wait_for_timeout(200)
    assert page.text_content("#count") == "", "the last folder's count is gone"
    loading = page.locator("#state")
    assert loading.inner_text() == "Loading…" and loading.bounding_box()["y"] < 300
    page.wait_for_selector("#count >> text=10,000 items")


def test_targets_are_44_px_primary_actions_look_primary_and_taps_leave_no_highlight(page, writable_server):
    open_folder(page, writable_server)
    wait_for_health(page)
    small = page.evaluate("""() => [...document.querySelectorAll('button, a, select')]
        .filter(e => e.offsetParent !== null && !e.closest('.row'))
        .map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""")
    assert small == [], small
    upload = page.evaluate("() => getComputedStyle(document.getElementById('upload-pick')).backgroundColor")
    accent = page.evaluate("() => getComputedStyle(document.body).getPropertyValue('--accent').trim()")
    assert upload not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), upload
    # A tap on a row and a return: no row stays highlighted.
    page.locator(".row", has_text="notes").click()
    page.wait_for_selector(".row >> text=todo #1.txt")
    page.go_back()
    page.wait_for_selector(".row >> text=archive")
    if page.kind == "phone":
        backgrounds = page.evaluate("""() => [...document.querySelectorAll('.row:not(.came-from)')]
            .map(r => getComputedStyle(r).backgroundColor)""")
        assert len(set(backgrounds)) == 1, backgrounds
    shot(page, "toolbar")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_the_header_and_the_viewer_menu(page, writable_server, scheme):
    page.emulate_media(color_scheme=scheme)
    open_folder(page, writable_server, "/notes")
    wait_for_health(page)
    assert serious_violations(page) == [], "the folder"
    shot(page, "folder-" + scheme)
    page.locator(".row", has_text="todo #1.txt").click()
    page.wait_for_selector("#viewer-body pre")
    page.click("#viewer-more")
    assert serious_violations(page) == [], "the viewer's menu"
    shot(page, "viewer-menu-" + scheme)
