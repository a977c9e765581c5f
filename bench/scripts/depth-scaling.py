#!/usr/bin/env python3
"""How search depth grows with time: our engine and Pikafish-HCE side by side on the same
positions (issue 55, item 1).

Each engine searches every bench position (Sources/XiangqiEngine/BenchPositions.swift) for each
time per move (default 100, 200, 400, 800 and 1600 ms), one thread, 16 MB hash, a new game
before each search, one engine at a time. From each search: the last completed depth (the
last exact-score `info depth` line), the nodes, and the effective branching factor over its
last four completed depths, (nodes at depth d / nodes at depth d-4) ** (1/4), from the nodes
each iteration reports. Prints per engine and time the medians over the positions.

    bench/scripts/depth-scaling.py XIANGQI_BINARY PIKAFISH_HCE_BINARY [MS,MS,...]
"""
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FENS = re.findall(r'"([^"]+ [wb] [^"]*)"',
                  open(os.path.join(HERE, '..', '..', 'Sources', 'XiangqiEngine', 'BenchPositions.swift')).read())


def measure(binary, setup, movetimes):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + '\n')
        p.stdin.flush()

    for line in setup:
        send(line)
    send('isready')
    while p.stdout.readline().strip() != 'readyok':
        pass
    results = {}
    for movetime in movetimes:
        rows = []
        for fen in FENS:
            send('ucinewgame')
            send('isready')
            while p.stdout.readline().strip() != 'readyok':
                pass
            send('position fen ' + fen)
            send(f'go movetime {movetime}')
            depth, nodes, by_depth = 0, 0, {}
            while True:
                line = p.stdout.readline()
                n = re.search(r' nodes (\d+)', line)
                if n:
                    nodes = int(n.group(1))
                d = re.search(r'^info depth (\d+) .*score', line)
                if d and n and ' upperbound' not in line and ' lowerbound' not in line:
                    depth = int(d.group(1))
                    by_depth[depth] = int(n.group(1))
                if line.startswith('bestmove'):
                    break
            ebf = None
            if depth - 4 in by_depth and by_depth[depth - 4] > 0:
                ebf = (by_depth[depth] / by_depth[depth - 4]) ** 0.25
            rows.append((depth, nodes, ebf))
        results[movetime] = rows
    send('quit')
    p.wait()
    return results


def main():
    ours, pikafish = sys.argv[1], sys.argv[2]
    movetimes = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else '100,200,400,800,1600').split(',')]
    engines = [
        ('xiangqi', measure(ours, ['uci', 'setoption name OwnBook value false', 'setoption name Hash value 16'], movetimes)),
        ('Pikafish-HCE', measure(pikafish, ['uci', 'setoption name Hash value 16', 'setoption name Threads value 1'],
                                 movetimes)),
    ]
    print(f'positions: {len(FENS)} (the bench positions), one thread, 16 MB hash, a new game before each search')
    print()
    print('| engine | ms per move | depth (median) | depth (mean) | nodes (median) | effective branching factor (median, last 4 depths) |')
    print('|---|---|---|---|---|---|')
    for name, results in engines:
        for movetime in movetimes:
            rows = results[movetime]
            ebfs = [e for _, _, e in rows if e]
            print(f'| {name} | {movetime} | {statistics.median(r[0] for r in rows)} | '
                  f'{statistics.mean(r[0] for r in rows):.1f} | {statistics.median(r[1] for r in rows):,.0f} | '
                  f'{statistics.median(ebfs):.2f} |' if ebfs else '| - |')


if __name__ == '__main__':
    main()
