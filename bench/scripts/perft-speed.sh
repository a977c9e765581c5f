#!/usr/bin/env bash
# Start-position perft, xiangqi vs Fairy-Stockfish, side by side in one run.
#
#   bench/scripts/perft-speed.sh [DEPTH] [RUNS]      (defaults: 5 and 5)
#
# Builds the release binary, then alternates runs of `xiangqi perft DEPTH` and
# Fairy-Stockfish's `go perft DEPTH` (UCI, UCI_Variant xiangqi), timing each whole process
# by wall clock, and prints every run, the medians and the speed ratio. Both engines count
# the last ply without making its moves (bulk counting), so the figures are comparable.
set -euo pipefail
cd "$(dirname "$0")/../.."
depth=${1:-5}
runs=${2:-5}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
[ -x "$fsf" ] || { echo "Fairy-Stockfish not found at $fsf (apt-get install fairy-stockfish)" >&2; exit 1; }
swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
ours=.build/release/xiangqi

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

our_times=() fsf_times=()
for i in $(seq "$runs"); do
    t0=$(now)
    our_nodes=$("$ours" perft "$depth" | awk '/Nodes searched/ {print $3}')
    t1=$(now)
    fsf_nodes=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft %s\nquit\n' "$depth" \
        | "$fsf" | awk '/Nodes searched/ {print $3}')
    t2=$(now)
    our_times+=("$(ms "$t0" "$t1")")
    fsf_times+=("$(ms "$t1" "$t2")")
    echo "run $i: xiangqi ${our_times[-1]} ms ($our_nodes nodes), fairy-stockfish ${fsf_times[-1]} ms ($fsf_nodes nodes)"
    [ "$our_nodes" = "$fsf_nodes" ] || { echo "node counts differ" >&2; exit 1; }
done
our_median=$(printf '%s\n' "${our_times[@]}" | median)
fsf_median=$(printf '%s\n' "${fsf_times[@]}" | median)
echo "median: xiangqi $our_median ms ($(awk -v n="$our_nodes" -v t="$our_median" 'BEGIN {printf "%.1f", n / t / 1000}') M leaves/s)," \
     "fairy-stockfish $fsf_median ms ($(awk -v n="$fsf_nodes" -v t="$fsf_median" 'BEGIN {printf "%.1f", n / t / 1000}') M leaves/s)"
echo "ratio: xiangqi is $(awk -v a="$fsf_median" -v b="$our_median" 'BEGIN {printf "%.2f", a / b}')x the speed of fairy-stockfish"
