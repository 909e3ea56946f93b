#!/usr/bin/env python3
"""Measures Browsey's name search (issue 6) against copyparty's search and `find -iname`, in one
run, on one generated tree of FILES files (default 100,000) spread over three levels of folders.
All names are made from words and common extensions (.md .txt .jpg .pdf .swift ...). Exactly 3
names contain `zebracorn` (the rare query), 5% contain `report` (the common one), `rprtmd` is a
scattered query that only fuzzy (subsequence) matching answers, and `eport` is in the same thousands
of names without starting any (Browsey answers a query that starts at least 50 names from its
sorted names; this one it must scan for).

1. Index build: Browsey's own figure from its log line `Search index: N entries ready in D seconds`
   (fresh --index-dir each round), against copyparty's `-e2dsa --no-hash .` initial scan (its log
   line `N volumes in S sec`, fresh --hist each round). Both also as wall time from the process start
   to that line, and again after a restart that finds the saved index. One `find` walk for reference.
2. Query latency, sequential, over one keep-alive connection (http.client): QUERIES queries after
   WARMUP warm-ups, p50 and p99, for the four queries, all with a limit of 50. copyparty answers
   `POST /?srch {"q":"name like *TEXT*","n":50}` (SQL LIKE, ASCII case-insensitive); for the fuzzy
   query the letters are joined with `%`, which LIKE takes as "anything between". `find TREE -iname
   '*TEXT*'` (or `'*r*p*r*t*m*d*'`) is timed per invocation, process start included.
3. wrk -t2 -d SECONDS --latency at 4 and 32 connections on each of Browsey's query URLs.
4. Freshness: while Browsey runs, `fresh-zebracorn.txt` is created in a nested folder and the search
   is polled (keep-alive) until it lists it; the delay is reported in ms (several trials, each in a
   different folder; each file is removed afterwards).

Only one server runs at a time; the tree is in the page cache (a `find` walk warms it first), so these
are hot-cache figures. Results go to the `Search (issue 6)` section of Benchmarks/RESULTS.md.

Usage: python3 Benchmarks/Scripts/search_bench.py [--files 100000] [--queries 200] [--warmup 10]
           [--builds 3] [--seconds 10] [--binary .build/release/browsey]
Needs: a release build of Browsey (`swift build -c release --product browsey`; this script does not
build), wrk and find; copyparty (pip, in the venv of server_bench.py; skipped when not installable).
"""
import argparse
import http.client
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
REPO = os.path.dirname(BENCHMARKS)
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402
from server_bench import copyparty_command, requests_done, rss_mib, stop_all, wait_for  # noqa: E402

BENCH = "/tmp/browsey-bench-search"
HOST = "127.0.0.1"
PORTS = {"browsey": 18090, "copyparty": 18091}
LIMIT = 50
ANSI = re.compile(r"\x1b\[[0-9;]*m")

# No word holds a `z` (so nothing but the 3 planted names can match `zebracorn`, even as a subsequence)
# nor `report`.
WORDS = ["alpha", "budget", "meeting", "notes", "invoice", "summary", "draft", "final", "photo", "holiday",
         "beach", "family", "project", "design", "sketch", "minutes", "agenda", "contract", "scan", "receipt",
         "backup", "config", "readme", "changelog", "client", "server", "module", "parser", "render", "theme",
         "export", "import", "sample", "test", "demo", "slides", "lecture", "chapter", "thesis", "paper",
         "review", "plan", "roadmap", "sprint", "release", "build", "figure", "table", "chart", "diagram"]
EXTENSIONS = ["md", "txt", "jpg", "pdf", "swift", "png", "json", "log", "docx", "csv"]
TOPS = ["projects", "photos", "documents", "archive", "music", "clients", "backups", "design", "notes", "misc"]
SUBS = ["2015", "2016", "2017", "2018", "2019", "2020", "2021", "2022", "2023", "2024"]
LEAVES = ["inbox", "drafts", "final", "old", "shared", "team", "personal", "work", "misc", "temp"]
QUERIES = [
    # (label, Browsey q, copyparty name-like value, find -iname pattern)
    ("rare `zebracorn`", "zebracorn", "*zebracorn*", "*zebracorn*"),
    ("common `report`", "report", "*report*", "*report*"),
    ("fuzzy `rprtmd`", "rprtmd", "*r%p%r%t%m%d*", "*r*p*r*t*m*d*"),
    # The same thousands of names, none starting with it: no shortcut through the sorted names.
    ("common inside names `eport`", "eport", "*eport*", "*eport*"),
]


