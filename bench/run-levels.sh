#!/usr/bin/env bash
# Skill-level ladder: matches between levels five apart and against anchors, with the shared
# match runner (openings of bench/openings.txt with both colours, pyffish adjudication, book
# off so that only the level plays). Results go to bench/matches/levels-*.txt; the ladder
# table is made by bench/levels-table.py.
#   bench/run-levels.sh GAMES MOVETIME [BINARY] [PAIRS...]
#   PAIRS like "0:5" (level against level) or "10:sjaak" / "20:fsf" (level against an anchor)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-40}; movetime=${2:-300}
binary=${3:-$PWD/.build/release/xiangqi}
shift 3 || true
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(0:5 5:10 10:15 15:20 5:sjaak 10:sjaak 20:fsf)
[ -x "$binary" ] || swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
spec() {
    case "$1" in
        sjaak) echo "/usr/games/sjaakii proto=uci" ;;
        fsf) echo "/usr/games/fairy-stockfish proto=uci opt.Hash=16" ;;
        *) echo "$binary proto=uci notation=iccs opt.Hash=16 opt.OwnBook=false opt.SkillLevel=$1 name=level-$1" ;;
    esac
}
for pair in "${pairs[@]}"; do
    a=${pair%%:*}; b=${pair#*:}
    out="bench/matches/levels-$a-vs-$b-movetime-$movetime"
    python3 ../shared/tools/match.py -a "$(spec "$b")" -b "$(spec "$a")" -n "$games" --movetime "$movetime" \
        --openings bench/openings.txt --concurrency 2 --pgn "$out.pgn" -q > "$out.txt" 2>&1 || true
    echo "$pair: $(grep -E 'Elo|Score' "$out.txt" | tail -2 | tr '\n' ' ')"
done
