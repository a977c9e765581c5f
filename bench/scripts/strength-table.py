#!/usr/bin/env python3
"""Prints Markdown tables of the match summaries in bench/records/matches/*.txt, each row named by
its record (scripts/check-figures.py finds the record by that name).

  bench/scripts/strength-table.py            the older records (the shared match.py's summaries)
  bench/scripts/strength-table.py --engines [NAME ...]
                                     records whose report names what each engine is (`A is`
                                     lines, from 1.0.0 on): A's commit and bench from the
                                     header, each side's evaluation, W-D-L, Elo over pairs;
                                     with NAMEs, those records only, in that order
"""
import glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
if '--engines' in sys.argv:
    print('| record | A: build | A: evaluation | B | limit | played on | games | W-D-L of A | Elo of A (95%, pairs) | pentanomial |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    names = sys.argv[sys.argv.index('--engines') + 1:]
    paths = ([os.path.join(HERE, '..', 'records', 'matches', name + '.txt') for name in names] if names
             else sorted(glob.glob(os.path.join(HERE, '..', 'records', 'matches', '*.txt'))))
    for path in paths:
        text = open(path, encoding='utf-8').read()
        said = dict(re.findall(r'^([AB]) is (.*)$', text, re.M))
        summaries = [json.loads(l) for l in text.split('\n') if l.startswith('{"tool": "xiangqi match"')]
        if 'A' not in said or not summaries:
            continue
        r = summaries[-1]
        build = re.search(r'^A: (.*)$', text, re.M).group(1)
        evaluation = said['A'].split('; ', 1)[1] if '; ' in said['A'] else '?'
        name = os.path.basename(path)[:-4]
        elo = f"{r['elo_pairs']:+.1f} ± {r['elo95_pairs']:.1f}" if r.get('elo95_pairs') is not None else 'no margin'
        cores = re.search(r'^Machine: (\d+) cores', text, re.M)
        at = re.search(r'(one game|\d+ games) at a time', text)
        played = f"{cores.group(1) if cores else '?'} cores, {at.group(1) if at else 'one game'} at a time"
        print(f"| `{name}` | {build} | {evaluation} | {said['B']} | {r['tc']} | {played} | {r['games']} | "
              f"{r['w']}-{r['d']}-{r['l']} | {elo} | {' '.join(map(str, r['pentanomial']))} |")
    sys.exit(0)
print('| match | games | W | D | L | score | Elo (95%) | LOS | think A / B (mean ms) | terminations |')
print('|---|---|---|---|---|---|---|---|---|---|')
for path in sorted(glob.glob(os.path.join(HERE, '..', 'records', 'matches', '*.txt'))):
    lines = [l for l in open(path) if l.startswith('{"tool": "match"')]
    if not lines:
        continue
    r = json.loads(lines[-1])
    reasons = ', '.join(f'{k} {v}' for k, v in sorted(r['reasons'].items(), key=lambda x: -x[1]))
    name = os.path.basename(path)[:-4]
    print(f"| `{name}`: {r['a']} vs {r['b']}, {r['tc']} | {r['games']} | {r['w']} | {r['d']} | {r['l']} | "
          f"{100 * r['score']:.1f}% | {r['elo']:+.0f} ± {r['elo95']:.0f} | {100 * r['los']:.1f}% | "
          f"{r['think_ms']['A']:.0f} / {r['think_ms']['B']:.0f} | {reasons} |")