# MARK: The tree

def leaf_folder(root, leaf):
    """Three levels: 10 tops x 10 years x 10 leaves; past 1,000 leaves the tops get a number."""
    a, b, c = leaf // 100, (leaf // 10) % 10, leaf % 10
    top = TOPS[a % 10] + ("" if a < 10 else "-%d" % (a // 10))
    return os.path.join(root, top, SUBS[b], LEAVES[c])


def file_name(rng, index, files):
    if index in (files // 7, files // 2, files * 5 // 6):
        return "%s-zebracorn-%d.%s" % (rng.choice(WORDS), index, rng.choice(EXTENSIONS))
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 3))]
    if index % 20 == 3:  # 5%
        words.insert(rng.randint(0, len(words)), rng.choice(["report", "Report", "reports"]))
    separator = rng.choice(["-", "_", " "])
    name = separator.join(words)
    if rng.random() < 0.5:
        name += separator + str(rng.choice([rng.randint(1, 9999), rng.randint(2000, 2025)]))
    return "%s.%s" % (name, rng.choice(EXTENSIONS))


def make_tree(files):
    """FILES empty files, 100 a folder; reused when its marker says it is complete."""
    root = os.path.join(BENCH, "tree-%d" % files)
    marker = root + ".complete"
    if os.path.exists(marker):
        return root
    shutil.rmtree(root, ignore_errors=True)
    rng = random.Random(6)
    made = 0
    leaf = 0
    while made < files:
        folder = leaf_folder(root, leaf)
        os.makedirs(folder, exist_ok=True)
        taken = set()
        for _ in range(min(100, files - made)):
            name = file_name(rng, made, files)
            while name in taken:
                stem, ext = name.rsplit(".", 1)
                name = "%s %d.%s" % (stem, rng.randint(1, 99), ext)
            taken.add(name)
            open(os.path.join(folder, name), "wb").close()
            made += 1
        leaf += 1
    open(marker, "w").close()
    return root


# MARK: Servers

class LoggedProcess:
    """A server whose output is read line by line, each line with the time it arrived."""

    def __init__(self, command, log_path, env=None, merge_stdout=False):
        self.lines = []
        self.condition = threading.Condition()
        self.started = time.monotonic()
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(
            command, env=env, stdin=subprocess.DEVNULL, text=True, errors="replace",
            stdout=subprocess.PIPE if merge_stdout else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if merge_stdout else subprocess.PIPE)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        stream = self.process.stdout if self.process.stdout else self.process.stderr
        for line in stream:
            line = ANSI.sub("", line)
            self.log.write(line)
            self.log.flush()
            with self.condition:
                self.lines.append((time.monotonic(), line))
                self.condition.notify_all()
        with self.condition:
            self.lines.append((time.monotonic(), None))
            self.condition.notify_all()

    def wait_line(self, pattern, timeout):
        """(match, seconds since start) of the first line matching pattern, or (None, None)."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        seen = 0
        with self.condition:
            while True:
                for stamp, line in self.lines[seen:]:
                    if line is None:
                        return None, None
                    match = regex.search(line)
                    if match:
                        return match, stamp - self.started
                seen = len(self.lines)
                left = deadline - time.monotonic()
                if left <= 0:
                    return None, None
                self.condition.wait(left)

    # What stop_all needs.
    def send_signal(self, sig):
        if self.process.poll() is None:
            self.process.send_signal(sig)

    def wait(self, timeout=None):
        return self.process.wait(timeout=timeout)

    def kill(self):
        self.process.kill()

    @property
    def pid(self):
        return self.process.pid


def stop(processes, name):
    if name in processes:
        process = processes.pop(name)
        stop_all({name: process})
        process.reader.join(timeout=5)
        process.log.close()


def folder_bytes(path):
    total = 0
    for folder, _, names in os.walk(path):
        for name in names:
            try:
                total += os.path.getsize(os.path.join(folder, name))
            except OSError:
                pass
    return total


def seconds_of(text):
    """Swift's Duration description: `0.41 seconds`, sometimes with an exponent."""
    return float(text)


