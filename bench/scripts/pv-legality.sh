#!/usr/bin/env bash
# The long run of the PV legality check: 100,000 searches of the release build, judged by
# pyffish, in ten resumable chunks of 10,000 (seeds 1-10, each its own positions), records in
# bench/records/pv-legality/seed-N.txt; a chunk whose record exists is not played again.
# Then the totals over the chunks (bench/records/pv-legality/summary.txt).
# Usage: bench/scripts/pv-legality.sh [ENGINE] (default .build/release/xiangqi)
set -euo pipefail
cd "$(dirname "$0")/../.."
engine=${1:-.build/release/xiangqi}
dir=bench/records/pv-legality
mkdir -p "$dir"
for seed in 1 2 3 4 5 6 7 8 9 10; do
    record="$dir/seed-$seed.txt"
    [ -f "$record" ] && continue
    python3 bench/scripts/pv-legality.py --engine "$engine" --searches 10000 --workers 2 --seed "$seed" \
        --record "$record.partial"
    mv "$record.partial" "$record"
done
python3 bench/scripts/pv-legality-summary.py "$dir" | tee "$dir/summary.txt"
