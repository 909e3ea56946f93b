#!/usr/bin/env python3
"""Thumbnails, Browsey against copyparty (its thumbnailer with pyvips, then with Pillow) and nginx,
in one run on one generated tree:

- cold: the time to get every 256-px thumbnail of N photo-like 12 MP JPEGs (and N/10 PNGs), from
  an empty cache, at 4 concurrent requests; Browsey and copyparty + pyvips in turn, --runs times
  each, the median kept;
- bytes per thumbnail, and the server's peak RSS (VmHWM) while it generates them;
- cached: one thumbnail at 32 connections (wrk) from Browsey, against nginx serving the same
  bytes as a file.

Usage: python3 Benchmarks/Scripts/thumb_bench.py [--photos 1000] [--pngs 100] [--seconds 10]
           [--runs 3] [--skip-build] [--skip-copyparty] [--cached-only]

--cached-only measures only cached serving, on a few pictures, Browsey and nginx taking turns
--runs times each (its own section of RESULTS.md).
Needs: wrk, nginx (apt), libvips42 (apt, for pyvips); Pillow, numpy, pyvips, copyparty (pip, in
a venv this script makes, or the one THUMB_BENCH_VENV names). Not run in CI: the full run generates about 4 GB of pictures.
Every server binds 127.0.0.1 and runs on the same cores as the client.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
REPO = os.path.dirname(BENCHMARKS)
sys.path.insert(0, HERE)
from results import write_section  # noqa: E402

BENCH = "/tmp/browsey-bench-thumbs"
VENV = os.environ.get("THUMB_BENCH_VENV", os.path.join(BENCH, "venv"))
PORTS = {"browsey": 18090, "copyparty": 18091, "nginx": 18092}
SIZE = 256
CONCURRENCY = 4


def venv_python():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    probe = subprocess.run([python, "-c", "import PIL, numpy, pyvips, copyparty"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", "pillow", "numpy", "pyvips", "copyparty"], check=True)
    return python


GENERATOR = r'''
import os, sys
import numpy as np
from PIL import Image, ImageDraw, ImageFilter
folder, start, end, pngs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
width, height = int(sys.argv[5]), int(sys.argv[6])
for index in range(start, end):
    rng = np.random.default_rng(index)
    # Gradients and soft shapes drawn at a quarter size, scaled up (smooth like a photo), then
    # fine noise at full size: compresses like a photo (a few MB at quality 90).
    w, h = width // 4, height // 4
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, w, dtype=np.float32)[None, :]
    base = rng.uniform(40, 200, 3).astype(np.float32)
    small = np.empty((h, w, 3), dtype=np.float32)
    for c in range(3):
        small[:, :, c] = base[c] * (0.6 + 0.5 * y) + 40 * np.sin(x * rng.uniform(2, 9) + c)
    picture = Image.fromarray(np.clip(small, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(picture)
    for _ in range(12):
        cx, cy = rng.integers(0, w), rng.integers(0, h)
        r = int(rng.integers(h // 20, h // 4))
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    picture = picture.filter(ImageFilter.GaussianBlur(2)).resize((width, height), Image.BICUBIC)
    noisy = np.asarray(picture, dtype=np.int16) + rng.integers(-10, 11, (height, width, 3), dtype=np.int16)
    picture = Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))
    if index < pngs:
        picture.save(os.path.join(folder, "png_%04d.png" % index), compress_level=1)
    picture.save(os.path.join(folder, "photo_%04d.jpg" % index), quality=90)
'''


def make_tree(python, photos, pngs, width, height):
    tree = os.path.join(BENCH, "tree-%d-%d-%dx%d" % (photos, pngs, width, height))
    marker = os.path.join(tree, ".complete")
    if os.path.exists(marker):
        return tree
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "photos"))
    script = os.path.join(BENCH, "generate.py")
    with open(script, "w") as handle:
        handle.write(GENERATOR)
    workers = os.cpu_count() or 2
    chunk = (photos + workers - 1) // workers
    running = [subprocess.Popen([python, script, os.path.join(tree, "photos"), str(start),
                                 str(min(photos, start + chunk)), str(pngs), str(width), str(height)])
               for start in range(0, photos, chunk)]
    for process in running:
        if process.wait() != 0:
            sys.exit("generating pictures failed")
    open(marker, "w").close()
    return tree


def wait_for(url, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                response.read()
                return True
        except Exception:
            time.sleep(0.2)
    return False


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def peak_rss_mib(pid):
    """VmHWM of a process and its children (copyparty's thumbnailer may fork)."""
    total = 0
    pids = [pid]
    try:
        pids += [int(child) for child in open("/proc/%d/task/%d/children" % (pid, pid)).read().split()]
    except OSError:
        pass
    for each in pids:
        try:
            match = re.search(r"VmHWM:\s+(\d+) kB", open("/proc/%d/status" % each).read())
            total += int(match.group(1)) if match else 0
        except OSError:
            pass
    return total / 1024


def fetch_all(urls):
    """Every URL at CONCURRENCY at once: (seconds, bytes per answer, failures)."""
    def one(url):
        for _ in range(100):
            try:
                with urllib.request.urlopen(url, timeout=300) as response:
                    body = response.read()
                    # copyparty answers a thumbnail it is still making with a placeholder; ask again.
                    if response.headers.get("Content-Type", "").startswith("image/"):
                        return len(body)
            except Exception:
                pass
            time.sleep(0.05)
        return None
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(CONCURRENCY) as pool:
        sizes = list(pool.map(one, urls))
    elapsed = time.time() - start
    good = [size for size in sizes if size]
    return elapsed, (sum(good) / len(good) if good else 0), len(sizes) - len(good)


def wrk(url, connections, seconds):
    output = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", "%ds" % seconds, url],
                            capture_output=True, text=True).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return (float(match.group(1)) if match else 0.0), (int(errors.group(1)) if errors else 0)


