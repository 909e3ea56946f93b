"""Two builds of Browsey side by side on the name-search tree: resident memory with every name
indexed, and the latency of the same queries asked of both in turn (their answers compared).

    python3 Benchmarks/Scripts/names_memory.py --files 1000000 OLD_BINARY NEW_BINARY

The tree is search_bench.py's (empty files, names of one to three words). Each server runs with
`--no-content-index` (names only) and is measured once its index and name order are built.
"""
import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bench  # noqa: E402
from server_bench import rss_mib  # noqa: E402

QUERIES = ["zebracorn", "report", "rprtmd", "eport", "report pdf"]


def start(binary, tree, port):
    work = tempfile.mkdtemp(prefix="names-memory-")
    log_path = os.path.join(work, "log")
    process = subprocess.Popen(
        [binary, "serve", tree, "-p", str(port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
         "--no-content-index", "--index-dir", os.path.join(work, "index"), "--thumbs", "off"],
        stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        with open(log_path) as handle:
            if "entries ready" in handle.read():
                return process
        time.sleep(0.2)
    process.kill()
    raise SystemExit("%s did not build its index in 5 minutes" % binary)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000000)
    parser.add_argument("--queries", type=int, default=25, help="timed queries per query and build")
    parser.add_argument("--settle", type=float, default=12.0, help="seconds after the index is ready")
    parser.add_argument("binaries", nargs=2)
    args = parser.parse_args()
    tree = search_bench.make_tree(args.files)
    servers = [(binary, 18411 + index) for index, binary in enumerate(args.binaries)]
    processes = [start(binary, tree, port) for binary, port in servers]
    try:
        time.sleep(args.settle)  # the name order and the trigram lists are built just after
        connections = [http.client.HTTPConnection("127.0.0.1", port) for _, port in servers]
        print("| query | %s p50 | %s p50 | same answer |" % tuple(os.path.basename(b) for b in args.binaries))
        print("|---|---|---|---|")
        for query in QUERIES:
            url = "/api/search?path=/&limit=50&q=" + urllib.parse.quote(query)
            times = [[], []]
            bodies = [b"", b""]
            for round_number in range(args.queries + 3):
                for index, connection in enumerate(connections):
                    began = time.perf_counter()
                    connection.request("GET", url)
                    bodies[index] = connection.getresponse().read()
                    if round_number >= 3:
                        times[index].append((time.perf_counter() - began) * 1000)
            print("| `%s` | %.2f ms | %.2f ms | %s |" % (
                query, statistics.median(times[0]), statistics.median(times[1]),
                "yes" if bodies[0] == bodies[1] else "NO"))
        print()
        for (binary, _), process in zip(servers, processes):
            print("%s: %.1f MiB resident with %d files indexed" % (binary, rss_mib(process.pid), args.files))
    finally:
        for process in processes:
            process.kill()


if __name__ == "__main__":
    main()
