#!/usr/bin/env python3
"""Search speed (nodes per second) of xiangqi and Fairy-Stockfish on the bench positions.

Each engine searches every position of Sources/XiangqiEngine/BenchPositions.swift for
MOVETIME ms (default 1000) on one thread with a 16 MB hash, one engine at a time; the nodes
and time of the last `info` line give its nps, the last exact-score `info depth` line its
completed depth. Prints per-engine medians and the ratio.
With binaries after MOVETIME, each of them is measured instead of the tree's release build
(e.g. two commits built with bench/scripts/build-rev.sh, side by side in one run).
Usage: bench/scripts/search-speed.py [MOVETIME [XIANGQI_BINARY...]]
"""
import os, re, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi')
FSF = '/usr/games/fairy-stockfish'
movetime = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
fens = re.findall(r'"([^"]+ [wb] [^"]*)"', open(os.path.join(HERE, '..', '..', 'Sources', 'XiangqiEngine', 'BenchPositions.swift')).read())


def run(cmd, setup):
    p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + '\n'); p.stdin.flush()
    for line in setup: send(line)
    send('isready')
    while p.stdout.readline().strip() != 'readyok': pass
    rates = []
    depths = []
    for fen in fens:
        send('position fen ' + fen)
        send(f'go movetime {movetime}')
        nodes = ms = None
        depth = 0
        while True:
            line = p.stdout.readline()
            m = re.search(r' nodes (\d+)', line); t = re.search(r' time (\d+)', line)
            if m and t: nodes, ms = int(m.group(1)), int(t.group(1))
            d = re.search(r'^info depth (\d+) .*score', line)
            if d and ' upperbound' not in line and ' lowerbound' not in line: depth = int(d.group(1))
            if line.startswith('bestmove'): break
        rates.append(nodes * 1000 / max(1, ms))
        depths.append(depth)
    send('quit'); p.wait()
    return rates, depths


binaries = sys.argv[2:] or [OURS]
ours = [run(b, ['uci', 'setoption name OwnBook value false', 'setoption name Hash value 16', 'setoption name Threads value 1'])
        for b in binaries]
fsf = run(FSF, ['uci', 'setoption name UCI_Variant value xiangqi', 'setoption name Hash value 16', 'setoption name Threads value 1'])
fsf, fsf_depths = fsf
mf = statistics.median(fsf)
print(f'positions: {len(fens)}, {movetime} ms each, one thread, 16 MB hash')
for binary, (rates, depths) in zip(binaries, ours):
    mo = statistics.median(rates)
    print(f'xiangqi {os.path.relpath(binary)}: median {mo/1000:8.0f} k nodes/s  (min {min(rates)/1000:.0f}k, '
          f'max {max(rates)/1000:.0f}k), {mo/mf:.2f}x Fairy-Stockfish; depth median {statistics.median(depths)}, '
          f'mean {statistics.mean(depths):.1f}')
print(f'fairy-stockfish: median {mf/1000:8.0f} k nodes/s  (min {min(fsf)/1000:.0f}k, max {max(fsf)/1000:.0f}k); '
      f'depth median {statistics.median(fsf_depths)}, mean {statistics.mean(fsf_depths):.1f}')
