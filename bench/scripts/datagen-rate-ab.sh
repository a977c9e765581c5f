#!/usr/bin/env bash
# Self-play data generation by two release builds side by side: the same 100 games (seed 14,
# 1000 nodes, the network given) by A and B at once, one core each, the cores swapped every
# round; prints each round's seconds, the ratio B/A and whether the two wrote the same bytes,
# then the median ratio. For a change that must leave datagen's output as it was (a speed-up
# of the engine used for a recipe's data): every round must say "same". Needs 2 cores and an
# otherwise idle machine (pause other work: kill -STOP, then kill -CONT).
# Usage: bench/scripts/datagen-rate-ab.sh A_BINARY B_BINARY NETWORK [ROUNDS=6] [FIRST_GAME=961000]
set -euo pipefail
usage="usage: datagen-rate-ab.sh A_BINARY B_BINARY NETWORK [ROUNDS] [FIRST_GAME]"
a=${1:?$usage} b=${2:?$usage} network=${3:?$usage} rounds=${4:-6} first=${5:-961000}
for bin in "$a" "$b"; do [ -x "$bin" ] || { echo "datagen-rate-ab: $bin is not an executable" >&2; exit 1; }; done
[ -r "$network" ] || { echo "datagen-rate-ab: cannot read $network" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "A: $a: $("$a" --version | head -1)"
echo "B: $b: $("$b" --version | head -1)"
echo "network: $network; machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); $(date -u +%Y-%m-%dT%H:%MZ)"
ratios=()
for ((r = 1; r <= rounds; r++)); do
    ca=$(( (r + 1) % 2 )) cb=$(( r % 2 ))
    games=(--games 100 --first-game $((first + (r - 1) * 100)) --seed 14 --nodes 1000 --threads 1 --eval-file "$network")
    /usr/bin/time -o "$work/a.time" -f %e taskset -c $ca "$a" datagen -o "$work/a.bin" "${games[@]}" >/dev/null 2>&1 &
    /usr/bin/time -o "$work/b.time" -f %e taskset -c $cb "$b" datagen -o "$work/b.bin" "${games[@]}" >/dev/null 2>&1
    wait
    ta=$(tail -1 "$work/a.time") tb=$(tail -1 "$work/b.time")
    same=different; cmp -s "$work/a.bin" "$work/b.bin" && same=same
    ratio=$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.3f", b / a }')
    ratios+=("$ratio")
    echo "round $r (games from ${games[3]}, A on core $ca): A $ta s, B $tb s, B/A $ratio, bytes $same ($(stat -c %s "$work/b.bin") B)"
    rm -f "$work/a.bin" "$work/b.bin"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')
echo "B/A: datagen time, median $median ($rounds rounds)"
