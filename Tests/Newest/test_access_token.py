"""The access-token gate, as upstream Browsey's access-token tests state it, asked of the real
server over HTTP; and how this server's own protection and WebDAV compose with it."""
import base64

from conftest import TOKEN

HEADER = "X-Browsey-Access-Token"


def gated(serve, tree, *extra):
    return serve(tree, env={"BROWSEY_ACCESS_TOKEN": TOKEN}, extra=extra)


def test_an_unprotected_server_lets_every_request_through(serve, tree):
    server = serve(tree)
    for path in ["/api/health", "/api/list?path=/", "/api/view?path=/docs/note.md"]:
        assert server.request(path).status == 200, path
    # A client sending a token anyway is not refused.
    assert server.request("/api/health", headers={HEADER: "whatever"}).status == 200


def test_an_empty_token_is_no_protection(serve, tree):
    server = serve(tree, env={"BROWSEY_ACCESS_TOKEN": ""})
    assert server.request("/api/health").status == 200
    assert "no protection" in server.output()


def test_a_missing_token_is_401_with_the_contract_message_and_challenge(serve, tree):
    server = gated(serve, tree)
    answer = server.request("/api/list?path=/")
    assert answer.status == 401
    assert answer.header("Content-Type").split(";")[0] == "application/json"
    assert answer.json()["error"] == "Browsey access token required"
    assert answer.header("WWW-Authenticate") == "Browsey-Access"


def test_a_whitespace_token_counts_as_missing(serve, tree):
    server = gated(serve, tree)
    answer = server.request("/api/list?path=/", headers={HEADER: "  "})
    assert answer.status == 401
    assert answer.json()["error"] == "Browsey access token required"


def test_a_wrong_token_is_401_and_never_echoed(serve, tree):
    server = gated(serve, tree)
    answer = server.request("/api/list?path=/", headers={HEADER: "nope"})
    assert answer.status == 401
    assert answer.json()["error"] == "Invalid Browsey access token"
    assert answer.header("WWW-Authenticate") == "Browsey-Access"
    assert b"nope" not in answer.body


def test_a_token_of_the_right_length_but_wrong_bytes_is_refused(serve, tree):
    server = gated(serve, tree)
    answer = server.request("/api/view?path=/docs/note.md", headers={HEADER: TOKEN[:-1] + "X"})
    assert answer.status == 401
    assert answer.json()["error"] == "Invalid Browsey access token"


def test_the_correct_token_passes_reads_and_health(serve, tree):
    server = gated(serve, tree)
    assert server.request("/api/list?path=/", headers={HEADER: TOKEN}).status == 200
    assert server.request("/api/view?path=/docs/note.md", headers={HEADER: TOKEN}).json()["content"] == "one"


def test_the_header_name_is_matched_case_insensitively(serve, tree):
    server = gated(serve, tree)
    assert server.request("/api/health", headers={"x-browsey-access-token": TOKEN}).status == 200


def test_a_token_in_the_query_string_does_not_open_the_gate(serve, tree):
    server = gated(serve, tree)
    answer = server.request("/api/file?path=/docs/note.md&token=" + TOKEN)
    assert answer.status == 401
    assert answer.json()["error"] == "Browsey access token required"


def test_options_passes_without_a_token(serve, tree):
    server = gated(serve, tree)
    assert server.request("/api/list", method="OPTIONS").status != 401


def test_health_and_the_event_stream_are_gated(serve, tree):
    server = gated(serve, tree)
    assert server.request("/api/health").status == 401
    assert server.request("/api/events").status == 401
    health = server.request("/api/health", headers={HEADER: TOKEN}).json()
    assert health["ok"] is True and health["accessToken"] is True


def test_a_bearer_token_does_not_open_the_gate(serve, tree):
    server = gated(serve, tree)
    answer = server.request("/api/list?path=/", headers={"Authorization": "Bearer " + TOKEN})
    assert answer.status == 401
    assert answer.json()["error"] == "Browsey access token required"


def test_non_api_paths_are_not_gated_so_the_web_ui_loads(serve, tree):
    server = gated(serve, tree)
    for path in ["/", "/index.html", "/app.js"]:
        assert server.request(path).status == 200, path


