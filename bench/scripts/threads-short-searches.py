#!/usr/bin/env python3
"""Threads in game-like short searches: positions from the first six games of a match record
(plies 8 to 78, every other ply, `ucinewgame` per game so the table warms up as in a game),
`go movetime MS` each with 1 and with 2 threads, twice alternately; prints the mean completed
depth and the median nodes. The 10-second figures of bench/scripts/threads-speed.py do not show what
happens in the first tens of milliseconds of a search.
Usage: bench/scripts/threads-short-searches.py [MS [BINARY [PGN]]]
"""
import os, re, subprocess, sys, statistics
import pgnfiles
HERE = os.path.dirname(os.path.abspath(__file__))
binary = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi')
pgn = pgnfiles.read(sys.argv[3] if len(sys.argv) > 3 else os.path.join(HERE, '..', 'records', 'matches', 'smp-2-threads-tc-10+0.1.pgn.gz'))
games = pgn.split('[Event ')[1:]
def moves_of(g):
    body = g.split('\n\n', 1)[1]
    body = re.sub(r'\{[^}]*\}', ' ', body)
    return re.findall(r'\b[a-i]\d[a-i]\d\b', body)
def run(threads, seqs, ms):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
    send('uci'); send('setoption name OwnBook value false'); send('setoption name Hash value 16')
    send(f'setoption name Threads value {threads}'); send('isready')
    while p.stdout.readline().strip() != 'readyok': pass
    depths=[]; nodes=[]
    for moves in seqs:
        send('ucinewgame')
        for k in range(8, min(len(moves), 80), 2):
            send('position startpos moves ' + ' '.join(moves[:k]))
            send(f'go movetime {ms}')
            d = n = 0
            while True:
                line = p.stdout.readline()
                m = re.match(r'info depth (\d+) .*nodes (\d+)', line)
                if m and 'bound' not in line: d, n = int(m.group(1)), int(m.group(2))
                if line.startswith('bestmove'): break
            depths.append(d); nodes.append(n)
    send('quit'); p.wait()
    return depths, nodes
seqs = [moves_of(g) for g in games[:6]]
ms = int(sys.argv[1]) if len(sys.argv) > 1 else 150
for t in (1, 2, 1, 2):
    d, n = run(t, seqs, ms)
    print(f'threads {t}: {len(d)} searches of {ms} ms, depth mean {statistics.mean(d):.2f}, nodes median {statistics.median(n)}')
