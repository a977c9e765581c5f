#!/usr/bin/env bash
# The node rate of the search with the handcrafted evaluation and with networks of several
# shapes (seeded random weights: the cost of a shape does not depend on its training), side by
# side in one run, ROUNDS rounds alternating, medians: `xiangqi bench 16 1 DEPTH --eval-file ...`.
#   bench/scripts/nnue-speed.sh [DEPTH [ROUNDS]]      (default 9 and 3)
# Nothing else should run meanwhile. Prints one line per evaluation: median nodes/second and
# the ratio to the handcrafted one. The node counts differ between evaluations (other trees).
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local depth=${1:-9} rounds=${2:-3}
    swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
    local bin=.build/release/xiangqi
    local shapes=(handcrafted random:1x128 random:6x256 random:6x256x8 random:6x512)
    declare -A rates
    for ((r = 0; r < rounds; r++)); do
        for shape in "${shapes[@]}"; do
            local args=(16 1 "$depth")   # bench [hash] [threads] [depth] (Stockfish order)
            [ "$shape" != handcrafted ] && args+=(--eval-file "$shape")
            rates[$shape]+="$("$bin" bench "${args[@]}" | sed -n 's/^Nodes\/second: //p') "
        done
    done
    echo "# bench/scripts/nnue-speed.sh $depth $rounds: $(git rev-parse --short=7 HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
    local base
    base=$(echo "${rates[handcrafted]}" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    for shape in "${shapes[@]}"; do
        local median
        median=$(echo "${rates[$shape]}" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        printf '%-14s %8d nodes/s  %.2fx   (runs: %s)\n' "$shape" "$median" "$(awk -v m="$median" -v b="$base" 'BEGIN { print m / b }')" "${rates[$shape]% }"
    done
}
main "$@"
