#!/usr/bin/env python3
"""Every move an engine prints is legal, judged by pyffish (`pip install pyffish`), an
independent referee: each move of each `info ... pv` line (MultiPV and bound lines too),
`bestmove` and `ponder`, played one after another from the searched position.

Searches: positions of seeded random games (pyffish's own move generator), in both dialects
(UCI and UCCI) and both rank numberings (0-9, and 1-10 after a move list that shows it),
MultiPV 1-5 (UCI), 1 or 2 threads, depth 1-10; a quarter each end by their depth, by `stop`
after `go infinite`, by a new `position` mid-search, and by `ponderhit` of `go ponder`.
WORKERS engines run side by side (one a core). Prints one line per 1,000 searches and a
summary; writes the summary and every illegal line to --record. Exit status 1 on any illegal
or missing line (a bound line without its move, a search without `bestmove`).

Usage: bench/scripts/pv-legality.py --engine .build/release/xiangqi [--searches 100000]
       [--workers 2] [--seed 1] [--record bench/records/pv-legality.txt]
"""
import argparse
import multiprocessing
import queue
import random
import subprocess
import sys
import threading
import time

import pyffish as sf

VARIANT = 'xiangqi'
START = sf.start_fen(VARIANT)


def to_one_based(move):
    """An ICCS move (ranks 0-9) as pyffish writes it (ranks 1-10)."""
    return f'{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}'


def random_positions(rng, count):
    """FENs of positions 5-160 plies into seeded random games, each with a legal move (one
    position in eight is kept, so that a game gives a handful)."""
    fens = []
    while len(fens) < count:
        fen = START
        for ply in range(rng.randint(20, 160)):
            legal = sf.legal_moves(VARIANT, fen, [])
            if not legal:
                break
            fen = sf.get_fen(VARIANT, fen, [rng.choice(sorted(legal))])
            if ply >= 4 and rng.random() < 0.125 and sf.legal_moves(VARIANT, fen, []):
                fens.append(fen)
    return fens[:count]


