"""A server with one access token: a copied link leaves the token out, unless the person asks for a
link with access by name; that link opens the file in a browser that never had the token."""
import pytest
from playwright.sync_api import expect

from conftest import VIEWPORTS, Problems, run_server, write

TOKEN = "t0k3n-for-the-browser-suite"


def make_token_tree(root):
    write(root, "notes/plan.txt", "the plan\n")


@pytest.fixture(scope="module")
def token_server():
    yield from run_server(make_token_tree, ["--token", TOKEN])


def test_a_link_carries_the_token_only_when_asked(browser, token_server):
    context = browser.new_context(**VIEWPORTS["phone"])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    problems = Problems(page)
    page.goto(token_server.url("/notes?token=" + TOKEN))
    page.click("[aria-label='Info for plan.txt']")
    page.click("#info-copy")
    plain = page.evaluate("navigator.clipboard.readText()")
    assert plain == token_server.url("/notes/plan.txt?view=1") and TOKEN not in plain
    expect(page.locator("#info-copy-access")).to_be_visible()
    page.click("#info-copy-access")
    expect(page.locator("#toast")).to_contain_text("whoever has it can open everything")
    with_access = page.evaluate("navigator.clipboard.readText()")
    assert with_access.startswith(token_server.url("/notes/plan.txt?")) and "token=" + TOKEN in with_access, with_access
    assert problems.items == [], problems.items
    context.close()
    # Someone else's browser, with no cookie: the plain link is refused, the one with access opens.
    fresh = browser.new_context(**VIEWPORTS["phone"])
    assert fresh.request.get(plain).status == 401
    visitor = fresh.new_page()
    visitor.goto(with_access)
    expect(visitor.locator("#viewer-body")).to_contain_text("the plan")
    assert TOKEN not in visitor.url, "the address bar drops the token once the cookie holds it"
    fresh.close()
