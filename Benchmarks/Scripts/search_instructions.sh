#!/bin/bash
# What one name search costs in instructions and cache misses, counted by callgrind (the same
# figures every run, where this machine's timings drift by a third): the server is started on
# the 1,000,000-file tree of search_bench.py with callgrind's counting off, QUERY is asked N
# times with counting on, and the totals are printed (events: Ir Dr Dw I1mr D1mr D1mw ILmr
# DLmr DLmw; divide by N).
#
#   bash Benchmarks/Scripts/search_instructions.sh BINARY rprtmd 10
#
# valgrind 3.19 cannot read a Swift binary's debug information: the binary is copied without
# it (its symbols stay, for callgrind_annotate). The first run builds an index under valgrind
# (about ten minutes); later runs load it from $WORK/index.
set -euo pipefail
binary=${1:?usage: search_instructions.sh BINARY QUERY [N]}
query=${2:?usage: search_instructions.sh BINARY QUERY [N]}
count=${3:-10}
tree=${TREE:-/tmp/browsey-bench-search/tree-1000000}
work=${WORK:-/tmp/browsey-bench-callgrind}
port=${PORT:-18270}
[ -d "$tree" ] || { echo "Error: no tree at $tree (run search_bench.py --files 1000000 first)" >&2; exit 1; }
command -v valgrind > /dev/null || { echo "Error: valgrind is not installed" >&2; exit 1; }
mkdir -p "$work"
name=$(basename "$binary")
strip --strip-debug -o "$work/$name" "$binary"
rm -f "$work/$name.out"*
valgrind --tool=callgrind --instr-atstart=no --cache-sim=yes --callgrind-out-file="$work/$name.out" \
    "$work/$name" serve "$tree" --port "$port" --no-qr --host 127.0.0.1 --no-bonjour \
    --index-dir "$work/index" --no-content-index > "$work/$name.log" 2>&1 &
pid=$!
trap 'kill $pid 2> /dev/null || true' EXIT
for _ in $(seq 1 1200); do grep -q "entries ready" "$work/$name.log" && break; sleep 1; done
sleep 60  # the names in order and by pair are built after the catalog
url="http://127.0.0.1:$port/api/search?path=/&q=$query&limit=50"
echo "answer $(curl -s "$url" | md5sum | cut -c1-8)"
curl -s "$url" > /dev/null
callgrind_control -i on "$pid" > /dev/null
for _ in $(seq 1 "$count"); do curl -s "$url" > /dev/null; done
callgrind_control -i off "$pid" > /dev/null
callgrind_control -d "$pid" > /dev/null
sleep 2
grep -E "^(events|totals):" "$work/$name.out.1"
echo "per function: callgrind_annotate --inclusive=no $work/$name.out.1"
