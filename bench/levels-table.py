#!/usr/bin/env python3
"""The skill-level ladder from bench/matches/levels-*.txt: each match's Elo difference with its
95% margin, then every level's Elo chained from level 20 (set at 2400 by convention), with the
margins added in quadrature along the chain.
Usage: bench/levels-table.py [MOVETIME]
"""
import glob, json, math, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
movetime = sys.argv[1] if len(sys.argv) > 1 else '300'
matches = {}
for path in sorted(glob.glob(os.path.join(HERE, 'matches', f'levels-*-vs-*-movetime-{movetime}.txt'))):
    a, b = re.search(r'levels-(\w+)-vs-(\w+)-movetime', path).groups()
    summary = [json.loads(l) for l in open(path) if l.startswith('{"tool"')]
    if summary:
        matches[(a, b)] = summary[-1]  # engine A of the file is the second of the pair

print(f'| pair (weaker : stronger) | games | W-D-L of the stronger | score | Elo of the stronger | 95% margin |')
print('|---|---|---|---|---|---|')
for (a, b), m in matches.items():
    elo = m['elo'] if m['elo'] is not None else float('inf')
    margin = m['elo95'] if m['elo95'] is not None else float('nan')
    print(f"| {a} : {b} | {m['games']} | {m['w']}-{m['d']}-{m['l']} | {100 * m['score']:.1f}% | {elo:+.0f} | ±{margin:.0f} |")

ladder = {'20': (2400.0, 0.0)}
changed = True
while changed:
    changed = False
    for (a, b), m in matches.items():
        if m['elo'] is None:
            continue
        if b in ladder and a not in ladder:
            elo, err = ladder[b]
            ladder[a] = (elo - m['elo'], math.hypot(err, m['elo95'] or 0))
            changed = True
        elif a in ladder and b not in ladder:
            elo, err = ladder[a]
            ladder[b] = (elo + m['elo'], math.hypot(err, m['elo95'] or 0))
            changed = True
print()
print('| level | Elo (level 20 = 2400) | 95% margin |')
print('|---|---|---|')
for name, (elo, err) in sorted(ladder.items(), key=lambda x: -x[1][0]):
    print(f'| {name} | {elo:.0f} | ±{err:.0f} |')
