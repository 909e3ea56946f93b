#!/usr/bin/env python3
"""Times FileTree's deep walk against `find -printf '%s %T@\\n'` and Foundation's
FileManager.enumerator on one generated tree, in the same run, and writes the ratios to
Benchmarks/RESULTS.md.

Usage: python3 Benchmarks/Scripts/filetree_walk.py [--files 100000] [--runs 9] [--tree DIR]
Each contender runs as a whole process (start-up included, output to /dev/null), interleaved
round by round so that noise hits every contender alike; medians are compared.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from make_tree import make_tree  # noqa: E402
from results import write_section  # noqa: E402


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--foundation-runs", type=int, default=3)
    parser.add_argument("--tree", default=None)
    args = parser.parse_args()

    tree = args.tree or "/tmp/browsey-bench-tree-%d" % args.files
    print("building the tree in %s ..." % tree, flush=True)
    make_tree(tree, args.files)
    entries = int(subprocess.run(["find", tree, "-mindepth", "1", "-not", "-name", ".complete-*"],
                                 capture_output=True, text=True, check=True).stdout.count("\n"))

    print("building the walk tool (release) ...", flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "walk"], cwd=BENCHMARKS, check=True)
    walk = os.path.join(BENCHMARKS, ".build", "release", "walk")

    contenders = {
        "find -printf '%s %T@\\n'": ["find", tree, "-printf", "%s %T@\n"],
        "FileTree deep read (tree)": [walk, "filetree", tree],
        "FileTree walk (streaming)": [walk, "filetree-walk", tree],
        "FileManager.enumerator": [walk, "foundation", tree],
    }
    # Warm the page cache and the dentry cache once for everyone.
    for command in contenders.values():
        timed(command)

    times = {name: [] for name in contenders}
    for round_number in range(args.runs):
        for name, command in contenders.items():
            if name == "FileManager.enumerator" and round_number >= args.foundation_runs:
                continue
            times[name].append(timed(command))
        print("round %d/%d done" % (round_number + 1, args.runs), flush=True)

    medians = {name: statistics.median(values) for name, values in times.items()}
    find = medians["find -printf '%s %T@\\n'"]
    foundation = medians["FileManager.enumerator"]
    rows = []
    for name, median in medians.items():
        rows.append("| %s | %d | %.1f ms | %.1f–%.1f ms | %.2f× | %.2f× |" % (
            name, len(times[name]), median * 1000, min(times[name]) * 1000, max(times[name]) * 1000,
            median / find, foundation / median))
    table = "\n".join([
        "Tree: %d entries (%d files in 3 levels of folders), page-cached; %s, %d CPUs; %s." % (
            entries, args.files, platform.machine(), os.cpu_count() or 0, time.strftime("%Y-%m-%d")),
        "Whole processes, start-up included, interleaved rounds, medians.",
        "",
        "| contender | runs | median | range | time ÷ find | Foundation ÷ time |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        "Reproduce: `python3 Benchmarks/Scripts/filetree_walk.py --files %d --runs %d`" % (args.files, args.runs),
    ])
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "FileTree deep walk", table)
    print(table)


if __name__ == "__main__":
    main()
