#!/usr/bin/env bash
# Self-play training data for the network, in chunks that survive an interrupted session:
#   bench/scripts/nnue-data.sh DIR FIRST COUNT [NODES [THREADS [GAMES_PER_CHUNK [SEED]]]]
# plays chunks FIRST..FIRST+COUNT-1; chunk k holds games k*G..(k+1)*G-1 of the seed and is
# written as DIR/chunk-kkkkk.bin (xiangqi datagen renames it into place only when complete),
# so a rerun skips the chunks that exist and the data are the same however they were split.
# Defaults: 5000 nodes per search, 2 threads, 100 games per chunk, seed 1. SEED "master"
# scores the positions of the master games in books/source (CC BY 4.0, see books/README.md)
# instead of playing: chunk k is their games k*G..(k+1)*G-1, from ply 8. Data stay out of
# git (.build-nnue/ is ignored); what is committed is this command, the seeds and the
# summaries appended to DIR/log.txt (copy them to bench/nnue.md).
# XIANGQI_BIN=PATH uses that engine binary (e.g. one from bench/scripts/build-rev.sh, so that the
# data of a published network can be made again by the engine that made them) instead of
# the working tree's release build. EVAL_FILE=PATH makes the searches use that network
# (xiangqi datagen --eval-file): the data of the next network, from the best engine so far.
# JOBS=N plays the chunks in N processes at once (chunk k in process k mod N; give THREADS 1
# and N = cores): the bytes of each chunk are the same, and the log keeps chunk order.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local dir=$1 first=$2 count=$3 nodes=${4:-5000} threads=${5:-2} per=${6:-100} seed=${7:-1}
    local bin=${XIANGQI_BIN:-} network=()
    [ -z "${EVAL_FILE:-}" ] || network=(--eval-file "$EVAL_FILE")
    if [ -z "$bin" ]; then
        swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
        bin=.build/release/xiangqi
    fi
    mkdir -p "$dir"
    # Stopped by Ctrl-C, or by kill -TERM of its process group (a run started in the background
    # ignores INT), the run still puts the logs of the chunks it finished into log.txt, in order.
    trap 'appendChunkLogs; exit 130' INT
    trap 'appendChunkLogs; exit 143' TERM
    local jobs=${JOBS:-1} job pids=() pid failed=0
    for ((job = 0; job < jobs; job++)); do
        playChunks "$((first + job))" "$jobs" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    appendChunkLogs
    return $failed
}
# Plays chunks FIRST, FIRST+STEP, ... below first+count; each one's log is kept beside its
# chunk until appendChunkLogs puts it into log.txt (in chunk order within one process; processes
# sharing DIR append theirs as their chunks end). A chunk that fails ends the loop, its log kept.
playChunks() {
    local k file status
    for ((k = $1; k < first + count; k += $2)); do
        file=$(printf '%s/chunk-%05d.bin' "$dir" "$k")
        [ -f "$file" ] && continue
        status=0
        if [ "$seed" = master ]; then
            {
                echo "# chunk $k: gzip -dc books/source/ccpd_master_games.txt.gz | xiangqi datagen --from-games - -o $file --games $per --first-game $((k * per)) --nodes $nodes --threads $threads${EVAL_FILE:+ --eval-file $EVAL_FILE}"
                gzip -dc books/source/ccpd_master_games.txt.gz | "$bin" datagen --from-games - -o "$file" \
                    --games "$per" --first-game $((k * per)) --nodes "$nodes" --threads "$threads" "${network[@]}"
            } > "$file.log.partial" || status=$?
        else
            {
                echo "# chunk $k: xiangqi datagen -o $file --games $per --first-game $((k * per)) --seed $seed --nodes $nodes --threads $threads${EVAL_FILE:+ --eval-file $EVAL_FILE}"
                "$bin" datagen -o "$file" --games "$per" --first-game $((k * per)) \
                    --seed "$seed" --nodes "$nodes" --threads "$threads" "${network[@]}"
            } > "$file.log.partial" || status=$?
        fi
        mv "$file.log.partial" "$file.log"
        [ "${JOBS:-1}" -gt 1 ] || appendChunkLogs
        [ "$status" -eq 0 ] || return "$status"
    done
}
# A chunk's log is named .log only once its datagen has ended (.log.partial while it runs), and
# each is taken by a rename first, so that processes sharing DIR (nnue-build.sh's JOBS) never
# append a log that is still being written, nor the same one twice.
appendChunkLogs() {
    local log
    for log in "$dir"/chunk-*.bin.log; do
        mv "$log" "$log.taking.$$" 2>/dev/null || continue
        cat "$log.taking.$$" | tee -a "$dir/log.txt"
        rm "$log.taking.$$"
    done
}
main "$@"
