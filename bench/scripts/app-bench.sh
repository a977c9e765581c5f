#!/usr/bin/env bash
# The app figures of bench/app.md: a companion engine's memory (five runs, each a fresh
# process), how fast cancelled hints, analyses and reviews stop (100 cancels each), and how
# long a review of a 100-ply game takes at the default limits, on the release build, with
# nothing else running. Writes bench/records/app-bench.txt.
#   bench/scripts/app-bench.sh [CANCELS [STEPS]]     (STEPS: "memory cancel review", the default)
set -euo pipefail
cd "$(dirname "$0")/../.."
cancels=${1:-100}
steps=${2:-memory cancel review}
swift build -c release --product app-bench >/dev/null
commit="$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Package.swift bench/AppBench || echo '+changes')"
{
    echo "# bench/scripts/app-bench.sh $cancels: app-bench of $commit (release), $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%dT%H:%MZ)"
    if [[ " $steps " = *" memory "* ]]; then
        for run in 1 2 3 4 5; do
            echo "## memory, run $run: .build/release/app-bench memory 4"
            .build/release/app-bench memory 4
        done
    fi
    if [[ " $steps " = *" cancel "* ]]; then
        echo "## cancellation: .build/release/app-bench cancel $cancels"
        .build/release/app-bench cancel "$cancels"
    fi
    if [[ " $steps " = *" review "* ]]; then
        echo "## review time: .build/release/app-bench review"
        .build/release/app-bench review
    fi
} > "bench/records/app-bench.txt.partial"
if [ "$steps" = "memory cancel review" ]; then record=bench/records/app-bench.txt; else record="bench/records/app-bench-${steps// /-}.txt"; fi
mv bench/records/app-bench.txt.partial "$record"
cat "$record"
