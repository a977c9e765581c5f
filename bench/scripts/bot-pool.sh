#!/usr/bin/env bash
# The figures of README "Running a pool of bots", written to bench/records/bot-pool.txt:
# memory of one process by Hash and Threads (bench/scripts/process-memory.py), then two pools of 32
# bots at practice levels 0-20 playing 32 games, 16 at once, through Examples/bot-pool.py:
# 300 ms a move with Hash 16, and a 10+0.1 clock with Hash 4. Run on an idle machine.
#   bench/scripts/bot-pool.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-.build/release/xiangqi}
{
    echo "# bench/scripts/bot-pool.sh $binary, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources || echo ' + changes'),"
    echo "# $("$binary" --version | tr '\n' ' ')"
    echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(free -m | awk '/^Mem:/ {print $2}') MB memory"
    echo
    echo "## One process by Hash and Threads: bench/scripts/process-memory.py $binary --runs 3"
    python3 bench/scripts/process-memory.py "$binary" --runs 3
    echo
    echo "## Pool at 300 ms a move: Examples/bot-pool.py --engine $binary --bots 32 --games 32 --concurrency 16 --movetime 300 --hash 16"
    python3 Examples/bot-pool.py --engine "$binary" --bots 32 --games 32 --concurrency 16 --movetime 300 --hash 16
    echo
    echo "## Pool at 10+0.1: Examples/bot-pool.py --engine $binary --bots 32 --games 32 --concurrency 16 --clock 10+0.1 --hash 4"
    python3 Examples/bot-pool.py --engine "$binary" --bots 32 --games 32 --concurrency 16 --clock 10+0.1 --hash 4
} 2>&1 | tee bench/records/bot-pool.txt
