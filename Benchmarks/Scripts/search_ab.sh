#!/bin/bash
# Name search, two builds side by side: both serve the 1,000,000-file tree that
# search_bench.py makes (--files 1000000), the answers to each query are compared, then
# each query is measured with wrk at 32 connections, the two servers in turn, three rounds.
#
#   bash Benchmarks/Scripts/search_ab.sh OLD_BINARY NEW_BINARY
#   QUERIES="eport ort" SECS=4 bash Benchmarks/Scripts/search_ab.sh OLD NEW
#
# The second server measured in a round waits behind the queries the first left running
# when wrk closed its connections: compare p99s within a slot, and run both orders.
set -euo pipefail
old=${1:?usage: search_ab.sh OLD_BINARY NEW_BINARY}
new=${2:?usage: search_ab.sh OLD_BINARY NEW_BINARY}
tree=${TREE:-/tmp/browsey-bench-search/tree-1000000}
[ -d "$tree" ] || { echo "Error: no tree at $tree (run search_bench.py --files 1000000 first)" >&2; exit 1; }
command -v wrk > /dev/null || { echo "Error: wrk is not installed" >&2; exit 1; }
work=$(mktemp -d)
"$old" serve "$tree" -p 18101 --host 127.0.0.1 --no-qr --no-bonjour --no-content-index \
    --index-dir "$work/a" > "$work/a.log" 2>&1 &
a=$!
"$new" serve "$tree" -p 18102 --host 127.0.0.1 --no-qr --no-bonjour --no-content-index \
    --index-dir "$work/b" > "$work/b.log" 2>&1 &
b=$!
trap 'kill $a $b 2> /dev/null; wait; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do
    grep -q "entries ready" "$work/a.log" && grep -q "entries ready" "$work/b.log" && break
    sleep 1
done
sleep 15  # the names in order and by trigram are built just after
url() { echo "http://127.0.0.1:$1/api/search?path=/&q=$2&limit=50"; }
for q in ${QUERIES:-zebracorn report eport rprtmd}; do
    echo "answers $q: $(curl -s "$(url 18101 "$q")" | md5sum | cut -c1-8) $(curl -s "$(url 18102 "$q")" | md5sum | cut -c1-8)"
done
for round in 1 2 3; do
    for q in ${QUERIES:-zebracorn report eport rprtmd}; do
        for port in 18101 18102; do
            echo "round $round $q $port $(wrk -t2 -c32 -d"${SECS:-4}"s --latency "$(url $port "$q")" \
                | awk '/Requests\/sec/ {r=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} END {print r " req/s, p50 " p50 ", p99 " p99}')"
        done
    done
done
echo "resident: old $(grep VmRSS /proc/$a/status | awk '{print $2, $3}'), new $(grep VmRSS /proc/$b/status | awk '{print $2, $3}')"
