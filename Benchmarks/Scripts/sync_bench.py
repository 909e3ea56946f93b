#!/usr/bin/env python3
"""Measures the sync manifest (issue 24) on a tree of FILES files (default 100,000; make_tree.py's
tree: 100 files a folder, three levels of folders).

1. The full manifest (a walk of the whole tree, every folder encoded as /api/list encodes it,
   and the SHA-256 revision): wall time per request and the answer's size, ROUNDS rounds (each
   asked with a revision that does not hold, so each walks).
2. The unchanged answer (the client's revision still holds), sequential over one keep-alive
   connection: QUERIES requests after WARMUP warm-ups, p50 and p99. Side by side: the same server
   with `--no-listing-cache`, which walks the tree for every request as Browsey does.
3. Freshness: a file deep in the tree is rewritten behind the server's back (not through the API)
   and the unchanged request is polled until the revision moves; the delay in ms, several trials.

Only one server runs at a time; the tree is in the page cache (a walk warms it first). Results go
to the `Sync manifest (issue 24)` section of Benchmarks/RESULTS.md.

Usage: python3 Benchmarks/Scripts/sync_bench.py [--files 100000] [--queries 500] [--warmup 20]
           [--rounds 5] [--binary .build/release/browsey]
Needs: a release build (`swift build -c release --static-swift-stdlib --product browsey`; this
script does not build).
"""
import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
REPO = os.path.dirname(BENCHMARKS)
sys.path.insert(0, HERE)
from make_tree import make_tree  # noqa: E402
from results import write_section  # noqa: E402

BENCH = "/tmp/browsey-bench-sync"
HOST = "127.0.0.1"
PORT = 18094


def start(binary, root, cache):
    command = [binary, "serve", root, "-p", str(PORT), "--host", HOST, "--no-qr", "--no-index",
               "--no-bonjour", "--no-dav"]
    if not cache:
        command.append("--no-listing-cache")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            connection = http.client.HTTPConnection(HOST, PORT, timeout=2)
            connection.request("GET", "/api/health")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def ask(connection, revision=None):
    target = "/api/sync/manifest?path=%2F"
    if revision:
        target += "&revision=" + urllib.parse.quote(revision)
    started = time.perf_counter()
    connection.request("GET", target)
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    if response.status != 200:
        raise SystemExit("manifest answered %d: %s" % (response.status, body[:200]))
    return json.loads(body), len(body), elapsed


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def unchanged_latencies(connection, revision, warmup, queries):
    for _ in range(warmup):
        ask(connection, revision)
    times = []
    for _ in range(queries):
        answer, _, elapsed = ask(connection, revision)
        if not answer.get("unchanged"):
            raise SystemExit("the revision did not hold while nothing changed")
        times.append(elapsed)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "browsey"))
    arguments = parser.parse_args()
    root = os.path.join(BENCH, "tree-%d" % arguments.files)
    os.makedirs(root, exist_ok=True)
    make_tree(root, arguments.files)
    subprocess.run(["find", root, "-printf", ""], check=True)

    rows = []
    # 1 and 2, with the kept revisions.
    server = start(arguments.binary, root, cache=True)
    try:
        connection = http.client.HTTPConnection(HOST, PORT, timeout=120)
        full = []
        for _ in range(arguments.rounds):
            answer, size, elapsed = ask(connection, "0" * 64)
            full.append(elapsed)
        revision = answer["revision"]
        entries = sum(len(d["items"]) for d in answer["directories"])
        folders = len(answer["directories"])
        kept = unchanged_latencies(connection, revision, arguments.warmup, arguments.queries)
        # 3: freshness.
        delays = []
        for trial in range(arguments.trials):
            target = os.path.join(root, "group %02d" % (trial % 10), "set-%d" % trial, "leaf_%d" % trial,
                                  "fresh.txt")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as handle:
                handle.write("x" * (trial + 1))
            changed_at = time.perf_counter()
            while True:
                now, _, _ = ask(connection, revision)
                if not now.get("unchanged"):
                    delays.append((time.perf_counter() - changed_at) * 1000)
                    revision = now["revision"]
                    break
                if time.perf_counter() - changed_at > 10:
                    raise SystemExit("the revision did not move within 10 s")
            os.remove(target)
            while True:
                now, _, _ = ask(connection, revision)
                if not now.get("unchanged"):
                    revision = now["revision"]
                    break
            ask(connection, revision)
    finally:
        stop(server)
    # 2, walking every time (Browsey's way).
    server = start(arguments.binary, root, cache=False)
    try:
        connection = http.client.HTTPConnection(HOST, PORT, timeout=120)
        answer, _, _ = ask(connection)
        walked = unchanged_latencies(connection, answer["revision"], 3, max(10, arguments.queries // 25))
    finally:
        stop(server)

    rows.append("| full manifest (walk + encode + SHA-256) | %.0f ms | %.0f ms | %d requests |" % (
        statistics.median(full), max(full), len(full)))
    rows.append("| unchanged, revision kept from the watcher | %.2f ms | %.2f ms | %d requests |" % (
        percentile(kept, 0.5), percentile(kept, 0.99), len(kept)))
    rows.append("| unchanged, walked per request (`--no-listing-cache`, Browsey's way) | %.0f ms | %.0f ms | %d requests |" % (
        percentile(walked, 0.5), percentile(walked, 0.99), len(walked)))
    body = "\n".join([
        "`sync_bench.py`: %d files in %d folders (%d entries listed); the full answer is %.1f MiB. "
        "%s, "
        "`--no-index --no-dav`, sequential requests over one keep-alive connection (Python http.client, "
        "its own time included), hot page cache." % (
            arguments.files, folders, entries, size / 1048576,
            "Debug build (`swift build`)" if "/debug/" in arguments.binary else
            "Release build (`swift build -c release --static-swift-stdlib --product browsey`)"),
        "",
        "| request | p50 | p99 / max | |",
        "|---|---|---|---|",
        *rows,
        "",
        "Unchanged with the kept revision: %.0f× faster than walking per request." % (
            percentile(walked, 0.5) / max(percentile(kept, 0.5), 0.001)),
        "",
        "Freshness (a file rewritten on disk three folders deep, then the unchanged request polled "
        "until the revision moves): %s ms (median %.0f ms)." % (
            ", ".join("%.0f" % d for d in delays), statistics.median(delays)),
    ])
    print(body)
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Sync manifest (issue 24)", body)


if __name__ == "__main__":
    main()
