#!/usr/bin/env python3
"""Memory of one engine process by Hash and Threads (Linux: VmRSS, RssAnon, RssFile).

RssFile is mostly the binary's own pages (code, the built-in network and book), which the
page cache shares among all processes of one binary: a pool's cost per extra process is
about the anonymous part (RssAnon), the table and the searchers' memory.

For each Hash (MB) and Threads: start the engine, `uci`, set both options, `isready`, read
the memory (idle); then search a middlegame position (no book move) for --movetime ms and
read it again (in play: the table and the threads' stacks touched). Five runs each, medians.
Usage: bench/scripts/process-memory.py [BINARY] [--hash 1,16,64,256] [--threads 1,4] [--movetime 2000]
"""
import argparse
import os
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MIDDLEGAME = 'r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1'


def memory(pid):
    fields = {}
    with open(f'/proc/{pid}/status') as status:
        for line in status:
            key, _, value = line.partition(':')
            if key in ('VmRSS', 'RssAnon', 'RssFile'):
                fields[key] = int(value.split()[0]) / 1024
    return fields


def wait_for(process, prefix):
    for line in process.stdout:
        if line.startswith(prefix):
            return line
    raise RuntimeError(f'the engine exited before {prefix}')


def measure(binary, hash_mb, threads, movetime):
    process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    process.stdin.write(f'uci\nsetoption name Hash value {hash_mb}\nsetoption name Threads value {threads}\n'
                        'isready\n')
    process.stdin.flush()
    wait_for(process, 'readyok')
    time.sleep(0.05)
    idle = memory(process.pid)
    process.stdin.write(f'position fen {MIDDLEGAME}\ngo movetime {movetime}\n')
    process.stdin.flush()
    wait_for(process, 'bestmove')
    playing = memory(process.pid)
    process.stdin.write('quit\n')
    process.stdin.flush()
    process.wait()
    return idle, playing


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('binary', nargs='?', default=os.path.join(HERE, '..', '..', '.build', 'release', 'xiangqi'))
    parser.add_argument('--hash', default='1,16,64,256')
    parser.add_argument('--threads', default='1,4')
    parser.add_argument('--movetime', type=int, default=2000)
    parser.add_argument('--runs', type=int, default=5)
    options = parser.parse_args()
    print(f'| Hash MB | Threads | idle VmRSS MB | in play VmRSS MB | in play anonymous MB | '
          f'in play file-backed MB |')
    print('|---|---|---|---|---|---|')
    for hash_mb in (int(h) for h in options.hash.split(',')):
        for threads in (int(t) for t in options.threads.split(',')):
            runs = [measure(options.binary, hash_mb, threads, options.movetime) for _ in range(options.runs)]
            idle = statistics.median(r[0]['VmRSS'] for r in runs)
            playing = {key: statistics.median(r[1][key] for r in runs) for key in ('VmRSS', 'RssAnon', 'RssFile')}
            print(f'| {hash_mb} | {threads} | {idle:.1f} | {playing["VmRSS"]:.1f} | {playing["RssAnon"]:.1f} | '
                  f'{playing["RssFile"]:.1f} |', flush=True)


if __name__ == '__main__':
    main()
