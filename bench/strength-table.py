#!/usr/bin/env python3
"""Prints a Markdown table of the match summaries in bench/matches/*.txt (the JSON line that
a match report ends with: `xiangqi match`, and the shared match.py of the older records),
each row named by its record (scripts/check-figures.py finds the record by that name)."""
import glob, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
print('| match | games | W | D | L | score | Elo (95%) | LOS | think A / B (mean ms) | terminations |')
print('|---|---|---|---|---|---|---|---|---|---|')
for path in sorted(glob.glob(os.path.join(HERE, 'matches', '*.txt'))):
    lines = [l for l in open(path) if l.startswith('{"tool": "match"')]
    if not lines:
        continue
    r = json.loads(lines[-1])
    reasons = ', '.join(f'{k} {v}' for k, v in sorted(r['reasons'].items(), key=lambda x: -x[1]))
    name = os.path.basename(path)[:-4]
    print(f"| `{name}`: {r['a']} vs {r['b']}, {r['tc']} | {r['games']} | {r['w']} | {r['d']} | {r['l']} | "
          f"{100 * r['score']:.1f}% | {r['elo']:+.0f} ± {r['elo95']:.0f} | {100 * r['los']:.1f}% | "
          f"{r['think_ms']['A']:.0f} / {r['think_ms']['B']:.0f} | {reasons} |")
