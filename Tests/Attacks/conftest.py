"""The attack suite's fixtures: a real `browsey serve` (the binary named by BROWSEY_BINARY, the
debug build by default) on a temp tree, with a folder outside it that must never change."""
import hashlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BINARY = os.environ.get("BROWSEY_BINARY", os.path.join(REPO, ".build", "debug", "browsey"))
SECRET = b"OUTSIDE-SECRET-7f3a9c"
OUTSIDE_NAME = "outside-only-name-7f3a9c"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def snapshot(folder):
    """Every name under `folder` (links not followed) with its type, size, mtime and content hash."""
    seen = {}
    for directory, folders, files in os.walk(folder, followlinks=False):
        for name in folders + files:
            path = os.path.join(directory, name)
            status = os.lstat(path)
            digest = None
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
            seen[os.path.relpath(path, folder)] = (status.st_mode, status.st_size, status.st_mtime_ns, digest)
    return seen


def make_outside(folder):
    os.makedirs(os.path.join(folder, OUTSIDE_NAME))
    with open(os.path.join(folder, "secret.txt"), "wb") as handle:
        handle.write(SECRET * 100)
    with open(os.path.join(folder, OUTSIDE_NAME, "deeper.txt"), "wb") as handle:
        handle.write(SECRET)
    # Names the attacks aim at, present outside so an overwrite would show.
    for name in ("existing.txt", "victim.txt"):
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(SECRET)


class Server:
    def __init__(self, work, root, outside, port, process, log):
        self.work, self.root, self.outside, self.port, self.process, self.log = work, root, outside, port, process, log
        self.base = "http://127.0.0.1:%d" % port

    def stop(self):
        self.process.kill()
        self.process.wait()


def start_server(make_root, extra=()):
    work = tempfile.mkdtemp(prefix="browsey-attack-")
    root = os.path.join(work, "served")
    outside = os.path.join(work, "outside")
    os.makedirs(root)
    make_outside(outside)
    make_root(root, outside)
    port = free_port()
    log = open(os.path.join(work, "server.log"), "w")
    environment = dict(os.environ, HOME=os.path.join(work, "home"))
    process = subprocess.Popen(
        [BINARY, "serve", root, "-p", str(port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
         "--index-dir", os.path.join(work, "index"), "--trash-dir", os.path.join(work, "trash"), *extra],
        stdout=log, stderr=subprocess.STDOUT, env=environment)
    server = Server(work, root, outside, port, process, log)
    for _ in range(600):
        try:
            with urllib.request.urlopen(server.base + "/api/health", timeout=5):
                return server
        except OSError:
            time.sleep(0.05)
    server.stop()
    raise RuntimeError("browsey serve did not start; see %s" % log.name)


@pytest.fixture
def attack_server():
    """Starts servers for a test and stops them, and removes their folders, at its end."""
    started = []

    def start(make_root, extra=()):
        server = start_server(make_root, extra)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
        server.log.close()
        shutil.rmtree(server.work, ignore_errors=True)
