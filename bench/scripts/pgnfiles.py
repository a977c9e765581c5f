"""Reading match PGNs, plain (a match in progress) or gzipped (a finished record).

Imported by the scripts of this folder that read PGNs (Python puts a script's own folder
first on its import path).
"""
import glob
import gzip


def read(path):
    """The text of a PGN file, `NAME.pgn` or `NAME.pgn.gz`."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        return f.read()


def find(pattern):
    """The PGN files matching `pattern` (which ends in `.pgn`), plain or gzipped, sorted by
    name; where both forms of one record exist, the plain one (a resumed match in progress)."""
    plain = set(glob.glob(pattern))
    packed = [p for p in glob.glob(pattern + '.gz') if p[:-3] not in plain]
    return sorted(list(plain) + packed)


def base(path):
    """The path without its `.gz`."""
    return path[:-3] if path.endswith('.gz') else path
