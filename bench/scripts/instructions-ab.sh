#!/usr/bin/env bash
# Instructions executed by two release builds, counted by valgrind (cachegrind, no cache
# simulation): `xiangqi bench 16 1 DEPTH` and a datagen run of GAMES games at 1000 nodes with
# the network given, A and B at once. The counts do not depend on the machine's load or speed,
# so they show a change of a few percent that the noise of a shared VM hides from timings
# (node-rate-ab.sh, datagen-rate-ab.sh); they are instructions, not time. The debug info is
# stripped from copies of the binaries first (valgrind cannot read that of static Swift builds).
# Usage: bench/scripts/instructions-ab.sh A_BINARY B_BINARY NETWORK [DEPTH=8] [GAMES=20]
set -euo pipefail
usage="usage: instructions-ab.sh A_BINARY B_BINARY NETWORK [DEPTH] [GAMES]"
a=${1:?$usage} b=${2:?$usage} network=${3:?$usage} depth=${4:-8} games=${5:-20}
command -v valgrind >/dev/null || { echo "instructions-ab: valgrind is not installed" >&2; exit 1; }
for bin in "$a" "$b"; do [ -x "$bin" ] || { echo "instructions-ab: $bin is not an executable" >&2; exit 1; }; done
[ -r "$network" ] || { echo "instructions-ab: cannot read $network" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "$a" "$work/A"
objcopy --strip-debug "$b" "$work/B"
echo "A: $a: $("$a" --version | head -1)"
echo "B: $b: $("$b" --version | head -1)"
echo "valgrind: $(valgrind --version); $(date -u +%Y-%m-%dT%H:%MZ)"
count() {  # side, then the command's arguments: prints the instruction count
    local side=$1; shift
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$work/$side" "$@" \
        > "$work/$side.out" 2> "$work/$side.err"
    sed -n 's/^==[0-9]*== I *refs: *//p' "$work/$side.err" | tr -d ,
}
report() {  # label
    local ia ib
    ia=$(cat "$work/A.count") ib=$(cat "$work/B.count")
    echo "$1: A $ia, B $ib instructions, B/A $(awk -v a="$ia" -v b="$ib" 'BEGIN { printf "%.4f", b / a }')"
}
count A bench 16 1 "$depth" > "$work/A.count" & count B bench 16 1 "$depth" > "$work/B.count"; wait
echo "bench 16 1 $depth: nodes A $(awk '/Nodes searched/ {print $3}' "$work/A.out"), B $(awk '/Nodes searched/ {print $3}' "$work/B.out")"
report "bench 16 1 $depth"
args=(--games "$games" --first-game 961000 --seed 14 --nodes 1000 --threads 1 --eval-file "$network")
count A datagen -o "$work/A.bin" "${args[@]}" > "$work/A.count" & count B datagen -o "$work/B.bin" "${args[@]}" > "$work/B.count"; wait
same=different; cmp -s "$work/A.bin" "$work/B.bin" && same=same
echo "datagen ${args[*]}: bytes $same ($(stat -c %s "$work/A.bin") and $(stat -c %s "$work/B.bin") B)"
report "datagen, $games games"
