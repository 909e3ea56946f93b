#!/usr/bin/env python3
"""WebDAV, Browsey against rclone's `serve webdav`, copyparty's WebDAV and wsgidav, in one run:

- PROPFIND `Depth: 1` of a folder of 10,000 files (no body: allprop; and the property list rclone
  asks for), keep-alive, the median of several requests after a warm-up one;
- `rclone copy` of 1,000 small files up to each server, then down again (fresh folders each time).

Usage: python3 Benchmarks/Scripts/dav_bench.py [--entries 10000] [--files 1000] [--repeat 9]
           [--rounds 3] [--skip-build]
Needs: rclone (apt); copyparty, wsgidav and cheroot (pip, in a venv this script makes, or the
one DAV_BENCH_VENV names). Every server binds 127.0.0.1 and runs on the same cores as the client;
Browsey is the release build, read-write, without the search index (the others have none).
"""
import argparse
import http.client
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
REPO = os.path.dirname(BENCHMARKS)
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402

BENCH = "/tmp/browsey-bench-dav"
VENV = os.environ.get("DAV_BENCH_VENV", os.path.join(BENCH, "venv"))
PORTS = {"Browsey": 18190, "rclone serve webdav": 18191, "copyparty": 18192, "wsgidav": 18193}
RCLONE_PROPS = (
    '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:displayname/><d:getlastmodified/>'
    "<d:getcontentlength/><d:resourcetype/><d:getcontenttype/></d:prop></d:propfind>"
)


def venv_python():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    probe = subprocess.run([python, "-c", "import copyparty, wsgidav, cheroot"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", "copyparty", "wsgidav", "cheroot"], check=True)
    return python


def make_tree(root, entries):
    listing = os.path.join(root, "listing")
    os.makedirs(listing)
    for index in range(entries):
        with open(os.path.join(listing, "file_%05d.txt" % index), "w") as handle:
            handle.write("entry %d\n" % index)
    os.makedirs(os.path.join(root, "up"))


def make_files(folder, count):
    os.makedirs(folder)
    for index in range(count):
        sub = os.path.join(folder, "d%02d" % (index % 20))
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, "small %04d.bin" % index), "wb") as handle:
            handle.write(os.urandom(2048))


def command_for(name, root, python, browsey):
    port = PORTS[name]
    if name == "Browsey":
        return [browsey, "serve", root, "-p", str(port), "--host", "127.0.0.1", "--no-readonly", "--no-trash",
                "--no-bonjour", "--no-qr", "--no-index", "--thumbs", "off"], "/dav/"
    if name == "rclone serve webdav":
        return ["rclone", "serve", "webdav", root, "--addr", "127.0.0.1:%d" % port], "/"
    if name == "copyparty":
        return [python, "-m", "copyparty", "-i", "127.0.0.1", "-p", str(port), "-q", "-v", root + "::rw",
                "--no-thumb"], "/"
    return [os.path.join(VENV, "bin", "wsgidav"), "--host", "127.0.0.1", "--port", str(port), "--root", root,
            "--auth", "anonymous", "-q"], "/"


def wait_up(port, path):
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("OPTIONS", path)
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("server on port %d did not start" % port)


