"""The cluster suite's parts, all real: a PostgreSQL made for the run (initdb in a temporary
folder, loopback only), several `browsey serve` instances over one folder on that database, and
nginx as their round-robin balancer. Each test asks one instance to act and another to see it."""
import glob
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
PASSWORD = "bob-secret"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, process=None, what="server"):
    for _ in range(600):
        if process is not None and process.poll() is not None:
            raise AssertionError("the %s exited" % what)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the %s did not start" % what)


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def ask(base, path, method="GET", headers=None, body=None):
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    headers = dict(headers or {})
    if isinstance(body, (dict, list)):
        headers.setdefault("Content-Type", "application/json")
        headers.setdefault("Origin", base)
    request = urllib.request.Request(base + path, method=method, headers=headers, data=data)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


class PostgreSQL:
    """Debian's PostgreSQL server in a folder of its own, as the postgres user when run as root."""

    def __init__(self, folder):
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        assert binaries, "PostgreSQL's server is not installed (apt install postgresql)"
        self.bin = os.path.dirname(binaries[-1])
        self.folder, self.port = folder, free_port()
        os.makedirs(folder)
        self.as_user = []
        if os.getuid() == 0:
            os.chmod(os.path.dirname(folder), 0o755)
            shutil.chown(folder, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.run("initdb", "-D", folder, "-A", "trust", "-U", "postgres")
        self.start()
        psql = ["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-q"]
        subprocess.run(psql + ["-c", "CREATE USER browsey"], check=True)
        subprocess.run(psql + ["-c", "CREATE DATABASE browsey OWNER browsey"], check=True)
        self.url = "postgresql://browsey@127.0.0.1:%d/browsey" % self.port

    def run(self, program, *arguments):
        subprocess.run(self.as_user + [os.path.join(self.bin, program), *arguments], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self):
        self.run("pg_ctl", "-D", self.folder, "-w", "-l", os.path.join(self.folder, "log"), "-o",
                 "-p %d -k %s -c listen_addresses=127.0.0.1" % (self.port, self.folder), "start")

    def stop(self):
        self.run("pg_ctl", "-D", self.folder, "-w", "-m", "fast", "stop")

    def sql(self, statement):
        return subprocess.run(
            ["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "browsey", "-d", "browsey", "-tA", "-c",
             statement], check=True, capture_output=True, text=True).stdout.strip()


class Instance:
    """One `browsey serve` on the shared folder and database, with its own home and index."""

    def __init__(self, work, name, root, database, accounts, extra=(), trash=None):
        self.name, self.port = name, free_port()
        home = os.path.join(work, name)
        os.makedirs(home)
        self.log_path = os.path.join(home, "server.log")
        self.log = open(self.log_path, "w")
        environment = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"))
        self.process = subprocess.Popen(
            [BINARY, "serve", root, "-p", str(self.port), "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
             "--no-readonly", "--index-dir", os.path.join(home, "index"), "--trash-dir", trash or os.path.join(home, "trash"),
             "--config", accounts, "--database", database, "--trusted-proxy", "127.0.0.1", *extra],
            stdout=self.log, stderr=subprocess.STDOUT, env=environment)
        self.base = "http://127.0.0.1:%d" % self.port

    def ready(self):
        wait_for_port(self.port, self.process, "instance " + self.name + ": " + self.output())

    def output(self):
        self.log.flush()
        with open(self.log_path) as handle:
            return handle.read()

    def ask(self, path, **options):
        return ask(self.base, path, **options)

    def sign_in(self, password=PASSWORD):
        return self.ask("/api/login", method="POST", body={"username": "bob", "password": password})

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Balancer:
    """nginx as a round-robin balancer in front of the instances, as a plain process."""

    def __init__(self, folder, instances):
        self.port = free_port()
        os.makedirs(folder)
        config = os.path.join(folder, "nginx.conf")
        upstream = "".join("server 127.0.0.1:%d;" % instance.port for instance in instances)
        temp = " ".join("%s_temp_path %s/%s;" % (kind, folder, kind)
                        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        with open(config, "w") as handle:
            handle.write(
                "daemon off; pid %s/nginx.pid; error_log %s/error.log; events {}\n"
                "http { access_log off; %s upstream browsey { %s }\n"
                "server { listen 127.0.0.1:%d; location / { proxy_pass http://browsey; proxy_buffering off;\n"
                "proxy_set_header Host $http_host;\n"
                "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; } } }\n" % (folder, folder, temp, upstream, self.port))
        self.process = subprocess.Popen(["nginx", "-c", config, "-e", os.path.join(folder, "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, self.process, "balancer")
        self.base = "http://127.0.0.1:%d" % self.port

    def ask(self, path, **options):
        return ask(self.base, path, **options)

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Cluster:
    def __init__(self, work):
        self.work = work
        self.root = os.path.join(work, "served")
        os.makedirs(os.path.join(self.root, "docs"))
        with open(os.path.join(self.root, "docs", "plan.txt"), "w") as handle:
            handle.write("the plan")
        self.accounts = os.path.join(work, "accounts.json")
        subprocess.run([BINARY, "passwd", "bob", "--config", self.accounts, "--admin"], input=PASSWORD + "\n",
                       text=True, check=True, stdout=subprocess.DEVNULL)
        self.database = PostgreSQL(os.path.join(work, "pg", "data"))
        # Started together: the schema's steps must run once however the starts interleave.
        # The third notices nothing by itself: what the others write reaches it by the change feed.
        # One trash beside the shared folder, as on a NAS: what one deletes, another restores.
        trash = os.path.join(work, "trash")
        self.instances = [Instance(work, name, self.root, self.database.url, self.accounts, extra=extra, trash=trash)
                          for name, extra in (("one", ()), ("two", ()), ("three", ("--watch", "off")))]
        for instance in self.instances:
            instance.ready()
        self.balancer = Balancer(os.path.join(work, "nginx"), self.instances)

    def stop(self):
        self.balancer.stop()
        for instance in self.instances:
            instance.stop()
        self.database.stop()


@pytest.fixture
def cluster():
    work = tempfile.mkdtemp(prefix="browsey-cluster-", dir="/var/tmp")
    os.chmod(work, 0o755)  # the postgres user walks through it to its own folder
    cluster = Cluster(work)
    yield cluster
    cluster.stop()
    shutil.rmtree(work, ignore_errors=True)


def within(seconds, check):
    """Whether `check()` comes true within `seconds`, asked every 50 ms."""
    deadline = time.monotonic() + seconds
    while True:
        if check():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
