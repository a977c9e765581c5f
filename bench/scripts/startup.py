#!/usr/bin/env python3
"""Start-up cost of the engine as a GUI or a bot pool sees it (10 runs each):
start to `uciok`, the first `isready` (which loads the default network), and the idle
VmRSS after it. Usage: bench/scripts/startup.py [BINARY] [RUNS]  (default .build/release/xiangqi, 10)
Prints one line per figure (median and max), for bench/records/startup.txt.
"""
import os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi')
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 10


def rss_mb(pid):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024


def wait_for(p, answer):
    for line in p.stdout:
        if line.strip() == answer:
            return


start, ready, idle = [], [], []
for _ in range(RUNS):
    t0 = time.perf_counter()
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write('uci\n')
    p.stdin.flush()
    wait_for(p, 'uciok')
    t1 = time.perf_counter()
    p.stdin.write('isready\n')
    p.stdin.flush()
    wait_for(p, 'readyok')
    t2 = time.perf_counter()
    time.sleep(0.05)
    idle.append(rss_mb(p.pid))
    p.stdin.write('quit\n')
    p.stdin.flush()
    p.wait()
    start.append((t1 - t0) * 1000)
    ready.append((t2 - t1) * 1000)
print(f'start to uciok                     median {statistics.median(start):6.2f} ms   max {max(start):6.2f} ms   n={RUNS}')
print(f'first isready (loads the network)  median {statistics.median(ready):6.2f} ms   max {max(ready):6.2f} ms   n={RUNS}')
print(f'idle VmRSS after isready           median {statistics.median(idle):6.1f} MB   max {max(idle):6.1f} MB   n={RUNS}')
