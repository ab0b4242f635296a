#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/code-measures.py [--max-func N]: lines per function in the tree's
C, CUDA and header files, and the largest files for a look.

A function is counted from the line that names it at column 0 (GNOME style
puts the return type on the line before) to the closing brace at column 0,
both included. Exits 1 when a function is over the limit, so it can run as
a test. Files have no line limit: a file holds one job, whatever its length
(HACKING.md), so their sizes are printed, never judged."""
import argparse, pathlib, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument('--max-func', type=int, default=100)
ap.add_argument('--top', type=int, default=10)
ap.add_argument('root', nargs='?', default='.')
a = ap.parse_args()
root = pathlib.Path(a.root)
files = subprocess.run(['git', '-C', str(root), 'ls-files', '-co', '--exclude-standard'],
                       capture_output=True, text=True, check=True).stdout.split()
src = [f for f in files if re.search(r'\.(c|h|cu|cuh)$', f) and (root / f).is_file()]
name_re = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*)\s*\(')
file_sizes, funcs = [], []
for f in src:
    lines = (root / f).read_text(errors='replace').split('\n')
    file_sizes.append((len(lines) - (1 if lines and lines[-1] == '' else 0), f))
    start = name = None
    opened = False
    for i, line in enumerate(lines):
        m = name_re.match(line)
        if m and start is None and not line.rstrip().endswith(';'):
            start, name = i, m.group(1)
        elif start is not None and line.startswith('}'):
            funcs.append((i - start + 1, f'{f}:{start + 1} {name}'))
            start = None
        elif start is not None and line.rstrip().endswith(';') and not opened:
            # A statement over several lines (a _Static_assert, a
            # prototype), not a definition: it ended before any brace.
            start = None
        if start is not None and '{' in line:
            opened = True
        elif start is None:
            opened = False
file_sizes.sort(reverse=True)
funcs.sort(reverse=True)
print(f'{len(src)} files, {len(funcs)} functions')
print('largest files:')
for n, f in file_sizes[:a.top]:
    print(f'  {n:5d} {f}')
print('longest functions:')
for n, f in funcs[:a.top]:
    print(f'  {n:5d} {f}')
over_fn = [x for x in funcs if x[0] > a.max_func]
print(f'functions over {a.max_func} lines: {len(over_fn)}')
for n, f in over_fn:
    print(f'  {n:5d} {f}')
sys.exit(1 if over_fn else 0)
