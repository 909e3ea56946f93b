#!/usr/bin/env python3
"""The floor of the content index's build method on this machine, beside `rg`, in one run (issue 25
asks the build to take at most twice `rg`'s read of the tree).

On content_bench.py's tree (made by it when missing), content_floor.c (built here with gcc -O2) does
only parts of the build, on two threads as the build reads: `read` (open, fstat, read whole,
close), `mark` (read, then every byte sets its file's bit in its trigram's byte, as SegmentBuilder
does for an ASCII file), `markvec` (the same with AVX-512 VBMI making the keys, where the processor
has it) and `keep` / `keepvec` (mark, then each group of eight files' keys walked into rows, as
SegmentBuilder.keepGroup does). Nothing is gathered, encoded or written, and C has no bounds checks:
the build itself can only take longer than `keep`. `rg -c zqxjzqxj --no-ignore` reads the same
tree (warm page cache) in turn with each, ROUNDS times; medians go to RESULTS.md.

Not in CI. Usage: python3 Benchmarks/Scripts/content_floor.py [--files 100000] [--size 10000]
    [--rounds 3] [--no-write]
Needs gcc and rg.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402
from content_bench import BENCH, make_tree  # noqa: E402

MODES = ["read", "mark", "markvec", "keep", "keepvec"]


def rg_read(tree):
    began = time.perf_counter()
    subprocess.run(["rg", "-c", "zqxjzqxj", "--no-ignore", tree], stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def floor(binary, mode, listing):
    with open(listing) as names:
        output = subprocess.run([binary, mode, "2"], stdin=names, capture_output=True, text=True).stdout.split()
    if len(output) < 5:
        return None
    return {"wall": float(output[1]), "user": float(output[2]), "sys": float(output[3])}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    for tool in ("gcc", "rg"):
        if shutil.which(tool) is None:
            sys.exit("Error: %s is not installed" % tool)
    tree = os.path.join(BENCH, "tree-%d-%d" % (args.files, args.size))
    if not os.path.isdir(tree):
        print("making %d files in %s" % (args.files, tree))
        make_tree(tree, args.files, args.size)
    work = tempfile.mkdtemp(prefix="browsey-floor-")
    binary = os.path.join(work, "content_floor")
    subprocess.run(["gcc", "-O2", "-pthread", "-o", binary, os.path.join(HERE, "content_floor.c")], check=True)
    listing = os.path.join(work, "files.txt")
    with open(listing, "w") as handle:
        for folder, folders, names in os.walk(tree):
            folders[:] = sorted(name for name in folders if not name.startswith("."))
            for name in sorted(names):
                handle.write(os.path.join(folder, name) + "\n")
    # Warm the page cache: both read every byte.
    rg_read(tree)
    floor(binary, "read", listing)
    runs = {mode: [] for mode in MODES}
    rg = []
    for round_number in range(args.rounds):
        for mode in MODES:
            rg.append(rg_read(tree))
            measured = floor(binary, mode, listing)
            if measured:
                runs[mode].append(measured)
        print("round %d: rg %.2f s; %s" % (round_number + 1, rg[-1], ", ".join(
            "%s %.2f s" % (mode, runs[mode][-1]["wall"]) for mode in MODES if runs[mode])))
    shutil.rmtree(work, ignore_errors=True)
    rg_p50 = statistics.median(rg)
    rows = ["| part of the build | wall (median) | user + sys CPU | ÷ rg's read |", "|---|---|---|---|",
            "| `rg` reads the tree | %.2f s | – | 1.0× |" % rg_p50]
    labels = {"read": "read every file", "mark": "read + mark each byte's trigram",
              "markvec": "read + mark, keys made with AVX-512 VBMI",
              "keep": "read + mark + each group's keys into rows",
              "keepvec": "read + mark (VBMI) + each group's keys into rows"}
    for mode in MODES:
        if not runs[mode]:
            rows.append("| %s | not supported here | – | – |" % labels[mode])
            continue
        wall = statistics.median(run["wall"] for run in runs[mode])
        cpu = statistics.median(run["user"] + run["sys"] for run in runs[mode])
        rows.append("| %s | %.2f s | %.2f s | %.1f× |" % (labels[mode], wall, cpu, wall / rg_p50))
    print("\n".join(rows))
    if args.no_write:
        return
    body = "\n".join([
        "`python3 Benchmarks/Scripts/content_floor.py --files %d --size %d --rounds %d` (warm page cache; "
        "two threads, as the build reads; %s)." % (args.files, args.size, args.rounds, time.strftime("%Y-%m-%d")),
        "",
        "The parts of the content index's build alone, in C, over content_bench.py's tree, each in turn with "
        "`rg -c zqxjzqxj --no-ignore` reading the same tree. Nothing is gathered, encoded or written: the "
        "build itself (its rows turned into bitmaps, its blocks written to SQLite through the write-ahead "
        "log, in Swift with bounds checks) can only take longer than the last lines. Issue 25 asks the build "
        "to take at most 2× `rg`'s read.",
        "",
    ] + rows)
    write_section(os.path.join(REPO, "Benchmarks", "RESULTS.md"), "Search inside files: the floor of the build (issue 25)", body)


if __name__ == "__main__":
    main()
