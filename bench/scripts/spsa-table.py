#!/usr/bin/env python3
"""Summarises an SPSA trace of `xiangqi spsa` (JSON lines: a header, then one line per pair).

Usage: bench/scripts/spsa-table.py TRACE.jsonl[.gz] [--every N]

Prints the settings, how the pairs went (the plus side's points, results), and a Markdown table of
theta per parameter: its start, its value after every N pairs (default: a quarter of those played)
and now, and the change in units of its c_end (the final perturbation); then the values now,
rounded, as the new engine's argument of bench/scripts/sprt.sh. Writes nothing.
"""
import gzip
import json
import sys


def read(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        lines = [line for line in f if line.strip()]
    if not lines:
        sys.exit(f'{path}: empty trace')
    try:
        header = json.loads(lines[0])
        records = [json.loads(line) for line in lines[1:]]
    except json.JSONDecodeError as error:
        sys.exit(f'{path}: not a trace: {error}')
    if header.get('spsa') != 1:
        sys.exit(f'{path}: the first line is not an spsa header')
    return header, records


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith('-'):
        sys.exit(__doc__.strip().splitlines()[2])
    path = args[0]
    every = None
    if '--every' in args:
        try:
            every = int(args[args.index('--every') + 1])
        except (IndexError, ValueError):
            sys.exit('--every takes a number of pairs')
        if every < 1:
            sys.exit('--every takes a positive number of pairs')
    header, records = read(path)
    parameters = header['parameters']
    n = len(records)
    print(f"Trace {path}: {n} of {header['iterations']} pairs; engine {header['engine']}; tc {header['tc']}; "
          f"openings {header['openings']}; seed {header['seed']}; alpha {header['alpha']}, gamma {header['gamma']}, "
          f"A {header['A']}; r_end {sorted({p['r_end'] for p in parameters})}")
    if n == 0:
        return
    points = [float(g.split()[0]) for r in records for g in r['games']]
    wins = sum(1 for p in points if p == 1)
    losses = sum(1 for p in points if p == 0)
    draws = len(points) - wins - losses
    results = [r['result'] for r in records]
    counts = {v: results.count(v) for v in sorted(set(results))}
    print(f"Plus side over {len(points)} games: +{wins} ={draws} -{losses}; pair results "
          + ', '.join(f"{v:+g}: {c}" for v, c in counts.items())
          + f"; mean {sum(results) / n:+.3f}")
    every = every or max(1, n // 4)
    marks = list(range(every, n, every)) + [n]
    print()
    print('| parameter | start | ' + ' | '.join(f'after {m}' for m in marks) + ' | change (c_end) |')
    print('|---|---|' + '---|' * len(marks) + '---|')
    for i, p in enumerate(parameters):
        values = [records[m - 1]['theta'][i] for m in marks]
        change = (values[-1] - p['start']) / p['c_end']
        print(f"| {p['name']} | {p['start']:g} | " + ' | '.join(f'{v:.1f}' for v in values) + f" | {change:+.2f} |")
    # Python rounds halves to even; the engine's values are Swift's rounding (halves away from zero).
    rounded = [int(t + 0.5) if t >= 0 else -int(-t + 0.5) for t in records[-1]['theta']]
    print()
    print('As the new engine of bench/scripts/sprt.sh, against COMMIT alone (COMMIT: the tuned build): COMMIT,'
          + ','.join(f"{p['name']}={v}" for p, v in zip(parameters, rounded)))


if __name__ == '__main__':
    main()
