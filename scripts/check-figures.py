#!/usr/bin/env python3
"""Checks that every Elo figure in README.md and bench/*.md points at a match record that
exists and agrees with it.

A figure is `+N ± M` or `-N ± M` (an Elo difference and its 95% margin). The place it
appears (a paragraph, a list item or a table row) must name at least one record of
bench/records/matches/, bench/records/nnue-training/ or bench/records/ itself (screens and
other measurements; `NAME`, `matches/NAME.txt` or `bench/records/matches/NAME.txt`). One of the JSON
summaries the named records hold (`xiangqi match` appends one per run, and a resumed match
has several) must give that figure at the precision it is written in: per game (`elo`,
`elo95`) or per pair (`elo_pairs`, `elo95_pairs`). A `W-D-L` triple written in the same
place must also equal one summary's wins, draws and losses. The summary must also fit what
the place says beside the figure:
- engines (where the place names one record): of the commits and network hashes it names
  (hex words of 7-16 digits, outside record names), one at least must appear in the record;
  when those that name the summary's engines (`a`, `b`, `a_engine`, `b_engine`) are all one
  side's, the figure and the W-D-L are read from that side (A's figure written for B's
  engine alone, with A's sign, is refused);
- time controls: when the place writes clocks (`10+0.1`, `10 s + 0.1 s`), the summary's `tc`
  must be one of them;
- game counts: each match count written `over N games`, `in N games`, `after N games`, `at N
  games` or `(N games` must be the `games` of a summary of the named records, or a game the
  match reached (`game N:` in its record).

Usage: scripts/check-figures.py [--self-test]
Exit status 1 lists each figure that names no record or that disagrees with its records.
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
FIGURE = re.compile(r'([+\-−])(\d+(?:\.\d+)?)\s*(?:Elo\s*)?±\s*(\d+(?:\.\d+)?)')
TRIPLE = re.compile(r'(?<![\d.\-])(\d{1,3})-(\d{1,3})-(\d{1,3})(?![\d.\-])')


def summaries(record_path):
    """The JSON summary lines of a record."""
    found = []
    with open(record_path, encoding='utf-8') as record:
        for line in record:
            if line.startswith('{') and '"tool"' in line:
                try:
                    found.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    return found


def units(text):
    """Paragraphs, list items and table rows, each with its first line number."""
    block, start = [], 0
    for number, line in enumerate(text.split('\n'), 1):
        stripped = line.strip()
        starts_new = (not stripped or stripped.startswith('|') or stripped.startswith('- ')
                      or stripped.startswith('#') or stripped.startswith('* '))
        if starts_new and block:
            yield start, ' '.join(block)
            block = []
        if stripped.startswith('|') or stripped.startswith('#'):
            yield number, stripped
        elif stripped:
            if not block:
                start = number
            block.append(stripped)
    if block:
        yield start, ' '.join(block)


def named_records(unit, records):
    """The records a unit names: words (or paths) that are records' names."""
    names = set()
    for word in re.split(r'[\s|`,;()\[\]]+', unit):
        base = re.sub(r'\.(txt|pgn)$', '', os.path.basename(word.rstrip('.:')))
        if base in records:
            names.add(base)
    return sorted(names)


IDENTITY = re.compile(r'(?<![0-9a-zA-Z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,16}(?![0-9a-zA-Z])')
CLOCK = re.compile(r'(?<![\d.])(\d+(?:\.\d+)?)\s*s?\s*\+\s*(\d+(?:\.\d+)?)\s*s?(?![\d.])')
GAMES = re.compile(r'(?:\bover|\bin|\bafter|\bat|\()\s*(\d{1,3}(?:,\d{3})+|\d+)\s+games\b(?!\s+at\s+(?:a\s+time|once))')


def identities(unit, records):
    """The commits and network hashes a unit names, in order, outside record names."""
    found = []
    for word in re.split(r'[\s|`,;()\[\]]+', unit):
        base = re.sub(r'\.(txt|pgn)$', '', os.path.basename(word.rstrip('.:')))
        if base in records:
            continue
        for identity in IDENTITY.findall(word):
            if identity not in found:
                found.append(identity)
    return found


def clocks(unit):
    """The clock time controls a unit names, as (base, increment) seconds."""
    return {(float(base), float(inc)) for base, inc in CLOCK.findall(unit)}


def summary_clock(summary):
    """A summary's clock as (base, increment), or None for a fixed time, depth or nodes."""
    m = re.match(r'tc (\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)', str(summary.get('tc', '')))
    return (float(m.group(1)), float(m.group(2))) if m else None


