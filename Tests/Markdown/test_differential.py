"""The renderer against GitHub's own (cmark-gfm, PyPI cmarkgfm), safe mode on both sides, compared
after our normaliser: every .md file in the repository and 1,000 generated documents in CI (the
full 5,000: python3 Tests/Markdown/differential.py).

BROWSEY_MARKDOWN_RENDER names the MarkdownRender executable (default .build/debug/MarkdownRender).
"""
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from differential import ROOT, compare, repository_markdown  # noqa: E402
from generate import documents  # noqa: E402
from markdown_html import normalize  # noqa: E402

BINARY = os.environ.get("BROWSEY_MARKDOWN_RENDER", str(ROOT / ".build/debug/MarkdownRender"))


def describe(differences):
    return "\n".join(f"--- {index}\n{markdown!r}\nours:   {normalize(mine, ours=True)}\ntheirs: {normalize(theirs)}"
                     for index, markdown, mine, theirs in differences[:3])


@pytest.fixture(scope="module", autouse=True)
def binary():
    if not os.path.exists(BINARY):
        pytest.skip(f"{BINARY} is not built (swift build --product MarkdownRender)")


def test_every_markdown_file_in_the_repository_renders_as_github_renders_it():
    files, texts = repository_markdown()
    differences = compare(texts, BINARY)
    assert not differences, describe(differences)


def test_at_least_99_percent_of_generated_documents_render_as_github_renders_them():
    generated = documents(1000)
    differences = compare(generated, BINARY)
    assert len(differences) <= 10, describe(differences)


def test_the_normaliser_can_tell_different_html_apart():
    assert normalize("<p>a <em>b</em></p>") != normalize("<p>a b</p>")
    assert normalize("<p>a\n  b</p>\n") == normalize("<p>a b</p>")
    assert normalize('<a title="t" href="u">x</a>') == normalize("<a href='u' title='t'>x</a>")
    assert normalize('<h1 id="x">T</h1>', ours=True) == normalize("<h1>T</h1>")
    assert normalize('<p><span class="raw-html">&lt;b&gt;</span></p>', ours=True) == normalize(
        "<p><!-- raw HTML omitted --></p>")
