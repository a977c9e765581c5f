#!/usr/bin/env bash
# Makes a network again from this repository alone, by its recipe (networks/recipes/, one file
# per network; bench/nnue.md has their matches):
#   bench/scripts/nnue-build.sh RECIPE|N [OUTPUT [STEPS]]
# RECIPE is a recipe file, N is short for networks/recipes/candidate-N.txt; OUTPUT defaults to
# .build-nnue/candidate-N/net.nnue (the recipe's name), STEPS to "data train" ("data" only makes
# the data, "train" only trains on data made before).
# A recipe holds, one per line (# starts a comment):
#   hash HASH                 the network it makes (checked at the end when a build of the tree is at hand)
#   engine COMMIT             the engine that plays and scores the data (built by build-rev.sh;
#                             XIANGQI_BIN=PATH gives a build of it instead, for a machine without Swift)
#   trainer COMMIT            the engine whose `train` trains (default: the engine)
#   folder DIR                where the data go (chunks survive an interrupted session)
#   network NAME SOURCE       a network the data searches use: COMMIT:PATH from git, or a file of
#                             the tree; written to DIR/NAME.nnue
#   data SUBDIR seed S chunks A-B|@LIST [nodes N] [threads T] [games G] [network NAME]
#                             self-play games of seed S (or "seed master": the master games of
#                             books/source) in chunks of G games (default 100), searched with N
#                             nodes (default 1000) on T threads (default 1), chunk k of A..B or of
#                             the chunks listed in LIST, into DIR/SUBDIR (bench/scripts/nnue-data.sh)
#   validation ...            the same words: the held-out positions (--validation)
#   train ARGUMENTS...        the trainer's options after the data, the output and --validation
# Training reads the data lines' chunks in order. Game k of a seed depends only on the seed and
# k, and training only on the data (in this order), the seed and the thread count, so the output
# has the recipe's hash. CHUNKS=N scales every data line (not the validation) down to its first N chunks (to check
# that a recipe reproduces at little cost: bench/records/nnue-training/reproduce.txt); JOBS=N
# plays N chunks at once (one process each). Data logs and loss curves of the runs that made
# the networks are in bench/records/nnue-training/.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local recipe=${1:?usage: bench/scripts/nnue-build.sh RECIPE|N [OUTPUT [STEPS]]}
    [[ "$recipe" =~ ^[0-9]+$ ]] && recipe=networks/recipes/candidate-$recipe.txt
    [ -f "$recipe" ] || { echo "no recipe $recipe (networks/recipes/)" >&2; exit 1; }
    local name
    name=$(basename "$recipe" .txt)
    local output=${2:-.build-nnue/$name/net.nnue} steps=${3:-data train}
    local hash="" engine="" trainer="" folder="" trainArguments=() dataLines=() validationLines=()
    declare -A networks=()
    local words key line
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%%#*}
        read -r -a words <<< "$line"
        [ ${#words[@]} -gt 0 ] || continue
        key=${words[0]}
        case "$key" in
        hash) hash=${words[1]} ;;
        engine) engine=${words[1]} ;;
        trainer) trainer=${words[1]} ;;
        folder) folder=${words[1]} ;;
        network) networks[${words[1]}]=${words[2]} ;;
        data) dataLines+=("${words[*]:1}") ;;
        validation) validationLines+=("${words[*]:1}") ;;
        train) trainArguments=("${words[@]:1}") ;;
        *) echo "$recipe: unknown line '$key'" >&2; exit 1 ;;
        esac
    done < "$recipe"
    [ -n "$engine" ] && [ -n "$folder" ] && [ ${#dataLines[@]} -gt 0 ] && [ ${#trainArguments[@]} -gt 0 ] \
        || { echo "$recipe needs engine, folder, data and train lines" >&2; exit 1; }
    trainer=${trainer:-$engine}
    mkdir -p "$(dirname "$output")" "$folder"

    local bin trainerBin
    bin=${XIANGQI_BIN:-$(bench/scripts/build-rev.sh "$engine")}

    # The networks the searches use, from git (a machine that got only the tree and no
    # history finds the file in the tree if it is still there).
    local network source
    for network in "${!networks[@]}"; do
        source=${networks[$network]}
        if [[ "$source" == *:* ]]; then
            git show "$source" > "$folder/$network.nnue" 2>/dev/null || cp "${source#*:}" "$folder/$network.nnue"
        else
            cp "$source" "$folder/$network.nnue"
        fi
    done

    local files=() validation=() spec
    if [[ " $steps " = *" data "* ]]; then
        for spec in "${validationLines[@]}"; do limit=all makeData $spec; done
        for spec in "${dataLines[@]}"; do makeData $spec; done
    fi
    if [[ " $steps " = *" train "* ]]; then
        # The trainer is built only for this step (the data step does not need it).
        if [ "$trainer" = "$engine" ]; then trainerBin=$bin; else trainerBin=$(bench/scripts/build-rev.sh "$trainer"); fi
        for spec in "${dataLines[@]}"; do mapfile -t -O "${#files[@]}" files < <(chunkFiles $spec); done
        for spec in "${validationLines[@]}"; do mapfile -t -O "${#validation[@]}" validation < <(limit=all chunkFiles $spec); done
        local file
        for file in "${files[@]}" "${validation[@]}"; do [ -f "$file" ] || { echo "no $file: make the data first" >&2; exit 1; }; done
        local validationArguments=()
        [ ${#validation[@]} -eq 0 ] || validationArguments=(--validation "${validation[@]}")
        "$trainerBin" train "${files[@]}" "${validationArguments[@]}" -o "$output" "${trainArguments[@]}" \
            --loss-log "$output.loss.txt"
        local made=""
        [ -x .build/release/xiangqi ] && made=$(.build/release/xiangqi bench 16 1 1 --eval-file "$output" | sed -n 's/^Evaluation: network //p')
        echo "$output: network ${made:-(no build of the tree to read its hash)}; the recipe's full run makes ${hash:-?}"
    fi
}

# Reads a data or validation line into: subdir seed first count nodes threads games network.
parseData() {
    subdir=$1; shift
    seed="" chunks="" nodes=1000 threads=1 games=100 dataNetwork=""
    while [ $# -gt 0 ]; do
        case "$1" in
        seed) seed=$2 ;; chunks) chunks=$2 ;; nodes) nodes=$2 ;; threads) threads=$2 ;; games) games=$2 ;;
        network) dataNetwork=$2 ;;
        *) echo "unknown data word '$1'" >&2; exit 1 ;;
        esac
        shift 2
    done
    [ -n "$seed" ] && [ -n "$chunks" ] || { echo "a data line needs seed and chunks" >&2; exit 1; }
}

# The chunk numbers of a line's chunks (A-B or @LIST), CHUNKS=N keeping the first N of a data
# line (validation lines, called with limit=all, keep theirs).
chunkNumbers() {
    local keep=${CHUNKS:-1000000000}
    [ "${limit:-}" != all ] || keep=1000000000
    if [[ "$chunks" == @* ]]; then grep -v '^#' "${chunks#@}"; else seq "${chunks%-*}" "${chunks#*-}"; fi | head -n "$keep"
}

chunkFiles() {
    parseData "$@"
    local k
    for k in $(chunkNumbers); do printf '%s/%s/chunk-%05d.bin\n' "$folder" "$subdir" "$k"; done
}

makeData() {
    parseData "$@"
    local evalFile=""
    [ -z "$dataNetwork" ] || evalFile=$folder/$dataNetwork.nnue
    # One chunk per process, JOBS at once; a chunk that fails is missing, which training reports.
    chunkNumbers | EVAL_FILE=$evalFile XIANGQI_BIN=$bin JOBS=1 \
        xargs -P "${JOBS:-1}" -I{} bench/scripts/nnue-data.sh "$folder/$subdir" {} 1 "$nodes" "$threads" "$games" "$seed" || true
}
main "$@"
