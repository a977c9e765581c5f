#!/usr/bin/env python3
"""Where a match's time went and where its games were decided, by phase of the game.

Reads the PGN of a `xiangqi match` (move comments "{+0.64/9 91ms}" from the mover's view,
"{book}" for book moves) and prints, per engine ("A:" or "B:" at the start of the Red and
Black tags):
- think time and depth: the mean milliseconds and the mean reported depth per searched move
  in plies 0-19, 20-39, ... (book moves left out; the last bucket holds every later ply);
- decided: for each game A won, the ply of A's first move scored at +1.5 pawns or more, and
  for each game A lost, of its first move scored at -1.5 or less, counted by the same buckets
  ("never" when no such move).
--rounds A-B keeps the games whose Round tag is in A..B (a part of a match played on another
machine or at another concurrency), as pgn-clock.py does.

    bench/scripts/pgn-phases.py [--bucket PLIES] [--last PLY] [--rounds A-B] FILE.pgn[.gz] [...]
"""
import argparse
import re
import sys

import pgnfiles

COMMENT = re.compile(r"\{([+-])(M?)([0-9.]+)/(\d+) (\d+)ms\}")


def games(path):
    """(tags, plies) per game; a ply is (score in pawns from the mover's view, ms, depth), each
    None for a book move."""
    text = pgnfiles.read(path)
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'^\[?(\w+) "([^"]*)"\]', "[Event " + chunk, re.M))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        plies = []
        for token in re.findall(r"\{[^}]*\}|[^\s{}]+", body):
            if token.startswith("{"):
                match = COMMENT.match(token)
                if plies and match:
                    sign = 1 if match.group(1) == "+" else -1
                    score = 1000.0 if match.group(2) else float(match.group(3))
                    plies[-1] = (sign * score, int(match.group(5)), int(match.group(4)))
            elif re.match(r"^\d+\.", token) or token in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            else:
                plies.append((None, None, None))
        yield tags, plies


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bucket", type=int, default=20, help="plies per bucket (20)")
    parser.add_argument("--last", type=int, default=160, help="first ply of the last bucket (160)")
    parser.add_argument("--rounds", help="keep the games whose Round tag is in A-B")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.bucket < 1 or args.last < args.bucket:
        print("pgn-phases: --bucket must be at least 1 and --last at least --bucket", file=sys.stderr)
        sys.exit(1)
    rounds = None
    if args.rounds is not None:
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", args.rounds)
        if not match:
            print(f"pgn-phases: --rounds takes A-B (whole numbers), not {args.rounds!r}", file=sys.stderr)
            sys.exit(1)
        rounds = (int(match.group(1)), int(match.group(2) or match.group(1)))
    last = args.last // args.bucket

    def bucket(ply):
        return min(ply // args.bucket, last)

    think = {"A": {}, "B": {}}
    depth = {"A": {}, "B": {}}
    decided = {"won": {}, "lost": {}}
    names = {}
    count = 0
    for path in args.files:
        try:
            parsed = list(games(path))
        except OSError as error:
            print(f"pgn-phases: {path}: {error.strerror}", file=sys.stderr)
            sys.exit(1)
        for tags, plies in parsed:
            red, black = tags.get("Red", ""), tags.get("Black", "")
            if not (red.startswith("A:") or black.startswith("A:")):
                continue
            if rounds and not rounds[0] <= int(tags.get("Round", "0") or 0) <= rounds[1]:
                continue
            count += 1
            a_red = red.startswith("A:")
            names["A"], names["B"] = (red, black) if a_red else (black, red)
            for ply, (score, ms, reached) in enumerate(plies):
                if ms is None:
                    continue
                side = "A" if (ply % 2 == 0) == a_red else "B"
                think[side].setdefault(bucket(ply), []).append(ms)
                depth[side].setdefault(bucket(ply), []).append(reached)
            result = tags.get("Result")
            if result not in ("1-0", "0-1"):
                continue
            a_won = (result == "1-0") == a_red
            first = None
            for ply, (score, _, _) in enumerate(plies):
                if score is None or (ply % 2 == 0) != a_red:
                    continue
                if (a_won and score >= 1.5) or (not a_won and score <= -1.5):
                    first = bucket(ply)
                    break
            key = "never" if first is None else first
            table = decided["won" if a_won else "lost"]
            table[key] = table.get(key, 0) + 1
    if count == 0:
        print("pgn-phases: no game with an engine named \"A: ...\"", file=sys.stderr)
        sys.exit(1)

    def label(b):
        if b == "never":
            return "never"
        return f"{b * args.bucket}+" if b == last else f"{b * args.bucket}-{(b + 1) * args.bucket - 1}"

    print(f"{count} games; A: {names['A']}; B: {names['B']}")
    print("| plies | A think (ms, mean) | B think (ms, mean) | A depth (mean) | B depth (mean) "
          "| A's wins decided | A's losses decided |")
    print("|---|---|---|---|---|---|---|")
    for b in range(last + 1):
        cells = []
        for side in ("A", "B"):
            values = think[side].get(b, [])
            cells.append(f"{sum(values) / len(values):.0f} ({len(values)})" if values else "-")
        for side in ("A", "B"):
            values = depth[side].get(b, [])
            cells.append(f"{sum(values) / len(values):.2f}" if values else "-")
        cells.append(str(decided["won"].get(b, 0)))
        cells.append(str(decided["lost"].get(b, 0)))
        print(f"| {label(b)} | " + " | ".join(cells) + " |")
    print(f"| never | | | | | {decided['won'].get('never', 0)} | {decided['lost'].get('never', 0)} |")


if __name__ == "__main__":
    main()
