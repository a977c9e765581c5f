#!/usr/bin/env python3
"""Checks that the targets an app links use nothing newer than the declared Apple minimum.

The practice-mode app targets iOS 15.0 (Package.swift declares .iOS(.v15), .macOS(.v12)), and
nothing here can compile for an Apple platform, so this script stands guard: it fails when the
source of an app-linked target uses an API that needs a later runtime, from the list below,
or when Package.swift declares other minimums. Comments and string literals are ignored.

  scripts/check-apple-availability.py            check the app-linked targets (CI runs this)
  scripts/check-apple-availability.py DIR...     check these folders instead
  scripts/check-apple-availability.py --self-test
                                                 check that every listed API in
                                                 scripts/fixtures/gated.swift.txt is flagged
                                                 and that scripts/fixtures/clean.swift.txt is not
"""
import os, re, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

# What an app links (XiangqiEngine and everything below it, plus the protocol session and the
# codec, which an app may drive in-process). The command-line tool and the client are built
# for Linux and macOS 13 and later only (they use Swift Concurrency's clocks).
APP_LINKED = ['XiangqiCore', 'XiangqiSearch', 'XiangqiBook', 'XiangqiEngine', 'XiangqiCodec',
              'XiangqiProtocol', 'CAtomicWords', 'CNetworkKernels', 'CEmbeddedData']

MINIMUM = {'iOS': (15, 0), 'macOS': (12, 0)}

# (name, pattern, runtime that introduced it)
GATED = [
    ('InlineArray', r'\bInlineArray\b', 'iOS 26 / macOS 26'),
    ('Span', r'\b(Mutable|Raw|MutableRaw|UTF8)?Span\b', 'iOS 26 / macOS 26'),
    ('Synchronization module', r'\bimport\s+Synchronization\b', 'iOS 18 / macOS 15'),
    ('Mutex', r'\bMutex\s*[<(]', 'iOS 18 / macOS 15'),
    ('Atomic', r'\bAtomic\s*[<(]', 'iOS 18 / macOS 15'),
    ('Observation', r'\bimport\s+Observation\b|@Observable\b', 'iOS 17 / macOS 14'),
    ('Duration', r'\bDuration\b', 'iOS 16 / macOS 13'),
    ('ContinuousClock', r'\bContinuousClock\b', 'iOS 16 / macOS 13'),
    ('SuspendingClock', r'\bSuspendingClock\b', 'iOS 16 / macOS 13'),
    ('Task.sleep(for:) / (until:)', r'\bTask\.sleep\s*\(\s*(for|until)\s*:', 'iOS 16 / macOS 13'),
    ('Regex', r'\bRegex\b|\bimport\s+RegexBuilder\b|#/|\.wholeMatch\(|\.firstMatch\(', 'iOS 16 / macOS 13'),
    ('string algorithms', r'\.(ranges|firstRange)\(of:|\.trimmingPrefix\(|\.replacing\(\s*"|'
                          r'\.contains\(\s*"[^"\\]{2,}"|split\(separator:\s*"[^"\\]{2,}"', 'iOS 16 / macOS 13'),
    ('formatted()', r'\.formatted\(', 'iOS 15 (Foundation only)'),
]

AVAILABLE = re.compile(r'@available\s*\(([^)]*)\)')


def strip(text):
    """The text with comments and string literals blanked (line structure kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append('""' + '\n' * text.count('\n', i, j))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            literal = text[i:j + 1]
            # Short literals stay: the string-algorithm patterns look at them.
            out.append(literal if len(literal) <= 12 else '""')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def findings(path):
    text = strip(open(path, encoding='utf-8', errors='replace').read())
    found = []
    for number, line in enumerate(text.split('\n'), 1):
        for name, pattern, runtime in GATED:
            if re.search(pattern, line):
                found.append((number, f'{name} needs {runtime}'))
        for match in AVAILABLE.finditer(line):
            for platform, version in re.findall(r'\b(iOS|macOS)\s+(\d+(?:\.\d+)?)', match.group(1)):
                parts = tuple(int(p) for p in version.split('.')) + (0,)
                if parts[:2] > MINIMUM[platform]:
                    found.append((number, f'@available({platform} {version}) is above the minimum '
                                          f'{platform} {MINIMUM[platform][0]}.{MINIMUM[platform][1]}'))
    return found


def check(folders):
    problems = []
    for folder in folders:
        for directory, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith(('.swift', '.swift.txt')):
                    path = os.path.join(directory, name)
                    problems += [(path, n, what) for n, what in findings(path)]
    return problems


def check_package():
    text = open(os.path.join(ROOT, 'Package.swift')).read()
    platforms = re.search(r'platforms:\s*\[([^\]]*)\]', strip(text))
    declared = platforms.group(1).replace(' ', '') if platforms else ''
    if declared != '.macOS(.v12),.iOS(.v15)':
        return [f'Package.swift declares platforms [{declared}], expected [.macOS(.v12), .iOS(.v15)]']
    return []


def self_test():
    fixtures = os.path.join(ROOT, 'scripts', 'fixtures')
    gated = os.path.join(fixtures, 'gated.swift.txt')
    flagged = {what.split(' needs ')[0].split(' is above')[0] for _, what in findings(gated)}
    expected = {name for name, _, _ in GATED} | {'@available(iOS 16)', '@available(macOS 13.0)'}
    missing = sorted(expected - flagged)
    clean = findings(os.path.join(fixtures, 'clean.swift.txt'))
    for name in missing:
        print(f'self-test: the fixture\'s use of {name} was not flagged')
    for number, what in clean:
        print(f'self-test: clean.swift.txt:{number} flagged: {what}')
    if missing or clean:
        return 1
    print(f'self-test: all {len(expected)} gated uses flagged, the clean fixture passes')
    return 0


def main(argv):
    if argv == ['--self-test']:
        return self_test()
    folders = argv or [os.path.join(ROOT, 'Sources', t) for t in APP_LINKED]
    problems = check(folders)
    package = [] if argv else check_package()
    for path, number, what in problems:
        print(f'{os.path.relpath(path, ROOT)}:{number}: {what}')
    for line in package:
        print(line)
    if problems or package:
        print(f'{len(problems) + len(package)} use(s) of APIs newer than iOS 15 / macOS 12 in app-linked code')
        return 1
    print(f'Apple availability: {len(folders)} app-linked targets use nothing newer than iOS 15 / macOS 12')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
