#!/usr/bin/env python3
"""Build cost of the two ways to put the default network and book into the binary.

1. What ships: `.incbin` in the C target (Sources/CEmbeddedData/embedded_data.c), compiled
   with clang -O2 as SwiftPM does; the object's size.
2. The alternative: a generated Swift file with one `[UInt8]` literal, compiled alone with
   `swiftc -O`, for growing slices of networks/xiangqi.nnue (the whole 6.2 MB of network and
   book is not tried: see how the time grows).
Median of --runs compilations each.
Usage: bench/scripts/embed-build-time.py [--sizes 16384,65536,262144] [--runs 3]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


def timed(command):
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--sizes', default='16384,65536,262144')
    parser.add_argument('--runs', type=int, default=3)
    options = parser.parse_args()
    network = open(os.path.join(ROOT, 'networks', 'xiangqi.nnue'), 'rb').read()
    book_size = os.path.getsize(os.path.join(ROOT, 'books', 'xiangqi-book.sqlite'))
    with tempfile.TemporaryDirectory() as folder:
        objectFile = os.path.join(folder, 'embedded_data.o')
        command = ['clang', '-c', '-O2', '-I', os.path.join(ROOT, 'networks'), '-I', os.path.join(ROOT, 'books'),
                   '-I', os.path.join(ROOT, 'Sources', 'CEmbeddedData', 'include'),
                   os.path.join(ROOT, 'Sources', 'CEmbeddedData', 'embedded_data.c'), '-o', objectFile]
        seconds = statistics.median(timed(command) for _ in range(options.runs))
        print(f'.incbin, network and book ({len(network) + book_size} bytes): clang -O2 {seconds:.2f} s, '
              f'object {os.path.getsize(objectFile)} bytes')
        for size in (int(s) for s in options.sizes.split(',')):
            source = os.path.join(folder, 'Blob.swift')
            with open(source, 'w') as out:
                out.write('public let blob: [UInt8] = [\n')
                for start in range(0, size, 32):
                    out.write(', '.join(str(b) for b in network[start:start + 32]) + ',\n')
                out.write(']\n')
            objectFile = os.path.join(folder, 'Blob.o')
            command = ['swiftc', '-O', '-parse-as-library', '-module-name', 'Blob', '-c', source, '-o', objectFile]
            seconds = statistics.median(timed(command) for _ in range(options.runs))
            print(f'Swift [UInt8] literal, {size} bytes: swiftc -O {seconds:.2f} s, '
                  f'object {os.path.getsize(objectFile)} bytes', flush=True)


if __name__ == '__main__':
    main()
