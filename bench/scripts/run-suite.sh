#!/usr/bin/env bash
# Tactics suite side by side: this engine in-process and Fairy-Stockfish through the client
# library, both by `xiangqi suite`, run at the same time (one core each).
#   bench/scripts/run-suite.sh [MOVETIME_MS] [FILE]
# Output: bench/records/suite/<engine>-movetime-<ms>.txt (a line per position, then the summary);
# bench/scripts/suite-table.py turns them into the tables of bench/suite.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
ms=${1:-1000}; file=${2:-bench/data/tactics.epd}
swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
mkdir -p bench/records/suite
.build/release/xiangqi suite "$file" --movetime "$ms" > "bench/records/suite/xiangqi-movetime-$ms.txt" &
.build/release/xiangqi suite "$file" --movetime "$ms" --engine /usr/games/fairy-stockfish \
    > "bench/records/suite/fairy-stockfish-movetime-$ms.txt" &
wait
tail -n 1 bench/records/suite/*-movetime-"$ms".txt
