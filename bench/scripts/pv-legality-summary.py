#!/usr/bin/env python3
"""Totals over the chunk records of bench/scripts/pv-legality.sh (bench/records/pv-legality/
seed-N.txt): the engines they name, searches, lines and moves checked, illegal or missing
lines. Prints them (pv-legality.sh writes them to summary.txt).
Usage: bench/scripts/pv-legality-summary.py [DIR]
"""
import glob
import re
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else 'bench/records/pv-legality'
searches = lines = moves = problems = 0
engines, chunks = set(), []
for path in sorted(glob.glob(folder + '/seed-*.txt'), key=lambda p: int(re.search(r'seed-(\d+)', p).group(1))):
    text = open(path).read()
    engines.add(text.splitlines()[0])
    chunks.append(re.search(r'seed-(\d+)', path).group(1))
    searches += int(re.search(r'^searches: (\d+)', text, re.M).group(1))
    m = re.search(r'^lines checked: (\d+), moves checked: (\d+)', text, re.M)
    lines += int(m.group(1))
    moves += int(m.group(2))
    problems += int(re.search(r'^illegal or missing: (\d+)', text, re.M).group(1))
if not chunks:
    print(f'pv-legality-summary: no chunk records in {folder}', file=sys.stderr)
    sys.exit(1)
print('\n'.join(sorted(engines)))
print(f'chunks: seeds {", ".join(chunks)} (of 1-10), each bench/scripts/pv-legality.py --searches 10000')
print(f'searches: {searches}, lines checked: {lines}, moves checked: {moves}, illegal or missing: {problems}')
