#!/usr/bin/env bash
# Discovery across two hosts: two network namespaces joined by a veth pair, each with its own
# D-Bus and Avahi daemon. A Browsey server started in one is found by an independent browser
# (avahi-browse) and by `browsey discover` in the other, resolved to its address, and listed
# over HTTP from there. Prints the time from start-up to being listed in the other namespace.
#   Tests/Discovery/two-hosts.sh [path/to/browsey]
# Needs root. Skips (exit 0, saying why) only where the machine forbids namespaces. Every daemon
# is stopped and both namespaces removed at the end, pass or fail.
set -euo pipefail
browsey=$(realpath "${1:-.build/debug/browsey}")
limit_ms=${BROWSEY_DISCOVERY_LIMIT_MS:-2000}
id=$$
ns_a="browsey-a-$id" ns_b="browsey-b-$id"
veth_a="vba$id" veth_b="vbb$id"
work=$(mktemp -d /tmp/browsey-two-hosts-XXXXXX)
chmod 755 "$work" # the daemons drop root and must reach their bus sockets
pids=()

fail() { echo "FAIL: $*" >&2; exit 1; }

cleanup() {
    set +e
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null; done
    sleep 0.2
    for pid in "${pids[@]}"; do kill -9 "$pid" 2> /dev/null; done
    # Whatever still runs inside a namespace (a child that outlived its parent) goes too.
    for ns in "$ns_a" "$ns_b"; do
        ip netns pids "$ns" 2> /dev/null | xargs -r kill -9 2> /dev/null
    done
    ip netns del "$ns_a" 2> /dev/null
    ip netns del "$ns_b" 2> /dev/null
    ip link del "$veth_a" 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT

[ -x "$browsey" ] || fail "no browsey executable at $browsey (run swift build first)"
if [ "$(id -u)" -ne 0 ] || ! ip netns add "$ns_a" 2> "$work/netns.err"; then
    echo "SKIP: this machine forbids network namespaces ($(cat "$work/netns.err" 2> /dev/null || echo "not root")); the two-host discovery test did not run"
    exit 0
fi
ip netns add "$ns_b"
ip link add "$veth_a" type veth peer name "$veth_b"
ip link set "$veth_a" netns "$ns_a"
ip link set "$veth_b" netns "$ns_b"
ip -n "$ns_a" addr add 10.77.0.1/24 dev "$veth_a"
ip -n "$ns_b" addr add 10.77.0.2/24 dev "$veth_b"
for pair in "$ns_a:$veth_a" "$ns_b:$veth_b"; do
    ip -n "${pair%%:*}" link set lo up
    ip -n "${pair%%:*}" link set "${pair##*:}" up multicast on
done

# One D-Bus and one Avahi per namespace; the Avahi's /run/avahi-daemon is a folder of its own,
# bound inside the mount namespace `ip netns exec` makes.
start_responder() { # namespace interface hostname
    local ns=$1 interface=$2 host=$3 dir="$work/$1"
    mkdir -p "$dir/run-avahi"
    chmod 755 "$dir"
    chown avahi:avahi "$dir/run-avahi" 2> /dev/null || true
    ip netns exec "$ns" dbus-daemon --system --address="unix:path=$dir/bus" --nopidfile --fork --print-pid > "$dir/dbus.pid"
    pids+=("$(cat "$dir/dbus.pid")")
    cat > "$dir/avahi.conf" << CONF
[server]
host-name=$host
use-ipv4=yes
use-ipv6=no
allow-interfaces=$interface
ratelimit-interval-usec=0
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
CONF
    DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/bus" ip netns exec "$ns" sh -c \
        "mount --bind '$dir/run-avahi' /run/avahi-daemon && exec avahi-daemon --no-chroot --no-rlimits -f '$dir/avahi.conf'" \
        > "$dir/avahi.log" 2>&1 &
    pids+=($!)
}
start_responder "$ns_a" "$veth_a" "browsey-host-a"
start_responder "$ns_b" "$veth_b" "browsey-host-b"
in_a() { DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/$ns_a/bus" ip netns exec "$ns_a" "$@"; }
in_b() { DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/$ns_b/bus" ip netns exec "$ns_b" "$@"; }
for _ in $(seq 1 100); do
    grep -q "Server startup complete" "$work/$ns_a/avahi.log" && grep -q "Server startup complete" "$work/$ns_b/avahi.log" && break
    sleep 0.05
done
grep -q "Server startup complete" "$work/$ns_b/avahi.log" || fail "Avahi did not start: $(cat "$work"/*/avahi.log)"

# The folder served from host A, with an awkward name.
served="$work/Shared Fotos #1 ü"
mkdir -p "$served"
echo hello > "$served/read me & more.txt"

# An independent browser on host B, watching before the server starts.
# (Started as simple commands, not through in_a/in_b, so that $! is the program itself.)
DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/$ns_b/bus" ip netns exec "$ns_b" avahi-browse -rp _browsey._tcp \
    > "$work/browse.log" 2>&1 &
pids+=($!)
sleep 0.3

started=$(date +%s%N)
DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/$ns_a/bus" ip netns exec "$ns_a" "$browsey" serve "$served" -p 8080 \
    --no-qr --no-index > "$work/serve.log" 2>&1 &
pids+=($!)
seen=""
for _ in $(seq 1 200); do
    if grep -q "^=;$veth_b;IPv4;Browsey.*;10.77.0.1;8080;" "$work/browse.log"; then
        seen=$(date +%s%N)
        break
    fi
    sleep 0.01
done
[ -n "$seen" ] || fail "host B never saw the server. serve: $(cat "$work/serve.log") browse: $(cat "$work/browse.log")"
elapsed_ms=$(((seen - started) / 1000000))
echo "two hosts: a server started on host A was listed, resolved, by avahi-browse on host B after $elapsed_ms ms"
grep -q 'Bonjour:  announced as "Browsey (Shared Fotos #1 ü)"' "$work/serve.log" || fail "banner: $(cat "$work/serve.log")"

# Our own browser on host B finds it, resolved to host A's address.
in_b "$browsey" discover --timeout 2 --json > "$work/discover.json" || fail "discover failed: $(cat "$work/discover.json")"
url=$(python3 - "$work/discover.json" << 'PY'
import json, sys
servers = json.load(open(sys.argv[1]))
ours = [s for s in servers if s["name"] == "Browsey (Shared Fotos #1 ü)"]
assert len(ours) == 1, servers
s = ours[0]
assert s["hostName"] == "browsey-host-a.local", s
assert "10.77.0.1" in s["addresses"], s
assert s["readOnly"] is True and s["requiresToken"] is False, s
print(s["url"])
PY
) || fail "discover on host B: $(cat "$work/discover.json")"
[ "$url" = "http://10.77.0.1:8080/" ] || fail "discover gave $url"
echo "two hosts: browsey discover on host B lists $url"

# And the folder is listed over HTTP from host B.
in_b curl -sf "${url}api/list?path=/" > "$work/list.json" || fail "listing from host B failed"
grep -q '"read me & more.txt"' "$work/list.json" || fail "listing from host B: $(cat "$work/list.json")"
echo "two hosts: host B lists the folder over HTTP"

[ "$elapsed_ms" -lt "$limit_ms" ] || fail "start-up to listed on host B took $elapsed_ms ms (limit $limit_ms ms)"
echo "two hosts: passed"
