#!/usr/bin/env python3
"""Cross-checks `xiangqi status` against pyffish (Fairy-Stockfish's rules) on repetitions.

Builds repetition sequences: from a random position of a master game (or of a random
playout), the side to move plays a move m1, the opponent m2, then both take them back
(m1 reversed, m2 reversed) and repeat, so that the position occurs a third time after 8
plies. Checking and attacking moves are preferred, so that perpetual checks and chases
occur. Starting positions come from master games (40%), from our own engine-played match
games in bench/records/matches (40%) and from random playouts (20%). Each sequence is adjudicated by
both; the verdicts (red wins / black wins / draw) are compared and the disagreements written
out for study.

Then every engine-played game in bench/records/matches that the match referee (pyffish, which judges
at the second occurrence) ended by a repetition is adjudicated again by `xiangqi status
--repetition-fold 2` over the whole game, and the verdicts compared.
Usage: bench/scripts/rules-crosscheck.py [COUNT] [SEED]
"""
import glob, gzip, json, os, random, re, subprocess, sys
import pgnfiles
from collections import Counter
import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get('XIANGQI', os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi'))
GAMES = os.path.join(HERE, '..', '..', 'books', 'source', 'ccpd_master_games.txt.gz')
START = sf.start_fen('xiangqi')
count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)


def to10(m):  # ICCS -> pyffish ranks 1-10
    return f'{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}'


def to09(m):
    import re
    g = re.match(r'([a-i])(\d+)([a-i])(\d+)', m)
    return f'{g[1]}{int(g[2]) - 1}{g[3]}{int(g[4]) - 1}'


def rev(m):
    return m[2:] + m[:2]


def legal(fen, moves):
    return [to09(m) for m in sf.legal_moves('xiangqi', fen, [to10(x) for x in moves])]


def gives_check(fen, moves, m):
    return sf.gives_check('xiangqi', fen, [to10(x) for x in moves + [m]])


def pick(fen, prefix, cands, prefer_check):
    rng.shuffle(cands)
    if prefer_check:
        checks = [m for m in cands if gives_check(fen, prefix, m)]
        if checks and rng.random() < 0.6:
            return checks + [m for m in cands if m not in checks]
    return cands


def find_cycle(fen, prefix):
    for m1 in pick(fen, prefix, legal(fen, prefix), True)[:12]:
        after1 = legal(fen, prefix + [m1])
        for m2 in pick(fen, prefix + [m1], after1, True)[:12]:
            if rev(m1) not in legal(fen, prefix + [m1, m2]):
                continue
            if rev(m2) not in legal(fen, prefix + [m1, m2, rev(m1)]):
                continue
            cycle = [m1, m2, rev(m1), rev(m2)]
            seq = cycle + cycle
            # every move of the sequence must be legal (the second round too)
            ok = all(seq[i] in legal(fen, prefix + seq[:i]) for i in range(8))
            if ok:
                return seq
    return None


lines = gzip.open(GAMES, 'rt').read().splitlines()


def pgn_games():
    """(fen, ICCS moves, termination, result) of every game in bench/records/matches/*.pgn(.gz)."""
    for path in pgnfiles.find(os.path.join(HERE, '..', 'records', 'matches', '*.pgn')):
        for block in pgnfiles.read(path).split('[Event ')[1:]:
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
            body = re.sub(r'\{[^}]*\}', ' ', block.split('\n\n', 1)[1] if '\n\n' in block else '')
            moves = re.findall(r'\b[a-i]\d[a-i]\d\b', body)
            yield tags.get('FEN', START), moves, tags.get('Termination', ''), tags.get('Result', '')


played = list(pgn_games())
results = Counter()
disagreements = []
done = 0
attempts = 0
while done < count and attempts < count * 5:
    attempts += 1
    r = rng.random()
    if r < 0.8:
        if r < 0.4:
            res, mv = rng.choice(lines).split('\t')
            mv = mv.split()
        else:
            fen0, mv, _, _ = rng.choice(played)
            if fen0.split()[0] != START.split()[0] or len(mv) < 10:
                continue
        prefix = mv[:rng.randint(8, min(80, len(mv) - 1))]
    else:
        prefix = []
        for _ in range(rng.randint(10, 60)):
            lm = legal(START, prefix)
            if not lm:
                break
            prefix.append(rng.choice(lm))
    if sf.game_result('xiangqi', START, [to10(x) for x in prefix]) != 0 and not legal(START, prefix):
        continue
    fen = sf.get_fen('xiangqi', START, [to10(x) for x in prefix])
    seq = find_cycle(fen, [])
    if not seq:
        continue
    end, value = sf.is_optional_game_end('xiangqi', fen, [to10(x) for x in seq])
    side = fen.split()[1]  # side to move after 8 plies = side at fen
    if not end:
        theirs = 'ongoing'
    elif value == 0:
        theirs = 'draw'
    else:
        stm_wins = value > 0
        theirs = ('red' if (side == 'w') == stm_wins else 'black') + ' wins'
    out = subprocess.run([BIN, 'status', '--fen', fen, '--moves', ' '.join(seq), '--json'],
                         capture_output=True, text=True)
    st = json.loads(out.stdout)
    ours = st['status'] if st['status'] in ('draw', 'ongoing') else st['winner'] + ' wins'
    reason = st.get('reason', '')
    results[(theirs, ours, reason)] += 1
    if theirs != ours:
        disagreements.append({'fen': fen, 'moves': ' '.join(seq), 'pyffish': theirs, 'ours': ours, 'reason': reason})
    done += 1

agree = sum(n for (t, o, _), n in results.items() if t == o)
print(f'sequences: {done}, agreement: {agree}/{done} = {100 * agree / max(1, done):.1f}%')
for (t, o, r), n in sorted(results.items(), key=lambda x: -x[1]):
    print(f'  pyffish {t:12s} ours {o:12s} {r:18s} {n}')
with open('/tmp/rules-disagreements.json', 'w') as f:
    json.dump(disagreements, f, indent=1)
print('disagreements written to /tmp/rules-disagreements.json')

# Repetitions that really happened in engine-played games.
natural = Counter()
natural_disagreements = []
for fen0, mv, term, result in played:
    if not (term.startswith('perpetual') or term == 'repetition'):
        continue
    theirs = {'1-0': 'red wins', '0-1': 'black wins'}.get(result, 'draw')
    out = subprocess.run([BIN, 'status', '--fen', fen0, '--moves', ' '.join(mv), '--json',
                          '--repetition-fold', '2'], capture_output=True, text=True)
    st = json.loads(out.stdout)
    ours = st['status'] if st['status'] in ('draw', 'ongoing') else st['winner'] + ' wins'
    natural[(term, theirs, ours, st.get('reason', ''))] += 1
    if theirs != ours:
        natural_disagreements.append({'fen': fen0, 'moves': ' '.join(mv), 'referee': term, 'ours': ours,
                                      'reason': st.get('reason', '')})
n = sum(natural.values())
agree = sum(v for (t, th, o, r), v in natural.items() if th == o)
print(f'engine-played games ended by a repetition: {n}, agreement: {agree}/{n} = {100 * agree / max(1, n):.1f}%')
for (t, th, o, r), v in sorted(natural.items(), key=lambda x: -x[1]):
    print(f'  referee {t:26s} {th:11s} ours {o:11s} {r:18s} {v}')
with open('/tmp/rules-natural-disagreements.json', 'w') as f:
    json.dump(natural_disagreements, f, indent=1)
