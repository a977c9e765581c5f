#!/usr/bin/env python3
"""The standing of a match record, finished or still playing, as `xiangqi match` would report it.

Reads the game lines of bench/records/matches/NAME.txt, or of NAME.txt.partial while sprt.sh
plays it, and prints A's W-D-L, the pentanomial count over finished pairs (games 1 and 2, 3 and
4, ... as the runner pairs them), the Elo over pairs with its 95% margin and, when the record's
command gives SPRT bounds, the pentanomial log-likelihood ratio with the runner's verdict rule
(bounds ±2.94, no verdict before 20 pairs). Only the standard library; the arithmetic is the
runner's (MatchStatistics, PairStatistics), so a finished record gives its last report's figures.

    bench/scripts/match-standing.py NAME|PATH [...]
"""
import math
import os
import re
import sys

GAME = re.compile(r"^game (\d+): ([AB]): .* (1-0|0-1|1/2-1/2) \(")
COMMAND = re.compile(r"^Command: bench/(?:scripts/)?sprt\.sh (.*)$")
MIN_PAIRS = 20


def record_path(argument):
    """The record a name or path stands for: the finished one, else the one still playing."""
    if os.path.exists(argument):
        return argument
    base = os.path.join(os.path.dirname(__file__), "..", "records", "matches", argument)
    for candidate in (base + ".txt", base + ".txt.partial"):
        if os.path.exists(candidate):
            return os.path.relpath(candidate)
    return None


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def expected(elo_difference):
    return 1 / (1 + 10 ** (-elo_difference / 400))


def standing(path):
    """(A's points per game number, SPRT bounds or None) from a record's lines."""
    points, bounds, unnamed = {}, None, 0
    with open(path, encoding="utf-8") as text:
        for line in text:
            command = COMMAND.match(line)
            if command and bounds is None:
                words = command.group(1).split()
                if len(words) >= 6 and words[4] != "-" and words[5] != "-":
                    try:
                        bounds = (float(words[4]), float(words[5]))
                    except ValueError:
                        bounds = None
            game = GAME.match(line)
            if not game:
                unnamed += line.startswith("game ")
                continue
            number, red, result = int(game.group(1)), game.group(2), game.group(3)
            if result == "1/2-1/2":
                points[number] = 0.5
            else:
                points[number] = 1.0 if (result == "1-0") == (red == "A") else 0.0
    return points, bounds, unnamed


def report(path):
    points, bounds, unnamed = standing(path)
    wins = sum(1 for p in points.values() if p == 1.0)
    draws = sum(1 for p in points.values() if p == 0.5)
    losses = sum(1 for p in points.values() if p == 0.0)
    pairs = {}
    for number, p in points.items():
        pairs.setdefault((number - 1) // 2, []).append(p)
    counts = [0] * 5
    for pair in pairs.values():
        if len(pair) == 2:
            counts[round((pair[0] + pair[1]) * 2)] += 1
    n = sum(counts)
    print(f"{path}")
    print(f"games {len(points)}: A {wins}-{draws}-{losses} (W-D-L)")
    if unnamed:
        print(f"{unnamed} game lines do not name the engines A: and B: (an older record): left out")
    if n == 0:
        print("no finished pair yet")
        return
    score = sum(counts[k] * k / 4 for k in range(5)) / n
    variance = sum(counts[k] * (k / 4 - score) ** 2 for k in range(5)) / n
    line = f"pairs {n}: pentanomial {' '.join(map(str, counts))}; Elo {elo(score) + 0.0:+.1f}"
    if 0 < score < 1:
        deviation = 1.959964 * math.sqrt(variance / n)

        def clamped(s):
            return elo(min(max(s, 1e-6), 1 - 1e-6))

        line += f" ± {(clamped(score + deviation) - clamped(score - deviation)) / 2:.1f} (95%)"
    print(line)
    if bounds:
        s0, s1 = expected(bounds[0]), expected(bounds[1])
        llr = n * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance) if variance > 0 else 0.0
        upper = math.log((1 - 0.05) / 0.05)
        verdict = "continue"
        if n >= MIN_PAIRS:
            verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= -upper else "continue"
        print(f"SPRT [{bounds[0]:g}, {bounds[1]:g}]: LLR {llr:.2f} (bounds ±{upper:.2f}): {verdict}")


def main(arguments):
    if not arguments or arguments[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if arguments else 1
    status = 0
    for argument in arguments:
        path = record_path(argument)
        if path is None:
            print(f"match-standing.py: no record {argument} (nor {argument}.txt or .txt.partial "
                  "in bench/records/matches)", file=sys.stderr)
            status = 1
            continue
        try:
            report(path)
        except (OSError, UnicodeDecodeError) as error:
            print(f"match-standing.py: cannot read {path}: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
