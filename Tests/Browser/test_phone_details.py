"""The smaller things a phone user meets: sheets above the on-screen keyboard, an upload panel
that clears, an Undo big enough for a thumb, and the panels no other test audits, in both
themes."""
import os

import pytest

from conftest import shot
from test_gallery import serious_violations
from test_writing import open_fresh_folder

# Chromium shows no on-screen keyboard here, so the page gets a visual viewport that a test can
# shrink as a keyboard does: `window.__keyboard(px)` covers the bottom `px` of the window.
FAKE_KEYBOARD = """(() => {
  const viewport = new EventTarget();
  let covered = 0;
  for (const [name, value] of Object.entries({
    height: () => window.innerHeight - covered, width: () => window.innerWidth,
    offsetTop: () => 0, offsetLeft: () => 0, pageTop: () => window.scrollY, scale: () => 1 })) {
    Object.defineProperty(viewport, name, { get: value });
  }
  Object.defineProperty(window, "visualViewport", { configurable: true, get: () => viewport });
  window.__keyboard = (px) => { covered = px; viewport.dispatchEvent(new Event("resize")); };
})();"""


def test_a_sheet_keeps_its_field_and_buttons_above_the_on_screen_keyboard(page, writable_server):
    if page.kind != "phone":
        pytest.skip("an on-screen keyboard is a phone's")
    page.add_init_script(FAKE_KEYBOARD)
    open_fresh_folder(page, writable_server, "keyboard %s" % page.kind, {"letter.txt": "dear"})
    page.click("[aria-label='Info for letter.txt']")
    page.click("#action-rename")
    field = page.locator("#action-input")
    field.focus()
    height = page.evaluate("innerHeight")
    keyboard = 330  # a phone's keyboard with its suggestion bar, at 390 x 844
    page.evaluate("(px) => window.__keyboard(px)", keyboard)
    page.wait_for_timeout(300)  # the sheet's padding moves in 0.1 s
    for selector in ("#action-input", "#action-confirm"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height - keyboard, (selector, box)
    shot(page, "sheet-above-keyboard")
    page.evaluate("() => window.__keyboard(0)")
    page.fill("#action-input", "letter to you.txt")
    page.click("#action-confirm")
    page.wait_for_selector(".row >> text=letter to you.txt")


def test_clear_takes_finished_uploads_away_and_a_failed_one_stays_to_be_retried(page, writable_server, tmp_path):
    folder = open_fresh_folder(page, writable_server, "clear %s" % page.kind)
    page.allow_problem("507")

    # The disk is full for one of the two files, as the server would say it.
    def full(route):
        if "full.txt" in route.request.url:
            route.fulfill(status=507, content_type="application/json",
                          body='{"error":"No space left on the server","code":"noSpace"}')
        else:
            route.continue_()

    page.route("**/api/file?*", full)
    files = []
    for name in ("kept.txt", "full.txt"):
        path = tmp_path / name
        path.write_text(name)
        files.append(str(path))
    page.set_input_files("#upload-input", files)
    page.wait_for_selector("#upload-total-text >> text=1 of 2 files uploaded, 1 failed")
    assert page.locator(".upload").count() == 2
    page.wait_for_timeout(1500)  # longer than a panel with nothing failed waits before folding
    assert page.locator("#uploads").is_visible(), "a failure keeps the panel open"
    page.click("#uploads-clear")
    cards = page.locator(".upload")
    assert cards.count() == 1 and "full.txt" in cards.first.inner_text(), "Clear leaves the failed one"
    page.unroute("**/api/file?*", full)
    cards.first.locator("button", has_text="Retry").click()
    page.wait_for_selector("#upload-total-text >> text=/^Uploaded 1 file$/")
    page.wait_for_selector("#uploads", state="hidden", timeout=8000)
    assert sorted(os.listdir(folder)) == ["full.txt", "kept.txt"]


def test_undo_after_a_delete_is_a_44_px_target(page, writable_server):
    folder = open_fresh_folder(page, writable_server, "undo %s" % page.kind, {"draft.txt": "draft"})
    page.click("[aria-label='Info for draft.txt']")
    page.click("#action-delete")
    page.click("#delete-go")
    undo = page.locator("#toast button", has_text="Undo")
    undo.wait_for()
    box = undo.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    undo.click()
    page.wait_for_selector(".row >> text=draft.txt")
    assert os.path.exists(os.path.join(folder, "draft.txt"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_uploads_search_settings_and_a_note(page, writable_server, tmp_path, scheme):
    page.emulate_media(color_scheme=scheme)
    note = ("# A note\n\nSee https://example.com/AnAddressLongEnoughToNeedWrappingOnAPhoneScreen?with=parameters&and=more"
            " and `code`.\n\n- one\n- two\n\n```swift\nlet x = 1\n```\n")
    open_fresh_folder(page, writable_server, "panels %s %s" % (page.kind, scheme), {"note.md": note})
    # A failed upload keeps the panel on the screen while it is audited.
    page.allow_problem("507")
    page.route("**/api/file?*", lambda route: route.fulfill(
        status=507, content_type="application/json", body='{"error":"No space left on the server","code":"noSpace"}'))
    path = tmp_path / "big.bin"
    path.write_bytes(b"x" * 2000)
    page.set_input_files("#upload-input", [str(path)])
    page.wait_for_selector("#upload-total-text >> text=failed")
    assert serious_violations(page) == [], "the upload panel"
    shot(page, "uploads-failed-" + scheme)
    page.unroute("**/api/file?*")
    page.click("#search-open")
    page.fill("#search-input", "note")
    page.wait_for_selector("#search-results li >> text=note.md", timeout=15000)
    assert serious_violations(page) == [], "the search panel"
    shot(page, "search-" + scheme)
    page.keyboard.press("Escape")
    page.click("#folder-more")  # Settings is in the folder's menu
    page.click("#settings-open")
    page.wait_for_selector("#settings:not([hidden])")
    assert serious_violations(page) == [], "settings"
    shot(page, "settings-" + scheme)
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings", state="hidden")
    page.locator(".row", has_text="note.md").click()
    article = page.locator("#viewer-body article.markdown")
    article.wait_for()
    # A bare address is a link, and it wraps: the page never pans sideways.
    assert article.locator("a[href^='https://example.com/AnAddress']").count() == 1
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert article.evaluate("e => e.scrollWidth <= e.clientWidth"), "the note fits its column"
    assert serious_violations(page) == [], "a note in the viewer"
    shot(page, "viewer-markdown-" + scheme)