def start_browsey(binary, tree, index_dir, cache_dir, log_path):
    env = dict(os.environ, XDG_CACHE_HOME=cache_dir)
    command = [binary, "serve", tree, "--port", str(PORTS["browsey"]), "--no-qr", "--host", HOST,
               "--index-dir", index_dir, "--no-content-index"]
    return LoggedProcess(command, log_path, env=env)


def browsey_ready(process, timeout=600):
    match, wall = process.wait_line(r"Search index: (\d+) entries ready in ([-+\d.eE]+) seconds", timeout)
    if not match:
        return None
    return {"entries": int(match.group(1)), "seconds": seconds_of(match.group(2)), "wall": wall}


def start_copyparty(binary, tree, hist, log_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1", XDG_CONFIG_HOME=os.path.join(BENCH, "run", "cp-config"))
    command = [binary, "-i", HOST, "-p", str(PORTS["copyparty"]), "-v", tree + "::r", "--hist", hist,
               "--no-thumb", "-e2dsa", "--no-hash", ".", "--srch-hits", "200000"]
    return LoggedProcess(command, log_path, env=env, merge_stdout=True)


def copyparty_ready(process, timeout=600):
    match, wall = process.wait_line(r"up2k\s+LOG: (\d+) volumes in ([\d.]+) sec", timeout)
    if not match:
        return None
    return {"seconds": float(match.group(2)), "wall": wall}


# MARK: Queries

class Client:
    """One keep-alive connection; reconnects (and counts it) when the server closes it."""

    def __init__(self, port):
        self.port = port
        self.connection = None
        self.reconnects = 0

    def ask(self, method, path, body=None, headers=None):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
            try:
                self.connection.request(method, path, body=body, headers=headers or {})
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, data
            except (http.client.HTTPException, OSError):
                self.close()
                self.reconnects += 1
                if attempt:
                    raise
        return 0, b""

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def browsey_path(text):
    return "/api/search?" + urllib.parse.urlencode({"path": "/", "q": text, "limit": LIMIT})


def browsey_query(client, text):
    status, data = client.ask("GET", browsey_path(text))
    return status, (len(json.loads(data)["results"]) if status == 200 else None)


def copyparty_query(client, like):
    body = json.dumps({"q": "name like " + like, "n": LIMIT})
    status, data = client.ask("POST", "/?srch", body=body, headers={"Content-Type": "application/json"})
    if status == 429:  # its rate limit for slow searches: wait it out, count it
        time.sleep(1)
    return status, (len(json.loads(data)["hits"]) if status == 200 else None)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def sequential(ask, count, warmup):
    """ask() -> (status, hits); returns p50/p99 in ms, the hits of the last answer and the failures."""
    times = []
    hits = None
    failures = 0
    for round_number in range(warmup + count):
        began = time.perf_counter()
        status, found = ask()
        spent = time.perf_counter() - began
        if status != 200:
            failures += 1
            continue
        hits = found
        if round_number >= warmup:
            times.append(spent * 1000)
    if not times:
        return {"p50": None, "p99": None, "hits": hits, "failures": failures}
    return {"p50": percentile(times, 0.5), "p99": percentile(times, 0.99), "hits": hits, "failures": failures,
            "mean": statistics.mean(times)}


def find_once(tree, pattern):
    output = subprocess.run(["find", tree, "-iname", pattern], stdout=subprocess.PIPE, check=False).stdout
    return 200, output.count(b"\n")


def latency_line(figures):
    if not figures or figures.get("p50") is None:
        return "–"
    return "%.2f / %.2f ms" % (figures["p50"], figures["p99"])


# MARK: wrk

def wrk_latency(url, connections, seconds):
    command = ["wrk", "-t", str(min(2, connections)), "-c", str(connections), "-d", "%ds" % seconds,
               "--latency", "--timeout", "10s", url]
    output = subprocess.run(command, capture_output=True, text=True).stdout

    def latency(label):
        match = re.search(r"^\s*%s%%\s+([\d.]+)(us|ms|s)\s*$" % label, output, re.M)
        if not match:
            return None
        return float(match.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[match.group(2)]

    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    return {"rps": float(rate.group(1)) if rate else 0.0, "p50": latency("50"), "p99": latency("99"),
            "errors": int(errors.group(1)) if errors else 0, "done": requests_done(output),
            "socket": socket_errors.group(1).strip() if socket_errors else ""}


# MARK: Freshness

def freshness_trial(client, tree, folder, timeout=30.0):
    """Creates fresh-zebracorn.txt in folder; ms until the search lists it, or None."""
    path = os.path.join(folder, "fresh-zebracorn.txt")
    target = "/" + os.path.relpath(path, tree)
    began = time.perf_counter()
    open(path, "w").close()
    seen = None
    polls = 0
    while time.perf_counter() - began < timeout:
        status, data = client.ask("GET", browsey_path("zebracorn"))
        polls += 1
        if status == 200 and any(r["path"] == target for r in json.loads(data)["results"]):
            seen = (time.perf_counter() - began) * 1000
            break
    os.remove(path)
    return seen, polls


# MARK: Main

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--queries", type=int, default=200, help="timed queries per query and engine")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--find-runs", type=int, default=0, help="timed find runs per query (default: --queries)")
    parser.add_argument("--builds", type=int, default=3, help="fresh index builds per engine (median reported)")
    parser.add_argument("--seconds", type=int, default=10, help="duration of each wrk run")
    parser.add_argument("--fresh-trials", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "browsey"))
    parser.add_argument("--no-copyparty", action="store_true")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="seconds to wait after Browsey's index is ready before querying (the names in order"
                             " and by pair are built in the background just after; default 10)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("Error: wrk is not installed (apt-get install wrk); the load figures need it")
    find_runs = args.find_runs or args.queries

    for folder in ["run", "logs"]:
        os.makedirs(os.path.join(BENCH, folder), exist_ok=True)
    load_before = os.getloadavg()
    began = time.time()
    print("making the tree of %d files..." % args.files, flush=True)
    tree = make_tree(args.files)
    folders = rare = common = 0
    for _, names, files in os.walk(tree):
        folders += len(names)
        rare += sum("zebracorn" in name.lower() for name in files)
        common += sum("report" in name.lower() for name in files)
    # Warm the dentry and inode caches the same way for everyone.
    subprocess.run(["find", tree], stdout=subprocess.DEVNULL)
    walk = []
    for _ in range(5):
        started = time.perf_counter()
        find_once(tree, "*zebracorn*")
        walk.append((time.perf_counter() - started) * 1000)
    find_walk_ms = statistics.median(walk)
    print("tree: %s, %d folders, %d names with zebracorn, %d with report; one find -iname walk: %.1f ms" % (
        tree, folders, rare, common, find_walk_ms), flush=True)

    processes = {}
    run_dir = tempfile.mkdtemp(prefix="run-", dir=os.path.join(BENCH, "run"))
    browsey = {"builds": [], "latency": {}, "wrk": [], "fresh": []}
    party = {"builds": [], "latency": {}}
    find = {"latency": {}}
    notes = []
    try:
        # ---- Browsey
        if not os.access(args.binary, os.X_OK):
            raise SystemExit("no Browsey binary at %s (swift build -c release --product browsey)" % args.binary)
        index_dir = None
        for round_number in range(args.builds):
            index_dir = os.path.join(run_dir, "browsey-index-%d" % round_number)
            cache_dir = os.path.join(run_dir, "browsey-cache-%d" % round_number)
            os.makedirs(cache_dir)
            processes["browsey"] = start_browsey(args.binary, tree, index_dir, cache_dir,
                                                 os.path.join(BENCH, "logs", "browsey-%d.log" % round_number))
            ready = browsey_ready(processes["browsey"])
            if not ready:
                raise SystemExit("Browsey never logged its index as ready; see %s/logs" % BENCH)
            browsey["builds"].append(ready)
            print("browsey build %d: %d entries in %.3f s (wall %.3f s from start)" % (
                round_number + 1, ready["entries"], ready["seconds"], ready["wall"]), flush=True)
            if round_number < args.builds - 1:
                stop(processes, "browsey")
        if not wait_for("http://%s:%d/api/health" % (HOST, PORTS["browsey"])):
            raise SystemExit("Browsey does not answer /api/health")
        browsey["index_bytes"] = folder_bytes(index_dir)
        # Queries measure the steady state: until the names in order and by pair are built (in
        # the background, a moment after the index is ready) a query scans every name.
        time.sleep(args.settle)
        client = Client(PORTS["browsey"])
        for label, text, _, _ in QUERIES:
            figures = sequential(lambda: browsey_query(client, text), args.queries, args.warmup)
            browsey["latency"][label] = figures
            print("browsey   %-18s %s, %s hits, %d failures" % (label, latency_line(figures), figures["hits"],
                                                               figures["failures"]), flush=True)
        browsey["reconnects"] = client.reconnects
        browsey["rss"] = rss_mib(processes["browsey"].pid)
        for label, text, _, _ in QUERIES:
            url = "http://%s:%d%s" % (HOST, PORTS["browsey"], browsey_path(text))
            for connections in (4, 32):
                figures = wrk_latency(url, connections, args.seconds)
                figures.update(label=label, connections=connections)
                browsey["wrk"].append(figures)
                print("browsey   wrk %-18s c%-2d %8.0f req/s, p50 %.2f ms, p99 %.2f ms, %d non-2xx %s" % (
                    label, connections, figures["rps"], figures["p50"] or 0, figures["p99"] or 0, figures["errors"],
                    figures["socket"]), flush=True)
        for trial in range(args.fresh_trials):
            folder = leaf_folder(tree, (trial * 137 + 41) % max(1, args.files // 100))
            seen, polls = freshness_trial(client, tree, folder)
            browsey["fresh"].append(seen)
            print("browsey   fresh-zebracorn.txt in %s: %s (%d polls)" % (
                os.path.relpath(folder, tree), "%.0f ms" % seen if seen is not None else "not seen in 30 s", polls),
                flush=True)
            time.sleep(1)
        client.close()
        browsey["rss_after"] = rss_mib(processes["browsey"].pid)
        stop(processes, "browsey")
        # Restart on the saved index.
        cache_dir = os.path.join(run_dir, "browsey-cache-restart")
        os.makedirs(cache_dir)
        processes["browsey"] = start_browsey(args.binary, tree, index_dir, cache_dir,
                                             os.path.join(BENCH, "logs", "browsey-restart.log"))
        browsey["restart"] = browsey_ready(processes["browsey"])
        stop(processes, "browsey")
        if browsey["restart"]:
            print("browsey restart on the saved index: %.3f s (wall %.3f s)" % (
                browsey["restart"]["seconds"], browsey["restart"]["wall"]), flush=True)

        # ---- copyparty
        binary = None
        if not args.no_copyparty:
            command = copyparty_command()  # installs it into server_bench's venv when needed
            binary = command[0] if command else None
            if not binary:
                notes.append("copyparty could not be installed; its columns are empty.")
        if binary:
            hist = None
            for round_number in range(args.builds):
                hist = os.path.join(run_dir, "cp-hist-%d" % round_number)
                processes["copyparty"] = start_copyparty(binary, tree, hist,
                                                         os.path.join(BENCH, "logs", "copyparty-%d.log" % round_number))
                ready = copyparty_ready(processes["copyparty"])
                if not ready:
                    notes.append("copyparty never logged the end of its scan; left out.")
                    stop(processes, "copyparty")
                    break
                party["builds"].append(ready)
                print("copyparty scan %d: %.2f s (wall %.3f s from start)" % (
                    round_number + 1, ready["seconds"], ready["wall"]), flush=True)
                if round_number < args.builds - 1:
                    stop(processes, "copyparty")
            if "copyparty" in processes:
                party["index_bytes"] = folder_bytes(hist)
                client = Client(PORTS["copyparty"])
                for label, _, like, _ in QUERIES:
                    figures = sequential(lambda: copyparty_query(client, like), args.queries, args.warmup)
                    party["latency"][label] = figures
                    print("copyparty %-18s %s, %s hits, %d failures" % (
                        label, latency_line(figures), figures["hits"], figures["failures"]), flush=True)
                party["reconnects"] = client.reconnects
                party["rss"] = rss_mib(processes["copyparty"].pid)
                client.close()
                stop(processes, "copyparty")
                processes["copyparty"] = start_copyparty(binary, tree, hist,
                                                         os.path.join(BENCH, "logs", "copyparty-restart.log"))
                party["restart"] = copyparty_ready(processes["copyparty"])
                stop(processes, "copyparty")
                if party["restart"]:
                    print("copyparty restart on the saved DB: %.2f s (wall %.3f s)" % (
                        party["restart"]["seconds"], party["restart"]["wall"]), flush=True)

        # ---- find
        for label, _, _, pattern in QUERIES:
            figures = sequential(lambda: find_once(tree, pattern), find_runs, min(args.warmup, 3))
            find["latency"][label] = figures
            print("find      %-18s %s, %s hits" % (label, latency_line(figures), figures["hits"]), flush=True)
    finally:
        stop_all(processes)
    load_after = os.getloadavg()
    shutil.rmtree(run_dir, ignore_errors=True)

    # ---- Report
    def median_of(builds, key):
        return statistics.median(b[key] for b in builds) if builds else None

    def seconds_cell(value):
        if value is None:
            return "–"
        return "%.3f s" % value if value < 1 else "%.2f s" % value

    def ratio(slow, fast):
        return "%.1f×" % (slow / fast) if slow and fast else "–"

    b_build, b_wall = median_of(browsey["builds"], "seconds"), median_of(browsey["builds"], "wall")
    c_build, c_wall = median_of(party["builds"], "seconds"), median_of(party["builds"], "wall")
    b_restart, c_restart = browsey.get("restart"), party.get("restart")
    entries = browsey["builds"][0]["entries"] if browsey["builds"] else 0
    build_rows = [
        "| fresh build, as logged (median of %d) | %s | %s | %s |" % (
            args.builds, seconds_cell(b_build), seconds_cell(c_build), ratio(c_build, b_build)),
        "| fresh build, wall from process start (median) | %s | %s | %s |" % (
            seconds_cell(b_wall), seconds_cell(c_wall), ratio(c_wall, b_wall)),
        "| restart on the saved index, as logged | %s | %s | %s |" % (
            seconds_cell(b_restart and b_restart["seconds"]), seconds_cell(c_restart and c_restart["seconds"]),
            ratio(c_restart and c_restart["seconds"], b_restart and b_restart["seconds"])),
        "| index on disk | %.1f MB | %s | |" % (
            browsey.get("index_bytes", 0) / 1e6,
            "%.1f MB" % (party["index_bytes"] / 1e6) if "index_bytes" in party else "–"),
        "| resident memory after the queries | %.0f MiB | %s | |" % (
            browsey.get("rss", 0), "%.0f MiB" % party["rss"] if "rss" in party else "–"),
    ]
    latency_rows = []
    for label, text, like, pattern in QUERIES:
        b = browsey["latency"].get(label, {})
        c = party["latency"].get(label, {})
        f = find["latency"].get(label, {})
        latency_rows.append("| %s | %s / %s / %s | %s | %s | %s | %s | %s |" % (
            label, b.get("hits", "–"), c.get("hits", "–") if c else "–", f.get("hits", "–"),
            latency_line(b), latency_line(c), ratio(c.get("p50"), b.get("p50")),
            latency_line(f), ratio(f.get("p50"), b.get("p50"))))
    wrk_rows = ["| %s | %d | %.0f | %s | %s | %d |" % (
        w["label"], w["connections"], w["rps"],
        "%.2f ms" % w["p50"] if w["p50"] is not None else "–",
        "%.2f ms" % w["p99"] if w["p99"] is not None else "–", w["errors"]) for w in browsey["wrk"]]
    seen = [v for v in browsey["fresh"] if v is not None]
    fresh_line = "not measured"
    if browsey["fresh"]:
        fresh_line = "%d of %d trials seen; delay median %s, min %s, max %s" % (
            len(seen), len(browsey["fresh"]),
            *(("%.0f ms" % f(seen)) if seen else "–" for f in (statistics.median, min, max)))
    failures = sum(x.get("failures", 0) for x in list(browsey["latency"].values()) + list(party["latency"].values()))
    reproduce = "python3 Benchmarks/Scripts/search_bench.py --files %d --queries %d --warmup %d --builds %d --seconds %d" % (
        args.files, args.queries, args.warmup, args.builds, args.seconds)
    if args.fresh_trials != 5:
        reproduce += " --fresh-trials %d" % args.fresh_trials
    if args.find_runs:
        reproduce += " --find-runs %d" % args.find_runs
    if os.path.abspath(args.binary) != os.path.join(REPO, ".build", "release", "browsey"):
        reproduce += " --binary %s" % args.binary
    body = "\n".join([
        "Tree: %d files (empty; names of 1–3 words, a number half the time, 10 extensions) in %d folders, 3 levels;"
        " %d of them with `zebracorn` in the name, %d (%.1f%%) with `report`. Browsey indexed %d entries (files and"
        " folders). Page-cached; %d CPUs shared by the servers, the client and other work (load %.2f before, %.2f"
        " after); %s." % (args.files, folders, rare, common, 100.0 * common / max(1, args.files), entries, os.cpu_count() or 0, load_before[0], load_after[0],
           time.strftime("%Y-%m-%d")),
        "One server ran at a time. Browsey: `--no-content-index` (names only), queried %.0f s after its index was"
        " ready (the names in order and by pair are built in the background just after). copyparty: `-e2dsa --no-hash . --srch-hits 200000 --no-thumb`, read-only volume." % args.settle,
        "",
        "### Index build",
        "",
        "| | Browsey | copyparty | copyparty ÷ Browsey |",
        "|---|---|---|---|",
        *build_rows,
        "",
        "Browsey's figure is its log line `Search index: N entries ready in D seconds` (fresh `--index-dir`);"
        " copyparty's is its log line `N volumes in S sec` (fresh `--hist`). For reference, one"
        " `find TREE -iname '*zebracorn*'` walk takes %.0f ms (median of 5)." % find_walk_ms,
        "",
        "### Query latency (sequential, one keep-alive connection, %d queries after %d warm-ups, limit %d)" % (
            args.queries, args.warmup, LIMIT),
        "",
        "| query | hits Browsey / copyparty / find | Browsey p50 / p99 | copyparty p50 / p99 | ÷ Browsey (p50) |"
        " find -iname p50 / p99 | ÷ Browsey (p50) |",
        "|---|---|---|---|---|---|---|",
        *latency_rows,
        "",
        "Forms: Browsey `GET /api/search?path=/&q=TEXT&limit=%d` (fuzzy subsequence over names, ranked);"
        " copyparty `POST /?srch` `{\"q\":\"name like *TEXT*\",\"n\":%d}` (SQL LIKE over file names, unranked;"
        " for `rprtmd` the value is `*r%%p%%r%%t%%m%%d*`, LIKE's wildcards between the letters); `find TREE -iname"
        " '*TEXT*'` (`'*r*p*r*t*m*d*'`), one process per query (%d runs after 3 warm-ups), which lists every match."
        " copyparty stops reading its table at the %dth hit (no ranking), so a common query ends early; Browsey scores"
        " every name and keeps the best %d. Ratios are the other's p50 ÷ Browsey's: above 1, Browsey is faster." % (
            LIMIT, LIMIT, find_runs, LIMIT, LIMIT),
        "",
        "### Browsey under load (`wrk -t2 -d%ds --latency`)" % args.seconds,
        "",
        "| query | connections | req/s | p50 | p99 | non-2xx |",
        "|---|---|---|---|---|---|",
        *wrk_rows,
        "",
        "### Freshness",
        "",
        "`fresh-zebracorn.txt` created in a nested folder while Browsey runs, its search polled over a keep-alive"
        " connection until it lists the file: %s." % fresh_line,
        *(["", *notes] if notes else []),
        *(["", "%d queries failed (non-200)." % failures] if failures else []),
        "",
        "Reproduce: `%s`" % reproduce,
    ])
    # The 100,000-file run is the reference; a larger tree gets a section of its own.
    section = "Search (issue 6)" if args.files == 100000 else "Search (issue 6), %d files" % args.files
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), section, body)
    print(body)
    print("total %.0f s" % (time.time() - began))


if __name__ == "__main__":
    main()
