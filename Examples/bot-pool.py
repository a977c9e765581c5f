#!/usr/bin/env python3
"""A pool of practice bots, run as a game server runs one (Python 3 standard library only).

N engine processes are started once and kept. Each gets `uci`, its Hash and Threads, a
practice level (`Skill Level`, cycled from --levels) and `Seed` (0 by default: every game
played differently; with --seed S each bot gets a seed of its own derived from S, for runs
that can be compared), then `isready`. Games pair two free bots at random
and run side by side (--concurrency at once): `ucinewgame`, then for each move
`position startpos moves ...` and `go` with the clock (--clock 60+1) or a fixed time per
move (--movetime). Every reply is refereed by `xiangqi status --json` (--referee, default the
repository's release build)
(a server would use its own rules code): a move that is not legal, a bot that exits (crash)
or one that does not answer within its clock plus --grace seconds (hang) is reported, and a
bot that crashed or hung is killed and replaced by a fresh one.

At the end: results, start-up times, peak memory per process and for the whole pool (Linux:
VmRSS from /proc; the pool's Pss, which counts the pages the bots share once), the longest
reply, and every failure. Exit status 1 when any move was
illegal or any bot crashed, hung or lost on time.

Usage: Examples/bot-pool.py [--engine PATH] [--bots N] [--games G] [--concurrency C]
                            [--levels 0,5,10] [--hash MB] [--threads T]
                            [--clock BASE+INC | --movetime MS] [--max-plies P] [--seed S]
"""
import argparse
import json
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def memory_mb(pid, field, file='status'):
    """A memory figure of a process in MB from /proc (Linux only; None elsewhere)."""
    try:
        with open(f'/proc/{pid}/{file}') as status:
            for line in status:
                if line.startswith(field + ':'):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class Bot:
    """One engine process at one level; its output is read by a thread into a queue."""

    def __init__(self, engine, name, level, seed, hash_mb, threads):
        self.name, self.level = name, level
        started = time.monotonic()
        self.process = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.peak_rss = 0.0
        self.send('uci')
        self.expect('uciok', 10)
        self.uciok_ms = (time.monotonic() - started) * 1000
        for name_, value in (('Hash', hash_mb), ('Threads', threads), ('Skill Level', level), ('Seed', seed)):
            self.send(f'setoption name {name_} value {value}')
        self.send('isready')
        self.expect('readyok', 10)
        self.ready_ms = (time.monotonic() - started) * 1000
        self.sample_memory()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)  # end of output: the process exited

    def send(self, line):
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def expect(self, prefix, timeout):
        """The first line starting with `prefix`; raises on exit ('crash') or timeout ('hang')."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError('hang') from None
            if line is None:
                raise RuntimeError('crash')
            if line.startswith(prefix):
                return line

    def sample_memory(self):
        rss = memory_mb(self.process.pid, 'VmRSS')
        if rss is not None:
            self.peak_rss = max(self.peak_rss, rss)

    def proportional_memory(self):
        """Pss: resident memory with the pages shared among the bots (the binary's code, its
        built-in network and book) divided among them; the pool's total is their sum."""
        return memory_mb(self.process.pid, 'Pss', 'smaps_rollup')

    def close(self):
        try:
            self.send('quit')
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def status(referee, moves):
    """The referee: `xiangqi status --json` for the game so far. A game the referee cannot
    read (an illegal move) comes back as status `illegal`."""
    result = subprocess.run([referee, 'status', '--json', '--moves', ' '.join(moves)],
                            capture_output=True, text=True)
    try:
        judged = json.loads(result.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f'the referee {referee} did not answer: {(result.stdout + result.stderr).strip()[:200]}')
    if result.returncode != 0 or 'error' in judged:
        return {'status': 'illegal', 'detail': judged.get('error', result.stderr.strip())}
    return judged


