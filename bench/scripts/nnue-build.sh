#!/usr/bin/env bash
# Makes a candidate network again from this repository alone (bench/nnue.md has their matches):
#   bench/scripts/nnue-build.sh [CANDIDATE [OUTPUT [STEPS]]]   (default: candidate 3, the shipped network;
#                                                     .build-nnue/candidate-N/net.nnue; "data train")
# The data of candidates 1 and 2: searches by the engine of commit 12c6787 (bench 2721728), built in
# .build-rev/ (bench/scripts/build-rev.sh); every position from ply 8 of the 27,610 master games in
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
# Candidates 4 and 5 (6x256; 4: hash 5b227b065dcced16, 5: hash 0d43dbf6ed57882e): data from
#   the engine shipped as 1.0, commit c3eac6d (bench 2784386) with the network it ships
#   (66f8e295109042c0): self-play games of seed 5 at 1000 nodes, 1 thread per process, the 760
#   chunks listed in bench/records/nnue-training/data-selfplay-1000-seed5-66f8e295.chunks.txt (7,595,317
#   positions; made on the lent 16-core machine in about 17 minutes, JOBS=16, at 440-620
#   positions/s per process); validated on seed 97 chunks 0-4 (50,278 positions); the trainer of
#   1948ee7 (the same networks as c3eac6d's), 5 epochs (the fourth kept), batch 1024, seed 1,
#   8 threads; candidate 4 with score weight 1.0 (the search score alone), candidate 5 with 0.9
#   (10% the game result). STEPS "data" only makes the data, "train" only trains on data made
#   before. XIANGQI_BIN=PATH uses that build of c3eac6d instead of building it (a machine
#   without Swift); JOBS=N plays N chunks at once.
# Candidate 6 (6x256 with 8 output buckets, hash ee6905d58f51c781): see its case below; made on
#   this 2-core VM at idle priority over two sessions (bench/nnue.md); bench/scripts/lent-machine-nnue.sh
#   runs the same recipe on the lent machine in slices of one command each.
# Candidate 7 (6x256 with 8 output buckets): candidate 6's recipe on 1430 chunks of the same
#   games (see its case below).
# Candidate 8 (6x256 with 8 output buckets, hash 5475c2156089a9ae): candidate 7's games and new
#   ones from candidate 7's network (see its case below).
# Candidates 9 and 10 (6x256 with 8 output buckets; 9: hash 85258a5591353189): candidate 8's
#   games and new ones from candidate 8's network (see their case below).
# The data chunks are resumable (a rerun skips those that exist; 50614f7 made self-play
# chunks 100-299 and the validation games with the same search, bench 2721728); game i
# depends only on the seed and i, and training only on the data (in this order), the seed and
# the thread count, so the output has the same hash. Data logs and loss curves of the runs
# that made them are in bench/records/nnue-training/.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local candidate=${1:-3}
    local output=${2:-.build-nnue/candidate-$candidate/net.nnue} data=.build-nnue/data-12c6787 steps=${3:-data train}
    local bin
    mkdir -p "$(dirname "$output")"
    # Candidates 1 and 2 share the master games scored by 12c6787.
    case $candidate in
    1 | 2)
        bin=$(bench/scripts/build-rev.sh 12c6787)
        mkdir -p "$data"
        XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/master" 0 28 1000 2 1000 master
        ;;
    esac
    case $candidate in
    1)
        XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/selfplay" 0 100 1000 2 100 1
        "$bin" train "$data"/master/chunk-*.bin "$data"/selfplay/chunk-000[0-9][0-9].bin -o "$output" \
            --hidden 256 --buckets 6 --epochs 12 --batch-size 1024 --threads 2 --seed 1 \
            --loss-log "$output.loss.txt"
        ;;
    2)
        XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/selfplay" 0 300 1000 2 100 1
        XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/validation-seed99" 0 5 1000 2 100 99
        "$(bench/scripts/build-rev.sh f8d7e8e)" train "$data"/master/chunk-*.bin "$data"/selfplay/chunk-00[0-2][0-9][0-9].bin \
            --validation "$data"/validation-seed99/chunk-*.bin -o "$output" \
            --hidden 256 --buckets 6 --epochs 4 --batch-size 1024 --threads 2 --seed 1 --score-weight 1.0 \
            --loss-log "$output.loss.txt"
        ;;
    3)
        # Not the data of candidates 1 and 2: the searches use the first shipped network
        # (the committed file of 8322d63, written out if the tree's has changed since).
        bin=$(bench/scripts/build-rev.sh 8322d63)
        data=.build-nnue/data-8322d63
        local network=networks/xiangqi.nnue
        [ "$(git hash-object "$network")" = "$(git rev-parse 8322d63:"$network")" ] \
            || network=$(mkdir -p "$data" && git show 8322d63:"$network" > "$data/b70ea56d.nnue" && echo "$data/b70ea56d.nnue")
        # CHUNKS=N: the recipe scaled down to the first N chunks (the same bytes as the full
        # run's), to check that it reproduces at little cost (bench/records/nnue-training/reproduce.txt).
        local chunks=${CHUNKS:-840} files=() k
        EVAL_FILE=$network XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/selfplay-seed3" 0 "$chunks" 1000 1 100 3
        EVAL_FILE=$network XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/validation-seed98" 0 5 1000 1 100 98
        for ((k = 0; k < chunks; k++)); do files+=("$(printf '%s/selfplay-seed3/chunk-%05d.bin' "$data" "$k")"); done
        "$bin" train "${files[@]}" \
            --validation "$data"/validation-seed98/chunk-*.bin -o "$output" \
            --hidden 256 --buckets 6 --epochs 5 --batch-size 1024 --threads 1 --seed 1 --score-weight 1.0 \
            --loss-log "$output.loss.txt"
        ;;
    4 | 5)
        bin=${XIANGQI_BIN:-$(bench/scripts/build-rev.sh c3eac6d)}
        data=.build-nnue/data-c3eac6d
        local network=$data/66f8e295.nnue weight=1.0 list=bench/records/nnue-training/data-selfplay-1000-seed5-66f8e295.chunks.txt
        local chunks=() files=() k
        [ "$candidate" = 4 ] || weight=0.9
        mkdir -p "$data"
        mapfile -t chunks < <(grep -v '^#' "$list")
        # (no git history on a machine that got only the tree: the tree of c3eac6d has the same file)
        git show c3eac6d:networks/xiangqi.nnue > "$network" 2>/dev/null || cp networks/xiangqi.nnue "$network"
        if [[ " $steps " = *" data "* ]]; then
            EVAL_FILE=$network XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/validation-seed97" 0 5 1000 1 100 97
            # One chunk per process, JOBS at once (c3eac6d hangs in chunk 275, which the list leaves out).
            printf '%s\n' "${chunks[@]}" | EVAL_FILE=$network XIANGQI_BIN=$bin JOBS=1 \
                xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$data/selfplay-seed5" {} 1 1000 1 100 5
        fi
        if [[ " $steps " = *" train "* ]]; then
            for k in "${chunks[@]}"; do files+=("$(printf '%s/selfplay-seed5/chunk-%05d.bin' "$data" "$k")"); done
            for k in "${files[@]}"; do [ -f "$k" ] || { echo "no $k: make the data first" >&2; exit 1; }; done
            "$bin" train "${files[@]}" --validation "$data"/validation-seed97/chunk-*.bin -o "$output" \
                --hidden 256 --buckets 6 --epochs 5 --batch-size 1024 --threads 8 --seed 1 --score-weight "$weight" \
                --loss-log "$output.loss.txt"
        fi
        ;;
    6 | 7)
        # The fifth generation: the engine of de3da8f (bench 2848257: the quiescence fix
        # f0327bb, so no chunk hangs) searching 1000 nodes per move with the shipped network
        # 66f8e295, self-play games of seed 6 in chunks of 100 games, chunks 0 to CHUNKS-1
        # (default 856: 8,508,198 positions, what was made); validated on seed 96 chunks 0-4;
        # trained with 8 output buckets by material and the game result weighing 10% of the
        # target, 5 epochs (the lowest validation loss kept), batch 1024, seed 1, 8 threads.
        # Candidate 7: the same recipe on more of the same games, chunks 0-1429 (14,247,008
        # positions), 4 epochs (6's validation loss was lowest at its second).
        bin=${XIANGQI_BIN:-$(bench/scripts/build-rev.sh de3da8f)}
        data=.build-nnue/data-de3da8f
        local network=$data/66f8e295.nnue chunks=856 epochs=5 files=() k
        [ "$candidate" = 6 ] || { chunks=1430; epochs=4; }
        chunks=${CHUNKS:-$chunks}
        mkdir -p "$data"
        git show de3da8f:networks/xiangqi.nnue > "$network" 2>/dev/null || cp networks/xiangqi.nnue "$network"
        if [[ " $steps " = *" data "* ]]; then
            EVAL_FILE=$network XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/validation-seed96" 0 5 1000 1 100 96
            seq 0 $((chunks - 1)) | EVAL_FILE=$network XIANGQI_BIN=$bin JOBS=1 \
                xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$data/selfplay-seed6" {} 1 1000 1 100 6 || true
        fi
        if [[ " $steps " = *" train "* ]]; then
            for ((k = 0; k < chunks; k++)); do files+=("$(printf '%s/selfplay-seed6/chunk-%05d.bin' "$data" "$k")"); done
            for k in "${files[@]}"; do [ -f "$k" ] || { echo "no $k: make the data first" >&2; exit 1; }; done
            "$bin" train "${files[@]}" --validation "$data"/validation-seed96/chunk-*.bin -o "$output" \
                --hidden 256 --buckets 6 --output-buckets 8 --epochs "$epochs" --batch-size 1024 --threads 8 --seed 1 \
                --score-weight 0.9 --loss-log "$output.loss.txt"
        fi
        ;;
    8)
        # The sixth generation: candidate 7's data (seed 6, chunks 0-1659, searched with 66f8e295)
        # and as many again played and scored by the best engine so far, the same engine
        # (de3da8f, bench 2848257) searching 1000 nodes per move with candidate 7's network
        # 462a5672: self-play games of seed 7 in chunks of 100 games, chunks 0 to CHUNKS7-1;
        # validated on seed 96 chunks 0-4; trained as candidate 7 (8 output buckets, 10% game
        # result, batch 1024, seed 1, 8 threads), 3 epochs (7's validation loss was lowest at
        # its second, on two thirds of these positions), the lowest validation loss kept.
        bin=${XIANGQI_BIN:-$(bench/scripts/build-rev.sh de3da8f)}
        data=.build-nnue/data-de3da8f
        local network=$data/66f8e295.nnue network7=$data/462a5672.nnue chunks6=1660 chunks7=${CHUNKS7:-409} files=() k
        mkdir -p "$data"
        git show de3da8f:networks/xiangqi.nnue > "$network" 2>/dev/null || cp networks/xiangqi.nnue "$network"
        git show 4fb6bcd:networks/candidate-462a5672.nnue > "$network7" 2>/dev/null || cp networks/candidate-462a5672.nnue "$network7"
        if [[ " $steps " = *" data "* ]]; then
            EVAL_FILE=$network XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/validation-seed96" 0 5 1000 1 100 96
            seq 0 $((chunks6 - 1)) | EVAL_FILE=$network XIANGQI_BIN=$bin JOBS=1 \
                xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$data/selfplay-seed6" {} 1 1000 1 100 6 || true
            seq 0 $((chunks7 - 1)) | EVAL_FILE=$network7 XIANGQI_BIN=$bin JOBS=1 \
                xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$data/selfplay-seed7" {} 1 1000 1 100 7 || true
        fi
        if [[ " $steps " = *" train "* ]]; then
            for ((k = 0; k < chunks6; k++)); do files+=("$(printf '%s/selfplay-seed6/chunk-%05d.bin' "$data" "$k")"); done
            for ((k = 0; k < chunks7; k++)); do files+=("$(printf '%s/selfplay-seed7/chunk-%05d.bin' "$data" "$k")"); done
            for k in "${files[@]}"; do [ -f "$k" ] || { echo "no $k: make the data first" >&2; exit 1; }; done
            "$bin" train "${files[@]}" --validation "$data"/validation-seed96/chunk-*.bin -o "$output" \
                --hidden 256 --buckets 6 --output-buckets 8 --epochs 3 --batch-size 1024 --threads 8 --seed 1 \
                --score-weight 0.9 --loss-log "$output.loss.txt"
        fi
        ;;
    9 | 10)
        # The seventh generation: candidate 8's data (seed 6 chunks 0-1659 searched with
        # 66f8e295, seed 7 chunks 0-408 with 462a5672) and games played and scored by the same
        # engine (de3da8f, bench 2848257) searching 1000 nodes per move with candidate 8's
        # network 5475c215: self-play games of seed 8 in chunks of 100 games, chunks 0 to
        # CHUNKS8-1 (default 814: 8,314,411 positions); validated on seed 96 chunks 0-4; trained
        # as candidate 8 (8 output buckets, 10% game result, batch 1024, seed 1, 8 threads),
        # 2 epochs (6's, 7's and 8's validation losses were lowest at their second).
        # Candidate 10: the same on seed 8 chunks 0-1272 (13,017,156 positions).
        bin=${XIANGQI_BIN:-$(bench/scripts/build-rev.sh de3da8f)}
        data=.build-nnue/data-de3da8f
        local network=$data/66f8e295.nnue network7=$data/462a5672.nnue network8=$data/5475c215.nnue
        local chunks6=1660 chunks7=409 chunks8=814 files=() k
        [ "$candidate" = 9 ] || chunks8=1273
        chunks8=${CHUNKS8:-$chunks8}
        mkdir -p "$data"
        git show de3da8f:networks/xiangqi.nnue > "$network" 2>/dev/null || cp networks/xiangqi.nnue "$network"
        git show 4fb6bcd:networks/candidate-462a5672.nnue > "$network7" 2>/dev/null || cp networks/candidate-462a5672.nnue "$network7"
        cp networks/candidate-5475c215.nnue "$network8"
        if [[ " $steps " = *" data "* ]]; then
            EVAL_FILE=$network XIANGQI_BIN=$bin bench/scripts/nnue-data.sh "$data/validation-seed96" 0 5 1000 1 100 96
            seq 0 $((chunks6 - 1)) | EVAL_FILE=$network XIANGQI_BIN=$bin JOBS=1 \
                xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$data/selfplay-seed6" {} 1 1000 1 100 6 || true
            seq 0 $((chunks7 - 1)) | EVAL_FILE=$network7 XIANGQI_BIN=$bin JOBS=1 \
                xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$data/selfplay-seed7" {} 1 1000 1 100 7 || true
            seq 0 $((chunks8 - 1)) | EVAL_FILE=$network8 XIANGQI_BIN=$bin JOBS=1 \
                xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$data/selfplay-seed8" {} 1 1000 1 100 8 || true
        fi
        if [[ " $steps " = *" train "* ]]; then
            for ((k = 0; k < chunks6; k++)); do files+=("$(printf '%s/selfplay-seed6/chunk-%05d.bin' "$data" "$k")"); done
            for ((k = 0; k < chunks7; k++)); do files+=("$(printf '%s/selfplay-seed7/chunk-%05d.bin' "$data" "$k")"); done
            for ((k = 0; k < chunks8; k++)); do files+=("$(printf '%s/selfplay-seed8/chunk-%05d.bin' "$data" "$k")"); done
            for k in "${files[@]}"; do [ -f "$k" ] || { echo "no $k: make the data first" >&2; exit 1; }; done
            "$bin" train "${files[@]}" --validation "$data"/validation-seed96/chunk-*.bin -o "$output" \
                --hidden 256 --buckets 6 --output-buckets 8 --epochs 2 --batch-size 1024 --threads 8 --seed 1 \
                --score-weight 0.9 --loss-log "$output.loss.txt"
        fi
        ;;
    *)
        echo "no candidate $candidate (1 to 10)" >&2
        exit 1
        ;;
    esac
}
main "$@"
