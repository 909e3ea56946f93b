#!/usr/bin/env bash
# WebDAV against the real clients, on a real port: Debian's litmus (basic, copymove, props, locks,
# http), rclone (lsjson, copy up and down, sync, check of a tree with awkward names), cadaver
# scripted, and curl replaying Finder's chunked PUT without a length.
#
# Usage: Tests/WebDAV/clients.sh BROWSEY_BINARY
# Needs litmus, rclone, cadaver and curl (Scripts/test installs them with apt).
set -euo pipefail
binary=${1:?usage: clients.sh BROWSEY_BINARY}
work=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/root" "$work/trash"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=litmus-token-$$-$RANDOM
"$binary" serve "$work/root" -p "$port" --host 127.0.0.1 --no-qr --no-bonjour --no-index \
    --no-readonly --trash-dir "$work/trash" --token "$token-0123456789" > "$work/server.log" 2>&1 &
pid=$!
token="$token-0123456789"
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$port/api/health" && break; sleep 0.1; done
url="http://127.0.0.1:$port/dav/"
failed=0

echo "--> litmus (basic copymove props locks http) at $url"
if (cd "$work" && litmus -k "$url" user "$token") > "$work/litmus.txt" 2>&1 &&
    ! grep -E "^<- summary" "$work/litmus.txt" | grep -vq " 0 failed"; then
    grep -E "^<- summary" "$work/litmus.txt" | sed 's/^/    /'
else
    cat "$work/litmus.txt"
    failed=1
fi
grep -E "WARNING" "$work/litmus.txt" | sed 's/^/    litmus /' || true

echo "--> rclone: copy up, lsjson, copy down, sync, check (awkward names)"
export RCLONE_CONFIG_BROWSEY_TYPE=webdav RCLONE_CONFIG_BROWSEY_URL="$url" RCLONE_CONFIG_BROWSEY_VENDOR=other
export RCLONE_CONFIG_BROWSEY_USER=user RCLONE_CONFIG_BROWSEY_PASS=$(rclone obscure "$token")
export RCLONE_CONFIG=/dev/null
python3 - "$work/local" << 'PY'
import os, sys, unicodedata
base = sys.argv[1]
names = ["with space.txt", "hash #1.txt", "100% done.txt", unicodedata.normalize("NFD", "café.txt"),
         "emoji 🎉.txt", "plus+and&amp.txt", "sub dir/nested #2/deep %41.txt", "ünïcødé/Ω.md"]
