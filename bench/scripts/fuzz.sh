#!/usr/bin/env bash
# The long protocol fuzz run: LINES (default 1,000,000) mutated protocol lines of both dialects
# against the release build, a legality check after every 200 (see `xiangqi fuzz --help`).
# Writes bench/records/fuzz.txt (commit, command, result); failing batches go to .build/fuzz-failures/.
#   bench/scripts/fuzz.sh [LINES [SEED]]
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local lines=${1:-1000000} seed=${2:-1}
    swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
    mkdir -p .build/fuzz-failures
    local commit
    commit="$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
    {
        echo "# Protocol fuzz run"
        echo "Engine: xiangqi $commit, bench $(.build/release/xiangqi bench | awk '/Nodes searched/ {print $3}')"
        echo "Machine: $(nproc) cores, $(uname -m); date $(date -u +%Y-%m-%dT%H:%MZ)"
        echo "Command: bench/scripts/fuzz.sh $lines $seed"
        .build/release/xiangqi fuzz --lines "$lines" --seed "$seed" --save .build/fuzz-failures 2>/dev/null || true
    } > bench/records/fuzz.txt.partial
    mv bench/records/fuzz.txt.partial bench/records/fuzz.txt
    tail -3 bench/records/fuzz.txt
}
main "$@"
