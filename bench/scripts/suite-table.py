#!/usr/bin/env python3
"""Tables for bench/suite.md from the outputs of bench/scripts/run-suite.sh (bench/records/suite/*-movetime-MS.txt):
solved counts overall, by source and by mate length, mates announced within the stated length, and
the time to solution on the positions both engines solved.
Usage: bench/scripts/suite-table.py [MS]
"""
import collections, glob, os, re, statistics, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ms = sys.argv[1] if len(sys.argv) > 1 else '1000'
dm = {}
for line in open(os.path.join(HERE, '..', 'data', 'tactics.epd')):
    m = re.search(r'id "([^"]+)".*dm (\d+)', line)
    if m:
        dm[m.group(1)] = int(m.group(2))
LINE = re.compile(r'^\s*(\d+)\s+(\S+)\s+(solved|failed)\s+(\S+)\s+\(([^)]*)\)(?: in (\d+) ms)?(?: depth (\d+))?(?: score (\S+))?')
runs = {}
for path in sorted(glob.glob(os.path.join(HERE, '..', 'records', 'suite', f'*-movetime-{ms}.txt'))):
    name = os.path.basename(path).replace(f'-movetime-{ms}.txt', '')
    rows = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            _, pid, verdict, move, _, t, depth, score = m.groups()
            rows[pid] = dict(solved=verdict == 'solved', t=int(t) if t else None, depth=int(depth or 0), score=score)
    runs[name] = rows
names = list(runs)


def source(pid):
    return pid.rsplit('-', 1)[0]


def group_table(title, key):
    groups = collections.defaultdict(list)
    for pid in runs[names[0]]:
        groups[key(pid)].append(pid)
    print(f'| {title} | positions | ' + ' | '.join(names) + ' |')
    print('|---|---|' + '---|' * len(names))
    for g in sorted(groups, key=lambda g: (0, int(g.split()[1]), '') if g.startswith('dm ') else (1, 0, g)):
        pids = groups[g]
        cells = [f"{sum(runs[n].get(p, {}).get('solved', False) for p in pids)} ({100 * sum(runs[n].get(p, {}).get('solved', False) for p in pids) / len(pids):.1f}%)" for n in names]
        print(f'| {g} | {len(pids)} | ' + ' | '.join(cells) + ' |')
    print()


total = len(runs[names[0]])
print(f'Positions: {total}; movetime {ms} ms.\n')
group_table('all', lambda p: 'all')
group_table('source', source)
group_table('mate length (dm)', lambda p: f'dm {dm[p]}' if p in dm else 'no dm (best move only)')

print('| engine | dm positions with a mate announced within N moves (any move) |')
print('|---|---|')
for n in names:
    found = 0
    dm_run = sum(1 for p in runs[n] if p in dm)
    for p, r in runs[n].items():
        if p in dm and r['score'] and 'M' in r['score'] and r['score'].startswith('+'):
            if int(r['score'].split('M')[1]) <= dm[p]:
                found += 1
    print(f'| {n} | {found} / {dm_run} ({100 * found / max(1, dm_run):.1f}%) |')
print()
both = [p for p in runs[names[0]] if all(runs[n].get(p, {}).get('solved') for n in names)]
print(f'Solved by both: {len(both)}. Time to solution on those (ms):\n')
print('| engine | median | mean | p90 |')
print('|---|---|---|---|')
for n in names:
    ts = sorted(runs[n][p]['t'] for p in both if runs[n][p]['t'] is not None)
    if ts:
        print(f'| {n} | {statistics.median(ts):.0f} | {statistics.mean(ts):.0f} | {ts[int(0.9 * len(ts))]} |')