for index, name in enumerate(names):
    path = os.path.join(base, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(os.urandom(1000 + index * 4099))
PY
rclone_ok=1
rclone copy "$work/local" browsey:tree 2> "$work/rclone.txt" || rclone_ok=0
rclone lsjson -R browsey:tree > "$work/lsjson.json" 2>> "$work/rclone.txt" || rclone_ok=0
python3 - "$work/lsjson.json" << 'PY' || rclone_ok=0
import json, sys, unicodedata
items = json.load(open(sys.argv[1]))
paths = {item["Path"] for item in items if not item["IsDir"]}
expected = {"with space.txt", "hash #1.txt", "100% done.txt", unicodedata.normalize("NFD", "café.txt"),
            "emoji 🎉.txt", "plus+and&amp.txt", "sub dir/nested #2/deep %41.txt", "ünïcødé/Ω.md"}
missing = expected - paths
if missing:
    sys.exit(f"lsjson is missing {sorted(missing)}")
PY
rclone check "$work/local" browsey:tree 2>> "$work/rclone.txt" || rclone_ok=0
rclone copy browsey:tree "$work/down" 2>> "$work/rclone.txt" || rclone_ok=0
diff -r "$work/local" "$work/down" >> "$work/rclone.txt" 2>&1 || rclone_ok=0
# A sync removes what the source no longer has and adds what it gained.
rm "$work/local/with space.txt"
printf 'new\n' > "$work/local/added file #3.txt"
rclone sync "$work/local" browsey:tree 2>> "$work/rclone.txt" || rclone_ok=0
rclone check "$work/local" browsey:tree 2>> "$work/rclone.txt" || rclone_ok=0
[ -e "$work/root/tree/with space.txt" ] && rclone_ok=0
if [ "$rclone_ok" = 1 ]; then
    echo "    rclone: copy, lsjson, copy back (diff -r identical), sync, check: no difference"
else
    cat "$work/rclone.txt"
    failed=1
fi

echo "--> cadaver, scripted"
printf 'cadaver body\n' > "$work/upload.txt"
cat > "$work/netrc" << NETRC
machine 127.0.0.1
login user
password $token
NETRC
chmod 600 "$work/netrc"
(cd "$work" && HOME="$work" cp netrc .netrc && HOME="$work" cadaver "$url" << CADAVER) > "$work/cadaver.txt" 2>&1 || true
mkcol cadaver
cd cadaver
put upload.txt
copy upload.txt copied.txt
move copied.txt moved.txt
propset moved.txt colour blue
propget moved.txt colour
lock moved.txt
unlock moved.txt
ls
get moved.txt fetched.txt
delete upload.txt
quit
CADAVER
cadaver_ok=1
grep -q "colour" "$work/cadaver.txt" && grep -q "blue" "$work/cadaver.txt" || cadaver_ok=0
cmp -s "$work/upload.txt" "$work/fetched.txt" || cadaver_ok=0
[ -f "$work/root/cadaver/moved.txt" ] && [ ! -e "$work/root/cadaver/upload.txt" ] || cadaver_ok=0
grep -qiE "failed|error" "$work/cadaver.txt" && cadaver_ok=0
if [ "$cadaver_ok" = 1 ]; then
    echo "    cadaver: mkcol, put, copy, move, propset/propget, lock/unlock, ls, get, delete"
else
    cat "$work/cadaver.txt"
    failed=1
fi

echo "--> Finder's chunked PUT without a length, with X-Expected-Entity-Length"
head -c 300000 /dev/urandom > "$work/chunked.bin"
status=$(curl -s -o /dev/null -w '%{http_code}' -u "user:$token" -T - -H "Transfer-Encoding: chunked" \
    -H "X-Expected-Entity-Length: 300000" "${url}chunked.bin" < "$work/chunked.bin")
if [ "$status" = 201 ] && cmp -s "$work/chunked.bin" "$work/root/chunked.bin"; then
    echo "    chunked PUT: 201, bytes identical"
else
    echo "    chunked PUT: status $status"
    failed=1
fi

echo "--> behind the access-token gate: rclone with the token as the password, litmus with both tokens"
kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null || true
access=access-$$-$RANDOM-0123456789
mkdir -p "$work/gated"
BROWSEY_ACCESS_TOKEN="$access" "$binary" serve "$work/gated" -p "$port" --host 127.0.0.1 --no-qr --no-bonjour \
    --no-index --no-readonly --trash-dir "$work/trash" > "$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$url")" = 401 ] && break; sleep 0.1; done
gated_ok=1
[ "$(curl -s -o /dev/null -w '%{http_code}' -X PROPFIND "$url")" = 401 ] || gated_ok=0
export RCLONE_CONFIG_BROWSEY_PASS=$(rclone obscure "$access")
rclone copy "$work/local" browsey:tree 2> "$work/rclone.txt" || gated_ok=0
rclone check "$work/local" browsey:tree 2>> "$work/rclone.txt" || gated_ok=0
export RCLONE_CONFIG_BROWSEY_PASS=$(rclone obscure "wrong-$access")
rclone lsjson browsey:tree > /dev/null 2>> "$work/rclone.txt" && gated_ok=0
kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null || true
BROWSEY_ACCESS_TOKEN="$access" "$binary" serve "$work/gated" -p "$port" --host 127.0.0.1 --no-qr --no-bonjour \
    --no-index --no-readonly --trash-dir "$work/trash" --token "$token" > "$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$url")" = 401 ] && break; sleep 0.1; done
(cd "$work" && TESTS="basic copymove" litmus -k "$url" user "$access:$token") > "$work/litmus-gated.txt" 2>&1 || gated_ok=0
# litmus -k goes on past a failure and may still exit 0: every summary must say 0 failed.
grep -E "^<- summary" "$work/litmus-gated.txt" | grep -vq " 0 failed" && gated_ok=0
if [ "$gated_ok" = 1 ]; then
    echo "    gated: no credentials 401; rclone copy and check pass with the token, a wrong one is refused;"
    grep -E "^<- summary" "$work/litmus-gated.txt" | sed 's/^/    litmus with ACCESS:TOKEN /'
else
    cat "$work/rclone.txt" "$work/litmus-gated.txt"
    failed=1
fi

if [ "$failed" != 0 ]; then
    echo "server log:"
    tail -50 "$work/server.log"
    exit 1
fi
