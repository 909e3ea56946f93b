"""The server's identity, as upstream Browsey's server-identity tests state it, asked of the real
server: one id per canonical folder and port, across restarts and concurrent starts."""
import json
import os
import re
import subprocess

from conftest import BINARY, free_port

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def identity(server):
    return server.request("/api/health").json()["serverId"]


def test_health_carries_a_uuid_that_survives_a_restart(serve, tree, work):
    port = free_port()
    first = serve(tree, port=port)
    id = identity(first)
    assert UUID.match(id)
    first.stop()
    assert identity(serve(tree, port=port)) == id


def test_another_port_or_another_folder_is_another_server(serve, tree):
    id = identity(serve(tree, port=free_port()))
    assert identity(serve(tree, port=free_port())) != id
    assert identity(serve(os.path.join(tree, "docs"), port=free_port())) != id


def test_a_link_to_the_folder_on_the_same_port_has_the_same_identity(serve, tree, work):
    port = free_port()
    first = serve(tree, port=port)
    id = identity(first)
    first.stop()
    alias = os.path.join(work, "alias")
    os.symlink(tree, alias)
    assert identity(serve(alias, port=port)) == id


def test_a_damaged_identity_is_an_error_naming_the_file_and_is_not_replaced(serve, tree, work):
    port = free_port()
    first = serve(tree, port=port)
    identity(first)
    first.stop()
    folder = os.path.join(first.home, "data", "browsey", "identities")
    [name] = os.listdir(folder)
    path = os.path.join(folder, name)
    with open(path, "w") as handle:
        handle.write("broken")
    run = subprocess.run([BINARY, "serve", tree, "-p", str(port), "--host", "127.0.0.1", "--no-bonjour", "--no-qr"],
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, HOME=first.home, XDG_DATA_HOME=os.path.join(first.home, "data")))
    assert run.returncode != 0
    assert run.stderr.startswith("Error:") and path in run.stderr
    assert open(path).read() == "broken"


def test_health_shows_the_identity_but_never_the_servers_token(serve, tree):
    server = serve(tree, extra=("--token", "never-public-0123456789"))
    body = server.request("/api/health").json()
    assert UUID.match(body["serverId"])
    assert "never-public" not in json.dumps(body)
