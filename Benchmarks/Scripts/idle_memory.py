#!/usr/bin/env python3
"""Idle memory of one or more Browsey binaries, started in turn over the same folder.

Each start serves the server benchmark's folder (10,000 files and a 1 GiB file: made by
server_bench.py) with `--no-listing-cache`, a fresh index folder and nothing asked of it, and
reads VmRSS from /proc after `--after` seconds (both indexes are built well before). Run as
root, the page cache is dropped before each start, as after a boot: otherwise the figure moves
by up to 2 MiB with how much of the executable the cache holds, since the kernel maps up to
64 KiB of cached file around each page of code a start touches.

    python3 Benchmarks/Scripts/idle_memory.py --starts 3 .build/release/browsey OTHER_BINARY
    python3 Benchmarks/Scripts/idle_memory.py .build/release/browsey --extra --no-index
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_bench import TREE, rss_mib  # noqa: E402


def drop_page_cache():
    if os.geteuid() != 0:
        return False
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as control:
        control.write("1\n")
    return True


def idle_rss(binary, extra, after):
    work = tempfile.mkdtemp(prefix="browsey-idle-")
    try:
        environment = dict(os.environ, XDG_DATA_HOME=work, XDG_CACHE_HOME=work)
        server = subprocess.Popen(
            [binary, "serve", TREE, "-p", "18997", "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
             "--no-listing-cache", "--index-dir", os.path.join(work, "index")] + extra,
            env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(after)
            return rss_mib(server.pid)
        finally:
            server.terminate()
            server.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="browsey executables, measured in turn")
    parser.add_argument("--starts", type=int, default=3, help="starts of each binary (default 3)")
    parser.add_argument("--after", type=float, default=13, help="seconds from start to reading (default 13)")
    parser.add_argument("--extra", nargs=argparse.REMAINDER, default=[], help="flags for every start")
    args = parser.parse_args()
    if not os.path.isdir(TREE):
        parser.error("%s is missing: run Benchmarks/Scripts/server_bench.py once to make it" % TREE)
    figures = {binary: [] for binary in args.binaries}
    dropped = False
    for _ in range(args.starts):
        for binary in args.binaries:
            dropped = drop_page_cache()
            figures[binary].append(idle_rss(binary, args.extra, args.after))
    print("Idle RSS %g s after start%s%s:" % (
        args.after, ", page cache dropped before each start" if dropped else " (page cache as it was: not root)",
        (", flags " + " ".join(args.extra)) if args.extra else ""))
    for binary, values in figures.items():
        print("  %s: %s MiB" % (binary, ", ".join("%.1f" % value for value in values)))


if __name__ == "__main__":
    main()
