"""Files from the served folder never run on the server's origin: an HTML, XHTML or SVG file whose
script would write to the server, change the page or message it is opened every way a person (or
a link someone sends them) can open it, and nothing of it runs."""
import json
import os
import urllib.parse
import urllib.request

import pytest

from conftest import shot
from test_browsing import open_folder


def payload(marker):
    """What a hostile file runs if it can: a write to the server (a new folder named `marker`),
    a mark in the page's storage, its title and its opener, and a message to the top window."""
    return (
        "fetch('/api/mkdir', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({path: '/%s'})});"
        "try { localStorage.setItem('pwned', '%s'); } catch (e) {}"
        "document.title = 'PWNED'; try { top.document.title = 'PWNED'; } catch (e) {}"
        "top.postMessage('pwned %s', '*');" % (marker, marker, marker))


def hostile_files(marker):
    script = payload(marker)
    return {
        "page.html": "<!doctype html><title>page</title><body onload=\"%s\"><h1>hello</h1>"
                     "<img src=\"data:image/png;base64,AAAA\" onerror=\"%s\"><script>%s</script></body>" % (script, script, script),
        "page.xhtml": '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
                      "<title>page</title></head><body><h1>hello</h1><script>//<![CDATA[\n%s\n//]]></script>"
                      "</body></html>" % script,
        "picture.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" onload="%s">'
                       '<rect width="40" height="30" fill="red"/><script>//<![CDATA[\n%s\n//]]></script></svg>'
                       % (script, script),
    }


def upload(server, path, content):
    request = urllib.request.Request(
        server.url("/api/file?overwrite=1&path=" + urllib.parse.quote(path, safe="")), data=content.encode(), method="PUT")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201


def file_url(server, path, **query):
    return server.url("/api/file?" + urllib.parse.urlencode({"path": path, **query}))


def nothing_ran(page, server, marker):
    """No folder was made by the file's script, and our page kept its storage and title."""
    page.wait_for_timeout(300)  # a fetch the file started would have landed by now
    assert not os.path.exists(os.path.join(server.root, marker)), "the file's script wrote to the server"
    assert page.title() != "PWNED"


@pytest.fixture
def hostile(page, writable_server):
    """The hostile files, uploaded into a folder of their own through the API."""
    marker = "pwned-%s" % page.kind
    folder = "/inert-%s" % page.kind
    if not os.path.isdir(writable_server.root + folder):
        request = urllib.request.Request(
            writable_server.url("/api/mkdir"), data=json.dumps({"path": folder}).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=10).close()
    for name, content in hostile_files(marker).items():
        upload(writable_server, "%s/%s" % (folder, name), content)
    # The sandboxed documents report what they refused to run; those refusals are the point.
    for text in ["Blocked script execution", "Content Security Policy", "Refused to"]:
        page.allow_problem(text)
    return folder, marker


def test_the_check_would_see_a_script_that_ran(page, writable_server):
    """The payload, run as our own page would run it, does write: so its absence below means
    something."""
    marker = "control-%s" % page.kind
    open_folder(page, writable_server)
    page.evaluate(payload(marker))
    page.wait_for_function("() => document.title === 'PWNED'")
    for _ in range(100):
        if os.path.isdir(os.path.join(writable_server.root, marker)):
            break
        page.wait_for_timeout(50)
    assert os.path.isdir(os.path.join(writable_server.root, marker))
    os.rmdir(os.path.join(writable_server.root, marker))


def test_hostile_files_opened_inline_run_nothing(page, writable_server, hostile):
    folder, marker = hostile
    open_folder(page, writable_server)
    page.evaluate("localStorage.removeItem('pwned')")
    for name in ["page.html", "page.xhtml", "picture.svg"]:
        response = page.goto(file_url(writable_server, "%s/%s" % (folder, name), download="false"))
        assert response.headers["content-security-policy"] == "sandbox; default-src 'none'"
        assert response.headers["x-content-type-options"] == "nosniff"
        page.wait_for_load_state("load")
        nothing_ran(page, writable_server, marker)
        # The document is opaque: it has no storage, no cookie and no origin of ours.
        assert page.evaluate("() => { try { return localStorage.length, 'reachable'; } catch (e) { return 'denied'; } }") == "denied"
        assert page.evaluate("origin") == "null"
        if name == "page.html":
            shot(page, "inert-html")
    open_folder(page, writable_server)
    assert page.evaluate("localStorage.getItem('pwned')") is None


def test_hostile_files_as_attachments_download_and_run_nothing(page, writable_server, hostile):
    folder, marker = hostile
    open_folder(page, writable_server)
    for name in ["page.html", "page.xhtml", "picture.svg"]:
        with page.expect_download() as download:
            page.evaluate("url => { const a = document.createElement('a'); a.href = url; a.click(); }",
                          file_url(writable_server, "%s/%s" % (folder, name)))
        assert download.value.suggested_filename == name
        nothing_ran(page, writable_server, marker)


def test_the_viewer_shows_html_and_xhtml_as_source_and_svg_as_an_image(page, writable_server, hostile):
    folder, marker = hostile
    open_folder(page, writable_server, folder)
    page.evaluate("window.__messages = []; addEventListener('message', (event) => window.__messages.push(event.data))")
    for name in ["page.html", "page.xhtml"]:
        page.locator(".row", has_text=name).click()
        source = page.locator("#viewer-body pre")
        source.wait_for()
        assert "<script>" in source.inner_text(), "the source is shown as text"
        assert source.locator(".hl-t").count() > 0, "and highlighted"
        assert page.locator("#viewer-body iframe, #viewer-body object, #viewer-body embed").count() == 0
        nothing_ran(page, writable_server, marker)
        page.keyboard.press("Escape")
        page.wait_for_selector("#viewer", state="hidden")
    page.locator(".row", has_text="picture.svg").click()
    page.wait_for_function("() => document.querySelector('#viewer-body img')?.naturalWidth === 40")
    shot(page, "inert-svg")
    nothing_ran(page, writable_server, marker)
    assert page.evaluate("window.__messages") == []
    assert page.evaluate("localStorage.getItem('pwned')") is None
