#!/usr/bin/env bash
# Plays a bench/scripts/sprt.sh match on the lent 16-core machine (no Swift, no git, a 10-minute
# limit per command), a slice of it per command, resumable from one command to the next.
#   bench/scripts/lent-machine-match.sh NAME SECONDS [SPEED] -- SPRT.SH ARGUMENTS...
# Before the first command, on this machine: a release build and Fairy-Stockfish copied into
# .build-rev/device/ (xiangqi stripped: the working tree and what is carried must stay under
# 64 MB), and this script run there with that folder carried:
#   mkdir -p .build-rev/device && strip -o .build-rev/device/xiangqi .build/release/xiangqi
#   cp /usr/games/fairy-stockfish .build-rev/device/
#   (device) XIANGQI_COMMIT=$(git rev-parse --short=7 HEAD) bench/scripts/lent-machine-match.sh \
#            NAME 500 -- NAME . fsf 10+0.1 - - 200 7
# Each command plays for SECONDS, then stops the match (the games in progress finish), and
# leaves in $OUT: match.tgz (the record and the PGN: their names hold a "+", which the machine
# does not send back by name), machine.txt (CPU, cores, the engine's version) and sprt.log;
# with SPEED "yes" first bench/scripts/threads-speed.py's node rates (threads-speed.txt).
# Unpack match.tgz here (tar xzf) and give "--resume NAME" as the arguments of the next
# command: the record and PGN travel back as untracked files, and the binary is the same.
# CONCURRENCY (sprt.sh's last argument): at most half the cores when one engine has 2 threads,
# so that every searching thread has a core of its own.
set -u
cd "$(dirname "$0")/../.."
export XIANGQI_BIN=$PWD/.build-rev/device/xiangqi FAIRY_STOCKFISH=$PWD/.build-rev/device/fairy-stockfish
: "${XIANGQI_COMMIT:?set XIANGQI_COMMIT to the commit the binary was built from}"
export XIANGQI_COMMIT
name=$1 stop=$2 speed=no
shift 2
if [ "${1:-}" != -- ]; then speed=$1; shift; fi
shift
{
    nproc
    lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node\(s\)'
    ldd "$XIANGQI_BIN" | grep 'not found'
    "$XIANGQI_BIN" --version
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
if [ "$speed" = yes ]; then
    python3 bench/scripts/threads-speed.py 2 3000 15 3 "$XIANGQI_BIN" > "$OUT/threads-speed.txt" 2>&1
    cat "$OUT/threads-speed.txt"
fi
# A resumed "." engine is the snapshot of the first run: the same binary, carried again.
mkdir -p ".build-rev/snapshot-$name"
cp "$XIANGQI_BIN" ".build-rev/snapshot-$name/xiangqi"
bench/scripts/sprt.sh "$@" > "$OUT/sprt.log" 2>&1 &
pid=$!
for ((waited = 0; waited < stop; waited += 5)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 5
done
pkill -INT -f "snapshot-.*/runner match"
wait "$pid"
tar czf "$OUT/match.tgz" bench/records/matches/"$name".*
tail -15 "$OUT/sprt.log"