def side_of(identity, summary):
    """'A' or 'B' when `identity` names only one engine of the summary, 'both', or None."""
    a = ' '.join(str(summary.get(k, '')) for k in ('a', 'a_engine'))
    b = ' '.join(str(summary.get(k, '')) for k in ('b', 'b_engine'))
    in_a, in_b = identity in a, identity in b
    return 'both' if in_a and in_b else 'A' if in_a else 'B' if in_b else None


def fits(summary, record_text, unit_identities, unit_clocks):
    """Whether a summary (of a record whose whole text is `record_text`) fits the engines
    (when the unit names one record) and clocks the unit names; with the side the figure is
    read from ('A', 'B' or None for either)."""
    side = None
    if unit_identities is not None:
        if not any(i in record_text for i in unit_identities):
            return False, None
        sides = {side_of(i, summary) for i in unit_identities} - {None}
        side = sides.pop() if sides in ({'A'}, {'B'}) else None
    if unit_clocks:
        clock = summary_clock(summary)
        if clock is not None and clock not in unit_clocks:
            return False, None
    return True, side


def rounded_equal(value, written):
    """Whether `value` rounds to the number `written` (a string) at its precision."""
    decimals = len(written.split('.')[1]) if '.' in written else 0
    return abs(round(value, decimals) - float(written)) < 0.5 * 10 ** -decimals + 1e-9


def agrees(sign, value, margin, summary, side=None):
    """Whether the figure is the summary's, read from `side` ('A': as recorded, 'B': negated,
    None: either)."""
    elo_value = -float(value) if sign in '-−' else float(value)
    for elo_key, margin_key in (('elo', 'elo95'), ('elo_pairs', 'elo95_pairs')):
        elo, elo95 = summary.get(elo_key), summary.get(margin_key)
        if elo is None or elo95 is None:
            continue
        for elo_seen in {'A': (elo,), 'B': (-elo,)}.get(side, (elo, -elo)):
            written = f'{elo_value:.{len(value.split(".")[1]) if "." in value else 0}f}'
            if rounded_equal(elo_seen, written.lstrip('+')) and rounded_equal(elo95, margin):
                return True
    return False


def check(paths, records):
    problems = []
    for path in paths:
        text = open(path, encoding='utf-8').read()
        for line_number, unit in units(text):
            figures = FIGURE.findall(unit)
            if not figures:
                continue
            names = named_records(unit, records)
            where = f'{os.path.relpath(path, ROOT)}:{line_number}'
            if not names:
                problems.append(f'{where}: {", ".join(s + v + " ± " + m for s, v, m in figures)} names no record '
                                f'of bench/records/')
                continue
            found = [summary for name in names for summary in records[name]]
            unit_identities, unit_clocks = identities(unit, records), clocks(unit)
            unit_games = {int(g.replace(',', '')) for g in GAMES.findall(unit)}
            # Engines are matched where the place names one record (a paragraph about several
            # names the engines of each).
            engines = unit_identities if unit_identities and len(names) == 1 else None
            fitting = [(summary, side) for name in names for summary in records[name]
                       for ok, side in [fits(summary, records.texts[name], engines, unit_clocks)] if ok]
            # A count is a run's (a summary's games) or a point the match passed (its game N
            # is in the record); records without summaries are not judged.
            for count in sorted(unit_games) if all(records[name] for name in names) else []:
                if not any(summary.get('games') == count for summary in found) \
                        and not any(f'\ngame {count}:' in records.texts[name] for name in names):
                    problems.append(f'{where}: {count} games is in no summary of {", ".join(names)}')
            for sign, value, margin in figures:
                if not any(agrees(sign, value, margin, summary) for summary in found):
                    problems.append(f'{where}: {sign}{value} ± {margin} is in no summary of {", ".join(names)}')
                elif not any(agrees(sign, value, margin, summary, side) for summary, side in fitting):
                    problems.append(f'{where}: {sign}{value} ± {margin} is in {", ".join(names)}, but not for the '
                                    f'engines ({", ".join(unit_identities) or "any"}), time control or game count '
                                    f'written beside it')
            for triple in TRIPLE.findall(unit):
                w, d, l = (int(x) for x in triple)
                if not any((s.get('w'), s.get('d'), s.get('l')) in ((w, d, l), (l, d, w)) for s in found):
                    problems.append(f'{where}: {w}-{d}-{l} is in no summary of {", ".join(names)}')
                elif not any((s.get('w'), s.get('d'), s.get('l')) in {'A': ((w, d, l),), 'B': ((l, d, w),)}
                             .get(side, ((w, d, l), (l, d, w))) for s, side in fitting):
                    problems.append(f'{where}: {w}-{d}-{l} is in {", ".join(names)}, but not as written for the '
                                    f'engines, time control or game count beside it')
    return problems


