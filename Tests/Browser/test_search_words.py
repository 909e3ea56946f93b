"""Search with spaces on a phone: "all of these words, in any order"."""
import os

from test_browsing import open_folder


def test_two_words_find_names_holding_both_in_any_order(page, writable_server):
    root = writable_server.root
    folder = os.path.join(root, "words %s" % page.kind)
    os.makedirs(folder)
    for name in ("big panorama.jpg", "IMG_0001.jpg", "panorama small.jpg"):
        with open(os.path.join(folder, name), "w") as handle:
            handle.write("x")
    open_folder(page, writable_server, "/words " + page.kind)
    page.click("#search-open")
    page.fill("#search-input", "panorama big")
    page.wait_for_selector("#search-results li >> text=big panorama.jpg", timeout=15000)
    assert "panorama small.jpg" not in page.inner_text("#search-results")
    page.fill("#search-input", "img 00")
    page.wait_for_selector("#search-results li >> text=IMG_0001.jpg", timeout=15000)
