#!/usr/bin/env bash
# Makes chunks of a network recipe's self-play data on the lent 16-core machine (no Swift, no
# git, 10 minutes a command, at most 64 MB back) and brings them home xz-compressed (about 8
# bytes a position, so some 7 M positions a command), for the chunks not yet made here.
#   bench/scripts/lent-machine-data.sh pack RECIPE
#       here: the recipe's engine (XIANGQI_BIN, else bench/scripts/build-rev.sh ENGINE),
#       stripped, with the SQLite library it links, and the list of each data line's chunks not
#       yet made here, into .build-rev/devdata/ (carry it to the machine)
#   bench/scripts/lent-machine-data.sh play RECIPE SECONDS
#       there: plays those chunks in order, one process per core, for SECONDS (chunks cut off
#       are lost: a chunk is written whole or not at all), then leaves the chunks made and their
#       logs in $OUT as data.tar.xz.part-aa, -ab, ... (15 MB each) and machine.txt
#   bench/scripts/lent-machine-data.sh unpack RECIPE FILES_AT
#       here: puts the chunks that came back into the recipe's folder (a chunk made here
#       meanwhile is kept as it is: the same games give the same bytes)
# Then pack again before the next command: its list leaves out what came back.
# A command that plays 480 s leaves time for the packing and stays well inside 10 minutes:
#   (device, carry .build-rev/devdata) bench/scripts/lent-machine-data.sh play RECIPE 480
set -euo pipefail
cd "$(dirname "$0")/../.."
step=${1:?usage: lent-machine-data.sh pack|play|unpack RECIPE ...} recipe=${2:?usage: lent-machine-data.sh pack|play|unpack RECIPE ...}
[[ "$recipe" =~ ^[0-9]+$ ]] && recipe=networks/recipes/candidate-$recipe.txt
[ -f "$recipe" ] || { echo "lent-machine-data: no recipe $recipe" >&2; exit 1; }
pack=.build-rev/devdata
folder=$(awk '$1 == "folder" {print $2}' "$recipe")
engine=$(awk '$1 == "engine" {print $2}' "$recipe")
[ -n "$folder" ] && [ -n "$engine" ] || { echo "lent-machine-data: $recipe names no folder or engine" >&2; exit 1; }

# The data lines as "SUBDIR FIRST LAST" (ranges only; @LIST lines are not for this script).
dataRanges() {
    awk '$1 == "data" { for (i = 3; i < NF; i++) if ($i == "chunks") { split($(i + 1), r, "-"); print $2, r[1], r[2] } }' "$recipe"
}

case $step in
pack)
    rm -rf "$pack" && mkdir -p "$pack"
    bin=${XIANGQI_BIN:-$(bench/scripts/build-rev.sh "$engine")}
    strip -o "$pack/xiangqi" "$bin"
    tar chJf "$pack/engine.tar.xz" -C "$pack" xiangqi -C / usr/lib/x86_64-linux-gnu/libsqlite3.so.0 2>/dev/null
    rm "$pack/xiangqi"
    while read -r subdir first last; do
        for ((k = first; k <= last; k++)); do
            [ -f "$(printf '%s/%s/chunk-%05d.bin' "$folder" "$subdir" "$k")" ] || echo "$k"
        done > "$pack/todo-$subdir.txt"
        echo "$subdir: $(wc -l < "$pack/todo-$subdir.txt") chunks to make, first $(head -1 "$pack/todo-$subdir.txt")"
    done < <(dataRanges)
    du -sh "$pack"
    ;;
play)
    seconds=${3:?usage: lent-machine-data.sh play RECIPE SECONDS}
    out=${OUT:?lent-machine-data: play runs where OUT names the folder that comes back}
    mkdir -p "$pack/unpacked"
    tar xJf "$pack/engine.tar.xz" -C "$pack/unpacked"
    export LD_LIBRARY_PATH=$PWD/$pack/unpacked/usr/lib/x86_64-linux-gnu XIANGQI_BIN=$PWD/$pack/unpacked/xiangqi
    {
        nproc
        lscpu | grep -E 'Model name|Thread|Core|Socket'
        ldd "$XIANGQI_BIN" | grep 'not found' || true
        "$XIANGQI_BIN" --version
    } > "$out/machine.txt" 2>&1
    # The recipe with each data line's chunks replaced by the list of those not made at home,
    # and no validation lines (made at home).
    awk -v pack="$pack" '
        $1 == "validation" { next }
        $1 == "data" { for (i = 3; i < NF; i++) if ($i == "chunks") $(i + 1) = "@" pack "/todo-" $2 ".txt" }
        { print }' "$recipe" > "$pack/recipe.txt"
    start=$(date +%s)
    JOBS=$(nproc) timeout "$seconds" bench/scripts/nnue-build.sh "$pack/recipe.txt" "$pack/unused/net.nnue" data \
        > "$out/data.log" 2>&1 || true
    made=()
    stamp=$(date -u +%Y%m%dT%H%MZ)
    while read -r subdir _ _; do
        for file in "$folder/$subdir"/chunk-*.bin; do [ -f "$file" ] && made+=("${file#"$folder"/}" "${file#"$folder"/}.log"); done
        # The chunks' summaries (nnue-data.sh's log.txt), under a name that a log at home keeps.
        if [ -f "$folder/$subdir/log.txt" ]; then
            mv "$folder/$subdir/log.txt" "$folder/$subdir/log-lent-$stamp.txt"
            made+=("$subdir/log-lent-$stamp.txt")
        fi
    done < <(dataRanges)
    echo "${#made[@]} files (chunks and their logs) in $(( $(date +%s) - start )) s" | tee -a "$out/machine.txt"
    [ ${#made[@]} -gt 0 ] || exit 0
    tar cf - -C "$folder" --ignore-failed-read "${made[@]}" 2>/dev/null | xz -T"$(nproc)" -6 | split -b 15M - "$out/data.tar.xz.part-"
    # Sent: a later command on the same machine (whose list leaves these out) sends only its own.
    (cd "$folder" && rm -f "${made[@]}")
    ls -la "$out"
    ;;
unpack)
    files=${3:?usage: lent-machine-data.sh unpack RECIPE FILES_AT}
    ls "$files"/data.tar.xz.part-* > /dev/null || { echo "lent-machine-data: no data.tar.xz.part-* in $files" >&2; exit 1; }
    mkdir -p "$folder"
    cat "$files"/data.tar.xz.part-* | xz -d | tar x --skip-old-files -C "$folder"
    while read -r subdir _ _; do
        echo "$subdir: $(ls "$folder/$subdir"/chunk-*.bin 2>/dev/null | wc -l) chunks here"
    done < <(dataRanges)
    ;;
*)
    echo "usage: lent-machine-data.sh pack|play|unpack RECIPE ..." >&2
    exit 1
    ;;
esac
