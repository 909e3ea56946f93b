#!/usr/bin/env python3
"""Several servers, one library, measured: what the PostgreSQL state store costs against SQLite
per request, how long the change feed takes to carry a write to another instance, and one
instance against two behind nginx. Writes the figures to Benchmarks/RESULTS.md.

Usage: .venv-browser/bin/python Benchmarks/Scripts/cluster_bench.py [--seconds 5] [--binary PATH]
Needs: PostgreSQL's server (apt postgresql), nginx, wrk. Everything runs on loopback, on the same
two cores as the load generator: two instances cannot serve more than one here, only show what
the balancer and the store add.
"""
import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "Tests", "Cluster"))
from results import write_section  # noqa: E402
from conftest import PASSWORD, Balancer, PostgreSQL, ask, free_port, wait_for_port  # noqa: E402


class Server:
    """One `browsey serve` with accounts, on SQLite (database None) or on PostgreSQL."""

    def __init__(self, binary, work, name, root, accounts, database=None, extra=()):
        self.port = free_port()
        home = os.path.join(work, name)
        os.makedirs(home)
        self.log = open(os.path.join(home, "server.log"), "w")
        command = [binary, "serve", root, "-p", str(self.port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
                   "--no-readonly", "--config", accounts, "--index-dir", os.path.join(home, "index"),
                   "--trash-dir", os.path.join(work, "trash"), "--trusted-proxy", "127.0.0.1", *extra]
        if database:
            command += ["--database", database]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        env=dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data")))
        wait_for_port(self.port, self.process, name)
        self.base = "http://127.0.0.1:%d" % self.port

    def token(self):
        return ask(self.base, "/api/login", method="POST",
                   body={"username": "bob", "password": PASSWORD}).json()["token"]

    def stop(self):
        self.process.terminate()
        self.process.wait()


def milliseconds(text):
    number, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk(url, connections, seconds, headers):
    command = ["wrk", "--latency", "-t", str(min(2, connections)), "-c", str(connections), "-d", "%ds" % seconds, url]
    for name, value in headers.items():
        command += ["-H", "%s: %s" % (name, value)]
    output = subprocess.run(command, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p50 = milliseconds(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1))
    p99 = milliseconds(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    assert not errors, "errors under load: " + output
    return rate, p50, p99


def store_costs(binary, work, root, accounts, database, seconds):
    rows = []
    for kind in ("sqlite", "postgresql"):
        server = Server(binary, work, "store-" + kind, root, accounts, database if kind == "postgresql" else None)
        try:
            token = server.token()
            link = ask(server.base, "/api/share", method="POST", headers={"Authorization": "Bearer " + token},
                       body={"path": "/docs/plan.txt"}).json()["url"]
            for what, path, headers in (("signed-in listing", "/api/list?path=/docs", {"Authorization": "Bearer " + token}),
                                        ("a link's file", link + "/file", {})):
                for connections in (1, 32):
                    rate, p50, p99 = wrk(server.base + path, connections, seconds, headers)
                    rows.append((what, connections, kind, rate, p50, p99))
        finally:
            server.stop()
    return rows


class Events:
    def __init__(self, port, token):
        self.arrivals, self.ready = {}, threading.Event()
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(("GET /api/events?path=/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n"
                           % token).encode())
        threading.Thread(target=self.read, daemon=True).start()
        self.ready.wait(10)

    def read(self):
        pending = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                pending += chunk
                if b": connected" in pending:
                    self.ready.set()
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.startswith(b"data: {"):
                        path = json.loads(line[6:]).get("path")
                        self.arrivals.setdefault(path, time.monotonic())
        except OSError:
            return


def feed_delay(binary, work, root, accounts, database, count=200):
    writer = Server(binary, work, "feed-writer", root, accounts, database)
    reader = Server(binary, work, "feed-reader", root, accounts, database, extra=("--watch", "off"))
    try:
        token = writer.token()
        events = Events(reader.port, token)
        delays = []
        for index in range(count):
            path = "/feed/change-%03d.txt" % index
            request = urllib.request.Request(writer.base + "/api/file?path=" + path, data=b"x", method="PUT",
                                             headers={"Authorization": "Bearer " + token, "Origin": writer.base})
            with urllib.request.urlopen(request) as answer:
                assert answer.status == 201
            written = time.monotonic()
            deadline = written + 5
            while path not in events.arrivals and time.monotonic() < deadline:
                time.sleep(0.002)
            assert path in events.arrivals, "no event for " + path
            delays.append((events.arrivals[path] - written) * 1000)
            time.sleep(0.02)
        delays.sort()
        return statistics.median(delays), delays[int(len(delays) * 0.99) - 1], max(delays)
    finally:
        writer.stop()
        reader.stop()


def balanced(binary, work, root, accounts, database, seconds):
    rows = []
    servers = [Server(binary, work, "balanced-%d" % index, root, accounts, database) for index in range(2)]
    try:
        token = servers[0].token()
        for count in (1, 2):
            balancer = Balancer(os.path.join(work, "nginx-%d" % count), servers[:count])
            try:
                rate, p50, p99 = wrk(balancer.base + "/api/list?path=/docs", 32, seconds,
                                     {"Authorization": "Bearer " + token})
                rows.append((count, rate, p50, p99))
            finally:
                balancer.stop()
    finally:
        for server in servers:
            server.stop()
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "browsey"))
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="browsey-cluster-bench-", dir="/var/tmp")
    os.chmod(work, 0o755)
    root = os.path.join(work, "served")
    os.makedirs(os.path.join(root, "docs"))
    os.makedirs(os.path.join(root, "feed"))
    for index in range(200):
        with open(os.path.join(root, "docs", "note-%03d.md" % index), "w") as handle:
            handle.write("note %d\n" % index)
    with open(os.path.join(root, "docs", "plan.txt"), "w") as handle:
        handle.write("the plan\n" * 400)
    accounts = os.path.join(work, "accounts.json")
    subprocess.run([options.binary, "passwd", "bob", "--config", accounts, "--admin"], input=PASSWORD + "\n",
                   text=True, check=True, stdout=subprocess.DEVNULL)
    database = PostgreSQL(os.path.join(work, "pg", "data"))
    try:
        costs = store_costs(options.binary, work, root, accounts, database.url, options.seconds)
        feed = feed_delay(options.binary, work, root, accounts, database.url)
        spread = balanced(options.binary, work, root, accounts, database.url, options.seconds)
    finally:
        database.stop()
        shutil.rmtree(work, ignore_errors=True)
    lines = ["`cluster_bench.py --seconds %d`, release build, %s. wrk, loopback, two cores shared with the"
             " load generator and PostgreSQL." % (options.seconds, time.strftime("%Y-%m-%d")), "",
             "What the PostgreSQL store costs against SQLite (a session or link found is remembered for 1 s;"
             " each link download counts itself in the store):", "",
             "| Request | Connections | Store | Requests/s | p50 ms | p99 ms |", "|---|---|---|---|---|---|"]
    for what, connections, kind, rate, p50, p99 in costs:
        lines.append("| %s | %d | %s | %.0f | %.2f | %.2f |" % (what, connections, kind, rate, p50, p99))
    lines.append("")
    for what in ("signed-in listing", "a link's file"):
        for connections in (1, 32):
            by = {kind: rate for (w, c, kind, rate, _, _) in costs if w == what and c == connections}
            lines.append("- %s at %d: PostgreSQL %.2f× SQLite's rate." % (what, connections, by["postgresql"] / by["sqlite"]))
    lines += ["", "The change feed, a write through one instance to the event stream of one with `--watch off`"
              " (200 writes, one at a time): p50 %.0f ms, p99 %.0f ms, worst %.0f ms." % feed, "",
              "One instance against two behind nginx (round robin, signed-in listing, 32 connections):", "",
              "| Instances | Requests/s | p50 ms | p99 ms |", "|---|---|---|---|"]
    for count, rate, p50, p99 in spread:
        lines.append("| %d | %.0f | %.2f | %.2f |" % (count, rate, p50, p99))
    lines += ["", "Two cores run nginx, wrk, PostgreSQL and the instances together, so a second instance adds no"
              " capacity here: it shows what the balancer costs and that nothing breaks, not the scaling a"
              " second machine would bring."]
    text = "\n".join(lines)
    print(text)
    write_section(os.path.join(REPO, "Benchmarks", "RESULTS.md"), "Several instances on one PostgreSQL", text)


if __name__ == "__main__":
    main()
