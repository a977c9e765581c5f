#!/usr/bin/env bash
# The protocol fuzz run against a thread-sanitizer build: races between the input thread and
# a search (lines that change the position, options, hash or book while a search starts, runs
# or stops) show as ThreadSanitizer reports, which a release build would survive silently.
#   bench/scripts/fuzz-tsan.sh [LINES [SEED [TIMEOUT]]]     (defaults 20000, 21, 900 s)
# Builds the engine with --sanitize=thread (debug) in .build-tsan/, runs `xiangqi fuzz` (the
# release build drives it) with reports written to .build-tsan/reports/, and writes
# bench/records/fuzz-tsan.txt: commit, command, the fuzz summary and the number of reports.
# TIMEOUT is the seconds an answer may take before the engine counts as hung: the sanitized
# debug build searches about 5,000 nodes/s (120 times slower than release), so a check's
# `go depth 3` after a batch that set MultiPV 10 and debug output took 118 s here; a bound
# that short reported a "hang" that replaying showed to be a slow search.
set -euo pipefail
main() {
    cd "$(dirname "$0")/../.."
    local lines=${1:-20000} seed=${2:-21} timeout=${3:-900}
    swift build -c release --static-swift-stdlib --product xiangqi >/dev/null
    swift build --sanitize=thread --scratch-path .build-tsan --product xiangqi >/dev/null
    rm -rf .build-tsan/reports .build-tsan/failures
    mkdir -p .build-tsan/reports .build-tsan/failures
    local commit
    commit="$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
    {
        echo "# Protocol fuzz run, thread sanitizer"
        echo "Engine: xiangqi $commit, swift build --sanitize=thread (debug)"
        echo "Machine: $(nproc) cores, $(uname -m); date $(date -u +%Y-%m-%dT%H:%MZ)"
        echo "Command: bench/scripts/fuzz-tsan.sh $lines $seed $timeout"
        TSAN_OPTIONS="log_path=$PWD/.build-tsan/reports/tsan halt_on_error=0" \
            .build/release/xiangqi fuzz --engine .build-tsan/debug/xiangqi --lines "$lines" --seed "$seed" \
            --timeout "$timeout" --save .build-tsan/failures 2>/dev/null || true
        local reports
        reports=$(cat .build-tsan/reports/tsan.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
        echo "ThreadSanitizer reports: $reports"
    } > bench/records/fuzz-tsan.txt.partial
    mv bench/records/fuzz-tsan.txt.partial bench/records/fuzz-tsan.txt
    tail -4 bench/records/fuzz-tsan.txt
}
main "$@"
