#!/usr/bin/env python3
"""Times the document browser's index (DocumentBrowser) on folders of documents, beside `find`
and Foundation's FileManager.enumerator in the same run, and writes Benchmarks/RESULTS.md's
"Document browser (issue 10)" section.

Usage: python3 Benchmarks/Scripts/document_bench.py [--documents 5000] [--rounds 15]

Two folders are made: "flat" (every document in one folder) and "mixed" (documents at the top,
package documents with a thumbnail inside, groups, plain folders, an excluded folder and files
that are not documents). Targets (issue 10): first scan < 100 ms, one change < 20 ms.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + b"\0" * 200


def write(path, size):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(b"d" * size)


def make_flat(root, count):
    for number in range(count):
        write(os.path.join(root, "Drawing %d.sketch" % number), 1000 + number % 3000)


def make_mixed(root, count):
    packages = count // 12
    groups, per_group = 20, count // 80
    plain, per_plain = 10, count // 50
    loose = count - packages - groups * per_group - plain * per_plain
    for number in range(loose):
        write(os.path.join(root, "Sketch %d.sketch" % number), 1000 + number % 3000)
    for number in range(packages):
        package = os.path.join(root, "Painting %d.sketch" % number)
        write(os.path.join(package, "data.json"), 2000)
        os.makedirs(os.path.join(package, "QuickLook"), exist_ok=True)
        with open(os.path.join(package, "QuickLook", "Thumbnail.png"), "wb") as handle:
            handle.write(PNG)
    for group in range(groups):
        folder = os.path.join(root, "Stack %d" % group)
        write(os.path.join(folder, ".browsey-group"), 0)
        for number in range(per_group):
            write(os.path.join(folder, "In stack %d.sketch" % number), 1500)
    for index in range(plain):
        for number in range(per_plain):
            write(os.path.join(root, "Folder %d" % index, "sub", "Kept %d.sketch" % number), 1500)
    for number in range(count // 25):
        write(os.path.join(root, "notes %d.txt" % number), 100)
        write(os.path.join(root, "Inbox", "Incoming %d.sketch" % number), 100)


def timed(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    print("building the documents tool (release) ...", flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "documents"], cwd=BENCHMARKS, check=True)
    tool = os.path.join(BENCHMARKS, ".build", "release", "documents")

    rows = []
    for layout, maker in (("flat", make_flat), ("mixed", make_mixed)):
        root = "/tmp/browsey-documents-%s-%d" % (layout, args.documents)
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        maker(root, args.documents)
        subprocess.run(["sync"], check=True)
        output = subprocess.run([tool, root, "sketch", str(args.rounds)], capture_output=True, text=True, check=True)
        figures = json.loads(output.stdout.strip().splitlines()[-1])
        find_ms = timed(["find", root, "-name", "*.sketch", "-printf", "%s %T@\n"], args.rounds)
        figures["find_ms"] = find_ms
        print(layout, json.dumps(figures), flush=True)
        rows.append((layout, figures))
        shutil.rmtree(root, ignore_errors=True)

    lines = [
        "`python3 Benchmarks/Scripts/document_bench.py --documents %d --rounds %d` on %s, %d cores; medians."
        % (args.documents, args.rounds, platform.platform(), os.cpu_count()),
        "",
        "\"flat\": every document in one folder. \"mixed\": documents at the top, package documents (a",
        "folder with data and a thumbnail, its size and date read from inside), 20 groups, plain folders",
        "looked through, an excluded folder and other files. Targets: first scan < 100 ms, one change",
        "< 20 ms.",
        "",
        "| folder | documents | first scan | one change (max) | full re-read | Foundation enumerator | `find -printf` (process) | live: written → shown |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for layout, figures in rows:
        lines.append(
            "| %s | %d | **%.1f ms** | **%.2f ms** (%.2f) | %.1f ms | %.1f ms (%.1f×) | %.1f ms | %.0f ms |"
            % (layout, figures["documents"], figures["scan_ms"], figures["change_ms"], figures["change_max_ms"],
               figures["full_reread_ms"], figures["foundation_ms"], figures["foundation_ms"] / figures["scan_ms"],
               figures["find_ms"], figures["live_ms"]))
    lines += [
        "",
        "First scan: `DocumentIndex.scan` and the root's items sorted newest first. One change: a",
        "document rewritten, then `apply` of that one path and the root's items sorted again (one",
        "`lstat`, not a re-read). Full re-read: the same answered by scanning again. Live: a",
        "`DocumentBrowserModel` watching the folder, from the file's creation to its item being shown",
        "(the watcher coalesces for 50 ms). `find` is a whole process, start-up included; Foundation's",
        "enumerator runs in the same process as the scan (sizes and dates asked for, packages skipped).",
    ]
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Document browser (issue 10)", "\n".join(lines))


if __name__ == "__main__":
    main()
