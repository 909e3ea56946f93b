"""The newest-Browsey suite's fixtures: a real `browsey serve` (BROWSEY_BINARY, the debug build
by default) on a temp tree, asked over HTTP as upstream Browsey's clients ask it."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BINARY = os.environ.get("BROWSEY_BINARY", os.path.join(REPO, ".build", "debug", "browsey"))
TOKEN = "kQ8s-JfP0hWm3Zt6Xy1nR4bLcVdEgAoUiTsNrYuQwEk"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name):
        return self.headers.get(name)

    def json(self):
        return json.loads(self.body)


class Server:
    """One `browsey serve` on loopback; `work` holds its data folder, index and log."""

    def __init__(self, root, work, port=None, extra=(), env=None, home=None):
        self.root, self.work = root, work
        self.port = port or free_port()
        self.home = home or os.path.join(work, "home")
        os.makedirs(self.home, exist_ok=True)
        self.log_path = os.path.join(work, "server-%d.log" % self.port)
        environment = dict(os.environ, HOME=self.home, XDG_DATA_HOME=os.path.join(self.home, "data"))
        environment.pop("BROWSEY_ACCESS_TOKEN", None)
        environment.update(env or {})
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [BINARY, "serve", root, "-p", str(self.port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
             "--index-dir", os.path.join(work, "index-%d" % self.port), *extra],
            stdout=self.log, stderr=subprocess.STDOUT, env=environment)
        self.base = "http://127.0.0.1:%d" % self.port
        for _ in range(600):
            if self.process.poll() is not None:
                raise AssertionError("the server exited: " + self.output())
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server did not start: " + self.output())

    def output(self):
        self.log.flush()
        with open(self.log_path) as handle:
            return handle.read()

    def request(self, path, method="GET", headers=None, body=None):
        request = urllib.request.Request(self.base + path, method=method, headers=headers or {}, data=body)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.headers, error.read())

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture
def work():
    folder = tempfile.mkdtemp(prefix="browsey-newest-")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def tree(work):
    """The upstream fixtures' tree: docs/note.md ("one") and docs/.hidden."""
    root = os.path.join(work, "served")
    os.makedirs(os.path.join(root, "docs"))
    with open(os.path.join(root, "docs", "note.md"), "w") as handle:
        handle.write("one")
    with open(os.path.join(root, "docs", ".hidden"), "w") as handle:
        handle.write("secret")
    return root


@pytest.fixture
def serve(work):
    """Starts servers on demand; all are stopped at the end."""
    servers = []

    def start(root, **options):
        server = Server(root, work, **options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
