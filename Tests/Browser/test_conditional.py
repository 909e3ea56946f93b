"""The web UI revalidates a folder it has listed: the browser sends the listing's tag, the server
answers 304, and the rows come from the copy the browser kept."""
from playwright.sync_api import expect


def test_a_folder_opened_again_is_revalidated_with_its_tag_and_answered_304(page, server):
    seen = []

    def listed(response):
        if "/api/list?" in response.url and "docs" in response.url:
            # all_headers() are the ones on the wire: a 304's have no Content-Type.
            seen.append((response.request.all_headers().get("if-none-match"), response.status,
                         response.headers.get("etag"), response.all_headers().get("content-type")))

    page.on("response", listed)
    page.goto(server.url("/docs"))
    expect(page.locator(".row", has_text="guide.md")).to_be_visible()
    page.reload()
    expect(page.locator(".row", has_text="guide.md")).to_be_visible()
    first = seen[0]
    assert first[0] is None and first[2] and first[3].startswith("application/json")
    # Asked again with the tag it was given; the answer on the wire was the 304 (no Content-Type,
    # no body), and Chromium gave the page its kept copy (200 to the page).
    for _ in range(50):
        if any(entry[0] == first[2] and entry[3] is None for entry in seen[1:]):
            return
        page.wait_for_timeout(100)
    raise AssertionError(seen)
