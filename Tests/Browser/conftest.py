"""The browser suite's fixtures: a real `browsey serve` on a temp tree with awkward names, and
Debian's Chromium driven by Playwright at a phone viewport (390x844, touch) and a desktop one.

Every page fails its test on a console error, an uncaught exception or a failed request (a
request the page itself cancels, an event stream or a media file when the viewer closes, is not a
failure)."""
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
import zlib

import pytest
from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCREENSHOTS = os.path.join(HERE, "screenshots")
CHROMIUM = os.environ.get("BROWSEY_CHROMIUM", "/usr/lib/chromium/chromium")
VIEWPORTS = {
    "phone": dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2),
    "desktop": dict(viewport={"width": 1280, "height": 800}),
}


def png(width, height, rgb):
    """A tiny PNG of one colour."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def pdf(width, height):
    """A PDF of one page of `width` x `height` points whose left half is red."""
    content = b"1 0 0 rg 0 0 %d %d re f" % (width // 2, height)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R >>" % (width, height),
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, table)


def video(path, seconds, size="320x180"):
    """A test-pattern clip of `seconds`, made by ffmpeg (README's test command installs it)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc=duration=%d:size=%s:rate=2" % (seconds, size), "-pix_fmt", "yuv420p", path],
                   check=True, timeout=120)


def write(root, relative, content):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(content if isinstance(content, bytes) else content.encode())
    return path


def make_tree(root):
    write(root, "docs/notes #1.md", "# Notes\n\nSome *text* for 100% of us.\n")
    write(root, "docs/100% done.txt", "done\n" * 200)
    write(root, "docs/café ☕.txt", "crème brûlée\n")
    write(root, "docs/main.swift", 'print("hi")\n')
    write(root, "docs/guide.md", "# Guide\n\n| Name | Size |\n|:--|--:|\n| a | 10 |\n\n- [x] done\n- [ ] todo\n\n"
          "```swift\nlet x = 1\n```\n\n<script>window.__pwned = 1</script>\n\n"
          "![photo](../photos/photo%201.png) and [the notes](notes%20%231.md)\n\n"
          "## Setup\n\nSee [use](#use).\n\n## Use\n\nA bare https://example.com/a-very-long-address-that-wraps\n\n"
          "### Details\n\nMore.\n")
    write(root, "photos/photo 1.png", png(40, 30, (200, 30, 30)))
    write(root, "photos/photo 2 ü.png", png(30, 40, (30, 160, 40)))
    write(root, "photos/photo #3.png", png(20, 20, (30, 60, 200)))
    video(os.path.join(root, "photos", "clip.mp4"), seconds=2)
    write(root, "photos/song.mp3", b"ID3" + b"\x00" * 64)
    write(root, "photos/paper.pdf", pdf(200, 100))
    write(root, "a b/c%d/deep #1.txt", "deep")
    os.makedirs(os.path.join(root, "empty folder"))
    write(root, "big.bin", b"\x01" * 300_000)
    write(root, ".hidden", "secret")
    big = os.path.join(root, "many")
    os.makedirs(big)
    for index in range(10_000):
        with open(os.path.join(big, "file %05d.txt" % index), "wb") as handle:
            handle.write(b"x" * (index % 97))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, root, port, process):
        self.root, self.port, self.process = root, port, process
        self.base = "http://127.0.0.1:%d" % port
        self.headers = {}  # what every request of the suite's own carries (an access token)

    def url(self, path="/"):
        return self.base + path

    def get_json(self, path):
        request = urllib.request.Request(self.base + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)


# The logs of the servers now running, so that a failing test's report ends with what they said.
SERVER_LOGS = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    for path in SERVER_LOGS:
        try:
            with open(path, errors="replace") as handle:
                tail = handle.readlines()[-80:]
        except OSError:
            continue
        report.sections.append(("server log " + path, "".join(tail) or "(empty)\n"))


