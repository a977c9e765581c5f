#!/usr/bin/env bash
# The same match run by `xiangqi match` and by the shared match.py, one after the other, so
# that the two runners' results can be compared (they must agree within error).
#   bench/run-match-compare.sh [GAMES] [MOVETIME_MS]
# Output: bench/matches/runner-{xiangqi,shared}-movetime-<ms>.{txt,pgn}
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}; ms=${2:-100}
swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
ours="$PWD/.build/release/xiangqi proto=uci notation=iccs opt.Hash=16"
theirs="/usr/games/fairy-stockfish proto=uci opt.Hash=16"
out=bench/matches/runner
.build/release/xiangqi match --engine "$ours" --engine "$theirs" --games "$games" --movetime "$ms" \
    --openings bench/openings.txt --concurrency 2 --pgn "$out-xiangqi-movetime-$ms.pgn" -q \
    > "$out-xiangqi-movetime-$ms.txt" 2>&1 || true
tail -n 12 "$out-xiangqi-movetime-$ms.txt"
python3 ../shared/tools/match.py -a "$ours" -b "$theirs" -n "$games" --movetime "$ms" \
    --openings bench/openings.txt --concurrency 2 --pgn "$out-shared-movetime-$ms.pgn" -q \
    > "$out-shared-movetime-$ms.txt" 2>&1 || true
tail -n 12 "$out-shared-movetime-$ms.txt"
