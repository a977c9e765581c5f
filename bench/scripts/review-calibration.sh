#!/usr/bin/env bash
# Calibration of `xiangqi review` (bench/review.md): reviews master games and games between the
# engine's levels, so that the table shows what the move classes and the accuracy mean.
#   bench/scripts/review-calibration.sh MASTER_GAMES LEVEL_GAMES [BINARY]
# 1. The first MASTER_GAMES games of books/source/ccpd_master_games.txt.gz (human masters),
#    reviewed in two halves at once (one core each).
# 2. LEVEL_GAMES games of each of levels 0, 5, 10, 15 and 20 against level 20 (`xiangqi match`,
#    100 ms a move, the openings of bench/data/openings-2000.txt with both colours, book off,
#    two games at a time), then each match's PGN reviewed.
# Every review is at the default limits (100,000 nodes a search, one thread). Writes
# bench/records/review/*.jsonl.gz (one JSON object per game, as `review --json` prints, gzipped)
# and the match records; resumable: a file already there is kept. The table:
#   bench/scripts/review-table.py bench/records/review
set -euo pipefail
cd "$(dirname "$0")/../.."
masters=${1:?MASTER_GAMES}; levelGames=${2:?LEVEL_GAMES}
binary=${3:-$PWD/.build/release/xiangqi}
[ -x "$binary" ] || swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
snapshot=$(mktemp -d)
cp "$binary" "$snapshot/xiangqi"
binary=$snapshot/xiangqi
out=bench/records/review
mkdir -p "$out"
"$binary" --version | head -1 > "$out/engine.txt"
"$binary" bench | awk '/Nodes searched/ {print "bench " $3}' >> "$out/engine.txt"

if [ ! -s "$out/masters.jsonl.gz" ]; then
    games=$snapshot/masters.txt
    gzip -dc books/source/ccpd_master_games.txt.gz | sed -n "1,${masters}p" > "$games"
    half=$(( (masters + 1) / 2 ))
    "$binary" review "$games" --json --max-games "$half" > "$snapshot/masters-1.jsonl" &
    "$binary" review "$games" --json --start-game $((half + 1)) > "$snapshot/masters-2.jsonl" &
    wait
    cat "$snapshot/masters-1.jsonl" "$snapshot/masters-2.jsonl" | gzip -9 -n > "$out/masters.jsonl.gz"
fi

for level in 0 5 10 15 20; do
    name=level-$level-vs-20
    [ -s "$out/$name.jsonl.gz" ] && continue
    pgn=$snapshot/$name.pgn
    "$binary" match --engine "$binary proto=uci name=level-$level 'opt.Skill Level=$level' opt.OwnBook=false opt.Hash=16" \
        --engine "$binary proto=uci name=level-20 opt.OwnBook=false opt.Hash=16" --movetime 100 --games "$levelGames" \
        --openings bench/data/openings-2000.txt --concurrency 2 --pgn "$pgn" > "$out/$name-match.txt"
    half=$(( (levelGames + 1) / 2 ))
    "$binary" review "$pgn" --json --max-games "$half" > "$snapshot/$name-1.jsonl" &
    "$binary" review "$pgn" --json --start-game $((half + 1)) > "$snapshot/$name-2.jsonl" &
    wait
    cat "$snapshot/$name-1.jsonl" "$snapshot/$name-2.jsonl" | gzip -9 -n > "$out/$name.jsonl.gz"
    gzip -9 -n -c "$pgn" > "$out/$name.pgn.gz"
done
bench/scripts/review-table.py "$out"
