"""A folder swapped for a link to outside the root, over and over, while every read and write
endpoint runs on paths through it: nothing outside may change, and no answer may carry a name or
a byte from outside. The swap is one renameat2(RENAME_EXCHANGE), as a program racing the server
(another user of a shared folder, a sync client) would do it."""
import ctypes
import http.client
import json
import multiprocessing
import os
import threading
import time
import uuid

from conftest import OUTSIDE_NAME, SECRET, snapshot

RENAME_EXCHANGE = 2
SECONDS = float(os.environ.get("BROWSEY_RACE_SECONDS", "12"))
MINIMUM_SWAPS = 100_000
EXTRA = os.environ.get("BROWSEY_RACE_FLAGS", "").split()


def swapper(root, stop, count):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    first = os.path.join(root, "inside").encode()
    second = os.path.join(root, "swaplink").encode()
    done = 0
    while not stop.is_set():
        for _ in range(1000):
            if libc.renameat2(-100, first, -100, second, RENAME_EXCHANGE) == 0:
                done += 1
        count.value = done
    # Leave the real folder where it was.
    if os.path.islink(os.path.join(root, "inside")):
        libc.renameat2(-100, first, -100, second, RENAME_EXCHANGE)
    count.value = done


def make_root(root, outside):
    inside = os.path.join(root, "inside")
    os.makedirs(os.path.join(inside, "sub"))
    for name in ("existing.txt", "victim.txt"):
        with open(os.path.join(inside, name), "w") as handle:
            handle.write("inside text\n")
    os.symlink(os.path.relpath(outside, root), os.path.join(root, "swaplink"))


class Client:
    """One thread's connection, with every answer kept for the final check."""

    def __init__(self, port, leaks, counts):
        self.port, self.leaks, self.counts = port, leaks, counts
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        for _ in range(2):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                self.connection.request(method, path, body=body, headers=headers or {})
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.connection = None
        else:
            raise AssertionError("the server stopped answering %s %s" % (method, path))
        endpoint = method + " " + path.split("?")[0]
        self.counts[endpoint] = self.counts.get(endpoint, 0) + 1
        if SECRET in data or OUTSIDE_NAME.encode() in data:
            self.leaks.append((method, path, response.status, data[:200]))
        return response.status, data

    def json(self, path, payload):
        return self.request("POST", path, json.dumps(payload), {"Content-Type": "application/json"})


def hammer(port, folder, stop, leaks, counts):
    client = Client(port, leaks, counts)
    quoted = "/" + folder
    while not stop.is_set():
        tag = uuid.uuid4().hex[:8]
        client.request("GET", "/api/list?path=%s" % quoted)
        client.request("GET", "/api/view?path=%s/existing.txt" % quoted)
        client.request("GET", "/api/file?path=%s/existing.txt" % quoted, headers={"Range": "bytes=0-40"})
        client.request("GET", "/api/file?path=%s/secret.txt&download=false" % quoted)
        client.request("GET", "/api/stat?path=%s/existing.txt" % quoted)
        client.request("GET", "/api/archive?path=%s" % quoted)
        client.request("GET", "/api/search?q=deeper&path=%s" % quoted)
        client.json("/api/mkdir", {"path": "%s/made-%s" % (quoted, tag)})
        client.request("PUT", "/api/file?path=%s/put-%s.txt" % (quoted, tag), b"put body\n")
        client.request("PUT", "/api/file?path=%s/victim.txt&overwrite=1" % quoted, b"overwritten\n")
        client.request(
            "PUT", "/api/file?path=%s/part-%s.txt" % (quoted, tag), b"0123456789",
            {"Content-Range": "bytes 0-9/10"})
        boundary = "b" + tag
        form = ("--%s\r\nContent-Disposition: form-data; name=\"f\"; filename=\"form-%s.txt\"\r\n"
                "Content-Type: text/plain\r\n\r\nform body\r\n--%s--\r\n" % (boundary, tag, boundary)).encode()
        client.request("POST", "/api/upload?path=%s" % quoted, form,
                       {"Content-Type": "multipart/form-data; boundary=%s" % boundary})
        status, body = client.request("GET", "/api/stat?path=%s/existing.txt" % quoted)
        if status == 200:
            stat = json.loads(body)
            client.json("/api/save", {"path": "%s/existing.txt" % quoted, "content": "saved %s\n" % tag,
                                      "baseModified": stat["modified"], "baseSize": stat["size"]})
        client.json("/api/rename", {"path": "%s/put-%s.txt" % (quoted, tag), "newName": "renamed-%s.txt" % tag})
        client.json("/api/copy", {"path": "%s/existing.txt" % quoted, "destination": "%s/sub" % quoted})
        client.json("/api/move", {"path": "%s/form-%s.txt" % (quoted, tag), "destination": "%s/sub" % quoted})
        client.json("/api/delete", {"path": "%s/renamed-%s.txt" % (quoted, tag)})
        client.json("/api/delete", {"path": "%s/made-%s" % (quoted, tag)})


def test_a_folder_swapped_for_an_outward_link_never_lets_a_request_act_or_read_outside(attack_server):
    server = attack_server(make_root, ["--no-readonly", "--hidden"] + EXTRA)
    before = snapshot(server.outside)
    stop_swapping = multiprocessing.Event()
    swaps = multiprocessing.Value("q", 0)
    process = multiprocessing.Process(target=swapper, args=(server.root, stop_swapping, swaps))
    stop = threading.Event()
    leaks, counts = [], {}
    workers = [threading.Thread(target=hammer, args=(server.port, folder, stop, leaks, counts))
               for folder in ("inside", "swaplink", "inside")]
    process.start()
    for worker in workers:
        worker.start()
    started = time.monotonic()
    while time.monotonic() - started < SECONDS or swaps.value < MINIMUM_SWAPS:
        time.sleep(0.2)
        assert time.monotonic() - started < SECONDS * 4, "too few swaps: %d" % swaps.value
    stop.set()
    for worker in workers:
        worker.join(60)
    stop_swapping.set()
    process.join(30)
    requests = sum(counts.values())
    print("\n%d swaps, %d requests in %.1f s" % (swaps.value, requests, time.monotonic() - started))
    for endpoint in sorted(counts):
        print("  %6d %s" % (counts[endpoint], endpoint))
    assert server.process.poll() is None, "the server died"
    assert swaps.value >= MINIMUM_SWAPS
    assert requests > 500
    assert leaks == [], "outside names or bytes in answers: %r" % leaks[:5]
    after = snapshot(server.outside)
    changed = sorted(set(before.items()) ^ set(after.items()))
    assert changed == [], "outside the root changed: %r" % changed[:10]
