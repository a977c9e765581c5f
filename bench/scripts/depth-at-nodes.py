#!/usr/bin/env python3
"""How deep a fixed number of nodes goes: the mean completed depth over the bench positions
for our engine with each of several option settings, side by side.

A node-bounded search does not depend on the machine's load, so this runs beside a match
(at any priority) and still gives the same figures. It shows which search parameter or rule
changes the selectivity (issue 55: our depth against Pikafish-HCE's); it says nothing about
strength, which only a match measures.

Each setting searches every bench position (Sources/XiangqiEngine/BenchPositions.swift) with
`go nodes NODES`, one thread, Hash 64 MB, book off, a fresh process per position. From each
search: the last completed depth (the last `info depth` line with a score).

    bench/scripts/depth-at-nodes.py XIANGQI_BINARY NODES [SETTING ...]

A SETTING is "" (the defaults) or options joined by commas, each NAME=VALUE
("ReductionDivisor=170,LateQuietFactor=4"). Exit 1 with one line on stderr for a bad argument
or an engine that answers an option with an `info string` (unknown or clamped).
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FENS = re.findall(r'"([^"]+ [wb] [^"]*)"',
                  open(os.path.join(HERE, '..', '..', 'Sources', 'XiangqiEngine', 'BenchPositions.swift')).read())


def parse_setting(setting):
    options = []
    for item in filter(None, setting.split(',')):
        name, sep, value = item.partition('=')
        if not sep or not name.strip():
            sys.exit(f"depth-at-nodes: bad setting '{item}' (NAME=VALUE)")
        options.append((name.strip(), value.strip()))
    return options


def depth(binary, options, fen, nodes):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + '\n')
        p.stdin.flush()

    send('uci')
    send('setoption name Hash value 64')
    send('setoption name OwnBook value false')
    for name, value in options:
        send(f'setoption name {name} value {value}')
    send('isready')
    for line in p.stdout:
        if line.startswith('info string') and 'evaluation:' not in line:
            p.kill()
            sys.exit(f"depth-at-nodes: the engine answered: {line.strip()}")
        if line.strip() == 'readyok':
            break
    send(f'position fen {fen}')
    send(f'go nodes {nodes}')
    completed = None
    for line in p.stdout:
        words = line.split()
        if line.startswith('info depth') and 'score' in words:
            completed = int(words[words.index('depth') + 1])
        if line.startswith('bestmove'):
            break
    send('quit')
    p.wait()
    if completed is None:
        sys.exit(f"depth-at-nodes: no completed depth for {fen}")
    return completed


def main():
    if len(sys.argv) < 3 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        sys.exit("usage: depth-at-nodes.py XIANGQI_BINARY NODES [SETTING ...]")
    binary, nodes = sys.argv[1], int(sys.argv[2])
    if not os.access(binary, os.X_OK):
        sys.exit(f"depth-at-nodes: {binary} is not an executable")
    settings = sys.argv[3:] or ['']
    print(f"# {len(FENS)} bench positions, go nodes {nodes}, one thread, Hash 64 MB, book off")
    print('| setting | mean depth | depths (per position) |')
    print('|---|---|---|')
    for setting in settings:
        depths = [depth(binary, parse_setting(setting), fen, nodes) for fen in FENS]
        print(f"| {setting or 'defaults'} | {sum(depths) / len(depths):.2f} | {' '.join(map(str, depths))} |",
              flush=True)


if __name__ == '__main__':
    main()
