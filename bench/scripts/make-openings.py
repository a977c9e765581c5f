#!/usr/bin/env python3
"""The recipe of bench/data/openings-2000.txt: match openings that do not repeat.

From the CCPD master games (books/source/ccpd_master_games.txt.gz, CC BY 4.0), each game in
a seeded order gives one candidate: its first N moves, N drawn from 6-12. A candidate whose
position (board and side to move, or its left-right mirror) was already taken is skipped;
the others are scored by the engine (`go depth DEPTH`, book off, one search each, a fresh
table per position) and kept when the score lies within +-MARGIN centipawns. Stops at COUNT
openings. Each line: the moves from the start, then `# N plies, score S cp`.

Usage: bench/scripts/make-openings.py ENGINE [--games FILE] [--count 2200] [--depth 10]
       [--margin 80] [--seed 1] [--output bench/data/openings-2000.txt]
"""
import argparse
import gzip
import random
import subprocess
import sys

START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR'


def board_after(moves):
    """The board (FEN field 1 as a 10x9 grid of letters, rank 9 first) and the side to move
    after `moves` (ICCS) from the start: enough to tell positions apart."""
    grid = []
    for row in START.split('/'):
        line = []
        for c in row:
            line.extend('.' * int(c) if c.isdigit() else c)
        grid.append(line)
    for move in moves:
        ff, fr, tf, tr = ord(move[0]) - 97, int(move[1]), ord(move[2]) - 97, int(move[3])
        grid[9 - tr][tf] = grid[9 - fr][ff]
        grid[9 - fr][ff] = '.'
    side = 'w' if len(moves) % 2 == 0 else 'b'
    key = ''.join(''.join(row) for row in grid) + side
    mirror = ''.join(''.join(reversed(row)) for row in grid) + side
    return key, mirror


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('engine')
    parser.add_argument('--games', default='books/source/ccpd_master_games.txt.gz')
    parser.add_argument('--count', type=int, default=2200)
    parser.add_argument('--depth', type=int, default=10)
    parser.add_argument('--margin', type=int, default=80)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--output', default='bench/data/openings-2000.txt')
    args = parser.parse_args()
    try:
        opener = gzip.open if args.games.endswith('.gz') else open
        with opener(args.games, 'rt', encoding='utf-8') as f:
            games = [line.split('\t', 1)[1].split() for line in f if '\t' in line]
    except OSError as error:
        print(f'make-openings: cannot read {args.games}: {error}', file=sys.stderr)
        sys.exit(1)
    rng = random.Random(args.seed)
    rng.shuffle(games)
    try:
        engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as error:
        print(f'make-openings: cannot start {args.engine}: {error}', file=sys.stderr)
        sys.exit(1)

    def send(text):
        engine.stdin.write(text + '\n')
        engine.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                raise RuntimeError('the engine closed its output')
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send('uci')
    identity = next(l for l in until('uciok') if l.startswith('id name'))[len('id name '):]
    send('setoption name OwnBook value false')
    send('isready')
    until('readyok')
    seen, kept, scored, repeats = set(), [], 0, 0
    for moves in games:
        plies = rng.randint(6, 12)
        if len(moves) < plies + 20:   # games long enough to be openings, not quick blunders
            continue
        line = moves[:plies]
        key, mirror = board_after(line)
        if key in seen or mirror in seen:
            repeats += 1
            continue
        seen.add(key)
        send('ucinewgame')
        send('position startpos moves ' + ' '.join(line))
        send(f'go depth {args.depth}')
        info = [l for l in until('bestmove') if l.startswith('info depth') and ' score ' in l]
        scored += 1
        words = info[-1].split() if info else []
        if 'cp' not in words:
            continue   # a mate score: not an opening
        score = int(words[words.index('cp') + 1])
        if abs(score) <= args.margin:
            kept.append((line, score))
        if len(kept) >= args.count:
            break
    send('quit')
    with open(args.output, 'w') as out:
        out.write(f'# {len(kept)} openings that do not repeat: made by bench/scripts/make-openings.py {args.engine} '
                  f'--count {args.count} --depth {args.depth} --margin {args.margin} --seed {args.seed}\n'
                  f'# from the CCPD master games (CC BY 4.0), 6-12 plies, one per game, positions and their mirrors\n'
                  f'# distinct, kept when {identity} (book off) scores them within +-{args.margin} cp at depth '
                  f'{args.depth} ({scored} scored). Moves in ICCS from the start position.\n')
        for line, score in kept:
            out.write(f'{" ".join(line)}  # {len(line)} plies, score {score} cp\n')
    print(f'{len(kept)} openings kept of {scored} scored ({repeats} candidates skipped as repeats), written to {args.output}')
    sys.exit(0 if len(kept) >= args.count else 1)


if __name__ == '__main__':
    main()
