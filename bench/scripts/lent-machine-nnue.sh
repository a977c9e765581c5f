#!/usr/bin/env bash
# Makes candidate network 6, or CANDIDATE=7 (bench/scripts/nnue-build.sh 6 or 7, the same games,
# 7 on more of them; CHUNKS=N for another count) on the lent 16-core machine (no
# Swift, no git, a 10-minute limit per command), in slices of one command each. The data stay
# on the machine between commands while it is held; only the network and the logs come back.
#   bench/scripts/lent-machine-nnue.sh data SECONDS   plays self-play chunks for SECONDS in
#                                                     16 processes (a rerun skips the chunks
#                                                     made; a chunk cut off is played again)
#   bench/scripts/lent-machine-nnue.sh train          trains on chunks 0 to CHUNKS-1 (default
#                                                     856 for 6, 1430 for 7, all of which must
#                                                     be made) and puts
#                                                     in $OUT: net.nnue, its loss curve and
#                                                     the data logs
# Before the first command, on this machine: the release build of de3da8f (the commit whose
# search makes the data; a later build with the same bench signature searches alike) stripped
# into .build-rev/device/ and carried:
#   mkdir -p .build-rev/device && strip -o .build-rev/device/xiangqi .build/release/xiangqi
#   (device) bench/scripts/lent-machine-nnue.sh data 540
#   (device) bench/scripts/lent-machine-nnue.sh data 540
#   (device) bench/scripts/lent-machine-nnue.sh train
# Then compare net.nnue's hash with the one made here (6: ee6905d58f51c781, 7: 462a5672935b5325,
# bench/nnue.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
export XIANGQI_BIN=$PWD/.build-rev/device/xiangqi
candidate=${CANDIDATE:-6}
output=.build-nnue/candidate-$candidate/net.nnue
data=.build-nnue/data-de3da8f
step=${1:?data SECONDS or train}
out=${OUT:-/tmp/lent-machine-nnue}
mkdir -p "$out"
{
    nproc
    "$XIANGQI_BIN" --version
    printf 'uci\nbench\nquit\n' | "$XIANGQI_BIN" 2>&1 | grep 'Nodes searched'
} > "$out/machine.txt" 2>&1
case $step in
data)
    seconds=${2:?seconds}
    start=$(date +%s)
    JOBS=$(nproc) timeout "$seconds" bench/scripts/nnue-build.sh "$candidate" "$output" data > "$out/data.log" 2>&1 || true
    made=$(ls "$data"/selfplay-seed6/chunk-*.bin 2>/dev/null | wc -l)
    echo "data: $made chunks made after $(( $(date +%s) - start )) s" | tee -a "$out/data.log"
    ;;
train)
    bench/scripts/nnue-build.sh "$candidate" "$output" train > "$out/train.log" 2>&1
    cp "$output" "$output.loss.txt" "$out/"
    # The per-chunk logs (chunk-k.bin.log of chunks cut off are left out: they were made again).
    cat "$data"/selfplay-seed6/log.txt > "$out/data-selfplay-1000-seed6.log" 2>/dev/null || true
    cat "$data"/validation-seed96/log.txt > "$out/data-validation-1000-seed96.log" 2>/dev/null || true
    tail -3 "$out/train.log"
    ;;
*)
    echo "usage: $0 data SECONDS | train" >&2
    exit 1
    ;;
esac
