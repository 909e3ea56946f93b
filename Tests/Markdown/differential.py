"""The differential run: our renderer against cmark-gfm (PyPI cmarkgfm: GitHub's own renderer),
safe mode on both sides, compared after Tests/Markdown/markdown_html.py's normalisation, on every
.md file in the repository and on generated documents (Tests/Markdown/generate.py).

    python3 Tests/Markdown/differential.py [--count 5000] [--binary PATH] [--show N]
"""
import argparse
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import cmarkgfm  # noqa: E402
from cmarkgfm.cmark import Options  # noqa: E402
from generate import documents  # noqa: E402
from markdown_html import normalize  # noqa: E402

EXTENSIONS = ["table", "strikethrough", "tasklist", "autolink"]


def reference(markdown):
    return cmarkgfm.markdown_to_html_with_extensions(markdown, options=Options.CMARK_OPT_FOOTNOTES,
                                                     extensions=EXTENSIONS)


def ours(markdowns, binary):
    batch = "\x01".join(markdowns)
    output = subprocess.run([binary, "--batch"], input=batch.encode(), capture_output=True, check=True).stdout
    outputs = output.decode().split("\x01")
    assert len(outputs) == len(markdowns)
    return outputs


def compare(markdowns, binary):
    """(index, markdown, ours, theirs) for every document whose normalised HTML differs."""
    differences = []
    for index, (markdown, mine) in enumerate(zip(markdowns, ours(markdowns, binary))):
        theirs = reference(markdown)
        if normalize(mine, ours=True) != normalize(theirs):
            differences.append((index, markdown, mine, theirs))
    return differences


def repository_markdown():
    files = sorted(p for p in ROOT.rglob("*.md") if ".build" not in p.parts and ".venv" not in str(p))
    return files, [p.read_text(encoding="utf-8", errors="replace") for p in files]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/MarkdownRender"))
    parser.add_argument("--show", type=int, default=5, help="print this many differing documents")
    arguments = parser.parse_args()
    files, texts = repository_markdown()
    file_differences = compare(texts, arguments.binary)
    print(f"repository .md files: {len(files) - len(file_differences)}/{len(files)} identical")
    for index, *_ in file_differences:
        print(f"  differs: {files[index].relative_to(ROOT)}")
    generated = documents(arguments.count)
    differences = compare(generated, arguments.binary)
    same = len(generated) - len(differences)
    print(f"generated documents: {same}/{len(generated)} identical ({100 * same / len(generated):.2f}%)")
    for index, markdown, mine, theirs in differences[: arguments.show]:
        print(f"\n=== document {index}\n{markdown}\n--- ours (normalised)\n{normalize(mine, ours=True)}"
              f"\n--- cmark-gfm (normalised)\n{normalize(theirs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
