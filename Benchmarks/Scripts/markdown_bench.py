#!/usr/bin/env python3
"""Times our Markdown renderer (Preview.MarkdownRenderer, a release build of the MarkdownRender
executable) beside cmark-gfm (GitHub's renderer in C, through PyPI's cmarkgfm) on 1 MB
documents, in the same run, and writes Benchmarks/RESULTS.md's "Markdown rendering (issue 26)"
section.

Usage: python3 Benchmarks/Scripts/markdown_bench.py [--binary PATH] [--rounds 15]

Documents: "notes" (the repository's own .md files, repeated to one 1 MB document) and
"generated" (the differential test's random documents, every construct, 1 MB of them, each
rendered on its own by both). Both renderers render the same
string with the same extensions (tables, strikethrough, task lists, autolinks, footnotes); each
time is the median of the rounds, measured inside the process (ours with ContinuousClock, cmark-gfm
with perf_counter around the call). Target (issue 26): within 2x cmark-gfm.
"""
import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "Tests/Markdown"))
from results import write_section  # noqa: E402
from generate import documents  # noqa: E402
import cmarkgfm  # noqa: E402
from cmarkgfm.cmark import Options  # noqa: E402

SIZE = 1 << 20


def to_size(text):
    return (text * (SIZE // max(len(text.encode()), 1) + 1)).encode()[:SIZE].decode(errors="ignore")


def corpus():
    """Each entry is a list of documents of 1 MB in all."""
    notes = "\n\n".join(p.read_text() for p in sorted(ROOT.rglob("*.md")) if ".build" not in p.parts)
    generated = []
    total = 0
    for document in documents(100000, seed=7):
        generated.append(document)
        total += len(document.encode())
        if total >= SIZE:
            break
    return {"notes": [to_size(notes)], "generated": generated}


PATHOLOGICAL = {
    "10,000 nested `[`": "[" * 10000 + "a" + "]" * 10000,
    "10,000 unclosed `[a](`": "[a](" * 10000,
    "10,000 nested `*`": "*" * 10000 + "a" + "*" * 10000,
    "10,000 `*a _b`": "*a _b " * 10000,
    "10,000 nested `>`": "> " * 10000 + "a",
    "10,000 nested `-` list markers": "- " * 10000 + "a",
    "10,000 backticks": "`" * 10000,
    "10,000 unclosed `<!--`": "<!--" * 10000,
    "10,000 `<a x=\"`": '<a x="' * 10000,
}


def ours(binary, texts, rounds):
    result = subprocess.run([binary, "--batch", "--repeat", str(rounds), "--time"],
                            input="\x01".join(texts).encode(), capture_output=True, check=True)
    return float(result.stderr.decode().strip())


def theirs(texts, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            cmarkgfm.markdown_to_html_with_extensions(text, options=Options.CMARK_OPT_FOOTNOTES,
                                                      extensions=["table", "strikethrough", "tasklist", "autolink"])
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build/release/MarkdownRender"))
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--no-write", action="store_true")
    arguments = parser.parse_args()
    if not os.path.exists(arguments.binary):
        subprocess.run(["swift", "build", "-c", "release", "--product", "MarkdownRender"], cwd=ROOT, check=True)
    rows = []
    for name, texts in corpus().items():
        mine = ours(arguments.binary, texts, arguments.rounds)
        reference = theirs(texts, arguments.rounds)
        rows.append((name, sum(len(text.encode()) for text in texts), mine, reference))
        print(f"{name}: ours {mine:.1f} ms, cmark-gfm {reference:.1f} ms, ratio {mine / reference:.2f}")
    body = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, shared. Median of {arguments.rounds} renders each, "
        "in process; cmark-gfm is PyPI cmarkgfm " + getattr(cmarkgfm, "__version__", "") + " with the same extensions.",
        "",
        "| document | size | ours (ms) | cmark-gfm (ms) | ours / cmark-gfm |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, size, mine, reference in rows:
        body.append(f"| {name} | {size / 1048576:.2f} MiB | {mine:.1f} | {reference:.1f} | {mine / reference:.2f}x |")
    body.append("")
    body.append("Pathological inputs, ours (release build, median of the rounds, in process); target < 50 ms each:")
    body.append("")
    body.append("| input | ours (ms) | cmark-gfm (ms) |")
    body.append("|---|---:|---:|")
    for name, text in PATHOLOGICAL.items():
        mine = ours(arguments.binary, [text], arguments.rounds)
        reference = theirs([text], arguments.rounds)
        print(f"{name}: ours {mine:.2f} ms, cmark-gfm {reference:.2f} ms")
        body.append(f"| {name} | {mine:.2f} | {reference:.2f} |")
    body.append("")
    body.append("Target (issue 26): within 2x cmark-gfm. Written by Benchmarks/Scripts/markdown_bench.py.")
    if not arguments.no_write:
        write_section(str(ROOT / "Benchmarks/RESULTS.md"), "Markdown rendering (issue 26)", "\n".join(body))
    return 0


if __name__ == "__main__":
    sys.exit(main())
