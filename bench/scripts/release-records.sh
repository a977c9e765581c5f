#!/usr/bin/env bash
# The records of a release, for the build of HEAD (README figures come from them):
#   PIKAFISH_HCE=PATH bench/scripts/release-records.sh [STEP...]
# Steps, in this order unless named (each skipped when its record is complete, so a rerun in a
# later session goes on where the last one stopped; a match resumes from its games):
#   gauntlet  the engine against Pikafish-HCE (the outside reference: PIKAFISH_HCE names the
#             binary that ../shared/anchors/build-pikafish-hce.sh made) at 10 s + 0.1 s,
#             400 games, two at a time, books off: bench/records/matches/VERSION-COMMIT-vs-pikafish-hce-tc-10+0.1
#   gauntlet-20  the same at 20 s + 0.2 s, 200 games
#   node-rate the node rate with the network against Fairy-Stockfish 11.1, 36 positions at
#             500 ms, side by side (bench/scripts/search-speed.py): DIR/node-rate.txt
#   fuzz      1,000,000 mutated protocol lines against the release build (bench/scripts/fuzz.sh): DIR/fuzz.txt
#   tsan      20,000 lines against a thread-sanitizer build (bench/scripts/fuzz-tsan.sh): DIR/fuzz-tsan.txt
#   threads   2 threads against 1 at 10 s + 0.1 s, 200 games, one at a time (3 searching
#             threads need the 2 cores): bench/records/matches/VERSION-COMMIT-threads-2-vs-1-tc-10+0.1
# DIR is bench/records/release-VERSION-COMMIT/, whose README.txt lists the records made.
# Run nothing else beside it: the matches and the node rate use both cores.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local steps=("$@")
    [ ${#steps[@]} -gt 0 ] || steps=(gauntlet node-rate fuzz tsan threads gauntlet-20)
    swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
    git diff --quiet HEAD -- Sources Package.swift || { echo "uncommitted source changes: a release is a commit" >&2; exit 1; }
    local commit version
    commit=$(git rev-parse --short=7 HEAD)
    version=$(.build/release/xiangqi --version | head -1 | awk '{print $2}')
    local tag=$version-$commit dir=bench/records/release-$version-$commit
    mkdir -p "$dir"
    local step
    for step in "${steps[@]}"; do
        case "$step" in
        gauntlet) match "$tag-vs-pikafish-hce-tc-10+0.1" . pikafish 10+0.1 - - 400 2 ;;
        gauntlet-20) match "$tag-vs-pikafish-hce-tc-20+0.2" . pikafish 20+0.2 - - 200 2 ;;
        threads) match "$tag-threads-2-vs-1-tc-10+0.1" .@2 . 10+0.1 - - 200 1 ;;
        node-rate)
            [ -s "$dir/node-rate.txt" ] && continue
            {
                echo "# Node rate of $tag against Fairy-Stockfish 11.1, side by side; $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
                echo "\$ python3 bench/scripts/search-speed.py 500 .build/release/xiangqi"
                python3 bench/scripts/search-speed.py 500 .build/release/xiangqi
            } > "$dir/node-rate.txt.partial"
            mv "$dir/node-rate.txt.partial" "$dir/node-rate.txt"
            ;;
        fuzz)
            [ -s "$dir/fuzz.txt" ] && continue
            bench/scripts/fuzz.sh 1000000 1
            cp bench/records/fuzz.txt "$dir/fuzz.txt"
            ;;
        tsan)
            [ -s "$dir/fuzz-tsan.txt" ] && continue
            bench/scripts/fuzz-tsan.sh 20000 21 900
            cp bench/records/fuzz-tsan.txt "$dir/fuzz-tsan.txt"
            ;;
        *) echo "no step $step" >&2; exit 1 ;;
        esac
    done
    {
        echo "# The records of release $tag (bench/scripts/release-records.sh)"
        for record in "bench/records/matches/$tag"-*.txt "$dir"/*.txt; do
            [ -f "$record" ] && [ "$record" != "$dir/README.txt" ] && echo "$record"
        done
    } > "$dir/README.txt"
    cat "$dir/README.txt"
}

# Plays a match of sprt.sh's arguments unless its record is complete; resumes a partial one.
match() {
    local name=$1 record=bench/records/matches/$1.txt
    if [ -f "$record" ] && ! grep -q "^Interrupted" <(tail -3 "$record"); then return; fi
    if [ -f "$record" ] || [ -f "$record.partial" ]; then
        CONCURRENCY=${8:-1} bench/scripts/sprt.sh --resume "$name"
    else
        bench/scripts/sprt.sh "$@"
    fi
}
main "$@"