def run_browsey(binary, tree, names):
    cache = os.path.join(BENCH, "browsey-thumbs")
    shutil.rmtree(cache, ignore_errors=True)
    process = subprocess.Popen([binary, "serve", tree, "-p", str(PORTS["browsey"]), "--host", "127.0.0.1", "--no-qr",
                                "--no-bonjour", "--no-index", "--thumb-dir", cache],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = "http://127.0.0.1:%d" % PORTS["browsey"]
    try:
        if not wait_for(base + "/api/health"):
            sys.exit("browsey did not start")
        urls = ["%s/api/thumb?path=%s&size=%d" % (base, urllib.parse.quote("/photos/" + name), SIZE) for name in names]
        elapsed, size, failures = fetch_all(urls)
        rss = peak_rss_mib(process.pid)
        one = urls[0]
        with urllib.request.urlopen(one) as response:
            sample = response.read()
        cached, errors = wrk(one, 32, ARGS.seconds)
        return {"cold": elapsed, "bytes": size, "failures": failures, "rss": rss, "cached": cached,
                "cached_errors": errors, "sample": sample}
    finally:
        stop(process)


def run_copyparty(python, tree, names, decoder):
    hist = os.path.join(BENCH, "cp-hist-" + decoder)
    shutil.rmtree(hist, ignore_errors=True)
    # A 256x256 box, no crop, no 3x: the same thumbnails Browsey makes. --th-dec picks the decoder.
    command = [python, "-m", "copyparty", "-i", "127.0.0.1", "-p", str(PORTS["copyparty"]), "-v", tree + "::r",
               "--hist", hist, "-q", "--th-size", "%dx%d" % (SIZE, SIZE), "--th-crop", "fn", "--th-x3", "fn",
               "--th-dec", decoder, "--th-no-webp"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = "http://127.0.0.1:%d" % PORTS["copyparty"]
    try:
        if not wait_for(base + "/"):
            return None
        urls = ["%s/photos/%s?th=j" % (base, urllib.parse.quote(name)) for name in names]
        elapsed, size, failures = fetch_all(urls)
        return {"cold": elapsed, "bytes": size, "failures": failures, "rss": peak_rss_mib(process.pid)}
    finally:
        stop(process)


def run_nginx(sample):
    process, url = start_nginx(sample)
    try:
        return wrk(url, 32, ARGS.seconds)[0]
    finally:
        stop(process)


def start_nginx(sample):
    """nginx serving `sample` as a file: (process, its URL)."""
    root = os.path.join(BENCH, "nginx-root")
    os.makedirs(root, exist_ok=True)
    os.makedirs(os.path.join(BENCH, "run"), exist_ok=True)
    with open(os.path.join(root, "thumb.jpg"), "wb") as handle:
        handle.write(sample)
    temp = "".join("%s %s/run/%s;\n" % (name, BENCH, name.split("_")[0]) for name in
                   ["client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path"])
    config = os.path.join(BENCH, "nginx.conf")
    with open(config, "w") as handle:
        handle.write("""worker_processes 2; pid %(b)s/run/nginx.pid; daemon off;
error_log %(b)s/nginx-error.log warn;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; include /etc/nginx/mime.types;
%(temp)s
  server { listen 127.0.0.1:%(port)d; root %(root)s; } }
""" % {"b": BENCH, "root": root, "port": PORTS["nginx"], "temp": temp})
    process = subprocess.Popen(["nginx", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = "http://127.0.0.1:%d/thumb.jpg" % PORTS["nginx"]
    wait_for(url)
    return process, url


def cached_only(python):
    """One cached thumbnail at 32 connections, Browsey and nginx in turn, both running."""
    tree = make_tree(python, 8, 0, ARGS.width, ARGS.height)
    name = sorted(os.listdir(os.path.join(tree, "photos")))[0]
    cache = os.path.join(BENCH, "browsey-thumbs-cached")
    shutil.rmtree(cache, ignore_errors=True)
    binary = os.path.join(REPO, ".build", "release", "browsey")
    browsey = subprocess.Popen([binary, "serve", tree, "-p", str(PORTS["browsey"]), "--host", "127.0.0.1", "--no-qr",
                                "--no-bonjour", "--no-index", "--thumb-dir", cache],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    nginx = None
    try:
        base = "http://127.0.0.1:%d" % PORTS["browsey"]
        if not wait_for(base + "/api/health"):
            sys.exit("browsey did not start")
        one = "%s/api/thumb?path=%s&size=%d" % (base, urllib.parse.quote("/photos/" + name), SIZE)
        with urllib.request.urlopen(one) as response:
            sample = response.read()
        nginx, nginx_url = start_nginx(sample)
        rounds = []
        for _ in range(ARGS.runs):
            ours, errors = wrk(one, 32, ARGS.seconds)
            theirs, _ = wrk(nginx_url, 32, ARGS.seconds)
            rounds.append((ours, theirs, errors))
    finally:
        stop(browsey)
        if nginx:
            stop(nginx)
    ours = sorted(r[0] for r in rounds)[len(rounds) // 2]
    theirs = sorted(r[1] for r in rounds)[len(rounds) // 2]
    lines = ["One %d-px thumbnail (%d bytes, JPEG: the client names no WebP) asked at 32 connections (wrk -t2, %d s), "
             "Browsey and nginx (2 workers, sendfile, the same bytes as a file) taking turns %d times, both running. "
             "Machine: %d cores shared with the client." % (SIZE, len(sample), ARGS.seconds, ARGS.runs, os.cpu_count() or 0),
             "",
             "| round | Browsey req/s | nginx req/s | ratio |", "|---:|---:|---:|---:|"]
    for index, (b, n, _) in enumerate(rounds):
        lines.append("| %d | %.0f | %.0f | %.2fx |" % (index + 1, b, n, b / n if n else 0))
    lines.append("")
    lines.append("Medians: Browsey %.0f, nginx %.0f requests a second: **%.2fx** (target >= 0.8x; %d non-2xx)." %
                 (ours, theirs, ours / theirs if theirs else 0, sum(r[2] for r in rounds)))
    body = "\n".join(lines)
    print(body)
    if not ARGS.no_write:
        write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Thumbnails, cached (thumb_bench.py --cached-only)",
                      "Command: `python3 Benchmarks/Scripts/thumb_bench.py %s`\n\n%s" % (" ".join(sys.argv[1:]), body))


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=1000)
    parser.add_argument("--pngs", type=int, default=100)
    parser.add_argument("--width", type=int, default=4000)
    parser.add_argument("--height", type=int, default=3000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3, help="cold runs of Browsey and of copyparty + pyvips, in turn")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--skip-copyparty", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="print the table, leave RESULTS.md alone")
    parser.add_argument("--cached-only", action="store_true", help="only cached serving, against nginx")
    ARGS = parser.parse_args()
    os.makedirs(BENCH, exist_ok=True)
    python = venv_python()
    if ARGS.cached_only:
        if not ARGS.skip_build:
            subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "browsey"],
                           cwd=REPO, check=True)
        cached_only(python)
        return
    tree = make_tree(python, ARGS.photos, ARGS.pngs, ARGS.width, ARGS.height)
    names = sorted(name for name in os.listdir(os.path.join(tree, "photos")))
    if not ARGS.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "browsey"], cwd=REPO, check=True)
    binary = os.path.join(REPO, ".build", "release", "browsey")

    # Browsey and copyparty + pyvips take turns, ARGS.runs times each, and each keeps its median
    # run: on a shared two-core machine one cold pass varies by a tenth.
    runs = {"browsey": [], "vips": []}
    for _ in range(ARGS.runs):
        runs["browsey"].append(run_browsey(binary, tree, names))
        if not ARGS.skip_copyparty:
            result = run_copyparty(python, tree, names, "vips")
            if result:
                runs["vips"].append(result)

    def median(results):
        return sorted(results, key=lambda result: result["cold"])[len(results) // 2] if results else None

    rows = []
    browsey = median(runs["browsey"])
    rows.append(("Browsey", browsey))
    peers = {}
    if median(runs["vips"]):
        peers["vips"] = median(runs["vips"])
        rows.append(("copyparty + pyvips", peers["vips"]))
    if not ARGS.skip_copyparty:
        result = run_copyparty(python, tree, names, "pil")
        if result:
            peers["pil"] = result
            rows.append(("copyparty + Pillow", result))
    nginx = run_nginx(browsey["sample"])

    count = len(names)
    lines = ["%d pictures (%d JPEGs of %dx%d, %d PNGs), %d-px thumbnails, %d requests at once, cold cache; "
             "cached: one thumbnail at 32 connections (wrk, %d s). Machine: %d cores shared with the client." %
             (count, count - min(ARGS.pngs, ARGS.photos), ARGS.width, ARGS.height, min(ARGS.pngs, ARGS.photos), SIZE,
              CONCURRENCY, ARGS.seconds, os.cpu_count() or 0), "",
             "| server | cold: all thumbnails | per second | bytes per thumbnail | peak RSS | failures |",
             "|---|---:|---:|---:|---:|---:|"]
    for label, result in rows:
        lines.append("| %s | %.1f s | %.1f | %.0f | %.1f MiB | %d |" % (
            label, result["cold"], count / result["cold"], result["bytes"], result["rss"], result["failures"]))
    lines.append("")
    lines.append("Cold runs (s), taking turns: Browsey %s; copyparty + pyvips %s; the table gives each one's median." % (
        ", ".join("%.1f" % result["cold"] for result in runs["browsey"]),
        ", ".join("%.1f" % result["cold"] for result in runs["vips"]) or "-"))
    if "vips" in peers:
        lines.append("Cold ratio, Browsey against copyparty + pyvips: **%.2fx** (target >= 2x)." %
                     (peers["vips"]["cold"] / browsey["cold"]))
    if "pil" in peers:
        lines.append("Cold ratio, Browsey against copyparty + Pillow: **%.2fx**." % (peers["pil"]["cold"] / browsey["cold"]))
    lines.append("Cached: Browsey %.0f req/s, nginx %.0f req/s for the same %d bytes: **%.2fx** (target >= 0.8x; "
                 "%d non-2xx)." % (browsey["cached"], nginx, len(browsey["sample"]),
                                   browsey["cached"] / nginx if nginx else 0, browsey["cached_errors"]))
    body = "\n".join(lines)
    print(body)
    if not ARGS.no_write:
        write_section(os.path.join(BENCHMARKS, "RESULTS.md"), "Thumbnails (thumb_bench.py)",
                      "Command: `python3 Benchmarks/Scripts/thumb_bench.py %s`\n\n%s" % (" ".join(sys.argv[1:]), body))


if __name__ == "__main__":
    main()