class Records(dict):
    """Record name -> its JSON summaries; `texts`: record name -> its whole text."""

    def __init__(self):
        super().__init__()
        self.texts = {}

    def update(self, other):
        super().update(other)
        self.texts.update(other.texts)


def load_records(folder):
    records = Records()
    for path in glob.glob(os.path.join(folder, '*.txt')):
        name = os.path.basename(path)[:-4]
        records[name] = summaries(path)
        with open(path, encoding='utf-8', errors='replace') as record:
            records.texts[name] = record.read()
    return records


def self_test():
    """The checker flags a figure without a record, a wrong figure and a wrong W-D-L, a figure
    given to another engine or network, another time control or game count, a wrong sign and a
    swapped W-D-L for one side's engine, and passes right ones, per game and per pair."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, 'm.txt'), 'w') as record:
            record.write('# m\nA: xiangqi 2883cdc, bench 2873642\nB: Fairy-Stockfish 11.1\n'
                         'game 5: A - B 1-0\n'
                         '{"tool": "xiangqi match", "a": "A: xiangqi 2883cdc, bench 2873642", '
                         '"b": "B: Fairy-Stockfish 11.1", "a_engine": "Xiangqi 1.0.0; network 5475c2156089a9ae '
                         'from <built-in>", "tc": "tc 10.0+0.1", "games": 10, "w": 6, "d": 2, "l": 2, '
                         '"elo": 147.2, "elo95": 240.3, "elo_pairs": 147.2, "elo95_pairs": 180.5}\n')
        doc = os.path.join(folder, 'doc.md')
        with open(doc, 'w') as out:
            out.write('Right: +147.2 ± 180.5 over pairs, 6-2-2 (`m`).\n\n'
                      'Right per game, rounded: +147 ± 240 in `matches/m.txt`.\n\n'
                      'Seen from the other side: −147 ± 240, 2-2-6, `m`.\n\n'
                      '| `m` | +147.2 ± 180.5 |\n\n'
                      'Right, with engine, network, clock and count: 2883cdc (network 5475c215) at '
                      '10 s + 0.1 s, +147 ± 240 over 10 games (`m`), and after 5 games it led.\n\n'
                      'No record: +12 ± 30.\n\n'
                      'Wrong figure: +150 ± 240 (`m`).\n\n'
                      'Wrong games: +147 ± 240, 5-3-2 (`m`).\n\n'
                      'Another network: 66f8e295 beats FSF +147 ± 240 (`m`).\n\n'
                      'Another clock: +147 ± 240 at 60+0.6 (`m`).\n\n'
                      'Another count: +147 ± 240 over 400 games (`m`).\n\n'
                      'Wrong sign: 2883cdc scored −147 ± 240 (`m`).\n\n'
                      'Swapped: 2883cdc won +147 ± 240, 2-2-6 (`m`).\n')
        problems = check([doc], load_records(folder))
    expected = ['names no record', '+150 ± 240 is in no summary', '5-3-2 is in no summary',
                ':17: +147 ± 240 is in m, but not', ':19: +147 ± 240 is in m, but not', ':21: 400 games is in no summary',
                ':23: −147 ± 240 is in m, but not', ':25: 2-2-6 is in m, but not']
    ok = len(problems) == len(expected) and all(any(e in p for p in problems) for e in expected)
    print('self-test ' + ('passed' if ok else 'FAILED:\n' + '\n'.join(problems)))
    return ok


def main():
    if '--self-test' in sys.argv:
        sys.exit(0 if self_test() else 1)
    records = load_records(os.path.join(ROOT, 'bench', 'records', 'matches'))
    records.update(load_records(os.path.join(ROOT, 'bench', 'records', 'nnue-training')))
    records.update(load_records(os.path.join(ROOT, 'bench', 'records')))
    paths = ([os.path.join(ROOT, name) for name in ('README.md', 'CHANGELOG.md', 'networks/README.md')]
             + sorted(glob.glob(os.path.join(ROOT, 'bench', '*.md'))))
    problems = check(paths, records)
    for problem in problems:
        print(problem)
    figures = sum(len(FIGURE.findall(unit)) for path in paths for _, unit in units(open(path, encoding='utf-8').read()))
    print(f'{figures} Elo figures in {len(paths)} documents checked against {len(records)} records: '
          f'{len(problems)} problems')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
