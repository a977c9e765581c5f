#!/usr/bin/env python3
"""Sums a data folder's chunk log (nnue-data.sh's log.txt) for a data record.

    bench/scripts/data-log.py LOG                  the finished chunks' blocks in chunk order on
                                                   stdout (a record's body), their sum on stderr
    bench/scripts/data-log.py LOG --ranges A-B...  chunks, positions and datagen seconds of each
                                                   range (a sitting's line in a record's header)

A chunk is finished when its block has a `positions` line; a block that an interrupted sitting
left and a later one made again counts once, by its last block. Missing chunks in a range are
named. Exits 1 with one line on stderr when the log cannot be read or holds no finished chunk.
"""
import re
import sys


def read_blocks(path):
    blocks, current = {}, None
    with open(path, encoding="utf-8") as log:
        for line in log.read().splitlines():
            match = re.match(r"# chunk (\d+):", line)
            if match:
                current = int(match.group(1))
                blocks[current] = [line]
            elif current is not None:
                blocks[current].append(line)
    return {k: b for k, b in blocks.items() if any(l.startswith("positions ") for l in b)}


def sums(block):
    positions, seconds = 0, 0.0
    for line in block:
        if line.startswith("positions "):
            positions += int(line.split()[1])
        elif line.startswith("time "):
            seconds += float(line.split()[1])
    return positions, seconds


def main(arguments):
    if not arguments or arguments[0].startswith("-"):
        print("usage: data-log.py LOG [--ranges A-B ...]", file=sys.stderr)
        return 1
    try:
        blocks = read_blocks(arguments[0])
    except (OSError, UnicodeDecodeError) as error:
        print(f"data-log.py: cannot read {arguments[0]}: {error}", file=sys.stderr)
        return 1
    if not blocks:
        print(f"data-log.py: {arguments[0]} holds no finished chunk", file=sys.stderr)
        return 1
    if arguments[1:2] == ["--ranges"]:
        for text in arguments[2:]:
            match = re.fullmatch(r"(\d+)-(\d+)", text)
            if not match:
                print(f"data-log.py: range '{text}' is not A-B", file=sys.stderr)
                return 1
            first, last = int(match.group(1)), int(match.group(2))
            present = [k for k in range(first, last + 1) if k in blocks]
            missing = [k for k in range(first, last + 1) if k not in blocks]
            positions = sum(sums(blocks[k])[0] for k in present)
            seconds = sum(sums(blocks[k])[1] for k in present)
            rate = positions / seconds if seconds else 0
            line = (f"{text}: {len(present)} chunks, {positions:,} positions, {seconds:,.0f} s of datagen"
                    f" time ({rate:,.0f} positions a second a process)")
            if missing:
                line += f"; missing {missing[:10]}{' ...' if len(missing) > 10 else ''}"
            print(line)
        return 0
    if len(arguments) > 1:
        print("usage: data-log.py LOG [--ranges A-B ...]", file=sys.stderr)
        return 1
    done = sorted(blocks)
    positions = sum(sums(blocks[k])[0] for k in done)
    seconds = sum(sums(blocks[k])[1] for k in done)
    contiguous = done == list(range(done[0], done[-1] + 1))
    print(f"chunks {done[0]}-{done[-1]}: {len(done)} finished ({'contiguous' if contiguous else 'with gaps'}),"
          f" {positions:,} positions, {seconds:,.0f} s of datagen time", file=sys.stderr)
    for k in done:
        print("\n".join(blocks[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
