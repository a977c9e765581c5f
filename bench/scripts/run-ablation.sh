#!/usr/bin/env bash
# Measures each selective search rule: the engine with the rule switched off (UCI option set
# to false) against the default engine, at a fixed node count per move so that the result
# does not depend on machine load, with `xiangqi match` (paired openings of
# bench/data/openings.txt, one game at a time). Records go to bench/records/matches/ablation-<rule>.txt.
#   bench/scripts/run-ablation.sh [GAMES] [NODES] [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/scripts/record.sh
games=${1:-100}; nodes=${2:-20000}; binary=${3:-$PWD/.build/release/xiangqi}
[ -x "$binary" ] || swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
for rule in NullMove LateMoveReductions Futility ReverseFutility; do
    out="bench/records/matches/ablation-$rule"
    {
        header "ablation-$rule" "$binary" "$rule off" "$binary" "default" "$nodes nodes per move" \
            "bench/scripts/run-ablation.sh $*"
        .build/release/xiangqi match -q --engine "$binary proto=uci name=no-$rule opt.OwnBook=false opt.$rule=false" \
            --engine "$binary proto=uci name=default opt.OwnBook=false" --games "$games" --nodes "$nodes" \
            --openings bench/data/openings.txt --pgn "$out.pgn" 2>/dev/null
    } > "$out.txt" || true
    pack_pgn "$out.pgn"
    grep -E "^Score|^total" "$out.txt"
done
