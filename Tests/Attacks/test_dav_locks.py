"""WebDAV locks cannot eat the server's memory (the outside probe took it from 35 to 733 MB
with 750 locks of 900 KiB owners): owners are bounded, each client's locks are counted, and a
PROPFIND over every locked file stays small."""
import http.client
import os


def lock_body(owner):
    return ('<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/>'
            '</D:lockscope><D:locktype><D:write/></D:locktype><D:owner>%s</D:owner></D:lockinfo>' % owner).encode()


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def make_files(count):
    def make(root, outside):
        for index in range(count):
            with open(os.path.join(root, "f%05d.txt" % index), "w") as handle:
                handle.write("x")
    return make


def send(connection, method, path, body=None, headers=None):
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, response.read()


def test_thousands_of_locks_with_large_owners_leave_the_memory_small(attack_server):
    server = attack_server(make_files(300), extra=("--no-readonly", "--dav"))
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    statuses = {}
    # 5,000 LOCKs with 2 KB owners, on the 300 files and on new names (each makes an empty file).
    owner = "o" * 2000
    for index in range(5000):
        name = "/dav/f%05d.txt" % index if index < 300 else "/dav/new%05d.txt" % index
        status, _ = send(connection, "LOCK", name, lock_body(owner), {"Content-Type": "application/xml"})
        statuses[status] = statuses.get(status, 0) + 1
    assert statuses.get(200, 0) + statuses.get(201, 0) == 256, statuses
    assert statuses.get(423, 0) == 5000 - 256, statuses
    # 750 with 900 KiB owners: each refused before it is kept.
    huge = "h" * (900 * 1024)
    for index in range(750):
        status, body = send(connection, "LOCK", "/dav/f%05d.txt" % (index % 300), lock_body(huge),
                            {"Content-Type": "application/xml"})
        assert status == 413, (status, body[:200])
    assert rss_mib(server.process.pid) < 100
    # One PROPFIND over every locked file answers with all their lockdiscovery, bounded.
    status, body = send(connection, "PROPFIND", "/dav/", None, {"Depth": "1"})
    assert status == 207
    assert len(body) < 8 * 1024 * 1024
    assert rss_mib(server.process.pid) < 100


def test_a_file_a_webdav_client_locked_is_neither_overwritten_nor_deleted_through_the_api(attack_server):
    def make(root, outside):
        with open(os.path.join(root, "work.txt"), "w") as handle:
            handle.write("the WebDAV client's work")
        os.makedirs(os.path.join(root, "folder"))
    server = attack_server(make, extra=("--no-readonly", "--dav"))
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("LOCK", "/dav/work.txt", body=lock_body("<D:href>mailto:ann@example.org</D:href>"),
                       headers={"Content-Type": "application/xml"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200
    token = response.getheader("Lock-Token").strip("<>")
    folder_lock = send(connection, "LOCK", "/dav/folder", lock_body("bob"), {"Content-Type": "application/xml"})
    assert folder_lock[0] == 200
    json_headers = {"Content-Type": "application/json"}

    status, body = send(connection, "PUT", "/api/file?path=/work.txt&overwrite=1", b"clobbered")
    assert status == 423 and b'"locked"' in body and b"ann@example.org" in body
    status, body = send(connection, "POST", "/api/delete", b'{"path": "/work.txt"}', json_headers)
    assert status == 423
    status, body = send(connection, "POST", "/api/rename", b'{"path": "/work.txt", "newName": "gone.txt"}',
                        json_headers)
    assert status == 423
    # A new name in a locked folder needs that folder's lock too.
    status, body = send(connection, "PUT", "/api/file?path=/folder/new.txt", b"new")
    assert status == 423
    with open(os.path.join(server.root, "work.txt")) as handle:
        assert handle.read() == "the WebDAV client's work"

    # With the token, the API writes.
    status, body = send(connection, "PUT", "/api/file?path=/work.txt&overwrite=1", b"saved with the lock",
                        {"If": "(<%s>)" % token})
    assert status in (200, 201), body
    status, body = send(connection, "POST", "/api/delete", b'{"path": "/work.txt"}',
                        dict(json_headers, **{"Lock-Token": "<%s>" % token}))
    assert status == 200, body
