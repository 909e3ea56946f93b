"""Name search, builds side by side and copyparty, in interleaved rounds: each Browsey binary
serves the 1,000,000-file tree of search_bench.py (--files 1000000) on an index of its own;
copyparty, when --copyparty-port is given, is one already serving that tree with its scan
done. Each round asks every query COUNT times of each server in turn (the order of the builds
reversed every other round), and the low percentiles of all rounds are printed: on this
shared machine a server's timings drift by a third from hour to hour, and a low percentile of
many interleaved rounds is what two builds can be compared by.

    python3 Benchmarks/Scripts/search_rounds.py OLD_BINARY NEW_BINARY --queries rprtmd eport \\
        --copyparty-port 18299
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bench  # noqa: E402

LIKES = {"rprtmd": "*r%p%r%t%m%d*"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--tree", default=os.path.join(search_bench.BENCH, "tree-1000000"))
    parser.add_argument("--queries", nargs="+", default=["rprtmd", "report", "eport"])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--copyparty-port", type=int)
    args = parser.parse_args()
    if not os.path.isdir(args.tree):
        sys.exit("Error: no tree at %s (run search_bench.py --files 1000000 first)" % args.tree)
    work = tempfile.mkdtemp(prefix="search-rounds-")
    servers = []
    for number, binary in enumerate(args.binaries):
        port = 18211 + number
        log = os.path.join(work, "%d.log" % number)
        command = [binary, "serve", args.tree, "--port", str(port), "--no-qr", "--host", "127.0.0.1",
                   "--no-bonjour", "--index-dir", os.path.join(work, "index-%d" % number), "--no-content-index"]
        servers.append((port, log, subprocess.Popen(command, stdout=open(log, "w"), stderr=subprocess.STDOUT)))
    try:
        for _ in range(900):
            if all("entries ready" in open(log).read() for _, log, _ in servers):
                break
            time.sleep(1)
        time.sleep(15)  # the names in order and by pair are built just after
        for query in args.queries:
            answers = [hashlib.md5(search_bench.Client(port).ask("GET", search_bench.browsey_path(query))[1])
                       .hexdigest()[:8] for port, _, _ in servers]
            print("answers %s: %s%s" % (query, " ".join(answers), "" if len(set(answers)) == 1 else " (differ)"))
        times = {}
        for round_number in range(args.rounds):
            order = list(range(len(servers)))
            if round_number % 2:
                order.reverse()
            for query in args.queries:
                asks = [("b%d" % number, servers[number][0], lambda c, q=query: search_bench.browsey_query(c, q))
                        for number in order]
                if args.copyparty_port:
                    like = LIKES.get(query, "*%s*" % query)
                    asks.append(("copyparty", args.copyparty_port,
                                 lambda c, like=like: search_bench.copyparty_query(c, like)))
                for label, port, ask in asks:
                    client = search_bench.Client(port)
                    for _ in range(3):
                        ask(client)
                    for _ in range(args.count):
                        began = time.perf_counter()
                        ask(client)
                        times.setdefault((query, label), []).append((time.perf_counter() - began) * 1000)
                    client.close()
        for (query, label), values in sorted(times.items()):
            values.sort()
            n = len(values)
            print("%-10s %-9s p5 %.3f  p25 %.3f  p50 %.3f ms (%d queries)" % (
                query, label, values[n // 20], values[n // 4], values[n // 2], n))
        for number, (_, _, process) in enumerate(servers):
            with open("/proc/%d/status" % process.pid) as status:
                rss = [line for line in status if line.startswith("VmRSS")][0].split()[1]
            print("resident b%d: %.1f MiB" % (number, int(rss) / 1024))
    finally:
        for _, _, process in servers:
            process.terminate()


if __name__ == "__main__":
    main()
