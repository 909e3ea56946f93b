#!/usr/bin/env python3
"""Serves one generated tree with Browsey, nginx, caddy and copyparty and measures, in one run:
the JSON listing of a 10,000-file folder at 1 and 32 connections (wrk), a 1 GiB download (curl),
and Browsey's resident memory. Ratios go to Benchmarks/RESULTS.md.

Usage: python3 Benchmarks/Scripts/server_bench.py [--seconds 10] [--downloads 3] [--skip-build]
Needs: nginx, caddy, wrk, curl (apt); copyparty (pip, optional: skipped when it cannot be installed).
Every server binds 127.0.0.1 and runs on the same two cores as the load generator.
"""
import argparse
import os
import re
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

BENCH = "/tmp/browsey-bench-server"
TREE = os.path.join(BENCH, "tree")
PORTS = {"browsey": 18080, "browsey-cached": 18089, "nginx": 18081, "caddy": 18082, "copyparty": 18084}


def make_tree():
    many = os.path.join(TREE, "many")
    if not os.path.exists(os.path.join(many, "file_09999.txt")):
        os.makedirs(many, exist_ok=True)
        for index in range(10000):
            with open(os.path.join(many, "file_%05d.txt" % index), "w") as handle:
                handle.write("x" * (40 + index % 25))
    big = os.path.join(TREE, "big.bin")
    if not os.path.exists(big) or os.path.getsize(big) != 1 << 30:
        subprocess.run(["dd", "if=/dev/zero", "of=" + big, "bs=1M", "count=1024", "status=none"], check=True)


def write_configs():
    for folder in ["conf", "run", "logs"]:
        os.makedirs(os.path.join(BENCH, folder), exist_ok=True)
    temp = "".join("%s %s/run/%s;\n" % (name, BENCH, name.split("_")[0]) for name in
                   ["client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path"])
    with open(os.path.join(BENCH, "conf", "nginx.conf"), "w") as handle:
        handle.write("""worker_processes 2; pid %(b)s/run/nginx.pid; daemon off;
error_log %(b)s/logs/nginx-error.log warn;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; include /etc/nginx/mime.types;
%(temp)s
  server { listen 127.0.0.1:%(port)d; root %(t)s;
    location / { autoindex on; autoindex_format json; limit_except GET HEAD { deny all; } } } }
""" % {"b": BENCH, "t": TREE, "port": PORTS["nginx"], "temp": temp})
    with open(os.path.join(BENCH, "conf", "Caddyfile"), "w") as handle:
        handle.write("""{
  admin off
  auto_https off
}
http://127.0.0.1:%d {
  bind 127.0.0.1
  root * %s
  file_server browse
}
""" % (PORTS["caddy"], TREE))


def wait_for(url, headers=None, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            request = urllib.request.Request(url, headers=headers or {})
            with urllib.request.urlopen(request, timeout=2) as response:
                response.read()
                return True
        except Exception:
            time.sleep(0.2)
    return False


def stop_all(processes):
    """SIGTERM to every server, then SIGKILL to those still up after 10 s."""
    for process in processes.values():
        process.send_signal(signal.SIGTERM)
    for process in processes.values():
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def copyparty_command():
    venv = os.path.join(BENCH, "venv")
    binary = os.path.join(venv, "bin", "copyparty")
    if not os.path.exists(binary):
        subprocess.run([sys.executable, "-m", "venv", venv], check=False)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "copyparty"], check=False)
    if not os.path.exists(binary):
        return None
    return [binary, "-i", "127.0.0.1", "-p", str(PORTS["copyparty"]), "-v", TREE + "::r",
            "--hist", os.path.join(BENCH, "run", "cp-hist"), "-q", "--no-thumb"]


