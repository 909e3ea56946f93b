"""Searching inside files from the search panel: the Names | Contents switch, snippets with the
match marked (as text, never markup), and a hit that opens the file at its line."""
import os
import time

from conftest import shot, write
from test_browsing import open_folder


def wait_for_content_index(server, text, path):
    """Until the server's content index finds `text` in `path` (it follows the disk within a second)."""
    for _ in range(200):
        found = server.get_json("/api/search?in=content&q=" + text)
        if any(result["path"] == path for result in found.get("results", [])):
            return
        time.sleep(0.05)
    raise AssertionError("the content index never found %s in %s" % (text, path))


def test_contents_switch_finds_lines_marks_matches_and_opens_the_file_there(page, writable_server):
    root = writable_server.root
    folder = "contents %s" % page.kind
    lines = ["line %d of filler" % number for number in range(1, 80)]
    lines[59] = "The Walrus said <b>the time has come</b> to talk"
    write(root, os.path.join(folder, "poem.txt"), "\n".join(lines) + "\n")
    write(root, os.path.join(folder, "other.md"), "# Other\n\nNo sea creatures here.\n")
    wait_for_content_index(writable_server, "walrus", "/%s/poem.txt" % folder)
    open_folder(page, writable_server, "/" + folder)
    page.click("#search-open")
    page.click("#search-scope button[data-scope=content]")
    assert page.get_attribute("#search-scope button[data-scope=content]", "aria-checked") == "true"
    page.fill("#search-input", "walrus")
    page.wait_for_selector("#search-results .snippet", timeout=15000)
    snippet = page.locator("#search-results .snippet").first
    assert snippet.get_attribute("data-line") == "60"
    assert page.inner_text("#search-results mark") == "Walrus"
    # The file's text stays text: the <b> in it is shown, not made bold.
    assert "<b>the time has come</b>" in snippet.inner_text()
    assert page.locator("#search-results b").count() == 0
    assert "other.md" not in page.inner_text("#search-results")
    shot(page, "content-search")
    snippet.click()
    page.wait_for_selector("#viewer pre .line.target", timeout=15000)
    target = page.locator("#viewer pre .line.target")
    assert "The Walrus said" in target.inner_text()
    assert target.is_visible()
    box = target.bounding_box()
    viewport = page.viewport_size
    assert box is not None and 0 <= box["y"] <= viewport["height"], "the line is scrolled into view"
    shot(page, "content-search-opened")
    # Back to names: the same panel searches names again.
    page.keyboard.press("Escape")
    page.click("#search-open")
    page.click("#search-scope button[data-scope=names]")
    page.fill("#search-input", "poem")
    # (Polled from here: the page's CSP runs no evaluated script, which wait_for_function needs.)
    for _ in range(300):
        if "poem.txt" in page.inner_text("#search-results") and page.locator("#search-results .snippet").count() == 0:
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the names search never answered poem.txt without lines")


def test_contents_say_when_more_files_match_than_are_shown(page, writable_server):
    root = writable_server.root
    folder = "many %s" % page.kind
    # One file more than the panel shows (50), each holding the word once.
    for number in range(51):
        write(root, os.path.join(folder, "note %02d.txt" % number), "a narwhal%s, note %d\n" % (page.kind, number))
    word = "narwhal%s" % page.kind
    wait_for_content_index(writable_server, word, "/%s/note 50.txt" % folder)
    for _ in range(200):  # until every file is in the index
        if len(writable_server.get_json("/api/search?in=content&limit=51&q=" + word).get("results", [])) == 51:
            break
        time.sleep(0.05)
    open_folder(page, writable_server, "/" + folder)
    page.click("#search-open")
    page.click("#search-scope button[data-scope=content]")
    page.fill("#search-input", word)
    page.wait_for_selector("#search-results .snippet", timeout=15000)
    for _ in range(200):
        if "More files match" in page.inner_text("#search-state"):
            break
        page.wait_for_timeout(50)
    assert page.inner_text("#search-state") == "More files match than are shown: add a word to narrow the search."
    assert page.locator("#search-results .snippet").count() == 50
    shot(page, "content-search-more")
    # Narrowed to one file, the note goes.
    page.fill("#search-input", word + ", note 50")
    for _ in range(200):
        if page.locator("#search-results .snippet").count() == 1:
            break
        page.wait_for_timeout(50)
    assert page.locator("#search-results .snippet").count() == 1
    assert page.inner_text("#search-state") == ""
