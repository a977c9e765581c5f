#!/usr/bin/env bash
# Makes a candidate network again from this repository alone (bench/nnue.md has their matches):
#   bench/nnue-build.sh [CANDIDATE [OUTPUT]]   (default: candidate 3, the shipped network; .build-nnue/candidate-N/net.nnue)
# The data of candidates 1 and 2: searches by the engine of commit 12c6787 (bench 2721728), built in
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
# Candidate 3 (6x256, hash 66f8e295109042c0): data from the shipped network's engine instead:
#   commit 8322d63 (bench 2728886) searching with networks/xiangqi.nnue (b70ea56d20fec70a),
#   self-play games of seed 3 at 1000 nodes, 1 thread, chunks 0-839 (84,000 games, 76,256
#   played, 8,397,617 positions; about 850 positions/s, so 2.7 hours of one core), no master
#   games; validated on seed 98 chunks 0-4 (51,091 positions); the trainer of 8322d63, score
#   weight 1.0, 5 epochs (the fifth kept), batch 1024, seed 1, 1 thread.
# The data chunks are resumable (a rerun skips those that exist; 50614f7 made self-play
# chunks 100-299 and the validation games with the same search, bench 2721728); game i
# depends only on the seed and i, and training only on the data (in this order), the seed and
# the thread count, so the output has the same hash. Data logs and loss curves of the runs
# that made them are in bench/nnue-training/.
set -euo pipefail
main() {
    cd "$(dirname "$0")/.."
    local candidate=${1:-3}
    local output=${2:-.build-nnue/candidate-$candidate/net.nnue} data=.build-nnue/data-12c6787
    local bin
    mkdir -p "$(dirname "$output")"
    # Candidates 1 and 2 share the master games scored by 12c6787.
    case $candidate in
    1 | 2)
        bin=$(bench/build-rev.sh 12c6787)
        mkdir -p "$data"
        XIANGQI_BIN=$bin bench/nnue-data.sh "$data/master" 0 28 1000 2 1000 master
        ;;
    esac
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
    3)
        # Not the data of candidates 1 and 2: the searches use the first shipped network
        # (the committed file of 8322d63, written out if the tree's has changed since).
        bin=$(bench/build-rev.sh 8322d63)
        data=.build-nnue/data-8322d63
        local network=networks/xiangqi.nnue
        [ "$(git hash-object "$network")" = "$(git rev-parse 8322d63:"$network")" ] \
            || network=$(mkdir -p "$data" && git show 8322d63:"$network" > "$data/b70ea56d.nnue" && echo "$data/b70ea56d.nnue")
        EVAL_FILE=$network XIANGQI_BIN=$bin bench/nnue-data.sh "$data/selfplay-seed3" 0 840 1000 1 100 3
        EVAL_FILE=$network XIANGQI_BIN=$bin bench/nnue-data.sh "$data/validation-seed98" 0 5 1000 1 100 98
        "$bin" train "$data"/selfplay-seed3/chunk-00[0-7][0-9][0-9].bin "$data"/selfplay-seed3/chunk-008[0-3][0-9].bin \
            --validation "$data"/validation-seed98/chunk-*.bin -o "$output" \
            --hidden 256 --buckets 6 --epochs 5 --batch-size 1024 --threads 1 --seed 1 --score-weight 1.0 \
            --loss-log "$output.loss.txt"
        ;;
    *)
        echo "no candidate $candidate (1, 2 or 3)" >&2
        exit 1
        ;;
    esac
}
main "$@"
