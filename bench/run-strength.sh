#!/usr/bin/env bash
# Strength matches of the release build against Fairy-Stockfish and Sjaak II with the shared
# match runner (each opening of bench/openings.txt with both colours, pyffish adjudication).
#   bench/run-strength.sh GAMES TC...     TC: "movetime 100" or "tc 5+0.05"
# Appends each summary to bench/matches/<opponent>-<tc>.txt and keeps the PGN next to it.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}; shift
swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
ours="$PWD/.build/release/xiangqi proto=uci notation=iccs"
for tc in "$@"; do
    kind=${tc%% *}; value=${tc#* }
    for opponent in fairy-stockfish sjaakii; do
        spec="/usr/games/$opponent proto=uci"
        [ "$opponent" = fairy-stockfish ] && spec="$spec opt.Hash=16"
        out="bench/matches/$opponent-$kind-$value"
        python3 ../shared/tools/match.py -a "$ours opt.Hash=16" -b "$spec" -n "$games" --"$kind" "$value" \
            --openings bench/openings.txt --concurrency 2 --pgn "$out.pgn" -q > "$out.txt" 2>&1 || true
        tail -8 "$out.txt"
    done
done
