#!/usr/bin/env bash
# Strength matches of the release build against Fairy-Stockfish and Sjaak II with
# `xiangqi match` (each opening of bench/data/openings.txt with both colours, one game at a time).
#   bench/scripts/run-strength.sh GAMES TC...     TC: "movetime 100" or "tc 5+0.05"
# Writes bench/records/matches/<opponent>-<tc>.txt (a header naming both engines, then the report)
# and the PGN next to it. For a sequential test against Fairy-Stockfish use bench/scripts/sprt.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/scripts/record.sh
games=${1:-200}; shift
swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
binary="$PWD/.build/release/xiangqi"
for tc in "$@"; do
    kind=${tc%% *}; value=${tc#* }
    for opponent in fairy-stockfish sjaakii; do
        spec="/usr/games/$opponent proto=uci"
        [ "$opponent" = fairy-stockfish ] && spec="$spec opt.Hash=16"
        out="bench/records/matches/$opponent-$kind-$value"
        {
            header "$opponent-$kind-$value" "$binary" "Hash 16" "/usr/games/$opponent" "${spec#* }" "$tc" \
                "bench/scripts/run-strength.sh $games \"$tc\""
            .build/release/xiangqi match -q --engine "$binary proto=uci opt.Hash=16" --engine "$spec" \
                --games "$games" --"$kind" "$value" --openings bench/data/openings.txt --pgn "$out.pgn" 2>/dev/null
        } > "$out.txt" || true
        pack_pgn "$out.pgn"
        tail -8 "$out.txt"
    done
done
