# Sourced by the match scripts of bench/: helpers that write a match record's header.
# describe BINARY   prints "xiangqi COMMIT, bench N" for a build of this repository (the
#                   commit of the working tree, "+changes" when Sources differ from it),
#                   or the package version for an installed engine such as Fairy-Stockfish;
#                   then what the engine says it is at its defaults: its `id name` and the
#                   evaluation it reports at `isready` (the match report's "A is" and "B is"
#                   lines and the PGN's RedEngine/BlackEngine tags give it with the match's
#                   own settings).
describe() {
    case "$1" in
    /usr/games/*)
        local package
        package=$(dpkg-query -S "$1" 2>/dev/null | cut -d: -f1 | head -1)
        echo -n "$(basename "$1") ${package:+$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null)}"
        ;;
    *)
        local commit signature
        commit="$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
        signature=$("$1" bench 2>/dev/null | awk '/Nodes searched/ {print $3}')
        echo -n "xiangqi $commit, bench $signature"
        ;;
    esac
    local said
    said=$(printf 'uci\nisready\nquit\n' | timeout 10 "$1" 2>/dev/null \
        | sed -n -e 's/^id name //p' -e 's/^info string evaluation: /evaluation: /p' \
                 -e 's/^info string \(.*NNUE evaluation.*\)/\1/p' | paste -sd ';' | sed 's/;/; /g')
    echo "${said:+; $said}"
}

# header NAME A_BINARY A_SETTINGS B_BINARY B_SETTINGS LIMIT COMMAND...
# prints the record header: both engines, the limit, the machine, the date and the command.
header() {
    echo "# $1"
    echo "A: $(describe "$2") ($3)"
    echo "B: $(describe "$4") ($5)"
    echo "Limit: $6; openings: ${OPENINGS:-bench/data/openings.txt} (paired, colours swapped); one game at a time"
    echo "Machine: $(nproc) cores, $(uname -m); date $(date -u +%Y-%m-%dT%H:%MZ)"
    shift 6
    echo "Command: $*"
}

# pack_pgn FILE.pgn   gzips a finished match's games to FILE.pgn.gz (-n: the same games give
#                     the same bytes); the scripts that read PGNs take either form.
pack_pgn() {
    if [ -f "$1" ]; then gzip -9 -n -f "$1"; fi
}
