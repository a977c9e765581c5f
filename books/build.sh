#!/bin/sh
# Rebuilds books/xiangqi-book.sqlite from the committed source games, reproducibly (the build
# date is fixed by SOURCE_DATE_EPOCH, so the same games give the same file).
# Usage: books/build.sh   (from anywhere; builds the release binary first if needed)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -x .build/release/xiangqi ] || swift build -c release --static-swift-stdlib
gunzip -c books/source/ccpd_master_games.txt.gz |
    SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1795219200} .build/release/xiangqi book build - \
        --output books/xiangqi-book.sqlite --max-ply 40 --min-games 2 \
        --source "CCPD master games (Yu-Han Tseng, CC BY 4.0): books/source/ccpd_master_games.txt.gz"
# The binary embeds the book (Sources/CEmbeddedData): have the next build embed this one.
touch Sources/CEmbeddedData/embedded_data.c
