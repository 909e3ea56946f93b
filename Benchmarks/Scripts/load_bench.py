#!/usr/bin/env python3
"""Browsey under mixed load, then a soak (issue 18): "64 connections of mixed load for a minute:
req/s, p99, errors; a 5-minute soak with flat memory".

1. A temp tree: a few folders, a 10,000-file folder, text, Markdown and code files, a 1 MiB
   binary, nested folders, an empty `scratch` folder for the writes.
2. `browsey serve` on it, writable, bound to 127.0.0.1 (its index and trash in the temp folder);
   the load starts once /api/health answers and the search index is built.
3. Every request of the mix is tried once (each must answer 2xx), then wrk runs a Lua script that
   cycles through the mix: listings (one of them the 10,000-file folder), stat, view of text,
   Markdown and Swift, downloads (a small file, the 1 MiB file whole and two ranges of it), two
   searches, health, and 2 writes in 20 (an upload of a small file to a new name, a new folder;
   names are unique per wrk thread and request, so no write answers 409).
4. Mixed load: `wrk -t2 -cCONNECTIONS -dSECONDS --latency` (after a 5 s warm-up): req/s, p50,
   p99, non-2xx/3xx responses, socket errors, the server's CPU.
5. Soak: the same mix at 16 connections for SOAK seconds, its uploads overwriting 32 names per
   thread (a constant working set: memory has no reason to grow), the server's VmRSS sampled
   every 5 s. Flat: the end within 15% or 10 MiB of the value at 30 s.

Usage: python3 Benchmarks/Scripts/load_bench.py --binary .build/release/browsey
           [--seconds 60] [--soak-seconds 300] [--connections 64] [--soak-connections 16]
           [--results Benchmarks/RESULTS.md | --no-results]
Needs: wrk (apt; installed with `apt-get install -y -qq wrk` when missing and run as root).
The server and wrk share this machine's CPUs: the figures are for both together.
Prints a Markdown section and writes it into Benchmarks/RESULTS.md ("Load and soak").
"""
import argparse
import datetime
import http.client
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
REPO = os.path.dirname(BENCHMARKS)
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402

TITLE = "Load and soak"
SAMPLE_EVERY = 5.0      # seconds between RSS samples in the soak
REFERENCE_AT = 30.0     # the soak's RSS reference: the sample at 30 s
FLAT_FRACTION = 0.15    # flat: end within 15% ...
FLAT_MIB = 10.0         # ... or 10 MiB of the reference
SOAK_NAMES = 32         # names each wrk thread's soak uploads cycle through
UPLOAD_BODY = "load_bench upload: a few bytes of text\n"


# MARK: The tree

def write(root, relative, content):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(content if isinstance(content, bytes) else content.encode())


MARKDOWN = """# Project notes

Some *emphasis*, some **strong** text, `code`, and a [link](https://example.com).

| Name | Size | Done |
|:--|--:|:-:|
| alpha | 10 | yes |
| beta | 2048 | no |

- [x] write the benchmark
- [ ] read the results
  - nested item

> A quote, with a second line.

```swift
let answer = 42
print("answer: \\(answer)")
```
"""

SWIFT = """import Foundation

/// A small type to highlight.
struct Counter {
    private(set) var value = 0
    mutating func increment(by step: Int = 1) { value += step }
}

var counter = Counter()
for index in 0..<10 where index % 2 == 0 {
    counter.increment(by: index) // even ones only
}
print("total: \\(counter.value)")
"""


