"""Several servers, one library: three instances over one folder and one PostgreSQL, behind
nginx. What one instance is asked to do, another is asked to show."""
import json
import socket
import subprocess
import threading
import time
import urllib.parse

from conftest import BINARY, PASSWORD, free_port, within


def bearer(token):
    return {"Authorization": "Bearer " + token}


def test_a_sign_in_at_one_instance_opens_every_other_and_the_balancer(cluster):
    one, two, three = cluster.instances
    signed = one.sign_in()
    assert signed.status == 200
    token = signed.json()["token"]
    for place in (two, three, cluster.balancer, cluster.balancer, cluster.balancer):
        session = place.ask("/api/session", headers=bearer(token)).json()
        assert session["username"] == "bob"
        assert place.ask("/api/list?path=/docs", headers=bearer(token)).status == 200


def test_a_sign_out_at_one_instance_is_refused_at_the_others_within_a_second(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    # Both others have seen the session, so neither asks the database again for a moment.
    assert two.ask("/api/list?path=/", headers=bearer(token)).status == 200
    assert three.ask("/api/list?path=/", headers=bearer(token)).status == 200
    out = one.ask("/api/logout", method="POST", headers=dict(bearer(token), Origin=one.base))
    assert out.status == 200
    started = time.monotonic()
    assert within(1.0, lambda: two.ask("/api/list?path=/", headers=bearer(token)).status == 401)
    assert within(1.0 - min(time.monotonic() - started, 1.0) + 0.05,
                  lambda: three.ask("/api/list?path=/", headers=bearer(token)).status == 401)


def test_a_link_made_at_one_opens_at_the_others_and_a_revoke_closes_it_within_a_second(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    made = one.ask("/api/share", method="POST", headers=bearer(token), body={"path": "/docs/plan.txt"})
    assert made.status == 201
    link = made.json()["url"]
    assert two.ask(link + "/file").body == b"the plan"
    assert three.ask(link + "/file").body == b"the plan"
    listed = two.ask("/api/shares", headers=bearer(token)).json()["shares"]
    assert [share["downloads"] for share in listed] == [2], "downloads at two instances, counted once each"
    revoked = three.ask("/api/unshare", method="POST", headers=bearer(token), body={"id": made.json()["id"]})
    assert revoked.status == 200
    assert within(1.0, lambda: one.ask(link + "/file").status == 404)
    assert within(1.0, lambda: two.ask(link + "/file").status == 404)


def test_failed_sign_ins_at_one_instance_slow_the_next_try_at_another(cluster):
    one, two, three = cluster.instances
    for _ in range(3):
        wrong = one.sign_in(password="wrong")
        if wrong.status == 429:
            time.sleep(int(wrong.headers["Retry-After"]))
            wrong = one.sign_in(password="wrong")
        assert wrong.status == 401
    # Three failures from this address: the next try waits a second, wherever it is sent.
    slowed = two.sign_in()
    assert slowed.status == 429
    assert slowed.json()["code"] == "slowDown"
    assert int(slowed.headers["Retry-After"]) >= 1
    assert three.sign_in().status == 429
    time.sleep(1.1)
    assert three.sign_in().status == 200, "the wait ends, and the right password signs in"


def test_behind_the_balancer_one_client_guessing_passwords_slows_only_itself(cluster):
    balancer = cluster.balancer
    guesser, person = {"X-Forwarded-For": "203.0.113.9"}, {"X-Forwarded-For": "198.51.100.7"}
    for _ in range(3):
        wrong = balancer.ask("/api/login", method="POST", headers=dict(guesser),
                             body={"username": "carol", "password": "guess"})
        if wrong.status == 429:
            time.sleep(int(wrong.headers["Retry-After"]))
            wrong = balancer.ask("/api/login", method="POST", headers=dict(guesser),
                                 body={"username": "carol", "password": "guess"})
        assert wrong.status == 401
    slowed = balancer.ask("/api/login", method="POST", headers=dict(guesser),
                          body={"username": "bob", "password": PASSWORD})
    assert slowed.status == 429, "the guessing client waits, at whichever instance it lands"
    # Every request reaches the instances from nginx's 127.0.0.1; the person elsewhere is not slowed.
    signed = balancer.ask("/api/login", method="POST", headers=dict(person),
                          body={"username": "bob", "password": PASSWORD})
    assert signed.status == 200


def test_every_instance_tells_the_same_server_id_and_the_schema_ran_once(cluster):
    ids = {instance.ask("/api/health").json()["serverId"] for instance in cluster.instances}
    assert len(ids) == 1
    assert cluster.balancer.ask("/api/health").json()["serverId"] in ids
    assert cluster.database.sql("SELECT version FROM browsey_schema") == "3"
    assert cluster.database.sql("SELECT count(*) FROM browsey_schema") == "1"


def test_with_the_database_stopped_what_needs_it_answers_503_and_the_rest_works_until_it_returns(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    link = one.ask("/api/share", method="POST", headers=bearer(token), body={"path": "/docs/plan.txt"}).json()["url"]
    cluster.database.stop()
    time.sleep(1.1)  # past the moment sessions and links are taken as they were seen
    down = one.sign_in()
    assert down.status == 503
    assert down.json()["code"] == "stateUnavailable"
    assert down.headers["Retry-After"] == "5"
    # Never seen at three: its session cannot be checked, and it says so rather than 401.
    unchecked = three.ask("/api/list?path=/", headers=bearer(token))
    assert unchecked.status == 503 and unchecked.json()["code"] == "stateUnavailable"
    # Seen at one a moment ago: a signed-in person keeps working through a database restart.
    assert one.ask("/api/list?path=/docs", headers=bearer(token)).status == 200
    assert two.ask(link + "/file").status == 503
    assert one.ask("/api/health").status == 200, "what needs no database keeps answering"
    assert one.ask("/api/health", headers=bearer(token)).json()["stateStore"] == {
        "kind": "postgresql", "reachable": False}, "health tells, without asking the database"
    not_ready = two.ask("/api/ready")
    assert not_ready.status == 503 and not_ready.json()["code"] == "stateUnavailable", "a balancer sees it"
    assert all(instance.process.poll() is None for instance in cluster.instances), "no instance stopped"
    cluster.database.start()
    # Back by itself: the same session and link, nothing lost.
    assert within(10, lambda: three.ask("/api/list?path=/docs", headers=bearer(token)).status == 200)
    assert two.ask(link + "/file").body == b"the plan"
    assert one.sign_in().status == 200
    assert two.ask("/api/ready").json() == {"ready": True, "state": "postgresql"}
    assert one.ask("/api/health", headers=bearer(token)).json()["stateStore"]["reachable"] is True


def test_a_database_that_cannot_be_reached_at_start_is_an_error_line_not_a_server(tmp_path):
    closed = "postgresql://browsey@127.0.0.1:%d/browsey" % free_port()
    for url, said in ((closed, "cannot be used"), ("mysql://x@127.0.0.1/db", "postgresql://")):
        started = time.monotonic()
        run = subprocess.run([BINARY, "serve", str(tmp_path), "-p", "0", "--no-qr", "--no-bonjour", "--database", url],
                             capture_output=True, text=True, timeout=30, env={"HOME": str(tmp_path)})
        assert run.returncode != 0
        assert "Error:" in run.stderr and said in run.stderr
        assert time.monotonic() - started < 10, "refused within the connect timeout"


LOCK_BODY = (b'<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/>'
             b'</D:lockscope><D:locktype><D:write/></D:locktype><D:owner>Ann</D:owner></D:lockinfo>')


def test_a_webdav_lock_taken_through_one_refuses_writes_through_another_but_its_token(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    basic = {"Authorization": "Basic " + __import__("base64").b64encode(b"bob:" + token.encode()).decode()}
    locked = one.ask("/dav/docs/plan.txt", method="LOCK", headers=dict(basic, Timeout="Second-600"), body=LOCK_BODY)
    assert locked.status == 200
    lock_token = locked.headers["Lock-Token"]
    refused = two.ask("/dav/docs/plan.txt", method="PUT", headers=basic, body=b"overwritten")
    assert refused.status == 423, "WebDAV at another instance"
    api = three.ask("/api/file?path=/docs/plan.txt&overwrite=1", method="PUT",
                    headers=dict(bearer(token), Origin=three.base), body=b"overwritten")
    assert api.status == 423 and api.json()["code"] == "locked", "the JSON API at a third"
    assert "Ann" in api.json()["error"]
    assert two.ask("/api/file?path=/docs/plan.txt", headers=bearer(token)).body == b"the plan"
    shown = three.ask("/dav/docs/plan.txt", method="PROPFIND", headers=dict(basic, Depth="0"))
    assert lock_token.strip("<>").encode() in shown.body, "lockdiscovery everywhere"
    written = two.ask("/dav/docs/plan.txt", method="PUT", headers=dict(basic, If="(%s)" % lock_token),
                      body=b"the new plan")
    assert written.status in (200, 204)
    assert three.ask("/dav/docs/plan.txt", method="UNLOCK", headers=dict(basic, **{"Lock-Token": lock_token})).status == 204
    assert one.ask("/dav/docs/plan.txt", method="PUT", headers=basic, body=b"free again").status in (200, 204)


class EventStream:
    """An open `/api/events` stream, read on a thread: the events it sent, as they arrive."""

    def __init__(self, instance, token, path="/"):
        self.events, self.connected = [], threading.Event()
        self.socket = socket.create_connection(("127.0.0.1", instance.port), timeout=30)
        self.socket.sendall(("GET /api/events?path=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s"
                             "\r\nAccept: text/event-stream\r\n\r\n" % (path, instance.port, token)).encode())
        threading.Thread(target=self.read, daemon=True).start()
        assert self.connected.wait(10), "the stream opened"

    def read(self):
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                if b": connected" in buffer:
                    self.connected.set()
                for line in buffer.split(b"\n"):
                    if line.startswith(b"data: {"):
                        event = json.loads(line[6:])
                        if event not in self.events:
                            self.events.append(event)
        except OSError:
            return

    def close(self):
        self.socket.close()


def test_a_file_written_through_one_reaches_the_instance_that_watches_nothing_within_a_second(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    # Asked once, so that a stale answer would show.
    assert "zebra.txt" not in [item["name"] for item in three.ask("/api/list?path=/docs", headers=bearer(token)).json()["items"]]
    stream = EventStream(three, token)
    try:
        written = one.ask("/api/file?path=/docs/zebra.txt", method="PUT",
                          headers=dict(bearer(token), Origin=one.base), body=b"striped quokka notes")
        assert written.status == 201
        started = time.monotonic()
        assert within(1.0, lambda: any(event["path"] == "/docs/zebra.txt" for event in stream.events)), \
            "sent on the event stream of the instance whose watcher is off"
        assert within(max(0.05, 1.0 - (time.monotonic() - started)), lambda: "zebra.txt" in [
            item["name"] for item in three.ask("/api/list?path=/docs", headers=bearer(token)).json()["items"]])
        assert within(1.0, lambda: any(
            result["path"] == "/docs/zebra.txt"
            for result in three.ask("/api/search?q=zebra", headers=bearer(token)).json()["results"])), "found by name"
        assert within(1.0, lambda: any(
            result["path"] == "/docs/zebra.txt" for result in three.ask(
                "/api/search?in=content&q=" + urllib.parse.quote("quokka"), headers=bearer(token)).json()["results"])), \
            "found by content"
        # And the other way: a delete through the instance that watches nothing reaches the others.
        gone = three.ask("/api/delete", method="POST", headers=dict(bearer(token), Origin=three.base),
                         body={"path": "/docs/zebra.txt"})
        assert gone.status == 200
        assert within(1.0, lambda: not any(
            result["path"] == "/docs/zebra.txt"
            for result in two.ask("/api/search?q=zebra", headers=bearer(token)).json()["results"]))
    finally:
        stream.close()


def test_an_item_deleted_through_one_instance_is_listed_and_restored_through_another(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    deleted = one.ask("/api/delete", method="POST", headers=bearer(token), body={"path": "/docs/plan.txt"})
    assert deleted.status == 200
    trash_id = deleted.json()["trashId"]
    listed = two.ask("/api/trash", headers=bearer(token)).json()["items"]
    assert [item["id"] for item in listed] == [trash_id]
    restored = two.ask("/api/restore", method="POST", headers=bearer(token), body={"id": trash_id})
    assert restored.status == 200 and restored.json()["newPath"] == "/docs/plan.txt"
    assert within(1.0, lambda: "plan.txt" in [
        item["name"] for item in three.ask("/api/list?path=/docs", headers=bearer(token)).json()["items"]])
    assert three.ask("/api/file?path=/docs/plan.txt", headers=bearer(token)).body == b"the plan"


def test_an_upload_begun_at_an_instance_killed_mid_way_is_finished_at_another_byte_for_byte(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    data = bytes(range(256)) * 4096  # 1 MiB
    half = len(data) // 2
    first = one.ask("/api/file?path=/docs/big.bin", method="PUT",
                    headers=dict(bearer(token), Origin=one.base,
                                 **{"Content-Range": "bytes 0-%d/%d" % (half - 1, len(data))}), body=data[:half])
    assert first.status == 202
    one.process.kill()  # -9: nothing is tidied up
    one.process.wait()
    held = two.ask("/api/upload?path=/docs/big.bin&size=%d" % len(data), headers=bearer(token)).json()
    assert held["received"] == half
    rest = two.ask("/api/file?path=/docs/big.bin", method="PUT",
                   headers=dict(bearer(token), Origin=two.base,
                                **{"Content-Range": "bytes %d-%d/%d" % (half, len(data) - 1, len(data))}),
                   body=data[half:])
    assert rest.status == 201
    assert three.ask("/api/file?path=/docs/big.bin", headers=bearer(token)).body == data


def test_a_sync_revision_from_one_instance_is_understood_by_another(cluster):
    one, two, three = cluster.instances
    token = one.sign_in().json()["token"]
    revision = one.ask("/api/sync/manifest?path=/docs", headers=bearer(token)).json()["revision"]
    # The revision is a digest of what the folder holds, so any instance can vouch for it.
    same = two.ask("/api/sync/manifest?path=/docs&revision=" + revision, headers=bearer(token)).json()
    assert same.get("unchanged") is True
    written = two.ask("/api/file?path=/docs/new.txt", method="PUT",
                      headers=dict(bearer(token), Origin=two.base), body=b"new")
    assert written.status == 201
    assert within(1.0, lambda: three.ask("/api/sync/manifest?path=/docs&revision=" + revision,
                                         headers=bearer(token)).json().get("unchanged") is not True), \
        "the instance that watches nothing sees the folder changed"
