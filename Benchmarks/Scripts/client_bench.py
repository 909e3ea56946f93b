#!/usr/bin/env python3
"""The command-line client against curl and wget, on the same Browsey server in the same run:
`browsey get -r` of a folder of 10,000 small files and `browsey get` of one 1 GiB file, with
wall time and each client's peak memory (GNU time's maximum resident set). Results go to the
`Client (issue 9)` section of Benchmarks/RESULTS.md.

Usage: python3 Benchmarks/Scripts/client_bench.py [--files 10000] [--rounds 3] [--binary PATH]

The peers are given their best case: curl gets the list of the 10,000 URLs ready-made (it cannot
list a folder) and fetches them over one reused connection (`-K`), and again 8 at a time
(`--parallel --parallel-max 8`); `browsey get -r` lists the folders itself. wget reads the same
list (`-i`, one reused connection). The big file is sparse on the server (read from the page
cache); every client writes real bytes to the same disk, and every time runs until they are on
it (the command, then `sync`): browsey flushes before it reports success, curl and wget do not.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402

BENCHMARKS = os.path.dirname(HERE)
REPO = os.path.dirname(BENCHMARKS)
BENCH = "/tmp/browsey-bench-client"
PORT = 18190


def make_tree(count):
    root = os.path.join(BENCH, "served")
    small = os.path.join(root, "small")
    marker = os.path.join(root, ".made-%d" % count)
    if not os.path.exists(marker):
        shutil.rmtree(root, ignore_errors=True)
        for index in range(count):
            folder = os.path.join(small, "folder %03d" % (index // 100))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "file %05d.txt" % index), "wb") as handle:
                handle.write(os.urandom(1024 + (index * 37) % 3072))
        with open(os.path.join(root, "big.bin"), "wb") as handle:
            handle.truncate(1 << 30)
        open(marker, "w").close()
    return root, small


def timed(command, cwd=None):
    """Wall seconds until the command's files are on disk (the command, then `sync`: browsey
    flushes before it says done, curl and wget do not), its peak RSS (MiB), and the command's
    own seconds (without the `sync`)."""
    subprocess.run(["sync"])
    start = time.monotonic()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, cwd=cwd, capture_output=True, text=True)
    alone = time.monotonic() - start
    subprocess.run(["sync"])
    wall = time.monotonic() - start
    if result.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(command), result.stderr[-2000:]))
    peak = int(result.stderr.strip().splitlines()[-1]) / 1024
    return wall, peak, alone


def files_under(folder):
    return sum(len(files) for _, _, files in os.walk(folder))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--binary")
    arguments = parser.parse_args()
    binary = arguments.binary
    if not binary:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "browsey"], cwd=REPO, check=True)
        binary = os.path.join(REPO, ".build", "release", "browsey")
    os.makedirs(BENCH, exist_ok=True)
    root, small = make_tree(arguments.files)
    base = "http://127.0.0.1:%d" % PORT
    server = subprocess.Popen([binary, "serve", root, "-p", str(PORT), "--host", "127.0.0.1", "--no-qr",
                               "--no-index", "--no-bonjour"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if subprocess.run(["curl", "-sf", base + "/api/health"], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        relative = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(small) for f in fs)
        out = os.path.join(BENCH, "out")
        config = os.path.join(BENCH, "curl.config")
        with open(config, "w") as handle:
            for path in relative:
                url = base + "/api/file?download=false&path=" + urllib.parse.quote("/" + path)
                handle.write('url = "%s"\noutput = "%s"\n' % (url, os.path.join(out, "curl", path)))
        wget_list = os.path.join(BENCH, "wget.list")
        with open(wget_list, "w") as handle:
            for path in relative:
                handle.write(base + "/api/file?download=false&path=" + urllib.parse.quote("/" + path) + "\n")

        runs = {name: [] for name in ["browsey", "curl", "curl8", "wget", "big-browsey", "big-curl", "big-wget"]}
        for round_index in range(arguments.rounds):
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            order = ["browsey", "curl", "curl8", "wget"]
            if round_index % 2:
                order.reverse()
            for name in order:
                target = os.path.join(out, name)
                if name == "browsey":
                    wall, peak, alone = timed([binary, "get", "-r", base + "/small", "-o", target])
                    count = files_under(target)
                elif name == "curl":
                    wall, peak, alone = timed(["curl", "-sf", "--create-dirs", "-K", config])
                    count = files_under(os.path.join(out, "curl"))
                elif name == "curl8":
                    shutil.rmtree(os.path.join(out, "curl"), ignore_errors=True)
                    wall, peak, alone = timed(["curl", "-sf", "--create-dirs", "--parallel", "--parallel-max", "8", "-K", config])
                    count = files_under(os.path.join(out, "curl"))
                else:
                    os.makedirs(target)
                    wall, peak, alone = timed(["wget", "-q", "-i", wget_list], cwd=target)
                    count = files_under(target)
                if count != len(relative):
                    raise SystemExit("%s fetched %d of %d files" % (name, count, len(relative)))
                runs[name].append((wall, peak, alone))
                print("round %d %-8s %.2f s (%.2f s without sync), %.1f MiB peak" % (
                    round_index + 1, name, wall, alone, peak), flush=True)
            big = ["big-browsey", "big-curl", "big-wget"]
            for name in (big if round_index % 2 == 0 else list(reversed(big))):
                target = os.path.join(out, name + ".bin")
                if name == "big-browsey":
                    wall, peak, alone = timed([binary, "get", base + "/big.bin", "-o", target])
                elif name == "big-curl":
                    wall, peak, alone = timed(["curl", "-sf", "-o", target, base + "/api/file?download=false&path=/big.bin"])
                else:
                    wall, peak, alone = timed(["wget", "-q", "-O", target, base + "/api/file?download=false&path=/big.bin"])
                if os.path.getsize(target) != 1 << 30:
                    raise SystemExit("%s: wrong size" % name)
                os.remove(target)
                runs[name].append((wall, peak, alone))
                print("round %d %-11s %.2f s (%.0f MB/s; %.2f s without sync), %.1f MiB peak" % (
                    round_index + 1, name, wall, 1073.741824 / wall, alone, peak), flush=True)
    finally:
        server.terminate()
        server.wait()

    def median(name, index):
        return statistics.median(run[index] for run in runs[name])

    rows = [
        ("`browsey get -r` (lists the folders itself, 8 at a time)", "browsey"),
        ("`curl -K` (the URL list given, one connection)", "curl"),
        ("`curl --parallel --parallel-max 8 -K`", "curl8"),
        ("`wget -i` (the URL list given, one connection)", "wget"),
    ]
    body = ["%d files of 1–4 KB in %d folders, then one 1 GiB file, from one `browsey serve` (release, "
            "`--no-index`) on 127.0.0.1; medians of %d rounds, order alternated; each time is until the files are on disk (then `sync`); 2026-11-23." % (
                arguments.files, (arguments.files + 99) // 100, arguments.rounds), "",
            "| %d small files | wall | files/s | peak memory | ÷ browsey (wall) | the command alone |" % arguments.files,
            "|---|---|---|---|---|---|"]
    mine = median("browsey", 0)
    for label, name in rows:
        wall = median(name, 0)
        body.append("| %s | %.2f s | %.0f | %.1f MiB | %.2f× | %.2f s |" % (
            label, wall, arguments.files / wall, median(name, 1), wall / mine, median(name, 2)))
    body += ["", "| 1 GiB file | wall | MB/s | peak memory | ÷ browsey (wall) | the command alone |",
             "|---|---|---|---|---|---|"]
    mine = median("big-browsey", 0)
    for label, name in [("`browsey get`", "big-browsey"), ("`curl -o`", "big-curl"), ("`wget -O`", "big-wget")]:
        wall = median(name, 0)
        body.append("| %s | %.2f s | %.0f | %.1f MiB | %.2f× | %.2f s |" % (
            label, wall, 1073.741824 / wall, median(name, 1), wall / mine, median(name, 2)))
    body += ["", "The command alone: its own time, without the `sync` after it; browsey's includes its "
             "own flush (it reports success only once the bytes are on disk), curl's and wget's do not.",
             "", "Ratios above 1: browsey is faster. Reproduce: `python3 Benchmarks/Scripts/client_bench.py "
             "--files %d --rounds %d`" % (arguments.files, arguments.rounds)]
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Client (issue 9)", "\n".join(body))
    print("\n".join(body))


if __name__ == "__main__":
    main()
