"""A resumable upload's hidden part file replaced by a link that leads out of the root, through
the API itself (rename and move, as any client of a writable server with --hidden can): the next
`PUT` with `Content-Range` must be refused, and nothing outside may change."""
import http.client
import json
import os

from conftest import snapshot


def make_root(root, outside):
    os.makedirs(os.path.join(root, "up"))
    os.makedirs(os.path.join(root, "links"))
    os.symlink(os.path.join("..", "..", os.path.basename(outside), "victim.txt"),
               os.path.join(root, "links", "escape"))


def call(server, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def test_a_part_file_swapped_for_an_outward_link_is_refused_and_nothing_outside_changes(attack_server):
    server = attack_server(make_root, ["--no-readonly", "--hidden"])
    before = snapshot(server.outside)
    # The first half of an upload: the server keeps a hidden part file.
    status, _ = call(server, "PUT", "/api/file?path=/up/target.bin", b"A" * 10, {"Content-Range": "bytes 0-9/20"})
    assert status == 202
    status, body = call(server, "GET", "/api/list?path=/up&hidden=1")
    part = [item["name"] for item in json.loads(body)["items"] if item["name"].endswith(".part")]
    assert len(part) == 1
    # The attacker deletes it, and puts an outward link under its name (rename, then move).
    assert call(server, "POST", "/api/delete", json.dumps({"path": "/up/" + part[0]}),
                {"Content-Type": "application/json"})[0] == 200
    status, _ = call(server, "POST", "/api/rename", json.dumps({"path": "/links/escape", "newName": part[0]}),
                     {"Content-Type": "application/json"})
    assert status == 200, "an outward link can be renamed (it touches only the link)"
    status, _ = call(server, "POST", "/api/move", json.dumps({"path": "/links/" + part[0], "destination": "/up"}),
                     {"Content-Type": "application/json"})
    assert status == 200
    assert os.path.islink(os.path.join(server.root, "up", part[0]))
    # The upload goes on from byte 0 of a fresh part: refused, the link left alone.
    status, body = call(server, "PUT", "/api/file?path=/up/target.bin", b"B" * 10, {"Content-Range": "bytes 0-9/20"})
    assert status == 409, body
    assert json.loads(body)["code"] == "partInTheWay"
    status, body = call(server, "GET", "/api/upload?path=/up/target.bin&size=20")
    assert status == 200 and json.loads(body)["received"] == 0
    assert snapshot(server.outside) == before
    assert not os.path.exists(os.path.join(server.root, "up", "target.bin"))
