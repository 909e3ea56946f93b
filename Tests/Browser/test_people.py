"""People and links in the browser: sign in, browse within the user's rights, make a share, and
open it in a fresh context (no cookie) that sees only the shared item."""
import json
import os
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import REPO, Problems, VIEWPORTS, run_server, shot, write


def make_people_tree(root):
    write(root, "Public/welcome.txt", "hello")
    write(root, "Team/plan.txt", "the plan")
    write(root, "Team/budget.txt", "numbers")
    write(root, "top secret.txt", "nobody but bob")
    binary = os.environ.get("BROWSEY_BINARY", os.path.join(REPO, ".build", "debug", "browsey"))
    accounts = os.path.join(os.path.dirname(root), "accounts.json")
    subprocess.run([binary, "passwd", "bob", "--config", accounts], input=b"bob's password\n", check=True,
                   stdout=subprocess.DEVNULL)
    with open(accounts) as handle:
        config = json.load(handle)
    config["folders"] = {"/": {"@users": "read"}, "/Public": {"*": "read"}, "/Team": {"bob": "write"}}
    with open(accounts, "w") as handle:
        json.dump(config, handle)


@pytest.fixture(scope="module")
def people_server():
    yield from run_server(make_people_tree, ["--config", "WORK/accounts.json", "--no-readonly",
                                             "--trash-dir", "WORK/trash", "--audit-log", "WORK/audit.log"])


def test_sign_in_browse_and_share(people_server, browser):
    context = browser.new_context(**VIEWPORTS["desktop"])
    page = context.new_page()
    page.kind = "desktop"
    problems = Problems(page)
    page.goto(people_server.url("/"))
    page.wait_for_selector("#account")
    # Nobody signed in sees only the way to what everyone may read, and no write actions.
    expect(page.locator("#list .row")).to_have_count(1)
    assert "Public" in page.locator("#list").inner_text()
    assert "Team" not in page.locator("#list").inner_text()
    assert page.locator("#new-folder").is_hidden()
    page.click("#account")
    page.fill("#login-name", "bob")
    page.fill("#login-password", "bob's password")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#account")).to_have_text("bob")
    expect(page.locator("#list .row")).to_have_count(3)
    listed = page.locator("#list").inner_text()
    assert "Team" in listed and "top secret.txt" in listed
    # bob reads the root but writes only in Team: the write actions follow him.
    assert page.locator("#new-folder").is_hidden()
    page.goto(people_server.url("/Team/"))
    expect(page.locator("#list .row", has_text="plan.txt")).to_be_visible()
    expect(page.locator("#list .row", has_text="top secret.txt")).to_have_count(0)
    page.wait_for_selector("#new-folder", state="visible")
    shot(page, "people-signed-in")
    # The info sheet makes a share link of the folder, for whoever bob sends it to.
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("[aria-label='Info for plan.txt']")
    page.click("#info-link")
    page.wait_for_selector("#info-link-address", state="visible")
    file_link = page.input_value("#info-link-address")
    assert "/s/" in file_link and "Team" not in file_link, file_link
    page.click("#info-close")
    made = page.evaluate("""async () => {
        const response = await fetch('/api/share', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({path: '/Team'})});
        return {status: response.status, body: await response.json()};
    }""")
    assert made["status"] == 201, made
    folder_link = made["body"]["url"]
    assert problems.items == [], "\n".join(problems.items)
    context.close()

    # A fresh context, no cookie: the file link opens that file in the viewer, nothing else.
    fresh = browser.new_context(**VIEWPORTS["phone"])
    visitor = fresh.new_page()
    visitor.kind = "phone"
    seen = Problems(visitor)
    visitor.goto(file_link)
    expect(visitor.locator("#viewer-body")).to_contain_text("the plan")
    assert visitor.locator("#search-open").is_hidden(), "no search through a link"
    assert visitor.locator("#account").count() == 0, "no account through a link"
    visitor.click("#viewer-more")
    with visitor.expect_download() as download:
        visitor.click("#viewer-download")
    with open(download.value.path()) as handle:
        assert handle.read() == "the plan"
    shot(visitor, "people-share-file")
    assert fresh.request.get(file_link + "/file?path=../budget.txt").status != 200
    assert fresh.request.get(people_server.url("/api/file?path=/Team/budget.txt")).status == 401
    # The folder link: the web UI on Team alone, its name at the root of the breadcrumbs.
    visitor.goto(people_server.url(folder_link))
    expect(visitor.locator("#list .row")).to_have_count(2)
    listed = visitor.locator("#list").inner_text()
    assert "plan.txt" in listed and "budget.txt" in listed and "secret" not in listed, listed
    expect(visitor.locator("#crumbs")).to_have_text("Team")
    assert "Team" not in visitor.url.split("/s/")[1]
    shot(visitor, "people-share-folder-list")
    visitor.locator("#list .row", has_text="budget.txt").click()
    expect(visitor.locator("#viewer-body")).to_contain_text("numbers")
    assert "view=1" in visitor.url and "path=" in visitor.url
    visitor.reload()
    expect(visitor.locator("#viewer-body")).to_contain_text("numbers")
    shot(visitor, "people-share-folder")
    assert seen.items == [], "\n".join(seen.items)
    fresh.close()
