#!/usr/bin/env bash
# Plays pairs of an `xiangqi spsa` tuning on the lent 16-core machine (no Swift, no git, a
# 10-minute limit per command), a slice per command, each slice resuming from the trace.
#   bench/scripts/lent-machine-spsa.sh TRACE SECONDS [CONCURRENCY=15]
# The trace's header names the engine by a path in the repository (for tuning 1,
# .build-rev/spsa-134fd46/xiangqi); that binary also runs the tuner. Before the first command,
# on this machine: pack it stripped (the working tree and what is carried must stay under
# 64 MB), with the SQLite library the static build links (as for lent-machine-match.sh):
#   strip -o /tmp/xiangqi .build-rev/spsa-134fd46/xiangqi && mkdir -p .build-rev/devspsa
#   tar chJf .build-rev/devspsa/spsa.tar.xz --transform 's|^tmp/|.build-rev/spsa-134fd46/|' \
#       /tmp/xiangqi -C / usr/lib/x86_64-linux-gnu/libsqlite3.so.0
#   (device, carry .build-rev/devspsa) tar xJf .build-rev/devspsa/spsa.tar.xz && \
#       LD_LIBRARY_PATH=$PWD/usr/lib/x86_64-linux-gnu bench/scripts/lent-machine-spsa.sh TRACE 450
# Each command tunes for SECONDS, then sends SIGTERM: the games in progress finish (a pair
# whose second game has not started is dropped), so leave a game's length (a minute at
# 10 s + 0.1 s) before the limit. It leaves in $OUT: trace.jsonl (the whole trace: the one
# carried plus the pairs played there), machine.txt and spsa.log. Back here, check that the
# local trace is the start of the returned one and replace it:
#   cmp -n $(stat -c %s TRACE) TRACE FILES_AT/trace.jsonl && cp FILES_AT/trace.jsonl TRACE
set -u
cd "$(dirname "$0")/../.."
trace=${1:?usage: lent-machine-spsa.sh TRACE SECONDS [CONCURRENCY]} stop=${2:?usage: lent-machine-spsa.sh TRACE SECONDS [CONCURRENCY]}
concurrency=${3:-15}
[ -f "$trace" ] || { echo "lent-machine-spsa: no trace $trace" >&2; exit 1; }
engine=$(python3 -c 'import json, shlex, sys; print(shlex.split(json.loads(open(sys.argv[1]).readline())["engine"])[0])' "$trace")
[ -x "$engine" ] || { echo "lent-machine-spsa: the trace's engine $engine is not here (unpack it first)" >&2; exit 1; }
{
    nproc
    lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node\(s\)'
    ldd "$engine" | grep 'not found'
    "$engine" --version
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
"$engine" spsa "$trace" --concurrency "$concurrency" > "$OUT/spsa.log" 2>&1 &
pid=$!
for ((waited = 0; waited < stop; waited += 5)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 5
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
cp "$trace" "$OUT/trace.jsonl"
tail -22 "$OUT/spsa.log"