def test_spellings_of_api_paths_do_not_walk_around_the_gate(serve, tree):
    server = gated(serve, tree)
    for path in ["//api/list?path=/", "/%61pi/list?path=/", "/api//list?path=/", "/api/%6cist?path=/"]:
        answer = server.request(path)
        assert answer.status in (401, 404), path
        assert b"note.md" not in answer.body and b"docs" not in answer.body, path


def test_the_banner_says_on_names_the_header_and_never_the_value(serve, tree):
    server = gated(serve, tree)
    server.request("/api/health")
    output = server.output()
    assert "X-Browsey-Access-Token" in output and "token on" in output
    assert TOKEN not in output
    assert "token off" in serve(tree).output()


def test_the_token_file_is_read_and_an_empty_one_is_an_error(serve, tree, work):
    import os
    import subprocess
    from conftest import BINARY
    path = os.path.join(work, "token.txt")
    with open(path, "w") as handle:
        handle.write("  file-token-0123456789  \nsecond line\n")
    server = serve(tree, extra=("--access-token-file", path))
    assert server.request("/api/health").status == 401
    assert server.request("/api/health", headers={HEADER: "file-token-0123456789"}).status == 200
    with open(path, "w") as handle:
        handle.write("\n")
    run = subprocess.run([BINARY, "serve", tree, "--access-token-file", path, "--no-bonjour", "--no-qr"],
                         capture_output=True, text=True, timeout=60, env=dict(os.environ, HOME=work))
    assert run.returncode != 0 and run.stderr.startswith("Error:")


def test_a_generated_token_is_kept_in_the_data_folder_owner_only(serve, tree, work):
    import os
    import stat
    server = serve(tree, extra=("--access-token",))
    kept = os.path.join(server.home, "data", "browsey", "access-token")
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    token = open(kept).read().strip()
    assert token not in server.output() and kept in server.output()
    assert server.request("/api/health", headers={HEADER: token}).status == 200


def test_with_the_servers_own_token_a_request_needs_both_the_gate_first(serve, tree):
    server = gated(serve, tree, "--token", "own-token-0123456789")
    assert server.request("/api/list?path=/", headers={"Authorization": "Bearer own-token-0123456789"}).json()[
        "error"] == "Browsey access token required"
    only_gate = server.request("/api/list?path=/", headers={HEADER: TOKEN})
    assert only_gate.status == 401 and only_gate.header("WWW-Authenticate").startswith("Bearer")
    both = server.request("/api/list?path=/", headers={HEADER: TOKEN, "Authorization": "Bearer own-token-0123456789"})
    assert both.status == 200


def test_the_web_ui_keeps_the_token_in_an_httponly_cookie_that_opens_files(serve, tree):
    server = gated(serve, tree)
    kept = server.request("/api/access", method="POST", headers={HEADER: TOKEN})
    assert kept.status == 200
    cookie = kept.header("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and TOKEN not in cookie
    pair = cookie.split(";")[0]
    answer = server.request("/api/file?path=/docs/note.md", headers={"Cookie": pair})
    assert answer.status == 200 and answer.body == b"one"
    assert server.request("/api/access", method="POST", headers={HEADER: "nope"}).status == 401


def basic(user, password):
    return "Basic " + base64.b64encode((user + ":" + password).encode()).decode()


def test_webdav_is_gated_and_takes_the_token_as_the_basic_password(serve, tree):
    server = gated(serve, tree)
    refused = server.request("/dav/docs/note.md")
    assert refused.status == 401
    assert "Basic" in ",".join(refused.headers.get_all("WWW-Authenticate"))
    assert server.request("/dav/docs/note.md", headers={"Authorization": basic("me", "wrong")}).status == 401
    answer = server.request("/dav/docs/note.md", headers={"Authorization": basic("me", TOKEN)})
    assert answer.status == 200 and answer.body == b"one"
    assert server.request("/dav/docs/note.md", headers={HEADER: TOKEN}).status == 200


def test_webdav_with_the_servers_own_token_takes_both_joined_by_a_colon(serve, tree):
    server = gated(serve, tree, "--token", "own-token-0123456789")
    assert server.request("/dav/docs/note.md", headers={"Authorization": basic("me", TOKEN)}).status == 401
    joined = basic("me", TOKEN + ":own-token-0123456789")
    answer = server.request("/dav/docs/note.md", headers={"Authorization": joined})
    assert answer.status == 200 and answer.body == b"one"
