#!/usr/bin/env bash
# Skill-level ladder: matches between levels five apart and against anchors, with
# `xiangqi match` (openings of bench/data/openings.txt with both colours, one game at a time, book
# off so that only the level plays). Results go to bench/records/matches/levels-A-vs-B-movetime-MS[-TAG].txt
# and .pgn.gz (TAG from $LADDER_TAG; each run writes fresh files, so a PGN holds one run's games);
# the ladder table is made from the PGNs by bench/scripts/levels-table.py MS TAG. The binary is copied
# first, so that a rebuild during the matches cannot change the engine under test.
#   bench/scripts/run-levels.sh GAMES MOVETIME [BINARY] [PAIRS...]
#   PAIRS like "0:5" (level against level) or "10:sjaak" / "20:fsf" (level against an anchor)
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/scripts/record.sh
games=${1:-40}; movetime=${2:-300}
binary=${3:-$PWD/.build/release/xiangqi}
shift 3 || true
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(0:5 5:10 10:15 15:20 5:sjaak 10:sjaak 20:fsf)
[ -x "$binary" ] || swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
snapshot=$(mktemp -d)
cp "$binary" "$snapshot/xiangqi"
runner="$snapshot/runner"
cp "$binary" "$runner"
commit="$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
binary="$snapshot/xiangqi"
bin() {
    case "$1" in sjaak) echo /usr/games/sjaakii ;; fsf) echo /usr/games/fairy-stockfish ;; *) echo "$binary" ;; esac
}
spec() {
    case "$1" in
        sjaak) echo "/usr/games/sjaakii proto=uci" ;;
        fsf) echo "/usr/games/fairy-stockfish proto=uci opt.Hash=16" ;;
        *) echo "$binary proto=uci opt.Hash=16 opt.OwnBook=false opt.SkillLevel=$1 name=level-$1" ;;
    esac
}
# What the match sets, for the header (whose evaluation is the engine's at its defaults; the
# report's "A is"/"B is" lines and the JSON give it at the level played).
settings() {
    case "$1" in sjaak | fsf) echo "full strength" ;; *) echo "played at Skill Level $1" ;; esac
}
for pair in "${pairs[@]}"; do
    a=${pair%%:*}; b=${pair#*:}
    out="bench/records/matches/levels-$a-vs-$b-movetime-$movetime${LADDER_TAG:+-$LADDER_TAG}"
    rm -f "$out.pgn" "$out.pgn.gz"
    {
        header "$(basename "$out")" "$(bin "$b")" "$(settings "$b")" "$(bin "$a")" "$(settings "$a")" \
            "movetime $movetime ms" "LADDER_TAG=${LADDER_TAG:-} bench/scripts/run-levels.sh $games $movetime BINARY $pair"
        echo "Binary: the release build of $commit, copied to $binary"
        "$runner" match -q --engine "$(spec "$b")" --engine "$(spec "$a")" --games "$games" \
            --movetime "$movetime" --openings bench/data/openings.txt --pgn "$out.pgn" 2>/dev/null
    } > "$out.txt" || true
    pack_pgn "$out.pgn"
    echo "$pair: $(grep -E 'Elo|Score' "$out.txt" | tail -2 | tr '\n' ' ')"
done
