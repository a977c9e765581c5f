#!/bin/sh
# Packs a release archive: the static binary (its network and book built in), LICENSE,
# NOTICE, README.md and CHANGELOG.md, in a folder named xiangqi-VERSION-OS-ARCH.
#   scripts/package-release.sh [OUTPUT_DIR]   (default .build/release-archive)
# Prints the archive's path. Builds the release binary first.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-.build/release-archive}
swift build -c release --static-swift-stdlib >&2
version=$(sed -n 's/.*static let number = "\(.*\)".*/\1/p' Sources/XiangqiEngine/EngineVersion.swift)
name="xiangqi-$version-$(uname -s | tr 'A-Z' 'a-z')-$(uname -m)"
rm -rf "$out/$name" "$out/$name.tar.gz"
mkdir -p "$out/$name"
cp .build/release/xiangqi LICENSE NOTICE README.md CHANGELOG.md "$out/$name/"
strip "$out/$name/xiangqi" 2>/dev/null || true
tar -C "$out" -czf "$out/$name.tar.gz" "$name"
rm -rf "${out:?}/$name"
echo "$out/$name.tar.gz"
