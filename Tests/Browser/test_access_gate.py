"""A server behind the access-token gate (`BROWSEY_ACCESS_TOKEN`): the web UI asks once for the
token, says so when it is wrong, then browses with the HttpOnly cookie `POST /api/access` sets
(pictures and the event stream, which carry no header, included); the token is left nowhere a
script, the address bar or the history could show it."""
import urllib.parse

import pytest
from playwright.sync_api import expect

from conftest import png, run_server, shot, write

TOKEN = "gate-t0ken-for-the-browser-suite"
# The browser's own line for each refusal the page expects (the first listing, the health check,
# a wrong token): the page itself logs nothing.
REFUSED = "status of 401 (Unauthorized)"


def make_gated_tree(root):
    # Enough pictures for the folder to open as a grid of thumbnails.
    for name, rgb in [("red", (200, 30, 30)), ("green", (30, 160, 40)), ("blue", (30, 60, 200)), ("gold", (220, 170, 20))]:
        write(root, "photos/%s.png" % name, png(60, 40, rgb))
    write(root, "notes/plan.txt", "the plan\n")


@pytest.fixture(scope="module")
def gated_server():
    yield from run_server(make_gated_tree, env={"BROWSEY_ACCESS_TOKEN": TOKEN})


class Traffic:
    """Every request the page sends and every answer it gets."""

    def __init__(self, page):
        self.requests, self.answers = [], []
        page.on("request", lambda request: self.requests.append(request))
        page.on("response", lambda response: self.answers.append((urllib.parse.urlsplit(response.url).path, response.status)))

    def refused(self, page, expected):
        """The paths refused, once they are `expected` (or after 5 s: what they were then)."""
        for _ in range(50):
            paths = sorted(path for path, status in self.answers if status == 401)
            if paths == expected:
                break
            page.wait_for_timeout(100)
        return paths


def ask(page, server):
    page.allow_problem(REFUSED)
    page.goto(server.url("/"))
    dialog = page.get_by_role("dialog", name="Access token")
    expect(dialog).to_be_visible()
    return dialog


def test_the_page_asks_once_refuses_a_wrong_token_then_browses_with_the_cookie(page, gated_server):
    traffic = Traffic(page)
    dialog = ask(page, gated_server)
    expect(dialog).to_contain_text("This server asks for its access token")
    field = page.get_by_role("textbox", name="Access token")
    assert field.get_attribute("type") == "password"
    expect(field).to_be_focused()
    # Under the form: no error about the refused listing, no live updates, no other question.
    expect(page.locator("#state")).to_be_hidden()
    assert page.locator("#offline").is_hidden()
    assert traffic.refused(page, ["/api/health", "/api/list"]) == ["/api/health", "/api/list"], traffic.answers

    field.fill("not-the-token")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("#access-error")).to_have_text("That token is not right.")
    expect(field).to_have_value("")
    expect(field).to_be_focused()
    expect(dialog).to_be_visible()
    shot(page, "access-wrong")

    field.fill(TOKEN)
    field.press("Enter")
    page.wait_for_selector(".row >> text=photos")
    expect(page.locator("#access")).to_be_hidden()
    page.locator(".row", has_text="photos").click()
    page.wait_for_url("**/photos")
    # Pictures pass the gate by the cookie alone: a thumbnail, then the picture in the viewer.
    page.wait_for_function("() => [...document.querySelectorAll('.tile img')].some(i => i.complete && i.naturalWidth > 0)")
    page.locator(".tile[title='red.png']").click()
    page.wait_for_function("() => { const i = document.querySelector('#viewer-body img'); return i && i.complete && i.naturalWidth > 0; }")
    assert ("/api/events", 200) in traffic.answers, "the event stream passes the gate too"
    # Only the two first questions and the wrong token were refused.
    refused = ["/api/access", "/api/health", "/api/list"]
    assert traffic.refused(page, refused) == refused, traffic.answers

    # The token: in one request's header, and nowhere a script or the address bar could show it.
    carried = [request for request in traffic.requests if TOKEN in str(request.all_headers())]
    assert [(request.method, urllib.parse.urlsplit(request.url).path) for request in carried] == [("POST", "/api/access")]
    assert not [request.url for request in traffic.requests if TOKEN in request.url]
    assert TOKEN not in page.url and TOKEN not in page.evaluate("location.href")
    seen = page.evaluate("""() => JSON.stringify({
        cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage },
        history: history.state, field: document.getElementById('access-token').value })""")
    assert TOKEN not in seen and TOKEN.encode().hex() not in seen and "browsey_access" not in seen, seen
    # Every entry of the tab's history, walked back to the first: the form added none.
    entries = page.evaluate("history.length")
    assert entries <= 4, entries
    visited = [page.url]
    for _ in range(entries - 1):
        page.go_back()
        page.wait_for_timeout(150)
        visited.append(page.url)
    assert not [url for url in visited if TOKEN in url], visited
    assert gated_server.url("/") in visited, visited
    cookie = [c for c in page.context.cookies() if c["name"] == "browsey_access"]
    assert len(cookie) == 1 and cookie[0]["httpOnly"] and cookie[0]["sameSite"] == "Strict", cookie


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_in_the_token_form(page, gated_server, scheme):
    from axe_playwright_python.sync_playwright import Axe
    page.emulate_media(color_scheme=scheme)
    ask(page, gated_server)
    found = Axe().run(page).response["violations"]
    assert [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in found
            if v["impact"] in ("serious", "critical") or any("#access" in str(n["target"]) for n in v["nodes"])] == []
    shot(page, "access-" + scheme)
    page.get_by_role("textbox", name="Access token").fill("wrong")
    page.get_by_role("button", name="Continue").click()
    expect(page.locator("#access-error")).to_be_visible()
    found = Axe().run(page, context="#access").response["violations"]
    assert [(v["id"], v["impact"]) for v in found] == [], "with the error shown"
