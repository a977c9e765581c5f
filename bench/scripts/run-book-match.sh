#!/usr/bin/env bash
# The opening book's worth: two matches against Fairy-Stockfish from the start position only,
# our engine with its default book and without it (OwnBook false), then the score difference
# and the number of distinct openings (first 10 plies) in each. `xiangqi match`, one game at
# a time.
#   bench/scripts/run-book-match.sh [GAMES] [MOVETIME_MS] [BINARY]
# BINARY defaults to .build/release/xiangqi; a copy elsewhere needs books/ next to it.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/scripts/record.sh
games=${1:-100}; movetime=${2:-100}
binary=${3:-$PWD/.build/release/xiangqi}
[ -x "$binary" ] || swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
fsf=/usr/games/fairy-stockfish
for mode in book nobook; do
    opts="opt.Hash=16"
    [ "$mode" = nobook ] && opts="$opts opt.OwnBook=false"
    out="bench/records/matches/book-$mode-movetime-$movetime"
    {
        OPENINGS=bench/data/openings-start.txt header "book-$mode-movetime-$movetime" "$binary" "$opts" "$fsf" "Hash 16" \
            "movetime $movetime ms" "bench/scripts/run-book-match.sh $*"
        .build/release/xiangqi match -q --engine "$binary proto=uci $opts" --engine "$fsf proto=uci opt.Hash=16" \
            --games "$games" --movetime "$movetime" --openings bench/data/openings-start.txt --pgn "$out.pgn" 2>/dev/null
    } > "$out.txt" || true
    grep -E "^Score|^total" "$out.txt"
    python3 - "$out.pgn" <<'PY'
import re, sys
from collections import Counter
games = open(sys.argv[1]).read().split('[Event ')[1:]
openings = Counter()
for g in games:
    body = re.sub(r'\{[^}]*\}', ' ', g.split('\n\n', 1)[1] if '\n\n' in g else '')
    moves = re.findall(r'\b[a-i]\d[a-i]\d\b', body)
    openings[' '.join(moves[:10])] += 1
print(f'{sys.argv[1]}: {len(games)} games, {len(openings)} distinct openings (first 10 plies); '
      f'most common {openings.most_common(1)[0][1]} times')
PY
    pack_pgn "$out.pgn"
done
