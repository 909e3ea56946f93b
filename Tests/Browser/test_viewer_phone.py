"""The viewer on a phone: code has line numbers and a wrapped line continues indented past them;
an open file shows its new content when it changes on disk, and unsaved edits are kept."""
import os
import time

import pytest

from conftest import shot
from test_browsing import open_folder
from test_gallery import serious_violations


def test_code_lines_are_numbered_and_wrapped_lines_stay_indented(page, writable_server):
    root = writable_server.root
    long_line = "let words = [" + ", ".join('"word %d"' % index for index in range(40)) + "]"
    source = "/* a comment\n   over two lines */\n" + long_line + "\nprint(words)\n"
    name = "lines %s.swift" % page.kind
    with open(os.path.join(root, "notes", name), "w") as handle:
        handle.write(source)
    open_folder(page, writable_server, "/notes")
    page.locator(".row", has_text=name).click()
    page.wait_for_selector("#viewer-body pre.numbered")
    lines = page.locator("#viewer-body pre .line")
    assert lines.count() == 4
    # The comment crosses a line break: each line holds its own part, still highlighted.
    assert lines.nth(1).locator(".hl-c").inner_text() == "   over two lines */"
    numbers = page.evaluate("""() => [...document.querySelectorAll('#viewer-body pre .line')]
        .map(line => getComputedStyle(line, '::before').content)""")
    assert numbers == ["counter(line)"] * 4 or len(numbers) == 4
    # The long line wraps; its every visual row starts at the same x, right of the numbers.
    rows = page.evaluate("""() => {
        const line = document.querySelectorAll('#viewer-body pre .line')[2];
        const range = document.createRange(); range.selectNodeContents(line);
        const lefts = [...range.getClientRects()].map(r => Math.round(r.left));
        return { lefts, lineLeft: Math.round(line.getBoundingClientRect().left),
                 height: line.getBoundingClientRect().height,
                 one: document.querySelectorAll('#viewer-body pre .line')[3].getBoundingClientRect().height };
      }""")
    assert rows["height"] > rows["one"] * 1.5, "the long line wraps: %s" % rows
    assert min(rows["lefts"]) > rows["lineLeft"] + 10, "wrapped text stays right of the numbers: %s" % rows
    shot(page, "viewer-code-lines")


def test_an_open_file_reloads_when_it_changes_and_unsaved_edits_are_kept(page, writable_server):
    root = writable_server.root
    name = "live %s.txt" % page.kind
    path = os.path.join(root, "notes", name)
    with open(path, "w") as handle:
        handle.write("first version\n")
    open_folder(page, writable_server, "/notes")
    page.locator(".row", has_text=name).click()
    page.wait_for_selector("#viewer-body pre >> text=first version")
    time.sleep(0.05)
    with open(path, "w") as handle:
        handle.write("second version\n")
    page.wait_for_selector("#viewer-body pre >> text=second version", timeout=10000)
    # While editing, a change on disk keeps the edits and says so.
    page.click("#viewer-edit")
    page.fill("#viewer-body textarea", "my unsaved words\n")
    time.sleep(0.05)
    with open(path, "w") as handle:
        handle.write("third version\n")
    page.wait_for_selector("#toast >> text=changed on the server", timeout=10000)
    assert page.input_value("#viewer-body textarea") == "my unsaved words\n"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_numbered_code(page, server, scheme):
    page.emulate_media(color_scheme=scheme)
    open_folder(page, server, "/docs")
    page.locator(".row", has_text="main.swift").click()
    page.wait_for_selector("#viewer-body pre.numbered")
    assert serious_violations(page) == []
    shot(page, "viewer-code-" + scheme)
