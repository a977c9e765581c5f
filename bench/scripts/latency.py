#!/usr/bin/env python3
"""Protocol latency of the release `xiangqi` binary (issue: UCCI/UCI process).

Measures, over pipes, with wall-clock timestamps taken in this script:
  start   process start to `ucciok` / `uciok`
  ready   `isready` to `readyok`, idle and during a search
  stop    `stop` to `bestmove` during `go infinite`
  overrun `go movetime T` to `bestmove`, minus T
  clock   a self-play game at 300 ms sudden death per side (no increment): the lowest time
          left on either clock (negative would be a loss on time)
Prints medians and maxima. Usage: bench/scripts/latency.py [BINARY] [--sudden-death GAMES [MS]]
(the second form plays only sudden-death games: GAMES of them, MS milliseconds a side,
default 300).
"""
import os, statistics, subprocess, sys, threading, time, queue

ARGS = sys.argv[1:sys.argv.index('--sudden-death')] if '--sudden-death' in sys.argv else sys.argv[1:]
BIN = ARGS[0] if ARGS else os.path.join(os.path.dirname(__file__), '..', '..', '.build', 'release', 'xiangqi')


class Engine:
    def __init__(self):
        self.t0 = time.perf_counter()
        self.p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.p.stdout:
            self.q.put((time.perf_counter(), raw.decode(errors='replace').rstrip('\r\n')))
        self.q.put((time.perf_counter(), None))

    def send(self, line):
        t = time.perf_counter()
        self.p.stdin.write((line + '\n').encode())
        self.p.stdin.flush()
        return t

    def wait(self, pred, timeout=30):
        end = time.time() + timeout
        while True:
            t, line = self.q.get(timeout=max(0.01, end - time.time()))
            if line is None:
                raise RuntimeError('engine exited')
            if pred(line):
                return t, line

    def close(self):
        try:
            self.send('quit')
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def ms(x):
    return x * 1000


def summary(name, values, unit='ms'):
    print(f'{name:42s} median {statistics.median(values):8.2f} {unit}   max {max(values):8.2f} {unit}   n={len(values)}')


def main():
    if '--sudden-death' in sys.argv:
        rest = sys.argv[sys.argv.index('--sudden-death') + 1:]
        for _ in range(int(rest[0])):
            sudden_death(float(rest[1]) if len(rest) > 1 else 300.0)
        return
    starts = []
    for proto in ['ucci', 'uci'] * 10:
        e = Engine()
        e.send(proto)
        t, _ = e.wait(lambda l: l in ('ucciok', 'uciok'))
        starts.append(ms(t - e.t0))
        e.close()
    summary('start to ucciok/uciok', starts)

    e = Engine()
    e.send('uci')
    e.wait(lambda l: l == 'uciok')
    e.send('setoption name OwnBook value false')  # time the search, not the book (bench/book.md)
    idle = []
    for _ in range(50):
        t0 = e.send('isready')
        t, _ = e.wait(lambda l: l == 'readyok')
        idle.append(ms(t - t0))
    summary('isready while idle', idle)

    busy, stops = [], []
    for _ in range(10):
        e.send('position startpos')
        e.send('go infinite')
        time.sleep(0.05)
        for _ in range(5):
            t0 = e.send('isready')
            t, _ = e.wait(lambda l: l == 'readyok')
            busy.append(ms(t - t0))
            time.sleep(0.02)
        time.sleep(0.1)
        t0 = e.send('stop')
        t, _ = e.wait(lambda l: l.startswith('bestmove'))
        stops.append(ms(t - t0))
    summary('isready while searching', busy)
    summary('stop to bestmove (go infinite)', stops)

    for movetime in (100, 500, 1000):
        over = []
        for i in range(8):
            e.send('position startpos moves h2e2 h9g7' if i % 2 else 'position startpos')
            t0 = e.send(f'go movetime {movetime}')
            t, _ = e.wait(lambda l: l.startswith('bestmove'))
            over.append(ms(t - t0) - movetime)
        summary(f'go movetime {movetime}: time past the limit', over)
    e.close()
    sudden_death()


def sudden_death(clock=300.0):
    """Self-play at `clock` ms sudden death for each side."""
    e = Engine()
    e.send('uci')
    e.wait(lambda l: l == 'uciok')
    e.send('setoption name OwnBook value false')  # time the search, not the book (bench/book.md)
    clocks = [clock, clock]
    moves, lowest, think = [], clock, []
    for ply in range(200):
        side = ply % 2
        e.send('position startpos moves ' + ' '.join(moves) if moves else 'position startpos')
        t0 = e.send(f'go wtime {int(clocks[0])} btime {int(clocks[1])}')
        t, line = e.wait(lambda l: l.startswith('bestmove'))
        used = ms(t - t0)
        think.append(used)
        clocks[side] -= used
        lowest = min(lowest, clocks[side])
        move = line.split()[1]
        if move == '(none)' or clocks[side] < 0:
            break
        moves.append(move)
    e.close()
    print(f'{f"{clock:.0f} ms sudden death self-play":42s} {len(moves)} plies, lowest clock left {lowest:.1f} ms, '
          f'median think {statistics.median(think):.1f} ms, max think {max(think):.1f} ms, {"no loss on time" if lowest >= 0 else "LOST ON TIME"}')


if __name__ == '__main__':
    main()
