"""Conditional listings and views, as upstream Browsey's conditional tests state them, asked of
the real server over HTTP."""
import os

import pytest


def list_path(hidden=False):
    return "/api/list?path=/docs" + ("&hidden=1" if hidden else "")


VIEW = "/api/view?path=/docs/note.md"


def tag_of(server, path):
    answer = server.request(path)
    assert answer.status == 200
    tag = answer.header("ETag")
    assert tag
    return tag


@pytest.fixture(params=["cached", "uncached"])
def server(request, serve, tree):
    """Every assertion holds with the listing cache and without it."""
    return serve(tree, extra=("--hidden",) + (("--no-listing-cache",) if request.param == "uncached" else ()))


def test_the_tag_is_strong_quoted_and_stable_across_two_identical_calls(server):
    tag = tag_of(server, list_path())
    assert tag.startswith('"') and tag.endswith('"') and not tag.startswith("W/")
    assert tag_of(server, list_path()) == tag


def test_the_tag_changes_when_a_listed_files_contents_change_though_the_folders_mtime_does_not(server, tree):
    folder = os.path.join(tree, "docs")
    before = tag_of(server, list_path())
    folder_mtime = os.stat(folder).st_mtime_ns
    with open(os.path.join(folder, "note.md"), "w") as handle:
        handle.write("a considerably longer body than before")
    assert os.stat(folder).st_mtime_ns == folder_mtime
    assert_eventually_differs(server, list_path(), before)


def assert_eventually_differs(server, path, before):
    # The cached listing is dropped when the watcher hears of the change (within milliseconds).
    import time
    for _ in range(100):
        if tag_of(server, path) != before:
            return
        time.sleep(0.02)
    raise AssertionError("the tag did not change")


def test_the_tag_changes_when_a_file_is_added(server, tree):
    before = tag_of(server, list_path())
    with open(os.path.join(tree, "docs", "extra.txt"), "w") as handle:
        handle.write("new")
    assert_eventually_differs(server, list_path(), before)


@pytest.mark.parametrize("form", ["{tag}", '"other", {tag} , "another"', "*", "  {tag}  ", "W/{tag}",
                                  '"other", W/{tag}'])
def test_the_current_tag_in_every_form_answers_304_with_no_body_and_no_content_type(server, form):
    tag = tag_of(server, list_path())
    answer = server.request(list_path(), headers={"If-None-Match": form.format(tag=tag)})
    assert answer.status == 304
    assert answer.header("ETag") == tag
    assert answer.header("Content-Type") is None
    assert answer.body == b""


def test_another_tag_gets_the_whole_listing(server):
    answer = server.request(list_path(), headers={"If-None-Match": '"other"'})
    assert answer.status == 200 and answer.body


def test_a_stale_tag_gets_the_full_payload_with_the_new_tag(server, tree):
    stale = tag_of(server, list_path())
    with open(os.path.join(tree, "docs", "extra.txt"), "w") as handle:
        handle.write("new")
    assert_eventually_differs(server, list_path(), stale)
    answer = server.request(list_path(), headers={"If-None-Match": stale})
    assert answer.status == 200
    assert answer.header("Content-Type").split(";")[0] == "application/json"
    assert answer.header("ETag") != stale
    body = answer.json()
    assert body["path"] == "/docs"
    assert "extra.txt" in [item["name"] for item in body["items"]]


def test_the_same_folder_has_another_tag_when_hidden_files_are_shown(server):
    visible = tag_of(server, list_path())
    with_hidden = tag_of(server, list_path(hidden=True))
    assert with_hidden != visible
    assert server.request(list_path(hidden=True), headers={"If-None-Match": visible}).status == 200


def test_hidden_and_not_differ_even_where_no_hidden_name_is_there(server, tree):
    os.remove(os.path.join(tree, "docs", ".hidden"))
    import time
    time.sleep(0.1)
    assert tag_of(server, list_path()) != tag_of(server, list_path(hidden=True))


def test_a_view_is_tagged_revalidated_and_sent_again_once_it_changes(server, tree):
    tag = tag_of(server, VIEW)
    assert tag_of(server, VIEW) == tag
    not_modified = server.request(VIEW, headers={"If-None-Match": tag})
    assert not_modified.status == 304
    assert not_modified.header("ETag") == tag
    assert not_modified.header("Content-Type") is None
    assert not_modified.body == b""
    with open(os.path.join(tree, "docs", "note.md"), "w") as handle:
        handle.write("two, and then some more text")
    answer = server.request(VIEW, headers={"If-None-Match": tag})
    assert answer.status == 200
    assert answer.header("ETag") != tag
    body = answer.json()
    assert body["type"] == "text" and body["filename"] == "note.md"
    assert body["content"] == "two, and then some more text"


def test_a_compressed_listings_tag_revalidates_too(server, tree):
    for index in range(40):
        with open(os.path.join(tree, "docs", "file-%02d.txt" % index), "w") as handle:
            handle.write("x")
    import time
    time.sleep(0.1)
    first = server.request(list_path(), headers={"Accept-Encoding": "gzip"})
    assert first.header("Content-Encoding") == "gzip"
    tag = first.header("ETag")
    assert tag.endswith('-gz"')
    again = server.request(list_path(), headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
    assert again.status == 304 and again.header("ETag") == tag