def propfind(port, path, body, repeat):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    times = []
    size = 0
    for attempt in range(repeat + 1):
        headers = {"Depth": "1"}
        if body:
            headers["Content-Type"] = "application/xml"
        start = time.perf_counter()
        connection.request("PROPFIND", path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 207:
            raise SystemExit("PROPFIND on %d answered %d" % (port, response.status))
        size = len(data)
        responses = data.count(b"response>") // 2
        if attempt > 0:
            times.append(elapsed)
    return statistics.median(times), size, responses


def rclone(args):
    start = time.perf_counter()
    subprocess.run(["rclone"] + args + ["--transfers", "4", "--checkers", "8", "-q"], check=True,
                   env=dict(os.environ, RCLONE_CONFIG="/dev/null"))
    return time.perf_counter() - start


def overlap_sentence(results):
    """Whether the rclone rounds of every server overlap (no server measurably faster than another)."""
    words = []
    for figure, label in (("up", "up"), ("down", "down")):
        ranges = [value[figure + "_range"] for value in results.values()]
        overlap = max(low for low, _ in ranges) <= min(high for _, high in ranges)
        words.append("%s, the ranges of all servers %s" % (label, "overlap" if overlap else "do not all overlap"))
    return "; ".join(words) + "."


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the rclone copies")
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "browsey"], cwd=REPO, check=True)
    browsey = os.path.join(REPO, ".build", "release", "browsey")
    python = venv_python()
    shutil.rmtree(os.path.join(BENCH, "roots"), ignore_errors=True)
    shutil.rmtree(os.path.join(BENCH, "local"), ignore_errors=True)
    template = os.path.join(BENCH, "roots", "template")
    make_tree(template, args.entries)
    local = os.path.join(BENCH, "local", "files")
    make_files(local, args.files)
    # Every server runs for the whole run, so each measurement goes round all of them in turn
    # and a slow moment of the machine falls on all alike.
    servers = {}
    bases = {}
    try:
        for name in PORTS:
            key = name.split()[0].lower()
            root = os.path.join(BENCH, "roots", key)
            shutil.copytree(template, root)
            command, bases[name] = command_for(name, root, python, browsey)
            log = open(os.path.join(BENCH, key + ".log"), "w")
            servers[name] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        for name in PORTS:
            wait_up(PORTS[name], bases[name])
        results = {name: dict(allprop=[], named=[], up=[], down=[], same=True) for name in PORTS}
        for _ in range(3):
            for name in PORTS:
                allprop, size, count = propfind(PORTS[name], bases[name] + "listing/", None, args.repeat)
                named, _, _ = propfind(PORTS[name], bases[name] + "listing/", RCLONE_PROPS, args.repeat)
                results[name]["allprop"].append(allprop)
                results[name]["named"].append(named)
                results[name].update(size=size, count=count)
        for round_number in range(args.rounds):
            for name in PORTS:
                key = name.split()[0].lower()
                url = "http://127.0.0.1:%d%s" % (PORTS[name], bases[name])
                remote = [":webdav:up%d" % round_number, "--webdav-url", url, "--webdav-vendor", "other"]
                results[name]["up"].append(rclone(["copy", local, *remote]))
                down_folder = os.path.join(BENCH, "local", "down-%s-%d" % (key, round_number))
                results[name]["down"].append(rclone(["copy", *remote[:1], down_folder, *remote[1:]]))
                same = subprocess.run(["diff", "-rq", local, down_folder], capture_output=True).returncode == 0
                results[name]["same"] = results[name]["same"] and same
        for name, value in results.items():
            for figure in ("allprop", "named", "up", "down"):
                value[figure + "_range"] = (min(value[figure]), max(value[figure]))
                value[figure] = statistics.median(value[figure])
            print("%-20s allprop %7.1f ms (%d responses, %d KB)  named %7.1f ms  up %6.2f s  down %6.2f s  %s" % (
                name, value["allprop"] * 1000, value["count"], value["size"] // 1024, value["named"] * 1000,
                value["up"], value["down"], "identical" if value["same"] else "DIFFERENT"))
    finally:
        for server in servers.values():
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
    ours = results["Browsey"]
    peers = {name: value for name, value in results.items() if name != "Browsey"}
    lines = [
        "`python3 Benchmarks/Scripts/dav_bench.py --entries %d --files %d --repeat %d --rounds %d`: PROPFIND "
        "`Depth: 1` of a folder of %d files (allprop is no body, named is the property list rclone asks for; "
        "each figure the median of 3 interleaved rounds, each round's the median of %d keep-alive requests after "
        "one warm-up), and `rclone copy` (4 transfers) of %d files of 2 KiB up, then down (checked identical "
        "with `diff -r`; the median of %d interleaved rounds). All four servers run for the whole run, on "
        "127.0.0.1 and the same 2 cores as the client."
        % (args.entries, args.files, args.repeat, args.rounds, args.entries, args.repeat, args.files, args.rounds),
        "",
        "| server | PROPFIND allprop | PROPFIND named | answer | rclone copy up | rclone copy down |",
        "|---|---|---|---|---|---|",
    ]
    for name, value in results.items():
        lines.append("| %s | %.1f ms | %.1f ms | %d KB | %.2f s (%.2f–%.2f) | %.2f s (%.2f–%.2f) |" % (
            name, value["allprop"] * 1000, value["named"] * 1000, value["size"] // 1024,
            value["up"], *value["up_range"], value["down"], *value["down_range"]))
    fastest_allprop = min(value["allprop"] for value in peers.values())
    fastest_named = min(value["named"] for value in peers.values())
    lines += [
        "",
        "PROPFIND, the fastest peer's time over Browsey's: allprop **%.2fx**, named **%.2fx** (target >= 2x)."
        % (fastest_allprop / ours["allprop"], fastest_named / ours["named"]),
        "rclone copy, the fastest peer's time over Browsey's: up **%.2fx**, down **%.2fx** (target >= 1x)."
        % (min(v["up"] for v in peers.values()) / ours["up"], min(v["down"] for v in peers.values()) / ours["down"]),
        "",
        "rclone paces its calls to a WebDAV remote (one every 10 ms at least, its fixed minimum in this version), "
        "so a copy of 1,000 files up makes about 3,000 paced calls (a MKCOL of the parent, the PUT, a PROPFIND "
        "for the new file's size and time) and down about 1,000 (a GET each): about 30 and 10 seconds whatever "
        "the server, as long as each answer comes in well under 40 ms (4 transfers). In brackets: each server's "
        "fastest and slowest round; %s" % overlap_sentence(results),
    ]
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "WebDAV (issue 23)", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