class Engine:
    """One engine process: lines in, lines out, with a reader thread."""

    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip('\n'))
        self.lines.put(None)

    def send(self, text):
        self.process.stdin.write(text + '\n')
        self.process.stdin.flush()

    def until(self, predicate, timeout=120):
        """Every line up to and including the first that satisfies `predicate`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if line is None:
                raise RuntimeError('the engine closed its output')
            seen.append(line)
            if predicate(line):
                return seen

    def close(self):
        self.send('quit')
        self.process.wait(timeout=30)


def check_lines(lines, fen, one_based):
    """(lines checked, moves checked, problems) for the move-bearing lines of one search."""
    checked, moves_checked, problems = 0, 0, []
    answered = False
    # The legal moves after each prefix, asked of pyffish once per search: the lines of
    # successive depths and MultiPV lines share most of their prefixes.
    # Each prefix's FEN comes from its parent's and one move, so no call replays a line.
    legal_after, fen_after = {}, {(): fen}

    def legal(played):
        key = tuple(played)
        if key not in legal_after:
            if key not in fen_after:
                fen_after[key] = sf.get_fen(VARIANT, fen_after[key[:-1]], [key[-1]])
            legal_after[key] = set(sf.legal_moves(VARIANT, fen_after[key], []))
        return legal_after[key]

    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == 'info' and 'pv' in words:
            moves = words[words.index('pv') + 1:]
            if not moves:
                problems.append(f'{fen}: empty pv: {line}')
                continue
        elif words[0] == 'info' and ('lowerbound' in words or 'upperbound' in words):
            problems.append(f'{fen}: bound line without its move: {line}')
            continue
        elif words[0] == 'bestmove' and len(words) >= 2:
            answered = True
            moves = [words[1]]
            if 'ponder' in words and words.index('ponder') + 1 < len(words):
                moves.append(words[words.index('ponder') + 1])
        elif words[0] == 'nobestmove':
            answered = True
            problems.append(f'{fen}: nobestmove in a position with a legal move')
            continue
        else:
            continue
        checked += 1
        played = []
        for move in moves:
            text = move if one_based else to_one_based(move) if len(move) == 4 and move[1].isdigit() and move[3].isdigit() else move
            if text not in legal(played):
                problems.append(f'{fen}: illegal move {move} after {played}: {line}')
                break
            played.append(text)
            moves_checked += 1
    if not answered:
        problems.append(f'{fen}: no bestmove')
    return checked, moves_checked, problems


def worker(index, path, count, seed, results):
    """Runs in its own process (pyffish holds the interpreter lock): searches `count` positions
    of its own seeded games and puts one (ending, session, lines, moves, problems) tuple per
    search on `results`."""
    rng = random.Random(seed * 1000 + index)
    fens = random_positions(rng, count)
    engine = Engine(path)
    session = None
    for number, fen in enumerate(fens):
        if number % 200 == 0:
            # A new handshake every 200 searches: dialect and numbering chosen again.
            dialect = rng.choice(['uci', 'ucci'])
            one_based = rng.random() < 0.5
            engine.send(dialect)
            engine.until(lambda l: l in ('uciok', 'ucciok'))
            engine.send('setoption name OwnBook value false' if dialect == 'uci' else 'setoption usebook false')
            engine.send('setoption name Hash value 16' if dialect == 'uci' else 'setoption hashsize 16')
            if one_based:
                engine.send('position startpos moves h3e3')
            engine.send('isready')
            engine.until(lambda l: l == 'readyok')
            session = (dialect, one_based)
        dialect, one_based = session
        if dialect == 'uci':
            engine.send(f'setoption name MultiPV value {rng.randint(1, 5)}')
            engine.send(f'setoption name Threads value {1 if rng.random() < 0.75 else 2}')
        else:
            engine.send(f'setoption threads {1 if rng.random() < 0.75 else 2}')
        # Engine FENs say w/b like pyffish's; the move list (none) keeps the numbering.
        engine.send(f'position fen {fen}')
        depth = rng.randint(1, 10)
        ending = rng.choice(['depth', 'stop', 'position', 'ponderhit'])
        if ending == 'depth':
            engine.send(f'go depth {depth}')
        elif ending == 'stop':
            engine.send('go infinite')
            time.sleep(rng.random() * 0.05)
            engine.send('stop')
        elif ending == 'position':
            engine.send(f'go depth {depth + 4}')
            time.sleep(rng.random() * 0.05)
            engine.send(f'position fen {fen}')
        else:
            engine.send(f'go ponder depth {depth}')
            time.sleep(rng.random() * 0.05)
            engine.send('ponderhit')
        lines = engine.until(lambda l: l.startswith('bestmove') or l == 'nobestmove')
        checked, moves, problems = check_lines(lines, fen, one_based)
        results.put((ending, f'{dialect}, ranks {"1-10" if one_based else "0-9"}', checked, moves, problems))
    engine.close()
    results.put(None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--engine', required=True)
    parser.add_argument('--searches', type=int, default=100_000)
    parser.add_argument('--workers', type=int, default=2)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--record')
    args = parser.parse_args()
    if args.searches < 1 or args.workers < 1:
        print('pv-legality: --searches and --workers must be positive', file=sys.stderr)
        sys.exit(1)
    try:
        identity = subprocess.run([args.engine, '--version'], capture_output=True, text=True, check=True).stdout
        bench = subprocess.run([args.engine, 'bench'], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f'pv-legality: cannot run {args.engine}: {error}', file=sys.stderr)
        sys.exit(1)
    signature = next((l.split()[-1] for l in bench.splitlines() if l.startswith('Nodes searched')), '?')
    totals = {'searches': 0, 'lines': 0, 'moves': 0, 'problems': [],
              'by_ending': {e: 0 for e in ['depth', 'stop', 'position', 'ponderhit']},
              'by_dialect': {f'{d}, ranks {n}': 0 for d in ['uci', 'ucci'] for n in ['0-9', '1-10']}}
    start = time.monotonic()
    results = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=worker, args=(i, args.engine, len(range(i, args.searches, args.workers)), args.seed, results))
               for i in range(args.workers)]
    for w in workers:
        w.start()
    running = len(workers)
    while running:
        result = results.get()
        if result is None:
            running -= 1
            continue
        ending, session, checked, moves, problems = result
        totals['searches'] += 1
        totals['lines'] += checked
        totals['moves'] += moves
        totals['problems'] += problems
        totals['by_ending'][ending] += 1
        totals['by_dialect'][session] += 1
        if totals['searches'] % 1000 == 0:
            print(f'{totals["searches"]} searches, {totals["lines"]} lines, {totals["moves"]} moves, '
                  f'{len(totals["problems"])} problems, {time.monotonic() - start:.0f} s', flush=True)
    for w in workers:
        w.join()
    seconds = time.monotonic() - start
    summary = [
        f'engine: {identity.splitlines()[0] if identity else "?"}; bench {signature}',
        f'command: bench/scripts/pv-legality.py --engine {args.engine} --searches {args.searches} '
        f'--workers {args.workers} --seed {args.seed}',
        f'referee: pyffish {".".join(map(str, sf.version()))}',
        f'searches: {totals["searches"]} ({", ".join(f"{k} {v}" for k, v in totals["by_ending"].items())})',
        f'sessions: {", ".join(f"{k} {v}" for k, v in totals["by_dialect"].items())}',
        f'lines checked: {totals["lines"]}, moves checked: {totals["moves"]}',
        f'illegal or missing: {len(totals["problems"])}',
        f'wall time: {seconds:.0f} s',
    ]
    print('\n'.join(summary))
    for problem in totals['problems'][:20]:
        print(problem)
    if args.record:
        with open(args.record, 'w') as out:
            out.write('\n'.join(summary + totals['problems']) + '\n')
    sys.exit(1 if totals['problems'] or totals['searches'] != args.searches else 0)


if __name__ == '__main__':
    main()
