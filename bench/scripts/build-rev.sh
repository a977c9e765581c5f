#!/usr/bin/env bash
# Builds the release binary of a git revision in its own worktree (.build-rev/REV, ignored),
# so that a match can play the current tree against an earlier commit.
#   bench/scripts/build-rev.sh REV      prints the binary's path
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=$(git rev-parse --short=7 "${1:?usage: bench/scripts/build-rev.sh REV}")
dir=".build-rev/$rev"
if [ ! -d "$dir" ]; then
    git worktree add --detach "$dir" "$rev" >/dev/null 2>&1
fi
(cd "$dir" && swift build -c release --static-swift-stdlib --product xiangqi ${BUILD_JOBS:+-j "$BUILD_JOBS"} >/dev/null)
echo "$PWD/$dir/.build/release/xiangqi"
