"""The server stopped and started again: the page says it is not connected, pictures say "Not
reachable" rather than showing a broken image, and everything recovers without a tap."""
import os
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import REPO, free_port, png, shot, write
from test_gallery import serious_violations


class StoppableServer:
    """A `browsey serve` that a test stops and starts again on the same port and folder."""

    def __init__(self):
        self.work = tempfile.mkdtemp(prefix="browsey-offline-")
        self.root = os.path.join(self.work, "served")
        write(self.root, "pictures/red.png", png(60, 40, (200, 30, 30)))
        write(self.root, "pictures/notes.txt", "some notes\n")
        write(self.root, "later/after.txt", "after\n")
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.process = None

    def url(self, path="/"):
        return self.base + path

    def start(self):
        binary = os.environ.get("BROWSEY_BINARY", os.path.join(REPO, ".build", "debug", "browsey"))
        extra = ["--web-root", os.environ["BROWSEY_WEB_ROOT"]] if os.environ.get("BROWSEY_WEB_ROOT") else []
        self.process = subprocess.Popen(
            [binary, "serve", self.root, "-p", str(self.port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
             "--index-dir", os.path.join(self.work, "index"), *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("browsey serve did not start again")

    def stop(self):
        self.process.kill()
        self.process.wait()


@pytest.fixture
def stoppable():
    served = StoppableServer()
    served.start()
    yield served
    served.stop()


def test_a_stopped_server_shows_a_banner_and_the_page_recovers_by_itself(page, stoppable):
    page.allow_problem("ERR_CONNECTION_REFUSED")
    page.allow_problem("ERR_EMPTY_RESPONSE")
    page.allow_problem("ERR_CONNECTION_RESET")
    page.allow_problem("ERR_INCOMPLETE_CHUNKED_ENCODING")  # the event stream, cut by the stop
    page.goto(stoppable.url("/pictures"))
    page.wait_for_selector(".row >> text=notes.txt")
    assert page.locator("#offline").is_hidden()
    stoppable.stop()
    # The live-update stream breaks: the banner comes without anything tapped.
    page.wait_for_selector("#offline:visible", timeout=10000)
    # A folder opened meanwhile says in words what is wrong, at the top, not "Failed to fetch".
    page.click("#back")
    page.wait_for_selector("#state.error")
    text = page.text_content("#state")
    assert "not reachable" in text and "Failed to fetch" not in text, text
    box = page.locator("#state").bounding_box()
    assert box["y"] < 300, "the message is at the top of the list, not the bottom of the screen"
    shot(page, "offline")
    # A picture opened while away says "Not reachable", not a broken image.
    page.evaluate("(url) => { history.pushState(null, '', url); dispatchEvent(new PopStateEvent('popstate')); }",
                  "/pictures/red.png?view=1")
    page.wait_for_selector("#viewer-body img.unreachable", state="attached", timeout=10000)
    assert page.evaluate("() => getComputedStyle(document.querySelector('#viewer-body'), '::after').content") == '"Not reachable"'
    shot(page, "offline-picture")
    # The server comes back: the picture shows, and the folder behind it lists, without a tap.
    write(stoppable.root, "pictures/new while away.txt", "new")
    stoppable.start()
    page.wait_for_selector("#offline", state="hidden", timeout=10000)
    page.wait_for_function("() => { const i = document.querySelector('#viewer-body img'); return i && i.complete && i.naturalWidth > 0 && !i.classList.contains('unreachable'); }", timeout=10000)
    page.keyboard.press("Escape")
    page.wait_for_selector(".row >> text=new while away.txt", timeout=10000)
    assert page.locator("#state.error").count() == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_the_offline_banner(page, stoppable, scheme):
    page.allow_problem("ERR_CONNECTION_REFUSED")
    page.allow_problem("ERR_EMPTY_RESPONSE")
    page.allow_problem("ERR_CONNECTION_RESET")
    page.allow_problem("ERR_INCOMPLETE_CHUNKED_ENCODING")  # the event stream, cut by the stop
    page.emulate_media(color_scheme=scheme)
    page.goto(stoppable.url("/pictures"))
    page.wait_for_selector(".row >> text=notes.txt")
    stoppable.stop()
    page.wait_for_selector("#offline:visible", timeout=10000)
    page.click("#back")
    page.wait_for_selector("#state.error")
    assert serious_violations(page) == []
    shot(page, "offline-" + scheme)
    stoppable.start()
    page.wait_for_selector("#offline", state="hidden", timeout=10000)
