#!/usr/bin/env python3
"""Uploads one 1 GiB file to Browsey, copyparty and uploadserver in the same run, by PUT and by
multipart POST (curl), and measures MB/s and each server's peak resident memory (VmHWM).
Results go to Benchmarks/RESULTS.md.

Usage: python3 Benchmarks/Scripts/upload_bench.py [--rounds 3] [--skip-build]
Needs: curl (apt); copyparty and uploadserver (pip, in a venv under /tmp; a peer that cannot be
installed is left out). Every server binds 127.0.0.1 and writes to the same disk.

Browsey flushes each upload to disk (fsync) before it renames it into place; the peers do not
(copyparty writes in place, uploadserver streams to the final name): the figures include that.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402
from server_bench import BENCH, BENCHMARKS, REPO, make_tree, stop_all, wait_for  # noqa: E402

SOURCE = os.path.join(BENCH, "tree", "big.bin")
STORAGE = {"disk": os.path.join(BENCH, "uploads"), "ram": "/dev/shm/browsey-bench-uploads"}
PORTS = {"browsey": 18090, "copyparty": 18091, "uploadserver": 18092}


def venv_binary(name, package):
    venv = os.path.join(BENCH, "venv")
    binary = os.path.join(venv, "bin", name)
    if not os.path.exists(os.path.join(venv, "bin", "python3")):
        subprocess.run([sys.executable, "-m", "venv", venv], check=False)
    if not package_installed(venv, package):
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", package], check=False)
    return binary if os.path.exists(binary) else None


def package_installed(venv, package):
    return subprocess.run([os.path.join(venv, "bin", "python3"), "-c", "import " + package],
                          capture_output=True).returncode == 0


def peak_rss_mib(pid):
    try:
        with open("/proc/%d/status" % pid) as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def curl_upload(arguments):
    output = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{speed_upload}"] + arguments,
                            capture_output=True, text=True).stdout.split()
    if len(output) != 2 or not output[0].startswith("2"):
        return 0.0, output[0] if output else "no answer"
    return float(output[1]) / (1 << 20), output[0]


def clear(folder):
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        elif not name.startswith(".hist"):
            os.unlink(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--storage", choices=["disk", "ram"], default="disk",
                        help="where the uploads land: the disk (fsync costs what the disk costs) or /dev/shm (the"
                             " servers' own speed)")
    args = parser.parse_args()
    targets = STORAGE[args.storage]
    make_tree()
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "browsey"], cwd=REPO, check=True)
    browsey = os.path.join(REPO, ".build", "release", "browsey")

    servers = {}
    folders = {}
    for name in PORTS:
        folders[name] = os.path.join(targets, name)
        shutil.rmtree(folders[name], ignore_errors=True)
        os.makedirs(folders[name])
    servers["browsey"] = [browsey, "serve", folders["browsey"], "-p", str(PORTS["browsey"]), "--host", "127.0.0.1",
                          "--no-qr", "--no-bonjour", "--no-readonly", "--no-trash"]
    copyparty = venv_binary("copyparty", "copyparty")
    if copyparty:
        servers["copyparty"] = [copyparty, "-i", "127.0.0.1", "-p", str(PORTS["copyparty"]), "-v",
                                folders["copyparty"] + "::rw", "--hist", os.path.join(BENCH, "run", "cp-up-hist"),
                                "-q", "--no-thumb"] + (["--wram"] if args.storage == "ram" else [])
    python = venv_binary("python3", "uploadserver")
    if python and package_installed(os.path.join(BENCH, "venv"), "uploadserver"):
        servers["uploadserver"] = [python, "-m", "uploadserver", str(PORTS["uploadserver"]), "--bind", "127.0.0.1",
                                   "--directory", folders["uploadserver"]]
    # How each server takes a raw body (PUT) and a browser form (multipart POST).
    methods = {
        "browsey": {
            "PUT": lambda n: ["-T", SOURCE, "http://127.0.0.1:%d/api/file?path=/put-%d.bin" % (PORTS["browsey"], n)],
            "multipart": lambda n: ["-F", "files=@%s;filename=form-%d.bin" % (SOURCE, n),
                                    "http://127.0.0.1:%d/api/upload?path=/" % PORTS["browsey"]],
        },
        "copyparty": {
            "PUT": lambda n: ["-T", SOURCE, "http://127.0.0.1:%d/put-%d.bin" % (PORTS["copyparty"], n)],
            "multipart": lambda n: ["-F", "act=bput", "-F", "f=@%s;filename=form-%d.bin" % (SOURCE, n),
                                    "http://127.0.0.1:%d/" % PORTS["copyparty"]],
        },
        "uploadserver": {
            "PUT": None,  # its PUT is its multipart POST: it takes no raw body
            "multipart": lambda n: ["-F", "files=@%s;filename=form-%d.bin" % (SOURCE, n),
                                    "http://127.0.0.1:%d/upload" % PORTS["uploadserver"]],
        },
    }
    processes = {}
    speeds = {(name, kind): [] for name in servers for kind in ["PUT", "multipart"]}
    notes = []
    try:
        for name, command in servers.items():
            processes[name] = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not wait_for("http://127.0.0.1:%d/" % PORTS[name]):
                print("%s did not start; left out" % name, flush=True)
                processes.pop(name).kill()
        subprocess.run(["cat", SOURCE], stdout=subprocess.DEVNULL)  # the source in the page cache
        number = 0
        for round_number in range(args.rounds):
            for kind in ["PUT", "multipart"]:
                for name in processes:
                    if methods[name][kind] is None:
                        continue
                    number += 1
                    subprocess.run(["sync"])
                    speed, status = curl_upload(methods[name][kind](number))
                    if speed == 0.0:
                        notes.append("%s %s answered %s" % (name, kind, status))
                    speeds[(name, kind)].append(speed)
                    print("round %d %-13s %-9s %7.0f MiB/s (%s)" % (round_number + 1, name, kind, speed, status), flush=True)
                    clear(folders[name])
        peaks = {name: peak_rss_mib(process.pid) for name, process in processes.items()}
    finally:
        stop_all(processes)
        shutil.rmtree(targets, ignore_errors=True)

    def median(name, kind):
        values = [v for v in speeds.get((name, kind), []) if v > 0]
        return statistics.median(values) if values else 0.0
    rows = []
    for name in processes:
        cells = []
        for kind in ["PUT", "multipart"]:
            value = median(name, kind)
            base = median("copyparty", kind)
            cells.append("%.0f MiB/s" % value if value else "–")
            cells.append("%.2f×" % (value / base) if value and base else "–")
        rows.append("| %s | %s | %s | %s | %s | %.1f MiB |" % (name, *cells, peaks.get(name, 0.0)))
    table = "\n".join([
        "One 1 GiB file (page-cached source) uploaded to %s, curl on the same two cores; %s. Median of %d"
        " interleaved rounds; `sync` before each upload. Browsey fsyncs each file before it puts it in place;"
        " the peers do not." % (
            "the disk (ext4)" if args.storage == "disk" else "/dev/shm (RAM: the servers' own speed)",
            time.strftime("%Y-%m-%d"), args.rounds),
        "",
        "| server | PUT | ÷ copyparty | multipart POST | ÷ copyparty | peak RSS (VmHWM) |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        "uploadserver takes no raw PUT body (its PUT is its multipart POST).",
        *(["Notes: " + "; ".join(sorted(set(notes)))] if notes else []),
        "Reproduce: `python3 Benchmarks/Scripts/upload_bench.py --rounds %d --storage %s`" % (args.rounds, args.storage),
    ])
    write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Uploads to the %s" % args.storage, table)
    print(table)


if __name__ == "__main__":
    main()
