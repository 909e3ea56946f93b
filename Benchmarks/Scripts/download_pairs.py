#!/usr/bin/env python3
"""Downloads server_bench's 1 GiB file from Browsey and from nginx in turn, with only those two
servers running, and prints each pair and the mean ratio: a closer look at the download figure
than server_bench's nine rounds beside three other servers.

Usage: python3 Benchmarks/Scripts/download_pairs.py [--pairs 15] [--skip-build]
Needs: nginx and curl (apt). Writes nothing to RESULTS.md: quote its output where it is used.
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import server_bench  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    server_bench.make_tree()
    server_bench.write_configs()
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "browsey"],
                       cwd=server_bench.REPO, check=True)
    browsey = os.path.join(server_bench.REPO, ".build", "release", "browsey")
    port = server_bench.PORTS["browsey"]
    commands = {
        "browsey": [browsey, "serve", server_bench.TREE, "-p", str(port), "--host", "127.0.0.1", "--no-qr",
                    "--no-bonjour", "--no-listing-cache", "--no-index"],
        "nginx": ["nginx", "-c", os.path.join(server_bench.BENCH, "conf", "nginx.conf")],
    }
    urls = {
        "browsey": "http://127.0.0.1:%d/api/file?path=/big.bin" % port,
        "nginx": "http://127.0.0.1:%d/big.bin" % server_bench.PORTS["nginx"],
    }
    processes = {}
    try:
        for name, command in commands.items():
            processes[name] = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not server_bench.wait_for(urls[name].replace("big.bin", "many/") if name == "nginx"
                                         else "http://127.0.0.1:%d/api/health" % port):
                sys.exit("%s did not start" % name)
        subprocess.run(["cat", os.path.join(server_bench.TREE, "big.bin")], stdout=subprocess.DEVNULL)
        ratios, speeds = [], {name: [] for name in urls}
        for _ in range(args.pairs):
            pair = {name: server_bench.download_once(url) for name, url in urls.items()}
            for name, speed in pair.items():
                speeds[name].append(speed)
            ratios.append(pair["browsey"] / pair["nginx"])
            print("browsey %5.0f MiB/s   nginx %5.0f MiB/s   %.2fx" % (pair["browsey"], pair["nginx"], ratios[-1]),
                  flush=True)
        print("mean: browsey %.0f MiB/s, nginx %.0f MiB/s: %.3fx (pairs %.2f-%.2fx, median %.2fx)" % (
            statistics.mean(speeds["browsey"]), statistics.mean(speeds["nginx"]),
            statistics.mean(speeds["browsey"]) / statistics.mean(speeds["nginx"]),
            min(ratios), max(ratios), statistics.median(ratios)))
    finally:
        server_bench.stop_all(processes)


if __name__ == "__main__":
    main()
