#!/usr/bin/env bash
# Makes the first candidate network (6 king buckets x 256, hash 2f08c29af561cf3c; its match
# against the handcrafted evaluation is in bench/nnue.md) again from this repository alone:
#   bench/nnue-build.sh [OUTPUT]        (default OUTPUT: .build-nnue/candidate-1/net.nnue)
# 1. builds the engine of commit 12c6787 (bench 2721728), whose searches scored the data, in
#    .build-rev/ (bench/build-rev.sh);
# 2. scores every position from ply 8 of the 27,610 master games in books/source (CC BY 4.0)
#    with a 1000-node search: 28 chunks of 1000 games (bench/nnue-data.sh ... master),
#    1,606,959 positions, about 34 minutes on 2 cores;
# 3. plays games 0-9,999 of seed 1 at 1000 nodes per move from 6-9 random plies: 100 chunks of
#    100 games, 997,732 positions, about 16 minutes;
# 4. trains 6 king buckets x 256 for 12 epochs, batch 1024, seed 1, 2 threads (xiangqi train,
#    about 8 minutes) and writes OUTPUT and OUTPUT.loss.txt.
# The data chunks are resumable (a rerun skips those that exist); game i depends only on the
# seed and i, and training only on the data (in this order), the seed and the thread count,
# so the output has the same hash. The data logs and loss curve of the run that made it are in
# bench/nnue-training/.
set -euo pipefail
main() {
    cd "$(dirname "$0")/.."
    local output=${1:-.build-nnue/candidate-1/net.nnue} data=.build-nnue/candidate-1
    local bin
    bin=$(bench/build-rev.sh 12c6787)
    mkdir -p "$data" "$(dirname "$output")"
    XIANGQI_BIN=$bin bench/nnue-data.sh "$data/master" 0 28 1000 2 1000 master
    XIANGQI_BIN=$bin bench/nnue-data.sh "$data/selfplay" 0 100 1000 2 100 1
    "$bin" train "$data"/master/chunk-*.bin "$data"/selfplay/chunk-*.bin -o "$output" \
        --hidden 256 --buckets 6 --epochs 12 --batch-size 1024 --threads 2 --seed 1 \
        --loss-log "$output.loss.txt"
}
main "$@"
