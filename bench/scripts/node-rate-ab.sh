#!/usr/bin/env bash
# Node rate of two release builds side by side: `xiangqi bench` (the signature's 36 positions,
# depth 10, one thread) RUNS times each, alternating A and B so that both see the same machine;
# prints each run, then each build's signature, median nodes/s and the ratio B/A. Run it on an
# otherwise idle machine. perft 5 from the start position the same way (median ms).
# Usage: bench/scripts/node-rate-ab.sh A_BINARY B_BINARY [RUNS=9]
set -euo pipefail
a=${1:?usage: node-rate-ab.sh A_BINARY B_BINARY [RUNS]} b=${2:?usage: node-rate-ab.sh A_BINARY B_BINARY [RUNS]} runs=${3:-9}
for bin in "$a" "$b"; do [ -x "$bin" ] || { echo "node-rate-ab: $bin is not an executable" >&2; exit 1; }; done
echo "A: $a: $("$a" --version | head -1)"
echo "B: $b: $("$b" --version | head -1)"
echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); $(date -u +%Y-%m-%dT%H:%MZ)"
declare -A rates perfts signatures
for ((i = 1; i <= runs; i++)); do
    for side in A B; do
        bin=$a; [ "$side" = B ] && bin=$b
        out=$("$bin" bench 2>&1)
        signatures[$side]=$(awk '/Nodes searched/ {print $3}' <<< "$out")
        rate=$(awk '/Nodes\/second/ {print $2}' <<< "$out")
        ms=$("$bin" perft 5 | awk '/^Time:/ {print $2}')
        rates[$side]="${rates[$side]:-} $rate"
        perfts[$side]="${perfts[$side]:-} $ms"
        echo "run $i $side: bench ${signatures[$side]}, $rate nodes/s; perft 5 $ms ms"
    done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
ra=$(median <<< "${rates[A]}") rb=$(median <<< "${rates[B]}")
pa=$(median <<< "${perfts[A]}") pb=$(median <<< "${perfts[B]}")
echo "A: bench ${signatures[A]}, median $ra nodes/s, perft 5 median $pa ms"
echo "B: bench ${signatures[B]}, median $rb nodes/s, perft 5 median $pb ms"
awk -v a="$ra" -v b="$rb" -v pa="$pa" -v pb="$pb" 'BEGIN {printf "B/A: node rate %.3f, perft time %.3f (%d runs each)\n", b / a, pb / pa, '"$runs"'}'
