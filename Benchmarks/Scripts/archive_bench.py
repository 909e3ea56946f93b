#!/usr/bin/env python3
"""Downloads the 10,000-file folder as a zip from Browsey and from copyparty (`?zip`) in the same
run, and checks both archives with Python's zipfile. Results go to Benchmarks/RESULTS.md.

Usage: python3 Benchmarks/Scripts/archive_bench.py [--rounds 5] [--skip-build]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402
from server_bench import BENCH, BENCHMARKS, REPO, TREE, make_tree, stop_all, wait_for  # noqa: E402
from upload_bench import venv_binary  # noqa: E402

PORTS = {"browsey": 18093, "copyparty": 18094}
URLS = {"browsey": "http://127.0.0.1:%d/api/archive?path=/many" % PORTS["browsey"],
        "copyparty": "http://127.0.0.1:%d/many/?zip" % PORTS["copyparty"]}


def fetch(url, path):
    started = time.perf_counter()
    subprocess.run(["curl", "-s", "-o", path, url], check=True)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    make_tree()
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "browsey"], cwd=REPO, check=True)
    servers = {"browsey": [os.path.join(REPO, ".build", "release", "browsey"), "serve", TREE, "-p", str(PORTS["browsey"]),
                           "--host", "127.0.0.1", "--no-qr", "--no-bonjour"]}
    copyparty = venv_binary("copyparty", "copyparty")
    if copyparty:
        servers["copyparty"] = [copyparty, "-i", "127.0.0.1", "-p", str(PORTS["copyparty"]), "-v", TREE + "::r",
                                "--hist", os.path.join(BENCH, "run", "cp-zip-hist"), "-q", "--no-thumb"]
    processes, times, checks = {}, {}, {}
    try:
        for name, command in servers.items():
            processes[name] = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not wait_for("http://127.0.0.1:%d/" % PORTS[name]):
                processes.pop(name).kill()
        for name in processes:
            fetch(URLS[name], "/dev/null")  # warm
            times[name] = []
        for _ in range(args.rounds):
            for name in processes:
                path = os.path.join(BENCH, "run", "%s.zip" % name)
                times[name].append(fetch(URLS[name], path))
        for name in processes:
            path = os.path.join(BENCH, "run", "%s.zip" % name)
            with zipfile.ZipFile(path) as archive:
                checks[name] = (archive.testzip() is None, len([i for i in archive.infolist() if not i.is_dir()]),
                                os.path.getsize(path))
            os.unlink(path)
    finally:
        stop_all(processes)
    base = statistics.median(times["copyparty"]) if "copyparty" in times else None
    rows = []
    for name, values in times.items():
        median = statistics.median(values)
        ok, files, size = checks[name]
        rows.append("| %s | %.0f ms | %s | %d | %.1f MB | %s |" % (
            name, median * 1000, "%.2f×" % (base / median) if base else "–", files, size / 1e6, "yes" if ok else "NO"))
    table = "\n".join([
        "The folder of 10,000 small files as a zip, curl to a file; median of %d interleaved rounds; %s." % (
            args.rounds, time.strftime("%Y-%m-%d")),
        "",
        "| server | time | copyparty ÷ time | files | size | zipfile.testzip passes |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        "Reproduce: `python3 Benchmarks/Scripts/archive_bench.py --rounds %d`" % args.rounds,
    ])
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Folder archives", table)
    print(table)


if __name__ == "__main__":
    main()
