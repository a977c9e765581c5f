#!/usr/bin/env python3
"""The skill-level ladder, recomputed from every game in the PGNs of bench/scripts/run-levels.sh.

For each record bench/records/matches/levels-A-vs-B-movetime-MS[-TAG].pgn(.gz): the games (all of them,
read from the PGN, not from the report), W-D-L of the stronger side (the record's engine A,
the level written second), the Elo difference with its 95% margin over pairs (games 2k-1
and 2k share an opening with colours swapped; the pentanomial model of `xiangqi match`), and
the per-game margin. Then every level's Elo chained from level 20, set at 2400 by convention,
with the pair margins added in quadrature along the chain.

With --write-swift the measured points replace `StrengthLadder.points` in
Sources/XiangqiEngine/Strength.swift (UCI_Elo's mapping), and the change of each point is
printed: the code follows the generated table, never a hand edit.
Usage: bench/scripts/levels-table.py [MOVETIME] [TAG] [--write-swift]
"""
import glob
import pgnfiles
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STRENGTH = os.path.join(HERE, '..', '..', 'Sources', 'XiangqiEngine', 'Strength.swift')


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def margin(score, deviation):
    return (elo(score + deviation) - elo(score - deviation)) / 2


def games_of(pgn):
    """(round, red, black, result) of each game."""
    text = pgnfiles.read(pgn)
    found = []
    for block in text.split('[Event ')[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        found.append((int(tags['Round']), tags['Red'], tags['Black'], tags['Result']))
    return found


def statistics(games, stronger):
    """W-D-L, per-game and per-pair Elo of `stronger` (an engine name of the PGN)."""
    # Every game in file order. A PGN that several runs appended to repeats its round numbers
    # (a run starts again where a round comes back), and a run with concurrency writes games
    # as they end: a pair is rounds 2k-1 and 2k of one run.
    played = []
    for number, red, black, result in games:
        if result not in ('1-0', '0-1', '1/2-1/2'):
            continue
        red_points = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}[result]
        played.append((number, red_points if red == stronger else 1 - red_points))
    values = [v for _, v in played]
    n = len(values)
    w, d, l = values.count(1.0), values.count(0.5), values.count(0.0)
    s = sum(values) / n
    if s in (0.0, 1.0):
        # No game lost (or none won): no finite estimate. With n games and no loss, the score
        # is at least 1 - 3/n with 95% confidence (the rule of three), hence a lower bound.
        bound = elo(1 - 3 / n) if n > 3 else 0.0
        return {'games': n, 'w': w, 'd': d, 'l': l, 'score': s, 'perfect': True,
                'elo_pairs': bound if s == 1.0 else -bound, 'elo95_pairs': None, 'elo95': None}
    game_variance = sum((v - s) ** 2 for v in values) / n
    runs, current = [], {}
    for number, value in played:
        if number in current:
            runs.append(current)
            current = {}
        current[number] = value
    runs.append(current)
    pairs = [(run[k] + run[k + 1]) / 2 for run in runs for k in run if k % 2 == 1 and k + 1 in run]
    p = len(pairs)
    pair_score = sum(pairs) / p
    pair_variance = sum((v - pair_score) ** 2 for v in pairs) / p
    return {'games': n, 'w': w, 'd': d, 'l': l, 'score': s, 'elo': elo(s),
            'elo95': margin(s, 1.959964 * math.sqrt(game_variance / n)),
            'pairs': p, 'elo_pairs': elo(pair_score),
            'elo95_pairs': margin(pair_score, 1.959964 * math.sqrt(pair_variance / p)), 'perfect': False}


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith('--')]
    movetime = arguments[0] if arguments else '300'
    tag = arguments[1] if len(arguments) > 1 else ''
    suffix = f'-{tag}' if tag else ''
    matches = {}
    pattern = os.path.join(HERE, '..', 'records', 'matches', f'levels-*-vs-*-movetime-{movetime}{suffix}.pgn')
    for pgn in pgnfiles.find(pattern):
        found = re.search(rf'levels-(\w+)-vs-(\w+)-movetime-{movetime}{re.escape(suffix)}\.pgn$', pgnfiles.base(pgn))
        if not found:
            continue
        weaker, stronger = found.groups()
        name = os.path.basename(pgnfiles.base(pgn))[:-4]
        games = games_of(pgn)
        engines = {red for _, red, _, _ in games} | {black for _, _, black, _ in games}
        stronger_name = next(e for e in engines if e != f'level-{weaker}')
        matches[(weaker, stronger)] = (name, statistics(games, stronger_name))

    print('| record | pair (weaker : stronger) | games | W-D-L of the stronger | score | '
          'Elo of the stronger (95%, pairs) | per-game margin |')
    print('|---|---|---|---|---|---|---|')
    for (weaker, stronger), (name, m) in matches.items():
        if m['perfect']:
            figure, per_game = f"{'≥' if m['elo_pairs'] >= 0 else '≤'} {m['elo_pairs']:+.0f} (no finite estimate)", '—'
        else:
            figure, per_game = f"{m['elo_pairs']:+.1f} ± {m['elo95_pairs']:.1f}", f"±{m['elo95']:.1f}"
        print(f"| `{name}` | {weaker} : {stronger} | {m['games']} | {m['w']}-{m['d']}-{m['l']} | "
              f"{100 * m['score']:.1f}% | {figure} | {per_game} |")

    ladder = {'20': (2400.0, 0.0)}
    changed = True
    while changed:
        changed = False
        for (weaker, stronger), (_, m) in matches.items():
            if m['perfect']:
                continue  # a bound, not a difference: the chain does not cross it
            if stronger in ladder and weaker not in ladder:
                value, error = ladder[stronger]
                ladder[weaker] = (value - m['elo_pairs'], math.hypot(error, m['elo95_pairs']))
                changed = True
            elif weaker in ladder and stronger not in ladder:
                value, error = ladder[weaker]
                ladder[stronger] = (value + m['elo_pairs'], math.hypot(error, m['elo95_pairs']))
                changed = True
    print()
    print('| level or anchor | Elo (level 20 = 2400) | 95% margin |')
    print('|---|---|---|')
    for name, (value, error) in sorted(ladder.items(), key=lambda x: -x[1][0]):
        print(f'| {name} | {value:.0f} | ±{error:.0f} |')

    # Think time per level, from the reports (engine A is the level written second).
    think = {}
    for (weaker, stronger), (name, _) in matches.items():
        report = open(os.path.join(HERE, '..', 'records', 'matches', name + '.txt'), encoding='utf-8').read()
        for side, level in (('A', stronger), ('B', weaker)):
            found = re.search(rf'^Think time {side}: mean ([\d.]+) ms, median ([\d.]+), p95 ([\d.]+), max ([\d.]+) ms '
                              rf'over (\d+) moves', report, re.M)
            if found and level.isdigit() and level not in think:
                think[level] = (name,) + found.groups()
    if think:
        print()
        print('| level | mean | median | p95 | max | moves | record |')
        print('|---|---|---|---|---|---|---|')
        for level in sorted(think, key=int):
            name, mean, median, p95, most, moves = think[level]
            print(f'| {level} | {mean} ms | {median} ms | {p95} ms | {most} ms | {moves} | `{name}` |')

    points = sorted((int(name), round(value / 5) * 5) for name, (value, _) in ladder.items() if name.isdigit())
    missing = [level for level in (0, 5, 10, 15) if str(level) not in ladder]
    if missing:
        print(f'The chain from level 20 does not reach level(s) {missing}: UCI_Elo cannot be placed from these records.')
        # What the records do say: the levels below, relative to level 0.
        relative = {'0': (0.0, 0.0)}
        grown = True
        while grown:
            grown = False
            for (weaker, stronger), (_, m) in matches.items():
                if not m['perfect'] and weaker in relative and stronger not in relative:
                    value, error = relative[weaker]
                    relative[stronger] = (value + m['elo_pairs'], math.hypot(error, m['elo95_pairs']))
                    grown = True
        print()
        print('| level | Elo above level 0 | 95% margin |')
        print('|---|---|---|')
        for name, (value, error) in sorted(relative.items(), key=lambda x: x[1][0]):
            print(f'| {name} | {value:+.0f} | ±{error:.0f} |')
    else:
        print()
        print('UCI_Elo points (level, Elo, rounded to 5): ' + ', '.join(f'({lv}, {e})' for lv, e in points))
    if '--write-swift' in sys.argv and missing:
        sys.exit('--write-swift refused: the ladder is incomplete')
    if '--write-swift' in sys.argv:
        source = open(STRENGTH, encoding='utf-8').read()
        old = re.search(r'public static let points: \[\(level: Int, elo: Int\)\] = \[(.*?)\]\n', source)
        before = dict((int(a), int(b)) for a, b in re.findall(r'\((\d+), (\d+)\)', old.group(1)))
        text = ', '.join(f'({lv}, {e})' for lv, e in points)
        source = source.replace(old.group(0), f'public static let points: [(level: Int, elo: Int)] = [{text}]\n')
        open(STRENGTH, 'w', encoding='utf-8').write(source)
        for level, value in points:
            was = before.get(level)
            print(f'level {level}: {was} -> {value}' + (f' ({value - was:+d})' if was is not None else ''))


if __name__ == '__main__':
    main()