def wrk(url, connections, seconds, headers=None):
    command = ["wrk", "-t", str(min(2, connections)), "-c", str(connections), "-d", "%ds" % seconds, url]
    for name, value in (headers or {}).items():
        command += ["-H", "%s: %s" % (name, value)]
    output = subprocess.run(command, capture_output=True, text=True).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return (float(match.group(1)) if match else 0.0), (int(errors.group(1)) if errors else 0)


def requests_done(output):
    match = re.search(r"(\d+) requests in", output)
    return int(match.group(1)) if match else 0


def cpu_seconds(pid):
    """User + system CPU of a process and all its descendants (nginx's workers, say)."""
    tick = os.sysconf("SC_CLK_TCK")
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append((int(entry), int(fields[11]) + int(fields[12])))
            except (OSError, IndexError):
                pass
    total = 0
    try:
        with open("/proc/%d/stat" % pid) as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        total = int(fields[11]) + int(fields[12])
    except OSError:
        return 0.0
    stack = [pid]
    while stack:
        for child, ticks in children.get(stack.pop(), []):
            total += ticks
            stack.append(child)
    return total / tick


def measured_wrk(pid, url, connections, seconds, headers=None):
    """wrk's requests per second, with the server's CPU milliseconds per request."""
    command = ["wrk", "-t", str(min(2, connections)), "-c", str(connections), "-d", "%ds" % seconds, url]
    for name, value in (headers or {}).items():
        command += ["-H", "%s: %s" % (name, value)]
    before = cpu_seconds(pid)
    output = subprocess.run(command, capture_output=True, text=True).stdout
    spent = cpu_seconds(pid) - before
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    done = requests_done(output)
    return ((float(match.group(1)) if match else 0.0), (int(errors.group(1)) if errors else 0),
            (spent * 1000 / done) if done else 0.0)


def settle(pids, window=0.5, quiet=0.02, timeout=90):
    """Waits until no server is still busy: a slow server goes on answering the requests its
    client gave up on when wrk stopped (copyparty, at 32 connections, for seconds), and the
    next server measured would share the cores with it. Each measurement starts on a machine
    where no server used more than `quiet` seconds of CPU in the last `window` seconds."""
    start = time.time()
    while time.time() < start + timeout:
        before = sum(cpu_seconds(pid) for pid in pids)
        time.sleep(window)
        if sum(cpu_seconds(pid) for pid in pids) - before <= quiet:
            if time.time() - start > 2 * window:
                print("(the servers went idle %.1f s after the last measurement)" % (time.time() - start), flush=True)
            return
    print("warning: the servers did not go idle in %d s" % timeout, flush=True)


def rotated(names, round_number):
    """The servers in turn, starting with a different one each round."""
    shift = round_number % len(names) if names else 0
    return names[shift:] + names[:shift]


