#!/usr/bin/env bash
# A sequential test of one engine build against another with `xiangqi match`: paired openings
# from bench/openings.txt (each with both colours), one game at a time so that each engine has
# a core of this 2-core machine, Hash 16 MB, our book off, pentanomial SPRT.
#   bench/sprt.sh NAME NEW OLD TC ELO0 ELO1 MAXGAMES
# NEW and OLD are git revisions (built with bench/build-rev.sh; "." is the working tree's
# release build) or "fsf" for Fairy-Stockfish 11.1. TC is BASE+INC in seconds.
# Writes bench/matches/NAME.txt (the engines' commits and bench signatures, the command, the
# match report) and bench/matches/NAME.pgn.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 new=$2 old=$3 tc=$4 elo0=$5 elo1=$6 games=$7
swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
runner="$PWD/.build/release/xiangqi"

# Prints "SPEC<TAB>DESCRIPTION" for a revision, "." or fsf.
engine() {
    case "$1" in
    fsf)
        printf '%s\t%s\n' "/usr/games/fairy-stockfish proto=uci opt.Hash=16" \
            "Fairy-Stockfish $(dpkg-query -W -f='${Version}' fairy-stockfish 2>/dev/null || echo '?')"
        ;;
    *)
        local bin commit
        if [ "$1" = . ]; then
            # A copy, so that rebuilding the tree during the match cannot change the engine.
            commit="$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
            mkdir -p ".build-rev/snapshot-$name"
            bin="$PWD/.build-rev/snapshot-$name/xiangqi"
            cp "$runner" "$bin"
        else
            bin=$(bench/build-rev.sh "$1")
            commit=$(git rev-parse --short=7 "$1")
        fi
        local signature
        signature=$("$bin" bench | awk '/Nodes searched/ {print $3}')
        printf '%s\t%s\n' "$bin proto=uci opt.Hash=16 opt.OwnBook=false" "xiangqi $commit, bench $signature"
        ;;
    esac
}
mkdir -p ".build-rev/snapshot-$name"
matchRunner="$PWD/.build-rev/snapshot-$name/runner"
cp "$runner" "$matchRunner"
IFS=$'\t' read -r newSpec newText < <(engine "$new")
IFS=$'\t' read -r oldSpec oldText < <(engine "$old")
out="bench/matches/$name"
command=(xiangqi match --engine "$newSpec" --engine "$oldSpec" --tc "$tc" --games "$games"
         --openings bench/openings.txt --concurrency 1 --sprt "$elo0" "$elo1" --pgn "$out.pgn")
{
    echo "# $name"
    echo "A: $newText"
    echo "B: $oldText"
    echo "Time control: $tc; openings: bench/openings.txt (paired, colours swapped); one game at a time"
    echo "Machine: $(nproc) cores, $(uname -m); date $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "Command: bench/sprt.sh $*"
    "$matchRunner" match "${command[@]:2}" 2>/dev/null
} > "$out.txt.partial"
mv "$out.txt.partial" "$out.txt"
tail -12 "$out.txt"
