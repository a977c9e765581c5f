#!/usr/bin/env python3
"""The calibration table of `xiangqi review` (bench/review.md) from the JSON lines that
bench/scripts/review-calibration.sh wrote: per group (masters; each level against level 20,
counting the level's own moves only), games, moves, mean accuracy per game and side, the
classes per 100 moves (under the thresholds that Review.swift holds today, from each
move's recorded loss), and how often a move loses at least each amount of expected points
(the data the class thresholds were chosen from).

    bench/scripts/review-table.py DIR
"""
import gzip
import json
import os
import re
import statistics
import sys

CLASSES = ['best', 'excellent', 'good', 'inaccuracy', 'mistake', 'blunder']
HERE = os.path.dirname(os.path.abspath(__file__))


def thresholds():
    """MoveClass.thresholds as Sources/XiangqiEngine/Review.swift writes them, worst first."""
    text = open(os.path.join(HERE, '..', '..', 'Sources', 'XiangqiEngine', 'Review.swift')).read()
    table = text[text.index('public static let thresholds'):]
    table = table[table.index('= ['):]
    table = table[:table.index(']')]
    return [(name, float(value)) for name, value in re.findall(r'\(\.(\w+), ([0-9.]+)\)', table)]


def classify(move, cuts):
    """The class of a judged move under today's thresholds (the records keep the loss)."""
    if move['class'] == 'best':
        return 'best'
    return next((name for name, least in cuts if move['loss'] >= least), 'excellent')
CUTS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4]
QUANTILES = [0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995]


def groups(directory):
    """(label, [(accuracy of a side in a game, [its moves])]) in table order."""
    out = []
    masters = os.path.join(directory, 'masters.jsonl')
    if os.path.exists(masters) or os.path.exists(masters + '.gz'):
        sides = []
        for game in read(masters):
            for side in ('red', 'black'):
                moves = [m for m in game['moves'] if m['side'] == side]
                if moves:
                    sides.append((side_accuracy(moves), moves))
        out.append(('masters (CCPD)', sides))
    for level in (0, 5, 10, 15, 20):
        path = os.path.join(directory, f'level-{level}-vs-20.jsonl')
        if not os.path.exists(path) and not os.path.exists(path + '.gz'):
            continue
        sides = []
        for game in read(path):
            for side, tag in (('red', 'Red'), ('black', 'Black')):
                if game['tags'].get(tag) != f'level-{level}':
                    continue
                moves = [m for m in game['moves'] if m['side'] == side]
                if moves:
                    sides.append((side_accuracy(moves), moves))
        out.append((f'level {level} (against level 20)', sides))
    return out


def counts(move):
    """MoveJudgement.countsForAccuracy: the game was open before or after the move (the mover's
    expected points between 0.1 and 0.9 on at least one side of it)."""
    return not ((move['expected_before'] < 0.1 and move['expected_after'] < 0.1)
                or (move['expected_before'] > 0.9 and move['expected_after'] > 0.9))


def side_accuracy(moves):
    """GameReview.accuracy(of:): the mean over the moves that count, all moves if none does."""
    counted = [m for m in moves if counts(m)]
    used = counted or moves
    return sum(m['accuracy'] for m in used) / len(used)


def read(path):
    """The JSON lines of PATH, or of PATH.gz when the records were packed."""
    if not os.path.exists(path) and os.path.exists(path + '.gz'):
        path += '.gz'
    with (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)) as f:
        return [json.loads(line) for line in f if line.startswith('{')]


def main():
    directory = sys.argv[1]
    engine = open(os.path.join(directory, 'engine.txt')).read().split('\n')
    print(f'Reviewer: {engine[0]}, {engine[1] if len(engine) > 1 else ""}; 100,000 nodes a position')
    print('Classes by the thresholds of Sources/XiangqiEngine/Review.swift: '
          + ', '.join(f'{name} from {least}' for name, least in thresholds()))
    print()
    print('| games of | sides | moves | moves while open | accuracy (mean per game and side, median) '
          '| inaccuracies / mistakes / blunders per 100 moves while open | the same per 100 of all moves '
          '| blunders per game and side | engine\'s move | mean loss |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    table = groups(directory)
    cuts = thresholds()
    for label, sides in table:
        moves = [m for _, ms in sides for m in ms]
        if not moves:
            continue
        n = len(moves)
        count = {c: sum(1 for m in moves if classify(m, cuts) == c) for c in CLASSES}
        open_moves = [m for m in moves if counts(m)]
        u = max(1, len(open_moves))
        open_count = {c: sum(1 for m in open_moves if classify(m, cuts) == c) for c in CLASSES}
        accuracies = [a for a, _ in sides]
        print(f'| {label} | {len(sides)} | {n} | {len(open_moves)} ({100 * len(open_moves) / n:.0f}%) '
              f'| {statistics.mean(accuracies):.1f}, {statistics.median(accuracies):.1f} '
              f'| {100 * open_count["inaccuracy"] / u:.1f} / {100 * open_count["mistake"] / u:.1f} / {100 * open_count["blunder"] / u:.1f} '
              f'| {100 * count["inaccuracy"] / n:.1f} / {100 * count["mistake"] / n:.1f} / {100 * count["blunder"] / n:.1f} '
              f'| {count["blunder"] / len(sides):.2f} | {100 * count["best"] / n:.1f}% '
              f'| {statistics.mean(m["loss"] for m in moves):.4f} |')
    print()
    print('Share of the moves played while the game was open that lose at least each amount of expected points (one in N):')
    print()
    print('| games of | ' + ' | '.join(f'≥ {c}' for c in CUTS) + ' |')
    print('|---|' + '---|' * len(CUTS))
    for label, sides in table:
        moves = [m for _, ms in sides for m in ms if counts(m)]
        if not moves:
            continue
        n = len(moves)
        cells = []
        for cut in CUTS:
            k = sum(1 for m in moves if m['loss'] >= cut)
            cells.append(f'{100 * k / n:.1f}% (1 in {n / k:.0f})' if k else '0')
        print(f'| {label} | ' + ' | '.join(cells) + ' |')


def quantiles(directory):
    """The loss that each share of master moves stays below: where the thresholds come from."""
    table = groups(directory)
    print()
    print('Loss of expected points that a share of the moves played while the game was open stays below')
    print('(quantiles; the thresholds are the masters\' 80%, 95%, 98% and 99%):')
    print()
    print('| games of | ' + ' | '.join(f'{100 * q:g}%' for q in QUANTILES) + ' |')
    print('|---|' + '---|' * len(QUANTILES))
    for label, sides in table:
        losses = sorted(m['loss'] for _, ms in sides for m in ms if counts(m))
        if not losses:
            continue
        cells = [f'{losses[min(len(losses) - 1, int(q * len(losses)))]:.3f}' for q in QUANTILES]
        print(f'| {label} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    main()
    quantiles(sys.argv[1])