class Pool:
    def __init__(self, options):
        self.options = options
        self.lock = threading.Lock()
        self.random = random.Random(options.seed or None)
        self.levels = [int(level) for level in options.levels.split(',')]
        self.created = 0
        self.retired = []
        self.failures = []
        self.results = []
        self.longest_reply_ms = 0.0
        started = time.monotonic()
        self.free = [self.new_bot() for _ in range(options.bots)]
        self.startup_s = time.monotonic() - started

    def new_bot(self):
        with self.lock:
            index = self.created
            self.created += 1
        level = self.levels[index % len(self.levels)]
        seed = self.options.seed * 1000 + index if self.options.seed else 0
        return Bot(self.options.engine, f'bot{index}', level, seed,
                   self.options.hash, self.options.threads)

    def take_pair(self):
        with self.lock:
            if len(self.free) < 2:
                return None
            pair = self.random.sample(self.free, 2)
            for bot in pair:
                self.free.remove(bot)
            return pair

    def give_back(self, bot, failed):
        if failed:
            bot.process.kill()
            bot.process.wait()
            with self.lock:
                self.retired.append(bot)
            try:
                bot = self.new_bot()
            except (OSError, RuntimeError) as error:
                with self.lock:
                    self.failures.append(f'a replacement bot could not start: {error}')
                return
        with self.lock:
            self.free.append(bot)

    def play(self, game_number):
        pair = self.take_pair()
        if pair is None:
            with self.lock:
                self.failures.append(f'game {game_number}: fewer than two bots left to play it')
            return
        red, black = pair
        options = self.options
        moves, clocks = [], None
        if options.clock:
            base, increment = (float(part) for part in options.clock.split('+'))
            clocks = [base * 1000, base * 1000]
        result, failed = None, set()
        for bot in (red, black):
            bot.send('ucinewgame')
        while result is None:
            mover = (red, black)[len(moves) % 2]
            side = len(moves) % 2
            mover.send('position startpos' + (' moves ' + ' '.join(moves) if moves else ''))
            if clocks:
                mover.send(f'go wtime {int(clocks[0])} btime {int(clocks[1])} '
                           f'winc {int(increment * 1000)} binc {int(increment * 1000)}')
                allowed = clocks[side] / 1000 + options.grace
            else:
                mover.send(f'go movetime {options.movetime}')
                allowed = options.movetime / 1000 + options.grace
            asked = time.monotonic()
            try:
                answer = mover.expect('bestmove', allowed).split()
            except RuntimeError as error:
                result = f'{mover.name} {error}'
                failed.add(mover)
                self.failure(game_number, mover, str(error), moves)
                break
            spent = (time.monotonic() - asked) * 1000
            mover.sample_memory()
            with self.lock:
                self.longest_reply_ms = max(self.longest_reply_ms, spent)
            if clocks:
                clocks[side] -= spent
                if clocks[side] < 0:
                    result = f'{mover.name} lost on time'
                    self.failure(game_number, mover, 'lost on time', moves)
                    break
                clocks[side] += increment * 1000
            if len(answer) < 2 or answer[1] in ('(none)', '0000'):
                judged = status(options.referee, moves)
                result = judged.get('reason') or f'{mover.name} found no move'
                if judged.get('status') == 'ongoing':
                    self.failure(game_number, mover, 'gave no move in an ongoing game', moves)
                break
            moves.append(answer[1])
            judged = status(options.referee, moves)
            if judged['status'] == 'illegal':
                result = f'{mover.name} illegal move {answer[1]}'
                self.failure(game_number, mover, f'illegal move {answer[1]}: {judged["detail"]}', moves[:-1])
            elif judged['status'] != 'ongoing':
                winner = judged.get('winner')
                result = f'{judged["status"]} ({judged["reason"]}' + (f', {winner} wins)' if winner else ')')
            elif len(moves) >= options.max_plies:
                result = 'unfinished (move cap)'
        with self.lock:
            self.results.append((game_number, red, black, len(moves), result))
        self.give_back(red, red in failed)
        self.give_back(black, black in failed)

    def failure(self, game_number, bot, what, moves):
        with self.lock:
            self.failures.append(f'game {game_number}: {bot.name} (level {bot.level}) {what} '
                                 f'after: position startpos moves {" ".join(moves)}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--engine', default=os.path.join(HERE, '..', '.build', 'release', 'xiangqi'))
    parser.add_argument('--referee', default=os.path.join(HERE, '..', '.build', 'release', 'xiangqi'),
                        help='the xiangqi binary whose `status` command judges the games')
    parser.add_argument('--bots', type=int, default=8)
    parser.add_argument('--games', type=int, default=8)
    parser.add_argument('--concurrency', type=int, default=0, help='games at once (default: bots / 2)')
    parser.add_argument('--levels', default='0,5,10,15,20')
    parser.add_argument('--hash', type=int, default=16)
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--clock', default='', help='BASE+INC in seconds, e.g. 60+1')
    parser.add_argument('--movetime', type=int, default=200, help='ms per move when no --clock')
    parser.add_argument('--max-plies', type=int, default=300)
    parser.add_argument('--grace', type=float, default=5.0, help='seconds past its clock before a bot counts as hung')
    parser.add_argument('--seed', type=int, default=0, help='0: random pairing and play')
    options = parser.parse_args()
    options.engine = os.path.abspath(options.engine)
    options.referee = os.path.abspath(options.referee)
    if options.bots < 2:
        parser.error('--bots must be at least 2')
    concurrency = max(1, min(options.concurrency or options.bots // 2, options.bots // 2))

    pool = Pool(options)
    bots = list(pool.free)
    print(f'pool: {options.bots} bots (levels {options.levels}, Hash {options.hash} MB, Threads '
          f'{options.threads}) ready in {pool.startup_s:.2f} s; per bot to uciok median '
          f'{statistics.median(b.uciok_ms for b in bots):.0f} ms, to readyok median '
          f'{statistics.median(b.ready_ms for b in bots):.0f} ms, idle RSS median '
          f'{statistics.median(b.peak_rss for b in bots):.1f} MB', flush=True)

    started = time.monotonic()
    numbers = queue.Queue()
    for number in range(1, options.games + 1):
        numbers.put(number)

    def worker():
        while True:
            try:
                number = numbers.get_nowait()
            except queue.Empty:
                return
            try:
                pool.play(number)
            except Exception as error:  # the referee failed, or a bug here: never a silent pass
                with pool.lock:
                    pool.failures.append(f'game {number}: stopped: {error}')

    workers = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    wall = time.monotonic() - started

    everyone = pool.free + pool.retired
    for bot in pool.free:
        bot.sample_memory()
    peaks = [bot.peak_rss for bot in everyone if bot.peak_rss]
    shares = [bot.proportional_memory() for bot in pool.free]
    for number, red, black, plies, result in sorted(pool.results, key=lambda r: r[0]):
        print(f'game {number}: {red.name} (level {red.level}) - {black.name} (level {black.level}), '
              f'{plies} plies: {result}')
    summary = {'bots': options.bots, 'games': len(pool.results), 'concurrency': concurrency,
               'wall_s': round(wall, 1), 'startup_s': round(pool.startup_s, 2),
               'peak_rss_mb_median': round(statistics.median(peaks), 1) if peaks else None,
               'peak_rss_mb_max': round(max(peaks), 1) if peaks else None,
               'pool_rss_mb': round(sum(bot.peak_rss for bot in pool.free), 1),
               'pool_pss_mb': round(sum(shares), 1) if None not in shares else None,
               'moves': sum(result[3] for result in pool.results),
               'longest_reply_ms': round(pool.longest_reply_ms), 'replaced': len(pool.retired),
               'failures': len(pool.failures)}
    for failure in pool.failures:
        print('FAILURE', failure)
    print(json.dumps(summary))
    for bot in pool.free:
        bot.close()
    sys.exit(1 if pool.failures else 0)


if __name__ == '__main__':
    main()
