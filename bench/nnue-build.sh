#!/usr/bin/env bash
# Makes a candidate network again from this repository alone (bench/nnue.md has their matches):
#   bench/nnue-build.sh [CANDIDATE [OUTPUT]]   (default: candidate 2, .build-nnue/candidate-N/net.nnue)
# The data of both: searches by the engine of commit 12c6787 (bench 2721728), built in
# .build-rev/ (bench/build-rev.sh); every position from ply 8 of the 27,610 master games in
# books/source (CC BY 4.0) scored by a 1000-node search (28 chunks of 1000 games, 1,606,959
# positions, about 34 minutes on 2 cores), and self-play games of seed 1 at 1000 nodes per move
# from 6-9 random plies (chunks of 100 games, about 10 minutes per 100 chunks).
# Candidate 1 (6x256, hash 2f08c29af561cf3c): self-play chunks 0-99 (997,732 positions);
#   the trainer of 12c6787, 12 epochs, batch 1024, seed 1, 2 threads; 5% of the positions
#   held out (by position).
# Candidate 2 (6x256, hash b70ea56d20fec70a): self-play chunks 0-299 (2,982,413 positions);
#   the trainer of f8d7e8e (factorized king buckets, early stopping), score weight 1.0 (the
#   search score alone), 4 epochs (the third kept), batch 1024, seed 1, 2 threads; validated
#   on other games: seed 99 chunks 0-4 (49,273 positions).
# The data chunks are resumable (a rerun skips those that exist; 50614f7 made self-play
# chunks 100-299 and the validation games with the same search, bench 2721728); game i
# depends only on the seed and i, and training only on the data (in this order), the seed and
# the thread count, so the output has the same hash. Data logs and loss curves of the runs
# that made them are in bench/nnue-training/.
set -euo pipefail
main() {
    cd "$(dirname "$0")/.."
    local candidate=${1:-2}
    local output=${2:-.build-nnue/candidate-$candidate/net.nnue} data=.build-nnue/data-12c6787
    local bin
    bin=$(bench/build-rev.sh 12c6787)
    mkdir -p "$data" "$(dirname "$output")"
    XIANGQI_BIN=$bin bench/nnue-data.sh "$data/master" 0 28 1000 2 1000 master
    case $candidate in
    1)
        XIANGQI_BIN=$bin bench/nnue-data.sh "$data/selfplay" 0 100 1000 2 100 1
        "$bin" train "$data"/master/chunk-*.bin "$data"/selfplay/chunk-000[0-9][0-9].bin -o "$output" \
            --hidden 256 --buckets 6 --epochs 12 --batch-size 1024 --threads 2 --seed 1 \
            --loss-log "$output.loss.txt"
        ;;
    2)
        XIANGQI_BIN=$bin bench/nnue-data.sh "$data/selfplay" 0 300 1000 2 100 1
        XIANGQI_BIN=$bin bench/nnue-data.sh "$data/validation-seed99" 0 5 1000 2 100 99
        "$(bench/build-rev.sh f8d7e8e)" train "$data"/master/chunk-*.bin "$data"/selfplay/chunk-00[0-2][0-9][0-9].bin \
            --validation "$data"/validation-seed99/chunk-*.bin -o "$output" \
            --hidden 256 --buckets 6 --epochs 4 --batch-size 1024 --threads 2 --seed 1 --score-weight 1.0 \
            --loss-log "$output.loss.txt"
        ;;
    *)
        echo "no candidate $candidate (1 or 2)" >&2
        exit 1
        ;;
    esac
}
main "$@"
