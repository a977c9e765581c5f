#!/usr/bin/env python3
"""How low each engine's clock went in the games of a `xiangqi match` PGN played on a clock.

Replays every game's clock from its TimeControl tag ("tc BASE+INC", seconds) and the think
time of each move in the move comments ("{+0.64/9 91ms}", whole milliseconds as the match
runner measured them: from `go` sent to `bestmove` read); book moves cost nothing. A clock
is read just before the increment of the move is added, so a negative value is a move that
ended past the flag. Prints, per engine, the lowest clock over all games, the median of the
games' lowest clocks and how many games went below 50 ms, and its think times (mean, median, 95th percentile and longest of the
searched moves). --rounds A-B keeps the games whose Round tag is in A..B (a part of a match
played on another machine or at another concurrency).

    bench/scripts/pgn-clock.py [--rounds A-B] FILE.pgn[.gz] [FILE.pgn[.gz] ...]
"""
import re
import statistics
import sys

import pgnfiles


def games(path):
    text = pgnfiles.read(path)
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'^\[?(\w+) "([^"]*)"\]', "[Event " + chunk, re.M))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        # Each move with the comment that follows it, if any ("" when none).
        moves = []
        for token in re.findall(r"\{[^}]*\}|[^\s{}]+", body):
            if token.startswith("{"):
                if moves:
                    moves[-1] = token[1:-1]
            elif not re.fullmatch(r"\d+\.|1-0|0-1|1/2-1/2|\*", token):
                moves.append("")
        yield tags, moves


def think_times(tags, comments):
    """Each engine's think times (ms) of its searched moves."""
    side = 0 if " w " in tags.get("FEN", " w ") else 1
    times = {tags["Red"]: [], tags["Black"]: []}
    for comment in comments:
        spent = re.search(r"(\d+)ms", comment)
        if spent:
            times[tags["Red"] if side == 0 else tags["Black"]].append(int(spent.group(1)))
        side ^= 1
    return times


def lowest_clocks(tags, comments):
    m = re.match(r"tc ([\d.]+)\+([\d.]+)", tags.get("TimeControl", ""))
    if not m:
        return None
    base, increment = float(m.group(1)) * 1000, float(m.group(2)) * 1000
    clocks, lowest = [base, base], [base, base]
    side = 0 if " w " in tags.get("FEN", " w ") else 1  # 0: Red moves first
    for comment in comments:
        spent = re.search(r"(\d+)ms", comment)
        if spent:
            clocks[side] -= float(spent.group(1))
            lowest[side] = min(lowest[side], clocks[side])
            clocks[side] += increment
        side ^= 1
    return {tags["Red"]: lowest[0], tags["Black"]: lowest[1]}


def main():
    arguments = sys.argv[1:]
    rounds = None
    if arguments[:1] == ["--rounds"] and len(arguments) >= 2:
        first, _, last = arguments[1].partition("-")
        rounds = (int(first), int(last or first))
        arguments = arguments[2:]
    if not arguments:
        sys.exit(__doc__)
    for path in arguments:
        per_engine, thinking = {}, {}
        for tags, comments in games(path):
            if rounds and not rounds[0] <= int(tags.get("Round", "0")) <= rounds[1]:
                continue
            lows = lowest_clocks(tags, comments)
            if lows is None:
                sys.exit(f"{path}: a game without a 'tc BASE+INC' TimeControl tag")
            for name, low in lows.items():
                per_engine.setdefault(name, []).append(low)
            for name, times in think_times(tags, comments).items():
                thinking.setdefault(name, []).extend(times)
        print(path + (f" (rounds {rounds[0]}-{rounds[1]})" if rounds else ""))
        for name, lows in sorted(per_engine.items()):
            below = sum(1 for low in lows if low < 50)
            times = sorted(thinking[name])
            print(f"  {name}: {len(lows)} games, lowest clock {min(lows):.0f} ms, "
                  f"median of the games' lowest {statistics.median(lows):.0f} ms, "
                  f"{below} games below 50 ms; think time mean {statistics.mean(times):.1f} ms, "
                  f"median {statistics.median(times):.0f}, p95 {times[int(0.95 * len(times))]}, "
                  f"longest {times[-1]} over {len(times)} moves")


if __name__ == "__main__":
    main()
