#!/usr/bin/env python3
"""Opening-book speed: build time, process start to a book move, probe time.

1. `xiangqi book build` on all 27,610 source games (books/source), 3 runs, median.
2. Start the engine, send `uci`, `position startpos`, `go movetime 1000`; time from the
   process start to `bestmove` (book opened and probed on that first `go`), 20 runs.
3. `xiangqi book probe --repeat-count 20000` on positions in and out of the book.
Usage: bench/scripts/book-speed.py [BINARY]
"""
import os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, '.build', 'release', 'xiangqi')
GAMES = os.path.join(ROOT, 'books', 'source', 'ccpd_master_games.txt.gz')

builds = []
for _ in range(3):
    t = time.perf_counter()
    gz = subprocess.Popen(['gunzip', '-c', GAMES], stdout=subprocess.PIPE)
    out = subprocess.run([BIN, 'book', 'build', '-', '-o', '/tmp/book-speed.sqlite', '--max-ply', '40',
                          '--min-games', '2', '--quiet'], stdin=gz.stdout, capture_output=True, text=True)
    gz.wait()
    builds.append(time.perf_counter() - t)
print(f'build, all games: median {statistics.median(builds):.2f} s (runs {", ".join(f"{b:.2f}" for b in builds)})'
      f'; {out.stdout.strip()}')

def first_book_move():
    t = time.perf_counter()
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write('uci\nposition startpos\ngo movetime 1000\n')
    p.stdin.flush()
    book = False
    for line in p.stdout:
        if line.startswith('info string book move'):
            book = True
        if line.startswith('bestmove'):
            elapsed = (time.perf_counter() - t) * 1000
            break
    p.stdin.write('quit\n')
    p.stdin.flush()
    p.wait()
    return elapsed, book

runs = [first_book_move() for _ in range(20)]
ms = [r[0] for r in runs]
print(f'process start -> book bestmove: median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms, '
      f'book move in {sum(r[1] for r in runs)}/20 runs')

for label, args in [('start position (20 moves)', []),
                    ('after h2e2 h9g7 h0g2 i9h9 (7 moves)', ['--moves', 'h2e2 h9g7 h0g2 i9h9']),
                    ('not in the book', ['--fen', '4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1'])]:
    out = subprocess.run([BIN, 'book', 'probe', '--repeat-count', '20000'] + args, capture_output=True, text=True)
    print(f'probe, {label}: {out.stdout.strip()}')
