#!/usr/bin/env bash
# Measures each selective search rule: the engine with the rule switched off (UCI option set
# to false) against the default engine, at a fixed node count per move so that the result
# does not depend on machine load. Summaries go to bench/matches/ablation-<rule>.txt.
#   bench/run-ablation.sh [GAMES] [NODES] [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}; nodes=${2:-20000}; binary=${3:-$PWD/.build/release/xiangqi}
for rule in NullMove LateMoveReductions Futility ReverseFutility; do
    out="bench/matches/ablation-$rule"
    python3 ../shared/tools/match.py -a "$binary proto=uci notation=iccs name=no-$rule opt.$rule=false" \
        -b "$binary proto=uci notation=iccs name=default" -n "$games" --nodes "$nodes" \
        --openings bench/openings.txt --concurrency 2 --pgn "$out.pgn" -q > "$out.txt" 2>&1 || true
    grep -E "^Score|^total" "$out.txt"
done
