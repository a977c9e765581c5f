#!/usr/bin/env python3
"""Lazy SMP scaling of xiangqi: node rate and time to depth at 1 thread and at N threads.

Node rate: the start position and the first four middlegames of the bench
(Sources/XiangqiEngine/BenchPositions.swift), `go movetime NPS_MS` (default 10000) each, at 1
and at N threads; the nodes and time of the last `info` line give the rate. Time to depth:
`go depth DEPTH` (default 16) from the start position and three bench middlegames, RUNS
(default 5) times each at 1 and at N threads, `ucinewgame` before every search; the `time` of
the first `info depth DEPTH` exact line is the time to depth. Hash 64 MB, our book off. Prints
per-position medians and the ratios (N threads over 1). Needs N idle cores: run nothing else.
Usage: bench/scripts/threads-speed.py [THREADS [NPS_MS [DEPTH [RUNS [BINARY]]]]]
"""
import os, re, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
nps_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
depth = int(sys.argv[3]) if len(sys.argv) > 3 else 16
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
binary = sys.argv[5] if len(sys.argv) > 5 else os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi')
bench = re.findall(r'"([^"]+ [wb] [^"]*)"', open(os.path.join(HERE, '..', '..', 'Sources', 'XiangqiEngine', 'BenchPositions.swift')).read())
START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
nps_positions = [START] + bench[:4]
depth_positions = [START] + bench[1:4]


class Engine:
    def __init__(self, n):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        for line in ['uci', 'setoption name OwnBook value false', 'setoption name Hash value 64',
                     f'setoption name Threads value {n}']:
            self.send(line)
        self.ready()

    def send(self, s):
        self.p.stdin.write(s + '\n'); self.p.stdin.flush()

    def ready(self):
        self.send('isready')
        while self.p.stdout.readline().strip() != 'readyok': pass

    def go(self, fen, command, target_depth=None):
        """Returns (nodes, ms) of the last info line, and the time the target depth was reached."""
        self.send('ucinewgame'); self.ready()
        self.send('position fen ' + fen)
        self.send(command)
        nodes = ms = reached = None
        while True:
            line = self.p.stdout.readline()
            if not line: raise SystemExit('engine died')
            m = re.search(r' nodes (\d+)', line); t = re.search(r' time (\d+)', line)
            if m and t: nodes, ms = int(m.group(1)), int(t.group(1))
            d = re.match(r'info depth (\d+) ', line)
            if (d and target_depth and reached is None and int(d.group(1)) >= target_depth and t
                    and 'bound' not in line):
                reached = int(t.group(1))
            if line.startswith('bestmove'): return nodes, ms, reached

    def quit(self):
        self.send('quit'); self.p.wait()


print(f'xiangqi {os.path.relpath(binary)}, {threads} threads against 1, {os.cpu_count()} cores, hash 64 MB')
one, many = Engine(1), Engine(threads)
print(f'node rate, go movetime {nps_ms}:')
ratios = []
for i, fen in enumerate(nps_positions):
    n1, t1, _ = one.go(fen, f'go movetime {nps_ms}')
    nn, tn, _ = many.go(fen, f'go movetime {nps_ms}')
    r1, rn = n1 * 1000 / max(1, t1), nn * 1000 / max(1, tn)
    ratios.append(rn / r1)
    print(f'  position {i}: 1 thread {r1/1000:7.0f} k nodes/s, {threads} threads {rn/1000:7.0f} k nodes/s, {rn/r1:.2f}x')
print(f'  median ratio {statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f})')
print(f'time to depth {depth}, {runs} runs each, medians:')
ratios = []
for i, fen in enumerate(depth_positions):
    times1, timesn = [], []
    for _ in range(runs):
        times1.append(one.go(fen, f'go depth {depth}', depth)[2])
        timesn.append(many.go(fen, f'go depth {depth}', depth)[2])
    m1, mn = statistics.median(times1), statistics.median(timesn)
    ratios.append(mn / m1)
    print(f'  position {i}: 1 thread {m1:7.0f} ms, {threads} threads {mn:7.0f} ms, {mn/m1:.2f}x '
          f'(1: {times1}, {threads}: {timesn})')
print(f'  median ratio {statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f})')
one.quit(); many.quit()
