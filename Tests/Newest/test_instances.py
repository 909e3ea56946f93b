"""The servers on this machine: `browsey list` shows what `serve` registered, `browsey stop`
stops them, and neither ever touches a process the registry does not vouch for."""
import json
import os
import subprocess
import time

from conftest import BINARY, free_port


def browsey(home, *arguments, stdin=subprocess.DEVNULL):
    environment = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"))
    return subprocess.run([BINARY, *arguments], capture_output=True, text=True, timeout=60, env=environment,
                          stdin=stdin)


def listed(home):
    run = browsey(home, "list", "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_list_shows_each_running_server_and_stop_by_port_ends_it(serve, tree):
    first = serve(tree, extra=("--no-readonly",))
    second = serve(os.path.join(tree, "docs"), home=first.home, env={"BROWSEY_ACCESS_TOKEN": "t0123456789"})
    records = {record["port"]: record for record in listed(first.home)}
    assert set(records) == {first.port, second.port}
    assert records[first.port]["root"] == os.path.realpath(tree)
    assert records[first.port]["mode"] == "read-write" and records[first.port]["gated"] is False
    assert records[second.port]["mode"] == "read-only" and records[second.port]["gated"] is True
    assert records[first.port]["pid"] == first.process.pid
    table = browsey(first.home, "list").stdout
    assert str(first.port) in table and os.path.realpath(tree) in table

    stopped = browsey(first.home, "stop", ":%d" % first.port)
    assert stopped.returncode == 0, stopped.stderr
    assert first.process.wait(timeout=20) == 0
    assert [record["port"] for record in listed(first.home)] == [second.port]
    assert second.process.poll() is None


def test_stop_by_folder_and_by_pid(serve, tree):
    server = serve(tree)
    assert browsey(server.home, "stop", tree).returncode == 0
    server.process.wait(timeout=20)
    again = serve(tree, home=server.home)
    assert browsey(server.home, "stop", str(again.process.pid)).returncode == 0
    again.process.wait(timeout=20)
    assert listed(server.home) == []


def test_a_target_matching_several_needs_all_without_a_terminal(serve, tree):
    first = serve(tree)
    second = serve(tree, home=first.home)
    refused = browsey(first.home, "stop", tree)
    assert refused.returncode != 0 and refused.stderr.startswith("Error:")
    assert "--all" in refused.stderr
    assert first.process.poll() is None and second.process.poll() is None
    assert browsey(first.home, "stop", tree, "--all").returncode == 0
    first.process.wait(timeout=20)
    second.process.wait(timeout=20)


def test_a_dead_servers_record_is_ignored_and_cleaned_and_its_pid_never_signalled(serve, tree):
    server = serve(tree)
    folder = os.path.join(server.home, "data", "browsey", "instances")
    [name] = os.listdir(folder)
    record = json.load(open(os.path.join(folder, name)))
    # Another process now holds a PID the registry names (as after a crash and PID reuse).
    bystander = subprocess.Popen(["sleep", "60"])
    try:
        fake = dict(record, pid=bystander.pid, port=free_port())
        with open(os.path.join(folder, "%d.json" % bystander.pid), "w") as handle:
            json.dump(fake, handle)
        assert [entry["pid"] for entry in listed(server.home)] == [server.process.pid]
        assert not os.path.exists(os.path.join(folder, "%d.json" % bystander.pid))
        refused = browsey(server.home, "stop", str(bystander.pid))
        assert refused.returncode != 0 and refused.stderr.startswith("Error:")
        time.sleep(0.2)
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


def test_a_server_that_stops_removes_its_record(serve, tree):
    server = serve(tree)
    assert len(listed(server.home)) == 1
    server.stop()
    assert os.listdir(os.path.join(server.home, "data", "browsey", "instances")) == []


def test_stopping_nothing_is_an_error(work):
    run = browsey(work, "stop", ":1")
    assert run.returncode != 0 and run.stderr.startswith("Error:")