def make_tree(root):
    """The served tree; returns how many entries it holds."""
    write(root, "docs/readme.md", MARKDOWN * 4)
    write(root, "docs/notes.txt", "".join("line %d of the notes, some plain text to view\n" % i for i in range(400)))
    write(root, "docs/café menu.md", "# Menu\n\n- crème brûlée\n- tarte\n")
    write(root, "docs/report 2024.txt", "the yearly report\n" * 50)
    write(root, "code/main.swift", SWIFT * 6)
    write(root, "code/app.js", "export function add(a, b) {\n  return a + b; // sum\n}\n" * 40)
    write(root, "code/tool.py", "def main():\n    print('hello')  # greet\n\n\nif __name__ == '__main__':\n    main()\n" * 20)
    for project in ["alpha", "beta", "gamma"]:
        for index in range(20):
            write(root, "projects/%s/report %02d.txt" % (project, index), "report %s %d\n" % (project, index))
        write(root, "projects/%s/README.md" % project, "# %s\n\nA project.\n" % project)
    write(root, "nested/a/b/c/d/e/deep.txt", "deep down\n")
    for index in range(10):
        write(root, "nested/a/b/c/file %d.txt" % index, "x" * (index * 100))
    write(root, "blob.bin", os.urandom(1 << 20))
    os.makedirs(os.path.join(root, "scratch"))
    many = os.path.join(root, "many")
    os.makedirs(many)
    for index in range(10_000):
        with open(os.path.join(many, "file %05d.txt" % index), "wb") as handle:
            handle.write(b"x" * (40 + index % 97))
    return sum(len(files) + len(folders) for _, folders, files in os.walk(root))


def api(endpoint, **query):
    return "/api/%s%s" % (endpoint, ("?" + "&".join(
        "%s=%s" % (name, urllib.parse.quote(value, safe="/")) for name, value in query.items())) if query else "")


# One cycle of the mix, 20 requests. ("get", url, Range header or None, label) or ("put"|"mkdir",).
MIX = [
    ("get", api("list", path="/"), None, "/"),
    ("get", api("list", path="/many"), None, "the 10,000-file /many"),
    ("get", api("view", path="/docs/notes.txt"), None, "text"),
    ("get", api("stat", path="/docs/readme.md"), None, "a Markdown file"),
    ("get", api("list", path="/docs"), None, "/docs"),
    ("get", api("file", path="/blob.bin"), "bytes=0-65535", "the 1 MiB file's first 64 KiB"),
    ("get", api("search", q="report"), None, "`report`"),
    ("get", api("health"), None, ""),
    ("put",),
    ("get", api("view", path="/docs/readme.md"), None, "Markdown"),
    ("get", api("list", path="/projects/alpha"), None, "/projects/alpha"),
    ("get", api("file", path="/docs/notes.txt"), None, "a 19 KB text file"),
    ("get", api("list", path="/nested/a/b/c"), None, "/nested/a/b/c"),
    ("get", api("stat", path="/blob.bin"), None, "the 1 MiB file"),
    ("get", api("view", path="/code/main.swift"), None, "Swift"),
    ("get", api("search", q="0042"), None, "`0042`"),
    ("get", api("file", path="/blob.bin"), None, "the 1 MiB file whole"),
    ("get", api("list", path="/code"), None, "/code"),
    ("mkdir",),
    ("get", api("file", path="/blob.bin"), "bytes=-4096", "its last 4 KiB"),
]


# MARK: The wrk script

def lua_string(text):
    return json.dumps(text, ensure_ascii=True)  # ASCII (URLs are percent-encoded): valid Lua too


def lua_script():
    """wrk's script: args after `--` are the mode (mixed|soak) and a tag unique to the run."""
    gets = [item for item in MIX if item[0] == "get"]
    plan = []
    for item in MIX:
        plan.append(lua_string(item[0]) if item[0] != "get" else str(gets.index(item) + 1))
    requests = ",\n".join("  {%s, %s}" % (lua_string(item[1]), lua_string(item[2]) if item[2] else "nil")
                          for item in gets)
    return """-- Written by Benchmarks/Scripts/load_bench.py: Browsey's mixed load.
local gets = {
%(requests)s
}
local plan = {%(plan)s}
local body = %(body)s
local static = {}
local slot = 0
local count = 0
local mode = "mixed"
local tag = "r"

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)  -- a global in that thread's own Lua state
end

function init(args)
  mode = args[1] or mode
  tag = args[2] or tag
  for index, item in ipairs(gets) do
    local headers = {}
    if item[2] then headers["Range"] = item[2] end
    static[index] = wrk.format("GET", item[1], headers)
  end
  slot = ((id or 1) * 7) %% #plan  -- threads start at different places in the cycle
end

local function upload()
  count = count + 1
  local path
  if mode == "soak" then
    path = string.format("/scratch/soak-%%s-%%d-%%d.txt", tag, id or 0, count %% %(soak_names)d)
    path = "/api/file?overwrite=1&path=" .. path
  else
    path = "/api/file?path=" .. string.format("/scratch/up-%%s-%%d-%%d.txt", tag, id or 0, count)
  end
  return wrk.format("PUT", path, {["Content-Type"] = "text/plain"}, body)
end

local function mkdir()
  count = count + 1
  local json = string.format('{"path":"/scratch/dir-%%s-%%d-%%d"}', tag, id or 0, count)
  return wrk.format("POST", "/api/mkdir", {["Content-Type"] = "application/json"}, json)
end

function request()
  slot = slot %% #plan + 1
  local step = plan[slot]
  if step == "put" then return upload() end
  if step == "mkdir" then
    if mode == "soak" then return upload() end  -- the soak keeps a constant working set
    return mkdir()
  end
  return static[step]
end
""" % {"requests": requests, "plan": ", ".join(plan), "body": lua_string(UPLOAD_BODY), "soak_names": SOAK_NAMES}


