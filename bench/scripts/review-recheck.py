#!/usr/bin/env python3
"""Re-judges the moves a review called blunders with ten times the nodes: is the reviewer
right, or does its search at the default limits misjudge them?

For every move of the review records (JSON lines of `xiangqi review --json`) whose loss reaches
THRESHOLD, the position before it is searched again through UCI (a new game each time, one
thread, 16 MB hash): all moves, then the played move alone (`searchmoves`), each with NODES
nodes; the loss is computed as Review.swift does (expected points from the win/draw/loss model
of WinDrawLoss.swift). Prints each move and how many stay at or above THRESHOLD.

    bench/scripts/review-recheck.py BINARY THRESHOLD NODES FILE.jsonl [FILE.jsonl ...]
"""
import gzip
import json
import math
import re
import subprocess
import sys


def expected(score_cp=None, mate=None):
    if mate is not None:
        return 1.0 if mate > 0 else 0.0
    logistic = lambda x: 1 / (1 + math.exp(-x))
    win = round(1000 * logistic((score_cp - 150) / 100))
    loss = round(1000 * logistic((-score_cp - 150) / 100))
    return (win + (1000 - win - loss) / 2) / 1000


def main():
    binary, threshold, nodes = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + '\n')
        p.stdin.flush()

    def ready():
        send('isready')
        while p.stdout.readline().strip() != 'readyok':
            pass

    send('uci')
    send('setoption name OwnBook value false')
    send('setoption name Hash value 16')
    ready()

    def search(moves, only=None):
        send('ucinewgame')
        ready()
        send('position startpos' + (' moves ' + ' '.join(moves) if moves else ''))
        send(f'go nodes {nodes}' + (f' searchmoves {only}' if only else ''))
        value = None
        while True:
            line = p.stdout.readline()
            m = re.search(r'score (cp|mate) (-?\d+)', line)
            if m and ' upperbound' not in line and ' lowerbound' not in line:
                value = ('cp', int(m.group(2))) if m.group(1) == 'cp' else ('mate', int(m.group(2)))
            if line.startswith('bestmove'):
                return value, line.split()[1]

    kept = total = 0
    for path in sys.argv[4:]:
        for line in (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)):
            game = json.loads(line)
            if 'FEN' in game['tags']:
                continue
            played = [m['move'] for m in game['moves']]
            for m in game['moves']:
                if m['loss'] < threshold or m['class'] == 'best':
                    continue
                before = played[:m['ply'] - 1]
                (kind, v), best = search(before)
                e_best = expected(mate=v) if kind == 'mate' else expected(v)
                (kind2, v2), _ = search(before, m['move'])
                e_played = expected(mate=v2) if kind2 == 'mate' else expected(v2)
                loss = 0.0 if best == m['move'] else max(0.0, e_best - e_played)
                total += 1
                kept += loss >= threshold
                print(f"{path.split('/')[-1]} game {game['game']} ply {m['ply']} {m['move']}: loss {m['loss']:.3f} "
                      f"at the review's limits, {loss:.3f} at {nodes} nodes (best {best})")
    print(f'{kept} of {total} moves lose at least {threshold} at {nodes} nodes too')
    send('quit')


if __name__ == '__main__':
    main()
