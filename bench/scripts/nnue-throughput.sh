#!/usr/bin/env bash
# What each step of the network pipeline costs here: self-play data, master-game data and
# training, with the commands as run, into bench/records/nnue-throughput.txt.
#   bench/scripts/nnue-throughput.sh [SELFPLAY_GAMES [MASTER_GAMES [NODES [THREADS]]]]
# (defaults 40, 200, 5000 and 2). Data go to a temporary directory and are deleted.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local selfplay=${1:-40} master=${2:-200} nodes=${3:-5000} threads=${4:-2}
    swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
    local bin=.build/release/xiangqi
    tmp=$(mktemp -d)  # global: the EXIT trap runs after main returns
    trap 'rm -rf "$tmp"' EXIT
    {
        echo "# bench/scripts/nnue-throughput.sh $selfplay $master $nodes $threads: $(git rev-parse --short=7 HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, nothing else running"
        echo "\$ xiangqi datagen -o selfplay.bin --games $selfplay --nodes $nodes --threads $threads --seed 1"
        "$bin" datagen -o "$tmp/selfplay.bin" --games "$selfplay" --nodes "$nodes" --threads "$threads" --seed 1 2>/dev/null
        echo "\$ gzip -dc books/source/ccpd_master_games.txt.gz | xiangqi datagen --from-games - -o master.bin --games $master --nodes $nodes --threads $threads"
        gzip -dc books/source/ccpd_master_games.txt.gz \
            | "$bin" datagen --from-games - -o "$tmp/master.bin" --games "$master" --nodes "$nodes" --threads "$threads" 2>/dev/null
        for shape in "1 128" "6 256"; do
            set -- $shape
            echo "\$ xiangqi train selfplay.bin master.bin -o net.nnue --buckets $1 --hidden $2 --epochs 2 --threads $threads"
            "$bin" train "$tmp/selfplay.bin" "$tmp/master.bin" -o "$tmp/net.nnue" --buckets "$1" --hidden "$2" \
                --epochs 2 --threads "$threads" 2>/dev/null
        done
    } | tee bench/records/nnue-throughput.txt
}
main "$@"