def run_server(make, extra=(), env=None):
    """A `browsey serve` on a temp tree that `make` fills, until the session ends; `env` adds to
    its environment (with `BROWSEY_ACCESS_TOKEN`, the suite's own requests carry the token)."""
    binary = os.environ.get("BROWSEY_BINARY", os.path.join(REPO, ".build", "debug", "browsey"))
    work = tempfile.mkdtemp(prefix="browsey-browser-")
    root = os.path.join(work, "served")
    os.makedirs(root)
    make(root)
    port = free_port()
    log = open(os.path.join(work, "server.log"), "w")
    # BROWSEY_WEB_ROOT: the web UI's files from disk (`--web-root`), to try an edit without a build.
    web_root = os.environ.get("BROWSEY_WEB_ROOT")
    extra = [*extra, "--web-root", web_root] if web_root else extra
    process = subprocess.Popen(
        [binary, "serve", root, "-p", str(port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
         "--index-dir", os.path.join(work, "index"), "--log-requests", *[arg.replace("WORK", work) for arg in extra]],
        stdout=log, stderr=subprocess.STDOUT, env=None if env is None else {**os.environ, **env})
    served = Server(root, port, process)
    if env and env.get("BROWSEY_ACCESS_TOKEN"):
        served.headers["X-Browsey-Access-Token"] = env["BROWSEY_ACCESS_TOKEN"]
    served.log_path = log.name
    SERVER_LOGS.append(log.name)
    try:
        for _ in range(300):
            try:
                if served.get_json("/api/health").get("ok"):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("browsey serve did not start; see %s" % log.name)
        yield served
    finally:
        SERVER_LOGS.remove(log.name)
        process.kill()
        process.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="session")
def server():
    yield from run_server(make_tree)


def make_writable_tree(root):
    write(root, "notes/todo #1.txt", "milk\neggs\n")
    write(root, "notes/draft ü.md", "# Draft\n")
    os.makedirs(os.path.join(root, "archive"))
    write(root, "notes/.secret note", "hidden")


@pytest.fixture(scope="session")
def writable_server():
    yield from run_server(make_writable_tree, ["--no-readonly", "--hidden", "--trash-dir", "WORK/trash"])


@pytest.fixture(scope="session")
def browser():
    os.makedirs(SCREENSHOTS, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


class Problems:
    """What went wrong in a page: console errors, exceptions, failed requests."""

    def __init__(self, page):
        self.items = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.items.append("exception: %s" % error))
        page.on("requestfailed", self._failed)

        self.allowed = []

    def allow(self, text):
        """A console error the test provokes on purpose (a 404 it asks for)."""
        self.allowed.append(text)

    def _console(self, message):
        if message.type == "error" and not any(text in message.text for text in self.allowed):
            self.items.append("console: " + message.text)

    def _failed(self, request):
        if not request.url.startswith("http"):
            return  # the browser's own pages (its PDF viewer), not the site's
        failure = request.failure or ""
        # Aborted: cancelled by the page (an event stream closed, a viewer closed) or by leaving it.
        # A failure the test provokes on purpose (a stopped server) is allowed like a console error.
        if "ERR_ABORTED" not in failure and not any(text in failure for text in self.allowed):
            self.items.append("request failed: %s %s (%s)" % (request.method, request.url, failure))


@pytest.fixture(params=["phone", "desktop"])
def page(request, browser):
    context = browser.new_context(**VIEWPORTS[request.param])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    opened = context.new_page()
    opened.kind = request.param
    problems = Problems(opened)
    opened.allow_problem = problems.allow
    yield opened
    context.close()
    assert problems.items == [], "\n".join(problems.items)


def shot(page, name):
    # What a person sees once things settle: CSS transitions (a picture fading in over its
    # placeholder, 120 ms) are let finish first. Animations are not waited for: a toast's
    # countdown is part of the picture.
    # (evaluate, not wait_for_function: the page's CSP forbids the eval the latter relies on)
    page.evaluate(
        "Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)"
        ".map(a => a.finished.catch(() => null))).then(() => null)"
    )
    page.screenshot(path=os.path.join(SCREENSHOTS, "%s-%s.png" % (name, page.kind)))
