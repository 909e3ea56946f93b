"""The reader's place: a folder opens where it was left after back, forward, reload and Up, with
the child just left in view and marked; a long list has a handle to drag to any place."""
import os

from conftest import shot
from test_browsing import open_folder


def first_row(page):
    """The name of the first row wholly inside the list's box."""
    return page.evaluate("""() => {
        const box = document.getElementById('list').getBoundingClientRect();
        const rows = [...document.querySelectorAll('.row')].filter(r => r.getBoundingClientRect().top >= box.top - 1)
          .sort((a, b) => a.offsetTop - b.offsetTop);
        return rows.length ? rows[0].querySelector('.name').textContent : null;
      }""")


def scroll_list(page, top):
    page.evaluate("(top) => { document.getElementById('list').scrollTop = top; }", top)
    page.wait_for_timeout(400)  # the place is written a moment after scrolling stops


def test_back_forward_reload_and_up_keep_the_place_and_mark_the_child(page, writable_server):
    folder = "place %s" % page.kind
    for index in range(300):
        os.makedirs(os.path.join(writable_server.root, folder, "folder %03d" % index))
    open_folder(page, writable_server, "/" + folder)
    row = page.evaluate("() => document.querySelector('.row').offsetHeight")
    # Row 0 is "..": folder 200 is row 201.
    scroll_list(page, 201 * row)
    assert first_row(page) == "folder 200"
    page.locator(".row", has_text="folder 205").click()
    page.wait_for_selector("#state >> text=This folder is empty.")
    # Up: the folder opens where it was, with the folder just left in view and marked.
    page.click("#back")
    page.wait_for_selector(".row.came-from")
    assert page.text_content(".row.came-from .name") == "folder 205"
    assert first_row(page) == "folder 200"
    shot(page, "place-came-from")
    # Back twice: into folder 205, then the first visit to the long folder, still at its place.
    page.go_back()
    page.wait_for_selector("#state >> text=This folder is empty.")
    page.go_back()
    page.wait_for_selector(".row >> text=folder 205")
    assert first_row(page) == "folder 200"
    # A reload keeps it too.
    scroll_list(page, 101 * row)
    page.reload()
    page.wait_for_selector(".row >> text=folder 100")
    page.wait_for_timeout(100)
    assert first_row(page) == "folder 100"
    # Forward, then back: the same.
    page.go_forward()
    page.wait_for_selector("#state >> text=This folder is empty.")
    page.go_back()
    page.wait_for_selector(".row >> text=folder 100")
    assert first_row(page) == "folder 100"
    # A new visit by a link (not Up, not history) starts at the top.
    page.goto(writable_server.url("/"))
    page.wait_for_selector(".row")
    page.locator(".row", has_text=folder).click()
    page.wait_for_selector(".row >> text=folder 000")
    assert first_row(page) in ("..", "folder 000")


def test_the_fast_scroll_handle_drags_a_long_list_to_any_place(page, server):
    open_folder(page, server, "/many")
    assert page.locator("#fast-scroll").is_hidden(), "hidden until the list scrolls"
    scroll_list(page, 200)
    handle = page.locator("#fast-scroll")
    assert handle.is_visible()
    box = handle.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    listbox = page.locator("#list").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    # To the middle of the track: the middle of the folder.
    middle = listbox["y"] + (listbox["height"] - 44) / 2 + (y - box["y"])
    page.mouse.move(x, middle, steps=6)
    label = page.text_content("#fast-scroll-label")
    assert page.locator("#fast-scroll-label").is_visible()
    shot(page, "fast-scroll")
    page.mouse.up()
    shown = first_row(page)
    number = int(shown.split()[1].split(".")[0])
    assert 4600 <= number <= 5400, shown
    assert label.startswith("file 0"), label
    # To the bottom: the last file.
    box = handle.bounding_box()
    page.mouse.move(box["x"] + 22, box["y"] + 22)
    page.mouse.down()
    page.mouse.move(box["x"] + 22, listbox["y"] + listbox["height"] + 50, steps=6)
    page.mouse.up()
    page.wait_for_selector(".row >> text=file 09999.txt")
    page.wait_for_timeout(1800)
    assert page.locator("#fast-scroll").is_hidden(), "it goes away when scrolling stops"
