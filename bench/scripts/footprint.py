#!/usr/bin/env python3
"""Footprint for bot pools.

1. Idle: start `xiangqi`, `uci` + `isready`, then read VmRSS from /proc (10 runs).
2. Pool: 16 engine processes started together play 8 games (xiangqi against xiangqi, book on,
   100 ms per move, one opening of bench/data/openings.txt each) through `xiangqi match`, 8
   runners at once on this 2-core machine. A sampler reads every engine's VmRSS every 50 ms.
   Reported: peak RSS per process, time forfeits, crashes, hangs, and the think-time
   distribution from the game records.
Usage: bench/scripts/footprint.py [BINARY] [MAX_PLIES]
"""
import glob, os, re, statistics, subprocess, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi')
MAX_PLIES = sys.argv[2] if len(sys.argv) > 2 else '300'
RUNNER = os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi')


def rss_kb(pid):
    try:
        for line in open(f'/proc/{pid}/status'):
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    except OSError:
        return None


idle = []
for _ in range(10):
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write('uci\nisready\n')
    p.stdin.flush()
    for line in p.stdout:
        if line.strip() == 'readyok':
            break
    time.sleep(0.05)
    idle.append(rss_kb(p.pid))
    p.stdin.write('quit\n')
    p.stdin.flush()
    p.wait()
print(f'idle after uci/isready: VmRSS median {statistics.median(idle) / 1024:.1f} MB, '
      f'max {max(idle) / 1024:.1f} MB (10 runs)')

peaks = {}
stop = False
real_bin = os.path.realpath(BIN)


def sampler():
    while not stop:
        for pid in os.listdir('/proc'):
            if not pid.isdigit():
                continue
            try:
                if os.path.realpath(f'/proc/{pid}/exe') != real_bin:
                    continue
            except OSError:
                continue
            kb = rss_kb(pid)
            if kb:
                peaks[pid] = max(peaks.get(pid, 0), kb)
        time.sleep(0.05)


thread = threading.Thread(target=sampler)
thread.start()
spec = f'{BIN} proto=uci opt.Hash=16'
runners = []
t0 = time.time()
os.makedirs('/tmp/footprint', exist_ok=True)
openings = [l for l in open(os.path.join(HERE, '..', 'data', 'openings.txt')).read().splitlines() if l.strip() and not l.startswith('#')]
for i in range(8):
    out = f'/tmp/footprint/game-{i}'
    with open(out + '-opening.txt', 'w') as f:
        f.write(openings[(i * 7) % len(openings)] + '\n')
    for old in (out + '.pgn',):
        if os.path.exists(old): os.remove(old)
    runners.append((out, subprocess.Popen(
        [RUNNER, 'match', '-q', '--engine', spec + f' name=bot-{2 * i}', '--engine', spec + f' name=bot-{2 * i + 1}',
         '--games', '1', '--movetime', '100', '--openings', out + '-opening.txt',
         '--max-plies', MAX_PLIES, '--pgn', out + '.pgn'],
        stdout=open(out + '.txt', 'w'), stderr=subprocess.DEVNULL)))
for _, r in runners:
    r.wait()
stop = True
thread.join()
wall = time.time() - t0

reasons = []
thinks = []
for out, _ in runners:
    text = open(out + '.txt').read()
    m = re.search(r'"reasons": (\{[^}]*\})', text)
    reasons.append(m.group(1) if m else 'no summary')
    pgn = open(out + '.pgn').read() if os.path.exists(out + '.pgn') else ''
    thinks += [int(x) for x in re.findall(r'/\d+ (\d+)ms\}', pgn)]
print(f'pool: 8 games, 16 processes, wall {wall:.0f} s; terminations: ' + '; '.join(reasons))
values = sorted(peaks.values())
print(f'peak VmRSS per engine process ({len(values)} processes): median {statistics.median(values) / 1024:.1f} MB, '
      f'max {max(values) / 1024:.1f} MB')
thinks.sort()
q = lambda f: thinks[min(len(thinks) - 1, int(f * len(thinks)))]
print(f'think time over {len(thinks)} moves: mean {statistics.mean(thinks):.1f} ms, median {q(0.5)}, p90 {q(0.9)}, '
      f'p99 {q(0.99)}, max {thinks[-1]} ms')
