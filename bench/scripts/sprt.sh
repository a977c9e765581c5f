#!/usr/bin/env bash
# A sequential test of one engine build against another with `xiangqi match`: paired openings
# (each with both colours, see OPENINGS), as many games at a time as the cores hold (see
# CONCURRENCY), Hash 16 MB, our book off, pentanomial SPRT.
#   bench/scripts/sprt.sh NAME NEW OLD TC ELO0 ELO1 MAXGAMES [CONCURRENCY] [OPENINGS]
# NEW and OLD are git revisions (built with bench/scripts/build-rev.sh; "." is the working tree's
# release build), "fsf" for Fairy-Stockfish 11.1 or "pikafish" for Pikafish-HCE (the outside
# reference: PIKAFISH_HCE=PATH names the binary that ../shared/anchors/build-pikafish-hce.sh made); a suffix "@N" (e.g. "226bc4a@2") makes
# that engine search with N threads (Threads option), else it has one; then options to set,
# each after a comma: ".,EvalFile=networks/candidate.nnue" or ".,Use NNUE=false". TC is BASE+INC in seconds, or movetime=MS
# for a fixed time per move. ELO0 and ELO1 "-" play MAXGAMES games without a sequential test.
# OPENINGS (default bench/data/openings-2000.txt, 2,200 openings: up to 4,400 games without a
# repeat) is the file of paired openings; the record's command names it, so that a resume plays
# the same ones (records that name none played bench/data/openings.txt, 100 openings).
# CONCURRENCY plays that many games at once; by default as many as the machine has cores
# divided by the larger engine's threads (only the side to move thinks: 2 on this 2-core VM
# with one thread each, shown safe in bench/match-runner.md; 1 with "@2"); the record's
# header says how many.
# Environment: XIANGQI_BIN=PATH uses that release build of the working tree for "." and as the
# match runner instead of building (a machine without Swift); XIANGQI_COMMIT names its commit
# where there is no git; FAIRY_STOCKFISH=PATH (default /usr/games/fairy-stockfish).
# Writes bench/records/matches/NAME.txt (the engines' commits and bench signatures, the machine and
# each engine's node rate on it by its own bench ("Speed:"), the command, the
# match report) and bench/records/matches/NAME.pgn, gzipped to NAME.pgn.gz when the match ends.
#   bench/scripts/sprt.sh --resume NAME
# goes on with an interrupted match (a stopped session, SIGINT): it reruns the command of
# NAME's record with `xiangqi match --resume`, so the games in NAME.pgn(.gz) count, and appends the
# new report (over all games) to the record. Engines given as git revisions are rebuilt
# identically; a "." snapshot must still be in .build-rev/. MAXGAMES=N raises the match's
# game limit to N (a test still undecided at its limit goes on; the record says so); pass it
# at each later resume too, since the record's command keeps the first limit. CONCURRENCY=N plays
# the resumed games N at a time (a match begun on the lent machine and finished here); the
# record's "Resumed" and "Machine" lines say so.
# The whole script is one function, read before it runs, and its call exits on the same line:
# editing the file while a match plays (hours) cannot change what the running copy does. (Bash
# reads a script as it goes; with the call on a line of its own, an edit that lengthened the
# file in place would be read, and run, after the match.)
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    resume=false
    if [ "${1:-}" = --resume ]; then
        resume=true
        record=bench/records/matches/$2.txt
        [ -f "$record" ] || record=$record.partial
        [ -f "$record" ] || { echo "no record bench/records/matches/$2.txt to resume" >&2; exit 1; }
        # shellcheck disable=SC2046
        # (the command was written with printf %q, so eval gives back its words)
        eval "set -- $(sed -n -E 's/^Command: bench\/(scripts\/)?sprt.sh //p' "$record" | head -1)"
    fi
    name=$1 new=$2 old=$3 tc=$4 elo0=$5 elo1=$6 games=$7 concurrency=${8:-}
    if [ -z "$concurrency" ]; then
        if $resume; then
            concurrency=1   # records without the argument were played one game at a time
        else
            # As many games as the cores hold, each searching thread with a core of its own.
            local threads=1 engineThreads
            for engineThreads in "$new" "$old"; do
                engineThreads=${engineThreads%%,*}
                case "$engineThreads" in *@*) engineThreads=${engineThreads##*@} ;; *) engineThreads=1 ;; esac
                [ "$engineThreads" -gt "$threads" ] && threads=$engineThreads
            done
            concurrency=$(( $(nproc) / threads ))
            [ "$concurrency" -ge 1 ] || concurrency=1
        fi
    fi
    # New tests draw each opening once (bench/data/openings-2000.txt); a resumed record that
    # names none played bench/data/openings.txt, as every test did before.
    if $resume; then openings=${9:-bench/data/openings.txt}; else openings=${9:-bench/data/openings-2000.txt}; fi
    [ -f "$openings" ] || { echo "no openings file $openings" >&2; exit 1; }
    set -- "$name" "$new" "$old" "$tc" "$elo0" "$elo1" "$games" "$concurrency" "$openings"
    local raised=""
    if $resume && [ -n "${MAXGAMES:-}" ] && [ "$MAXGAMES" != "$games" ]; then
        raised="; game limit raised from $games to $MAXGAMES"
        games=$MAXGAMES
    fi
    if $resume && [ -n "${CONCURRENCY:-}" ] && [ "$CONCURRENCY" != "$concurrency" ]; then
        raised="$raised; $CONCURRENCY games at a time (was $concurrency)"
        concurrency=$CONCURRENCY
    fi
    local fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
    if [ -n "${XIANGQI_BIN:-}" ]; then
        runner=$XIANGQI_BIN
    else
        swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
        runner="$PWD/.build/release/xiangqi"
    fi

    # Prints "SPEC<TAB>DESCRIPTION" for a revision, "." or fsf, with an optional "@THREADS"
    # and options after commas.
    engine() {
        local threads=1 base=${1%%,*} options=() option spec text
        [ "$base" = "$1" ] || IFS=, read -r -a options <<< "${1#*,}"
        case "$base" in *@*) threads=${base##*@} ;; esac
        IFS=$'\t' read -r spec text < <(engineWithoutThreads "${base%@*}")
        if [ "$threads" -gt 1 ]; then spec="$spec opt.Threads=$threads"; text="$text, $threads threads"; fi
        for option in "${options[@]}"; do
            spec="$spec 'opt.$option'"
            text="$text, $option"
        done
        printf '%s\t%s\n' "$spec" "$text"
    }
    engineWithoutThreads() {
        case "$1" in
        pikafish)
            # The outside reference (../shared/anchors/build-pikafish-hce.sh builds it; its path
            # comes from the environment, never from ../shared). Records name its `id name`.
            local pikafish=${PIKAFISH_HCE:-}
            [ -x "$pikafish" ] || { echo "set PIKAFISH_HCE to a Pikafish-HCE binary" >&2; exit 1; }
            printf '%s\t%s\n' "$pikafish proto=uci opt.Hash=16" \
                "$(printf 'uci\nquit\n' | "$pikafish" | sed -n 's/^id name //p' | head -1) (Pikafish-HCE 088b062 built from its public source)"
            ;;
        fsf)
            # Its banner names its version ("Fairy-Stockfish 11.1 LB 64 by ...").
            printf '%s\t%s\n' "$fsf proto=uci opt.Hash=16" \
                "$(echo quit | "$fsf" | head -1 | sed 's/ by .*//')"
            ;;
        *)
            local bin commit
            if [ "$1" = . ] && $resume; then
                bin="$PWD/.build-rev/snapshot-$name/xiangqi"
                [ -x "$bin" ] || { echo "the snapshot $bin of the resumed match is gone" >&2; exit 1; }
                commit=$(sed -n 's/^A: xiangqi \([^,]*\),.*/\1/p' "bench/records/matches/$name.txt"* | head -1)
            elif [ "$1" = . ]; then
                # A copy, so that rebuilding the tree during the match cannot change the engine.
                commit=${XIANGQI_COMMIT:-$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo '+changes')}
                mkdir -p ".build-rev/snapshot-$name"
                bin="$PWD/.build-rev/snapshot-$name/xiangqi"
                cp "$runner" "$bin"
            else
                bin=$(bench/scripts/build-rev.sh "$1")
                commit=$(git rev-parse --short=7 "$1")
            fi
            local signature
            signature=$("$bin" bench | awk '/Nodes searched/ {print $3}')
            printf '%s\t%s\n' "$bin proto=uci opt.Hash=16 opt.OwnBook=false" "xiangqi $commit, bench $signature"
            ;;
        esac
    }
    machine() {
        echo "$(nproc) cores, $(uname -m), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); date $(date -u +%Y-%m-%dT%H:%MZ)"
    }
    # Each engine's node rate on this machine by its own `bench` (one thread, one engine at a
    # time, before the games): a slower machine plays like a shorter clock, and the two engines
    # need not slow down alike, so records of different machines are told apart by it.
    # Fairy-Stockfish's bench plays chess, so it has none.
    speedOf() {
        local bin=${1%% *}
        if [ "$bin" = "$fsf" ]; then echo "-"; return; fi
        "$bin" bench 2>&1 | awk -F: '/^Nodes\/second/ {gsub(/ /, "", $2); rate = $2} END {print rate == "" ? "-" : rate}'
    }
    speeds() {
        echo "A $(speedOf "$newSpec") nodes/s, B $(speedOf "$oldSpec") nodes/s (each engine's own bench, one thread, one at a time, before the games)"
    }
    mkdir -p ".build-rev/snapshot-$name"
    matchRunner="$PWD/.build-rev/snapshot-$name/runner"
    cp "$runner" "$matchRunner"
    IFS=$'\t' read -r newSpec newText < <(engine "$new")
    IFS=$'\t' read -r oldSpec oldText < <(engine "$old")
    # The PGN and the report name each engine (both builds call themselves "Xiangqi 0.2").
    newSpec="$newSpec \"name=A: ${newText//\"/}\""
    oldSpec="$oldSpec \"name=B: ${oldText//\"/}\""
    out="bench/records/matches/$name"
    case "$tc" in
    movetime=*) limit=(--movetime "${tc#movetime=}") ;;
    *) limit=(--tc "$tc") ;;
    esac
    sprt=()
    [ "$elo0" = - ] || sprt=(--sprt "$elo0" "$elo1")
    command=(xiangqi match --engine "$newSpec" --engine "$oldSpec" "${limit[@]}" --games "$games"
             --openings "$openings" --concurrency "$concurrency" "${sprt[@]}" --pgn "$out.pgn")
    if $resume; then
        [ -f "$out.txt" ] && mv "$out.txt" "$out.txt.partial"
        # The games so far, packed when the last run ended.
        if [ -f "$out.pgn.gz" ]; then gzip -d -f "$out.pgn.gz"; fi
        {
            echo "Resumed: $(date -u +%Y-%m-%dT%H:%MZ); A: $newText; B: $oldText$raised"
            echo "Machine: $(machine)"
            echo "Speed: $(speeds)"
            "$matchRunner" match "${command[@]:2}" --resume 2>/dev/null
        } >> "$out.txt.partial"
    else
        {
            echo "# $name"
            echo "A: $newText"
            echo "B: $oldText"
            if [ "$concurrency" = 1 ]; then at="one game at a time"; else at="$concurrency games at a time"; fi
            echo "Time control: $tc; openings: $openings (paired, colours swapped); $at"
            echo "Machine: $(machine)"
            echo "Speed: $(speeds)"
            echo "Command: bench/scripts/sprt.sh $(printf '%q ' "$@")"
            "$matchRunner" match "${command[@]:2}" 2>/dev/null
        } > "$out.txt.partial"
    fi
    mv "$out.txt.partial" "$out.txt"
    # -n: no name or time stamp inside, so that the same games give the same bytes.
    gzip -9 -n -f "$out.pgn"
    tail -12 "$out.txt"
}
main "$@"; exit
