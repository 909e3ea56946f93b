#!/usr/bin/env python3
"""Measures Browsey's search inside files (issue 25) against ripgrep and `git grep`, in one run, on
one generated tree of FILES text files (default 100,000 of about SIZE bytes: ~1 GB) of prose and
code made from a vocabulary of 20,000 generated words drawn with a Zipf-like skew, so that common
and rare words both exist. Exactly 3 files hold `zebracorn` (the rare query); `report` is in about
a third of them (the common one).

1. Index build: Browsey's own figure from its log line `Content index: N text files ready in D`
   (fresh --index-dir), its size on disk (`/api/health`'s `contentIndex.bytesOnDisk`), against the
   time `rg` takes to read the tree once (`rg -c zqxjzqxj`: every byte read, nothing found) with a
   warm page cache. Then the same from a cold page cache, as on a server's first start, when the
   script may drop the system's caches (root): each round drops them before `rg` reads the tree
   and again before Browsey starts on it with an empty index, and takes Browsey's time from its
   launch to the log line (the name index included), in alternating order (--cold-rounds).
2. Query latency, sequential over one keep-alive connection, QUERIES queries after WARMUP: the rare
   word, the common word (limit 50), and a regular expression (`zebrac\\w+n`); `rg -i -n -m 3` and
   `git grep -i -n` (the tree committed to a repository first) timed per run, process start
   included, with the same query.
3. wrk -t2 -d SECONDS --latency at 1 and 32 connections on the rare and common URLs.
4. Freshness: a file is rewritten on disk with a new word (sharing no trigram with the old text);
   the search is polled until it finds the file by the new word and no longer by the old one (ms,
   several trials).
5. The server's RSS after the build and after the load.

Not in CI. Usage: python3 Benchmarks/Scripts/content_bench.py [--files 100000] [--size 10000]
    [--queries 100] [--warmup 5] [--seconds 5] [--cold-rounds 3] [--binary .build/release/browsey]
    [--no-write]
Needs a release build (`swift build -c release --static-swift-stdlib --product browsey`), rg, git, wrk.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
REPO = os.path.dirname(BENCHMARKS)
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402
from search_bench import Client, LoggedProcess, latency_line, percentile, sequential, wrk_latency  # noqa: E402
from server_bench import rss_mib  # noqa: E402
from load_bench import peak_rss_mib  # noqa: E402

BENCH = "/tmp/browsey-bench-content"
HOST = "127.0.0.1"
PORT = 18095
RARE = "zebracorn"
COMMON = "report"
REGEX = r"zebrac\w+n"


def vocabulary(rng, count=20000):
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set()
    while len(words) < count:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(3, 10))))
    words.discard(RARE)
    return sorted(words)


def make_tree(root, files, size, seed=25):
    rng = random.Random(seed)
    words = vocabulary(rng)
    # Zipf-like: word k is drawn with weight 1/(k+1).
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    rare_files = set(rng.sample(range(files), 3))
    for index in range(files):
        folder = os.path.join(root, "d%02d" % (index % 50), "e%03d" % (index // 50 % 200))
        os.makedirs(folder, exist_ok=True)
        code = index % 4 == 0
        drawn = rng.choices(words, weights, k=max(8, size // 6))
        if index % 3 == 0:
            drawn[rng.randrange(len(drawn))] = COMMON
        if index in rare_files:
            drawn[rng.randrange(len(drawn))] = RARE
        lines = []
        line = []
        for word in drawn:
            line.append(word)
            if len(line) >= (6 if code else 12):
                lines.append(("    let %s = %s(%s)" % (line[0], line[1], ", ".join(line[2:]))) if code else " ".join(line).capitalize() + ".")
                line = []
        if line:
            lines.append(" ".join(line))
        name = "file%06d.%s" % (index, "swift" if code else "md")
        with open(os.path.join(folder, name), "w") as handle:
            handle.write("\n".join(lines) + "\n")


def timed(command, cwd=None, runs=5):
    times = []
    output = b""
    for _ in range(runs):
        began = time.perf_counter()
        output = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        times.append((time.perf_counter() - began) * 1000)
    return {"p50": percentile(times, 0.5), "p99": percentile(times, 0.99), "lines": output.count(b"\n")}


def serve_command(binary, tree, index):
    return [binary, "serve", tree, "--port", str(PORT), "--no-qr", "--no-bonjour", "--host", HOST,
            "--index-dir", index]


BUILT = r"Content index: (\d+) text files ready in ([-+\d.eE]+) seconds"
DROP_CACHES = "/proc/sys/vm/drop_caches"


def drop_caches():
    os.sync()
    with open(DROP_CACHES, "w") as handle:
        handle.write("3\n")


def cold_builds(binary, tree, run, rounds):
    """Each round, from a dropped page cache: rg's read of the tree, and Browsey's start on it with
    an empty index (launch to the content index's log line, and the log line's own figure)."""
    results = []
    for number in range(rounds):
        pair = {}
        for who in (("rg", "browsey") if number % 2 == 0 else ("browsey", "rg")):
            drop_caches()
            if who == "rg":
                began = time.perf_counter()
                subprocess.run(["rg", "-c", "zqxjzqxj", "--no-ignore", tree], stdout=subprocess.DEVNULL)
                pair["rg"] = time.perf_counter() - began
                continue
            index = os.path.join(run, "cold-index")
            shutil.rmtree(index, ignore_errors=True)
            server = LoggedProcess(serve_command(binary, tree, index), os.path.join(run, "cold-%d.log" % number),
                                   env=dict(os.environ, XDG_CACHE_HOME=run))
            match, wall = server.wait_line(BUILT, 3600)
            server.process.terminate()
            server.process.wait(timeout=30)
            shutil.rmtree(index, ignore_errors=True)
            if not match:
                raise SystemExit("the content index never became ready; see %s" % os.path.join(run, "cold-%d.log" % number))
            pair["browsey"], pair["build"] = wall, float(match.group(2))
        print("cold round %d: rg %.2f s, browsey launch to ready %.2f s (content %.2f s): %.2fx" % (
            number + 1, pair["rg"], pair["browsey"], pair["build"], pair["browsey"] / pair["rg"]))
        results.append(pair)
    return results


def content_path(query, regex=False, limit=50):
    parameters = {"in": "content", "q": query, "limit": limit}
    if regex:
        parameters["re"] = "1"
    return "/api/search?" + urllib.parse.urlencode(parameters)


def ask(client, path):
    status, data = client.ask("GET", path)
    return status, (len(json.loads(data)["results"]) if status == 200 else None)


def freshness(client, tree, trials=5):
    delays = []
    for trial in range(trials):
        target = os.path.join(tree, "d%02d" % trial, "e000", "fresh.md")
        # The new word shares no trigram with the old text: a hit is verified against the file as
        # it is now, so a new word the old index entry happens to cover would be found before the
        # index has read the file again, and this would not measure the index.
        old, new = "oldwordqx%d" % trial, "zumbakev%d" % trial
        with open(target, "w") as handle:
            handle.write("the %s here\n" % old)
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline and ask(client, content_path(old))[1] != 1:
            time.sleep(0.01)
        began = time.perf_counter()
        with open(target, "w") as handle:
            handle.write("the %s here\n" % new)
        seen = None
        while time.perf_counter() - began < 10:
            if ask(client, content_path(new))[1] == 1 and ask(client, content_path(old))[1] == 0:
                seen = (time.perf_counter() - began) * 1000
                break
        delays.append(seen)
        os.remove(target)
    return delays


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--size", type=int, default=10000, help="bytes per file, about")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "browsey"))
    parser.add_argument("--cold-rounds", type=int, default=3,
                        help="builds from a cold page cache (needs root to drop it; 0: none)")
    parser.add_argument("--no-write", action="store_true", help="do not write RESULTS.md")
    args = parser.parse_args()
    for tool, package in (("rg", "ripgrep"), ("git", "git")):
        if shutil.which(tool) is None:
            sys.exit("Error: %s is not installed; the run compares with it (apt-get install %s)" % (tool, package))
    tree = os.path.join(BENCH, "tree-%d-%d" % (args.files, args.size))
    if not os.path.isdir(tree):
        print("making %d files in %s" % (args.files, tree))
        shutil.rmtree(tree, ignore_errors=True)
        make_tree(tree, args.files, args.size)
    tree_bytes = sum(
        os.path.getsize(os.path.join(folder, name))
        for folder, _, names in os.walk(tree)
        if not os.path.relpath(folder, tree).split(os.sep)[0] == ".git"
        for name in names)
    print("tree: %d files, %.0f MiB" % (args.files, tree_bytes / 1048576))
    if not os.path.isdir(os.path.join(tree, ".git")):
        subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
        subprocess.run(["git", "add", "-A"], cwd=tree, check=True)
        subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=b@b", "commit", "-qm", "tree"], cwd=tree, check=True)
    run = os.path.join(BENCH, "run")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run)
    cold = []
    if args.cold_rounds > 0 and os.access(DROP_CACHES, os.W_OK):
        cold = cold_builds(args.binary, tree, run, args.cold_rounds)
    elif args.cold_rounds > 0:
        print("cold builds skipped: %s is not writable here (run as root to measure them)" % DROP_CACHES)
    # Two reads first: the page cache warm again after the cold rounds.
    timed(["rg", "-c", "zqxjzqxj", "--no-ignore", tree], runs=2)
    read_once = timed(["rg", "-c", "zqxjzqxj", "--no-ignore", tree], runs=3)
    print("rg reads the tree once (warm): %.0f ms" % read_once["p50"])
    command = serve_command(args.binary, tree, os.path.join(run, "index"))
    server = LoggedProcess(command, os.path.join(run, "server.log"), env=dict(os.environ, XDG_CACHE_HOME=run))
    match, wall = server.wait_line(BUILT, 3600)
    if not match:
        raise SystemExit("the content index never became ready; see %s" % os.path.join(run, "server.log"))
    build = float(match.group(2))
    client = Client(PORT)
    status, data = client.ask("GET", "/api/health")
    health = json.loads(data)["contentIndex"]
    peak = peak_rss_mib(server.process.pid)
    # The server returns freed heap pages at most every 10 s (FreeHeap): the build's are given
    # back by then.
    time.sleep(11)
    rss_built = rss_mib(server.process.pid)
    print("build %.1f s (wall %.1f s), %d text files, index %.0f MiB, RSS %.0f MiB (peak %.0f MiB)" % (
        build, wall, health["textFiles"], health["bytesOnDisk"] / 1048576, rss_built, peak))
    figures = {}
    for label, path in [("rare", content_path(RARE)), ("common", content_path(COMMON)),
                        ("regex", content_path(REGEX, regex=True))]:
        figures[label] = sequential(lambda path=path: ask(client, path), args.queries, args.warmup)
        print("browsey %-6s %s, %s files" % (label, latency_line(figures[label]), figures[label]["hits"]))
    tools = {
        "rare": {"rg": timed(["rg", "-i", "-n", RARE, tree]), "git grep": timed(["git", "grep", "-i", "-n", RARE], cwd=tree)},
        "common": {"rg": timed(["rg", "-i", "-n", "-m", "3", COMMON, tree], runs=3),
                   "git grep": timed(["git", "grep", "-i", "-n", "-m", "3", COMMON], cwd=tree, runs=3)},
        "regex": {"rg": timed(["rg", "-n", REGEX, tree]), "git grep": timed(["git", "grep", "-n", "-P", REGEX], cwd=tree)},
    }
    for label, found in tools.items():
        for tool, numbers in found.items():
            print("%-8s %-6s %s" % (tool, label, latency_line(numbers)))
    loads = []
    for label, path in [("rare", content_path(RARE)), ("common", content_path(COMMON))]:
        for connections in (1, 32):
            result = wrk_latency("http://%s:%d%s" % (HOST, PORT, path), connections, args.seconds)
            loads.append((label, connections, result))
            print("wrk %-6s c%-2d %6.0f req/s p50 %s ms p99 %s ms errors %d" % (
                label, connections, result["rps"], result["p50"], result["p99"], result["errors"]))
    rss_loaded = rss_mib(server.process.pid)
    delays = freshness(client, tree)
    print("freshness (ms):", delays)
    server.process.terminate()
    server.process.wait(timeout=30)
    if args.no_write:
        return
    rare_ratio = tools["rare"]["rg"]["p50"] / figures["rare"]["p50"] if figures["rare"]["p50"] else 0
    rows = []
    for label in ("rare", "common", "regex"):
        rows.append("| %s | %s | %s | %s |" % (label, latency_line(figures[label]), latency_line(tools[label]["rg"]),
                                              latency_line(tools[label]["git grep"])))
    load_rows = ["| %s | %d | %.0f | %s | %s | %d |" % (label, c, r["rps"], "%.2f ms" % r["p50"] if r["p50"] else "–",
                                                         "%.2f ms" % r["p99"] if r["p99"] else "–", r["errors"])
                 for label, c, r in loads]
    body = "\n".join([
        "`python3 Benchmarks/Scripts/content_bench.py --files %d --size %d` (release build, warm page cache%s; "
        "%d files, %.0f MiB)." % (args.files, args.size, " but for the cold build's table" if cold else "", args.files,
                                  tree_bytes / 1048576),
        "",
        "### Index build",
        "",
        "| | time | size on disk |",
        "|---|---|---|",
        "| Browsey content index (log line; wall from start %.1f s) | %.1f s | %.0f MiB |" % (
            wall, build, health["bytesOnDisk"] / 1048576),
        "| `rg` reading the tree once | %.2f s | – |" % (read_once["p50"] / 1000),
        "",
        "Build / rg read: %.1f×." % (build * 1000 / read_once["p50"]),
        "",
        *cold_section(cold),
        "### Query latency (p50 / p99; Browsey over one keep-alive connection, %d queries after %d warm-ups; "
        "rg and git grep per run, process start included)" % (args.queries, args.warmup),
        "",
        "| query | Browsey | rg | git grep |",
        "|---|---|---|---|",
        *rows,
        "",
        "Rare word: Browsey %.0f× faster than rg (p50)." % rare_ratio,
        "",
        "### Browsey under load (`wrk -t2 -d%ds --latency`)" % args.seconds,
        "",
        "| query | connections | req/s | p50 | p99 | non-2xx |",
        "|---|---|---|---|---|---|",
        *load_rows,
        "",
        "### Freshness and memory",
        "",
        "A file rewritten on disk is found by its new word, and no longer by its old one, after: %s ms." % ", ".join(
            "%.0f" % delay if delay is not None else "never" for delay in delays),
        "",
        "RSS: %.1f MiB at most while building (names and contents), %.1f MiB 11 s after the build "
        "(its memory given back), %.1f MiB after the load." % (peak, rss_built, rss_loaded),
    ])
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Search inside files (issue 25)", body)


def cold_section(cold):
    if not cold:
        return []
    ratios = sorted(pair["browsey"] / pair["rg"] for pair in cold)
    return [
        "### Index build from a cold page cache (a server's first start)",
        "",
        "Each round drops the system's caches before `rg` reads the tree, and again before Browsey starts on it "
        "with an empty index; Browsey's time is from its launch to the content index's log line, the name "
        "index included (the order alternates).",
        "",
        "| round | `rg` reads the tree | Browsey, launch to ready | of which the content index | ratio |",
        "|---|---|---|---|---|",
        *["| %d | %.2f s | %.2f s | %.2f s | %.2f× |" % (number + 1, pair["rg"], pair["browsey"], pair["build"],
                                                     pair["browsey"] / pair["rg"])
          for number, pair in enumerate(cold)],
        "",
        "Launch to ready / rg read, cold: %.2f× (median of %d)." % (ratios[len(ratios) // 2], len(ratios)),
        "",
    ]


if __name__ == "__main__":
    main()
