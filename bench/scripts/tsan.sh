#!/usr/bin/env bash
# The thread sanitizer over the suites that run searches on several threads: threaded search
# (Lazy SMP, shared hash table), the engine facade, the protocol sessions (reader thread
# and search threads, a handshake during a search among them), self-play data on several
# threads and the network trainer's threads.
# Debug build with -sanitize=thread in .build-tsan (about 10 minutes on 2 cores, too long for
# CI beside the other steps). Exit status non-zero on any report. Writes bench/records/tsan.txt
# (commit, command, the suites' results, the verdict).
#   bench/scripts/tsan.sh [FILTER]     (default: the suites below)
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-"ThreadTests|SearchTests|TranscriptTests|StrengthOptionsTests|BookSessionTests|TrainingDataTests|NetworkTrainerTests|NetworkOptionsTests|RankNumberingTests"}
log=$(mktemp)
record=bench/records/tsan.txt.partial
commit="$(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- Sources Tests Package.swift || echo '+changes')"
{
    echo "# Thread sanitizer over the threaded suites"
    echo "Build: xiangqi $commit, swift test --sanitize=thread (debug)"
    echo "Machine: $(nproc) cores, $(uname -m); date $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "Command: bench/scripts/tsan.sh $filter"
} > "$record"
start=$(date +%s)
swift test --sanitize=thread --scratch-path .build-tsan --filter "$filter" 2>&1 | tee "$log" \
    | grep -E "^(✔|✘) (Suite|Test run)|WARNING: ThreadSanitizer|SUMMARY" | tee -a "$record" || true
echo "Wall: $(( $(date +%s) - start )) s (build included)" >> "$record"
status=0
if grep -q "ThreadSanitizer" "$log"; then
    echo "thread sanitizer reports: $(grep -c 'WARNING: ThreadSanitizer' "$log")" | tee -a "$record"; status=1
elif ! grep -q "^✔ Test run" "$log"; then
    echo "tests failed" | tee -a "$record"; status=1
else
    echo "thread sanitizer: clean" | tee -a "$record"
fi
mv "$record" bench/records/tsan.txt
[ "$status" = 0 ] && rm -f "$log" || echo "full output: $log"
exit "$status"