# MARK: wrk

def ensure_wrk():
    if shutil.which("wrk"):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("wrk is missing: apt-get install -y -qq wrk", file=sys.stderr)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        if subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], env=env).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], env=env)
            subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], env=env)
    if not shutil.which("wrk"):
        sys.exit("load_bench: needs wrk (apt-get install wrk)")


def wrk_command(url, script, connections, seconds, mode, tag):
    return ["wrk", "-t", str(min(2, connections)), "-c", str(connections), "-d", "%ds" % seconds,
            "--latency", "--timeout", "10s", "-s", script, url, "--", mode, tag]


def milliseconds(value, unit):
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def parse_wrk(output):
    """wrk's figures, or None when its output has none (a Lua error, say)."""
    done = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", output)
    if not done:
        return None

    def percentile(label):
        match = re.search(r"^\s*%s%%\s+([\d.]+)(us|ms|s|m)\s*$" % label, output, re.M)
        return milliseconds(*match.groups()) if match else None

    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    status = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    latency = re.search(r"^\s*Latency\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)", output, re.M)
    sockets = {"connect": 0, "read": 0, "write": 0, "timeout": 0}
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if errors:
        sockets = dict(zip(["connect", "read", "write", "timeout"], map(int, errors.groups())))
    return {"requests": int(done.group(1)), "rps": float(rate.group(1)) if rate else 0.0,
            "p50": percentile("50"), "p90": percentile("90"), "p99": percentile("99"),
            "max": milliseconds(latency.group(5), latency.group(6)) if latency else None,
            "non2xx": int(status.group(1)) if status else 0, "sockets": sockets}


def run_wrk(command, pid, sample=None):
    """Runs wrk to its end; `sample(elapsed)` is called at 0 and every SAMPLE_EVERY seconds."""
    cpu_before = cpu_seconds(pid)
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if sample:
            sample(0.0)
            tick = 1
            while True:
                try:
                    process.wait(timeout=max(0.0, start + tick * SAMPLE_EVERY - time.monotonic()))
                    break
                except subprocess.TimeoutExpired:
                    sample(time.monotonic() - start)
                    tick += 1
        output, errors = process.communicate()
    except BaseException:
        process.kill()
        process.wait()
        raise
    elapsed = time.monotonic() - start
    figures = parse_wrk(output)
    if figures is None or process.returncode != 0:
        sys.exit("load_bench: wrk failed (%s):\n%s\n%s" % (process.returncode, output, errors))
    figures["cpu"] = cpu_seconds(pid) - cpu_before
    figures["elapsed"] = elapsed
    figures["stderr"] = errors.strip()
    return figures


# MARK: The server

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def proc_status(pid):
    values = {}
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            name, _, value = line.partition(":")
            values[name] = value.strip()
    return values


def rss_mib(pid):
    return int(proc_status(pid)["VmRSS"].split()[0]) / 1024


def peak_rss_mib(pid):
    return int(proc_status(pid)["VmHWM"].split()[0]) / 1024