def download_once(url):
    output = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{speed_download}", url],
                            capture_output=True, text=True).stdout
    return float(output or 0) / (1 << 20)


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--downloads", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()

    make_tree()
    write_configs()
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "browsey"], cwd=REPO, check=True)
    browsey = os.path.join(REPO, ".build", "release", "browsey")
    servers = {
        "browsey": [browsey, "serve", TREE, "-p", str(PORTS["browsey"]), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
                    "--no-listing-cache"],
        # Also the one that sends downloads by sendfile over loopback, which Browsey keeps for
        # clients across a network (a client on this machine gets copies).
        "browsey-cached": [browsey, "serve", TREE, "-p", str(PORTS["browsey-cached"]), "--host", "127.0.0.1", "--no-qr",
                           "--no-bonjour", "--sendfile-on-loopback"],
        "nginx": ["nginx", "-c", os.path.join(BENCH, "conf", "nginx.conf")],
        "caddy": ["caddy", "run", "--config", os.path.join(BENCH, "conf", "Caddyfile"), "--adapter", "caddyfile"],
    }
    party = copyparty_command()
    if party:
        servers["copyparty"] = party
    listing = {
        "browsey": ("http://127.0.0.1:%d/api/list?path=/many" % PORTS["browsey"], {}),
        "browsey-cached": ("http://127.0.0.1:%d/api/list?path=/many" % PORTS["browsey-cached"], {}),
        "nginx": ("http://127.0.0.1:%d/many/" % PORTS["nginx"], {}),
        "caddy": ("http://127.0.0.1:%d/many/" % PORTS["caddy"], {"Accept": "application/json"}),
        "copyparty": ("http://127.0.0.1:%d/many/?ls" % PORTS["copyparty"], {}),
    }
    downloads = {
        "browsey": "http://127.0.0.1:%d/api/file?path=/big.bin" % PORTS["browsey"],
        "browsey-sendfile": "http://127.0.0.1:%d/api/file?path=/big.bin" % PORTS["browsey-cached"],
        "nginx": "http://127.0.0.1:%d/big.bin" % PORTS["nginx"],
        "caddy": "http://127.0.0.1:%d/big.bin" % PORTS["caddy"],
        "copyparty": "http://127.0.0.1:%d/big.bin" % PORTS["copyparty"],
    }
    processes = {}
    results = {}
    try:
        idle = 0.0
        for name, command in servers.items():
            processes[name] = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if name == "browsey" and wait_for("http://127.0.0.1:%d/api/health" % PORTS[name]):
                time.sleep(1)
                idle = rss_mib(processes[name].pid)  # started, nothing asked of it yet
            url, headers = listing[name]
            if not wait_for(url, headers):
                print("%s did not start; left out" % name, flush=True)
                processes.pop(name).kill()
        after_one = rss_mib(processes["browsey"].pid) if "browsey" in processes else 0.0
        # Warm every cache (page cache, dentries) the same way for everyone.
        subprocess.run(["cat", os.path.join(TREE, "big.bin")], stdout=subprocess.DEVNULL)
        for name in processes:
            url, headers = listing[name]
            wrk(url, 4, 2, headers)
        # Listings in interleaved rounds too, each started by the next server; each figure is the
        # median of the rounds.
        rounds = {name: [] for name in processes}
        for round_number in range(args.rounds):
            for name in rotated(list(processes), round_number):
                url, headers = listing[name]
                pid = processes[name].pid
                settle([process.pid for process in processes.values()])
                one, errors1, _ = measured_wrk(pid, url, 1, args.seconds, headers)
                settle([process.pid for process in processes.values()])
                many, errors32, cpu = measured_wrk(pid, url, 32, args.seconds, headers)
                rounds[name].append((one, many, cpu, errors1 + errors32))
                print("round %d %-15s listing: %8.0f req/s at 1, %8.0f req/s at 32, %.2f ms CPU each (%d errors)" % (
                    round_number + 1, name, one, many, cpu, errors1 + errors32), flush=True)
        # The 304 a client that has the listing gets (If-None-Match with its tag), from the cache.
        if "browsey-cached" in processes:
            url, _ = listing["browsey-cached"]
            tag = urllib.request.urlopen(url).headers["ETag"]
            conditional = {"If-None-Match": tag}
            rounds["browsey-304"] = []
            for round_number in range(args.rounds):
                pid = processes["browsey-cached"].pid
                settle([process.pid for process in processes.values()])
                one, errors1, _ = measured_wrk(pid, url, 1, args.seconds, conditional)
                settle([process.pid for process in processes.values()])
                many, errors32, cpu = measured_wrk(pid, url, 32, args.seconds, conditional)
                rounds["browsey-304"].append((one, many, cpu, errors1 + errors32))
                print("round %d %-15s listing: %8.0f req/s at 1, %8.0f req/s at 32, %.3f ms CPU each (%d errors)" % (
                    round_number + 1, "browsey-304", one, many, cpu, errors1 + errors32), flush=True)
        for name, values in rounds.items():
            results[name] = {
                "c1": statistics.median(v[0] for v in values), "c32": statistics.median(v[1] for v in values),
                "cpu": statistics.median(v[2] for v in values), "errors": sum(v[3] for v in values),
                "c32all": [v[1] for v in values],
            }
        # Downloads in interleaved rounds, so that noise hits every server alike; each round
        # starts with the next server, so that none is always the first after a pause.
        server_of = {"browsey-sendfile": "browsey-cached"}
        speeds = {name: [] for name in downloads if server_of.get(name, name) in processes}
        download_cpu = {name: [] for name in speeds}
        for round_number in range(args.downloads):
            for name in rotated(list(speeds), round_number):
                pid = processes[server_of.get(name, name)].pid
                settle([process.pid for process in processes.values()])
                before = cpu_seconds(pid)
                speeds[name].append(download_once(downloads[name]))
                download_cpu[name].append(cpu_seconds(pid) - before)
        for name, values in speeds.items():
            results.setdefault(name, {})
            results[name]["download"] = statistics.median(values)
            results[name]["downloadCPU"] = statistics.median(download_cpu[name])
            print("%-15s 1 GiB download: %.0f MiB/s, %.2f s CPU (%s)" % (
                name, results[name]["download"], results[name]["downloadCPU"],
                ", ".join("%.0f" % v for v in values)), flush=True)
        busy = rss_mib(processes["browsey"].pid) if "browsey" in processes else 0.0
    finally:
        stop_all(processes)

    nginx = results.get("nginx", {})
    rows = []
    for name, figures in results.items():
        def ratio(key):
            return "%.2f×" % (figures[key] / nginx[key]) if key in figures and nginx.get(key) else "–"
        listed = "c1" in figures
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, "%.0f" % figures["c1"] if listed else "–", ratio("c1"), "%.0f" % figures["c32"] if listed else "–",
            ratio("c32"), ("%.1f ms" if figures.get("cpu", 0) >= 0.1 else "%.3f ms") % figures["cpu"] if listed else "–",
            "%.0f MiB/s" % figures["download"] if "download" in figures else "–", ratio("download"),
            "%.2f s" % figures["downloadCPU"] if "downloadCPU" in figures else "–"))
    table = "\n".join([
        "Tree: one folder of 10,000 files and a 1 GiB file, page-cached; %d CPUs shared by servers and load; %s." % (
            os.cpu_count() or 0, time.strftime("%Y-%m-%d")),
        "Listing: wrk -t2, %d s at 1 and at 32 connections (each server's own JSON listing), median of %d interleaved rounds;"
        " CPU is the server's user + system time per listing at 32 connections. Download: curl, median of %d"
        " interleaved rounds, with the server's CPU seconds per GiB." % (args.seconds, args.rounds, args.downloads),
        "`browsey` runs with --no-listing-cache; `browsey-cached` with the listing cache the watcher keeps fresh;"
        " `browsey-304` is `browsey-cached` asked with the listing's `If-None-Match` (a client that has it: 304, no body)."
        " Its CPU per listing is the server's time per 304."
        " Over loopback Browsey copies downloads through buffers (`browsey`); `browsey-sendfile` is the download by"
        " `sendfile`, which clients across a network get (`--sendfile-on-loopback`).",
        "",
        "| server | listing req/s (1 conn) | ÷ nginx | listing req/s (32 conns) | ÷ nginx | CPU per listing | 1 GiB download | ÷ nginx | CPU per GiB |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Browsey's resident memory: %.1f MiB idle (started, nothing asked yet), %.1f MiB after one listing of"
        " the 10,000-file folder, %.1f MiB after the run (the executable keeps up to 32 MiB of freed heap for reuse:"
        " see `MemoryTuning`)." % (idle, after_one, busy),
        "",
        "Reproduce: `python3 Benchmarks/Scripts/server_bench.py --seconds %d --rounds %d --downloads %d`" % (
            args.seconds, args.rounds, args.downloads),
    ])
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Serving: listings and downloads", table)
    print(table)


if __name__ == "__main__":
    main()
