#!/usr/bin/env bash
# The thread sanitizer over the suites that run searches on several threads: threaded search
# (Lazy SMP, shared hash table), the engine facade, the protocol sessions (reader thread
# and search threads), self-play data on several threads and the network trainer's threads.
# Debug build with -sanitize=thread in .build-tsan (about 10 minutes on 2 cores, too long for
# CI beside the other steps). Exit status non-zero on any report.
#   bench/tsan.sh [FILTER]     (default: the suites below)
set -euo pipefail
cd "$(dirname "$0")/.."
filter=${1:-"ThreadTests|SearchTests|TranscriptTests|StrengthOptionsTests|BookSessionTests|TrainingDataTests|NetworkTrainerTests|NetworkOptionsTests"}
log=$(mktemp)
swift test --sanitize=thread --scratch-path .build-tsan --filter "$filter" 2>&1 | tee "$log" | grep -E "^(✔|✘) (Suite|Test run)|WARNING: ThreadSanitizer|SUMMARY" || true
if grep -q "ThreadSanitizer" "$log"; then
    echo "thread sanitizer reports: see $log"; exit 1
fi
grep -q "^✔ Test run" "$log" || { echo "tests failed: see $log"; exit 1; }
echo "thread sanitizer: clean ($filter)"
rm -f "$log"