def descriptors(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ask(port, method, url, headers=None, body=None, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, url, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def log_tail(path, lines=30):
    try:
        with open(path, errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except OSError:
        return ""


def start_server(binary, root, work):
    port = free_port()
    log_path = os.path.join(work, "server.log")
    log = open(log_path, "w")
    command = [binary, "serve", root, "-p", str(port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
               "--no-readonly", "--index-dir", os.path.join(work, "index"), "--trash-dir", os.path.join(work, "trash")]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    log.close()
    return process, port, log_path


def wait_ready(process, port, log_path, timeout=120):
    """The port it listens on (it takes another when the one asked is busy) once /api/health answers
    and the search index is built (or after `timeout`); whether the index was seen ready."""
    deadline = time.monotonic() + timeout
    healthy = indexed = False
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit("load_bench: browsey serve exited (%s):\n%s" % (process.returncode, log_tail(log_path)))
        text = log_tail(log_path, 200)
        listening = re.search(r"listening on 127\.0\.0\.1:(\d+)", text)
        if listening:
            port = int(listening.group(1))
        indexed = indexed or "entries ready" in text
        if not healthy:
            try:
                status, body = ask(port, "GET", "/api/health", timeout=2)
                healthy = status == 200 and json.loads(body).get("ok") is True
            except (OSError, ValueError):
                pass
        if healthy and indexed:
            return port, True
        time.sleep(0.1)
    if not healthy:
        sys.exit("load_bench: browsey serve did not answer /api/health:\n%s" % log_tail(log_path))
    return port, False


def stop_server(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def preflight(port):
    """Every request of the mix once; each must answer 2xx (a wrong path would be counted as
    load otherwise)."""
    failures = []
    for item in MIX:
        if item[0] == "get":
            headers = {"Range": item[2]} if item[2] else {}
            status, _ = ask(port, "GET", item[1], headers)
            expected = 206 if item[2] else 200
            label = "%s %s" % (item[1], item[2] or "")
        elif item[0] == "put":
            status, _ = ask(port, "PUT", "/api/file?path=/scratch/preflight.txt", {"Content-Type": "text/plain"},
                            UPLOAD_BODY.encode())
            expected, label = 201, "PUT /api/file"
        else:
            status, _ = ask(port, "POST", "/api/mkdir", {"Content-Type": "application/json"},
                            json.dumps({"path": "/scratch/preflight-dir"}).encode())
            expected, label = 200, "POST /api/mkdir"
        if status != expected:
            failures.append("%s: %d (expected %d)" % (label.strip(), status, expected))
    if failures:
        sys.exit("load_bench: the mix does not answer as expected:\n  " + "\n  ".join(failures))


def scratch_counts(root, tag):
    scratch = os.path.join(root, "scratch")
    names = os.listdir(scratch)
    files = sum(1 for name in names if name.startswith("up-%s-" % tag))
    folders = sum(1 for name in names if name.startswith("dir-%s-" % tag) and os.path.isdir(os.path.join(scratch, name)))
    return files, folders


# MARK: The report

def mix_text():
    """The mix in words: `listings (6 in 20) of /, ...; ...`."""
    names = {"list": "listings", "stat": "stat", "view": "view", "file": "downloads", "search": "searches",
             "health": "health"}
    groups = {}
    for item in MIX:
        if item[0] == "get":
            endpoint = item[1].split("?")[0].rsplit("/", 1)[1]
            groups.setdefault(endpoint, []).append(item[3])
    parts = []
    for endpoint, labels in groups.items():
        shown = [label for label in labels if label]
        parts.append("%s (%d in %d)%s" % (names[endpoint], len(labels), len(MIX),
                                          " of " + ", ".join(shown) if shown else ""))
    return "; ".join(parts)


def ms(value):
    return "–" if value is None else ("%.2f ms" % value if value < 100 else "%.0f ms" % value)


def socket_text(sockets):
    total = sum(sockets.values())
    if not total:
        return "0"
    return "%d (%s)" % (total, ", ".join("%s %d" % (name, count) for name, count in sockets.items() if count))


def flatness(samples, soak_seconds):
    """(reference sample, its time, flat?) with the reference at 30 s (half the soak if shorter)."""
    at = min(REFERENCE_AT, soak_seconds / 2)
    reference_time, reference = min(samples, key=lambda sample: abs(sample[0] - at))[:2]
    end = samples[-1][1]
    flat = abs(end - reference) <= max(FLAT_MIB, FLAT_FRACTION * reference)
    return reference, reference_time, flat


def display_path(path):
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, REPO)
    return relative if not relative.startswith("..") else absolute


def report(args, binary, entries, indexed, load, writes, soak, samples, memory):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpus = os.cpu_count() or 0
    build = "debug build: not the figures to report" if "/debug/" in binary else (
        "release build" if "/release/" in binary else "build kind unknown")
    reference, reference_time, flat = flatness(samples, args.soak_seconds)
    rss = [sample[1] for sample in samples]
    reproduce = "python3 Benchmarks/Scripts/load_bench.py --binary %s --seconds %d --soak-seconds %d --connections %d" % (
        display_path(binary), args.seconds, args.soak_seconds, args.connections)
    if args.soak_connections != 16:
        reproduce += " --soak-connections %d" % args.soak_connections

    def row(name, connections, seconds, figures):
        cpu = figures["cpu"] / figures["elapsed"] * 100 if figures["elapsed"] else 0
        per_request = figures["cpu"] * 1000 / figures["requests"] if figures["requests"] else 0
        return "| %s | %d | %d s | %d | **%.0f** | %s | %s | **%s** | %s | **%d** | **%s** | %.0f%% (%.2f ms/request) |" % (
            name, connections, seconds, figures["requests"], figures["rps"], ms(figures["p50"]), ms(figures["p90"]),
            ms(figures["p99"]), ms(figures["max"]), figures["non2xx"], socket_text(figures["sockets"]), cpu, per_request)

    mix = mix_text()
    lines = [
        "Issue 18: %d connections of mixed load for %d s, then a %d s soak at %d connections. %s; "
        "%s, %d CPUs shared by the server and wrk (both on this machine, the load generator takes "
        "its share). Binary: `%s` (%s)." % (
            args.connections, args.seconds, args.soak_seconds, args.soak_connections, now,
            platform.platform(), cpus, display_path(binary), build),
        "",
        "Served: a temp tree of %s entries (a 10,000-file folder, text, Markdown and code files, a "
        "1 MiB binary, nested folders), writable; the search index %s before the load. "
        "`wrk -t2 --latency --timeout 10s` with a Lua script cycling through %d requests: %s; "
        "writes (2 in %d): `PUT /api/file` of %d bytes to a new name, `POST /api/mkdir` of a new "
        "folder (in the soak both are uploads overwriting %d names per wrk thread). "
        "Each request of the mix answered 2xx once before the load." % (
            format(entries, ","), "built" if indexed else "still building", len(MIX), mix, len(MIX), len(UPLOAD_BODY),
            SOAK_NAMES),
        "",
        "| run | connections | time | requests | req/s | p50 | p90 | p99 | max | non-2xx/3xx | socket errors | server CPU |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        row("mixed", args.connections, args.seconds, load),
        row("soak", args.soak_connections, args.soak_seconds, soak),
        "",
        "Writes in the mixed run: %d files and %d folders on disk after it." % writes,
        "",
        "Memory (VmRSS): %.1f MiB idle before the load, %.1f MiB after the warm-up and the mixed run; "
        "in the soak %.1f MiB at the start, %.1f MiB at %.0f s, max %.1f MiB, **%.1f MiB at the end** "
        "(%+.1f MiB from %.0f s): **%s** (end within %d%% or %d MiB of the value at %.0f s). "
        "Peak (VmHWM) %.1f MiB. Open descriptors %d → %d, threads %s → %s over the soak." % (
            memory["idle"], memory["after_load"], rss[0], reference, reference_time, max(rss), rss[-1],
            rss[-1] - reference, reference_time, "flat" if flat else "NOT flat", FLAT_FRACTION * 100, FLAT_MIB,
            reference_time, memory["hwm"], memory["fds"][0], memory["fds"][1], memory["threads"][0],
            memory["threads"][1]),
        "",
        "RSS every %d s (MiB): %s" % (SAMPLE_EVERY, " ".join("%.1f" % value for value in rss)),
        "",
        "Reproduce: `%s`" % reproduce,
    ]
    return "\n".join(lines)


# MARK: Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the browsey executable (a release build for figures)")
    parser.add_argument("--seconds", type=int, default=60, help="the mixed run's duration")
    parser.add_argument("--soak-seconds", type=int, default=300, help="the soak's duration")
    parser.add_argument("--connections", type=int, default=64, help="connections of the mixed run")
    parser.add_argument("--soak-connections", type=int, default=16, help="connections of the soak")
    parser.add_argument("--warmup", type=int, default=5, help="seconds of load before the mixed run")
    parser.add_argument("--results", default=os.path.join(BENCHMARKS, "RESULTS.md"), help="where the section goes")
    parser.add_argument("--no-results", action="store_true", help="print the section only")
    parser.add_argument("--keep", action="store_true", help="keep the temp folder (its server.log)")
    args = parser.parse_args()

    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit("load_bench: %s is not an executable" % binary)
    ensure_wrk()

    work = tempfile.mkdtemp(prefix="browsey-load-")
    root = os.path.join(work, "served")
    process = None
    try:
        print("making the tree in %s" % root, file=sys.stderr)
        entries = make_tree(root)
        script = os.path.join(work, "mix.lua")
        with open(script, "w") as handle:
            handle.write(lua_script())

        process, port, log_path = start_server(binary, root, work)
        port, indexed = wait_ready(process, port, log_path)
        pid = process.pid
        url = "http://127.0.0.1:%d" % port
        print("browsey serve, pid %d, on %s; index %s" % (pid, url, "built" if indexed else "still building"),
              file=sys.stderr)
        preflight(port)
        memory = {"idle": rss_mib(pid)}

        if args.warmup > 0:
            print("warm-up: %d s at %d connections" % (args.warmup, args.connections), file=sys.stderr)
            run_wrk(wrk_command(url, script, args.connections, args.warmup, "mixed", "w"), pid)

        print("mixed load: %d s at %d connections" % (args.seconds, args.connections), file=sys.stderr)
        load = run_wrk(wrk_command(url, script, args.connections, args.seconds, "mixed", "m"), pid)
        writes = scratch_counts(root, "m")
        memory["after_load"] = rss_mib(pid)
        print("  %.0f req/s, p50 %s, p99 %s, %d non-2xx/3xx, socket errors %s; %d files, %d folders written" % (
            load["rps"], ms(load["p50"]), ms(load["p99"]), load["non2xx"], socket_text(load["sockets"]), *writes),
            file=sys.stderr)

        samples = []

        def sample(elapsed):
            status = proc_status(pid)
            samples.append((elapsed, int(status["VmRSS"].split()[0]) / 1024, descriptors(pid), status["Threads"]))
            print("  soak %5.0f s: RSS %.1f MiB, %d descriptors, %s threads" % samples[-1], file=sys.stderr)

        print("soak: %d s at %d connections" % (args.soak_seconds, args.soak_connections), file=sys.stderr)
        soak = run_wrk(wrk_command(url, script, args.soak_connections, args.soak_seconds, "soak", "s"), pid, sample)
        sample(soak["elapsed"])
        memory["hwm"] = peak_rss_mib(pid)
        memory["fds"] = (samples[0][2], samples[-1][2])
        memory["threads"] = (samples[0][3], samples[-1][3])
        if process.poll() is not None:
            sys.exit("load_bench: browsey serve died during the run:\n%s" % log_tail(log_path))
    finally:
        if process is not None:
            stop_server(process)
        if args.keep:
            print("kept %s" % work, file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    body = report(args, binary, entries, indexed, load, writes, soak, samples, memory)
    print("## %s\n\n%s" % (TITLE, body))
    if not args.no_results:
        write_section(args.results, TITLE, body)
        print("\nwritten to %s" % args.results, file=sys.stderr)


if __name__ == "__main__":
    main()
