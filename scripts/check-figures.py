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
place must also equal one summary's wins, draws and losses, read from either side.

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


def rounded_equal(value, written):
    """Whether `value` rounds to the number `written` (a string) at its precision."""
    decimals = len(written.split('.')[1]) if '.' in written else 0
    return abs(round(value, decimals) - float(written)) < 0.5 * 10 ** -decimals + 1e-9


def agrees(sign, value, margin, summary):
    elo_value = -float(value) if sign in '-−' else float(value)
    for elo_key, margin_key in (('elo', 'elo95'), ('elo_pairs', 'elo95_pairs')):
        elo, elo95 = summary.get(elo_key), summary.get(margin_key)
        if elo is None or elo95 is None:
            continue
        for elo_seen in (elo, -elo):  # a figure may be written from either engine's side
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
            for sign, value, margin in figures:
                if not any(agrees(sign, value, margin, summary) for summary in found):
                    problems.append(f'{where}: {sign}{value} ± {margin} is in no summary of {", ".join(names)}')
            for triple in TRIPLE.findall(unit):
                w, d, l = (int(x) for x in triple)
                if not any((s.get('w'), s.get('d'), s.get('l')) in ((w, d, l), (l, d, w)) for s in found):
                    problems.append(f'{where}: {w}-{d}-{l} is in no summary of {", ".join(names)}')
    return problems


def load_records(folder):
    return {os.path.basename(p)[:-4]: summaries(p) for p in glob.glob(os.path.join(folder, '*.txt'))}


def self_test():
    """The checker flags a figure without a record, a wrong figure and a wrong W-D-L, and
    passes right ones, per game and per pair."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, 'm.txt'), 'w') as record:
            record.write('# m\n{"tool": "xiangqi match", "games": 10, "w": 6, "d": 2, "l": 2, "elo": 147.2, '
                         '"elo95": 240.3, "elo_pairs": 147.2, "elo95_pairs": 180.5}\n')
        doc = os.path.join(folder, 'doc.md')
        with open(doc, 'w') as out:
            out.write('Right: +147.2 ± 180.5 over pairs, 6-2-2 (`m`).\n\n'
                      'Right per game, rounded: +147 ± 240 in `matches/m.txt`.\n\n'
                      'Seen from the other side: −147 ± 240, 2-2-6, `m`.\n\n'
                      '| `m` | +147.2 ± 180.5 |\n\n'
                      'No record: +12 ± 30.\n\n'
                      'Wrong figure: +150 ± 240 (`m`).\n\n'
                      'Wrong games: +147 ± 240, 5-3-2 (`m`).\n')
        problems = check([doc], load_records(folder))
    expected = ['names no record', '+150 ± 240 is in no summary', '5-3-2 is in no summary']
    ok = len(problems) == 3 and all(any(e in p for p in problems) for e in expected)
    print('self-test ' + ('passed' if ok else 'FAILED:\n' + '\n'.join(problems)))
    return ok


def main():
    if '--self-test' in sys.argv:
        sys.exit(0 if self_test() else 1)
    records = load_records(os.path.join(ROOT, 'bench', 'records', 'matches'))
    records.update(load_records(os.path.join(ROOT, 'bench', 'records', 'nnue-training')))
    records.update(load_records(os.path.join(ROOT, 'bench', 'records')))
    paths = [os.path.join(ROOT, 'README.md')] + sorted(glob.glob(os.path.join(ROOT, 'bench', '*.md')))
    problems = check(paths, records)
    for problem in problems:
        print(problem)
    figures = sum(len(FIGURE.findall(unit)) for path in paths for _, unit in units(open(path, encoding='utf-8').read()))
    print(f'{figures} Elo figures in {len(paths)} documents checked against {len(records)} records: '
          f'{len(problems)} problems')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
