#!/usr/bin/env python3
"""Re-judges every game of a match PGN that `xiangqi match` ended by a repetition rule
(perpetual check or chase, plain repetition) with pyffish (`pip install pyffish`), whose
rules are Fairy-Stockfish 11.1's: an independent referee. For each such game it prints our
verdict, pyffish's over the whole game, and pyffish's over the last cycle alone (the
position before the cycle, then the cycle played twice), then counts the agreements.

The two pyffish verdicts can differ: over a whole game pyffish judges the stretch since the
first occurrence of the final position, which includes the moves that entered the cycle;
we judge the cycle since the previous occurrence (bench/rules.md, section 2).
Usage: bench/scripts/pgn-referee.py FILE.pgn[.gz]
"""
import re
import sys

import pgnfiles

import pyffish as sf


def uci_ranks(move):
    """ICCS ranks 0-9 to pyffish's ranks 1-10."""
    return f'{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}'


def verdict(fen, moves):
    """pyffish's result ('1-0', '0-1', '1/2-1/2' or 'no end') after `moves` from `fen`."""
    end, value = sf.is_optional_game_end('xiangqi', fen, moves)
    if not end:
        return 'no end'
    if value == 0:
        return '1/2-1/2'
    red_to_move = sf.get_fen('xiangqi', fen, moves).split()[1] == 'w'
    return '1-0' if (value > 0) == red_to_move else '0-1'


def last_cycle(fen, moves):
    """The start position and moves of the last cycle: from the previous occurrence of the
    final position (board and side to move) to the end."""
    key = lambda f: ' '.join(f.split()[:2])
    final = key(sf.get_fen('xiangqi', fen, moves))
    for start in range(len(moves) - 2, -1, -2):
        if key(sf.get_fen('xiangqi', fen, moves[:start])) == final:
            return sf.get_fen('xiangqi', fen, moves[:start]), moves[start:]
    return None, None


def main():
    games = pgnfiles.read(sys.argv[1]).split('[Event ')[1:]
    whole_agree = cycle_agree = judged = 0
    for number, game in enumerate(games, 1):
        termination = re.search(r'\[Termination "([^"]+)"\]', game)[1]
        if 'perpetual' not in termination and 'repetition' not in termination:
            continue
        fen = re.search(r'\[FEN "([^"]+)"\]', game)[1]
        result = re.search(r'\[Result "([^"]+)"\]', game)[1]
        body = re.sub(r'\{[^}]*\}', ' ', game.split('\n\n', 1)[1])
        moves = [uci_ranks(m) for m in body.split() if re.fullmatch(r'[a-i]\d[a-i]\d', m)]
        whole = verdict(fen, moves)
        cycle_fen, cycle = last_cycle(fen, moves)
        alone = verdict(cycle_fen, cycle + cycle) if cycle else 'no cycle'
        judged += 1
        whole_agree += whole == result
        cycle_agree += alone == result
        print(f'game {number:3d}  {termination:26s} ours {result:8s} pyffish whole game {whole:8s}'
              f' last cycle {alone:8s}')
    print(f'{judged} games ended by a repetition rule; pyffish agrees with us on {whole_agree} '
          f'judging the whole game, on {cycle_agree} judging the last cycle alone')


main()
