#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/plain-table.py DIR [DIR ...]: docs/measurements.md's table of plain against
instrumented repetitions, printed from the logs that
tools/gpu-measure-plainly.sh (in git history at b600a09) left in each DIR (one GPU each, e.g.
docs/measurements/2026-11-23-h100-plain-1). Nothing is typed in by hand: a
figure that is not in the logs prints as '?'."""
import pathlib, re, sys


def read(d, name):
    p = pathlib.Path(d) / name
    return p.read_text(errors='replace') if p.exists() else ''


def bench_plain(d):
    text = read(d, 'bench-plain.log')
    ratios = [float(m.group(1)) for m in re.finditer(r'^\S+\s+2\^\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)', text, re.M)]
    over = [f'{m.group(1)} {m.group(2)} {m.group(3)}' + (' (inside the control\'s range)' if m.group(4) else '')
            for m in re.finditer(r'^(\S+)\s+(2\^\d+)\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s.*over 1\.05(, inside)?', text, re.M)]
    if not ratios:
        return '?'
    within = len(ratios) - len(over)
    s = f'{within} of {len(ratios)} cells <= 1.05 (range {min(ratios):.3f}-{max(ratios):.3f})'
    return s + ('; over: ' + ', '.join(over) if over else '')


def overhead(d, exp):
    text = read(d, 'overhead.log')
    vals = {}
    for m in re.finditer(r'^(\S+)\s+2\^(\d+) plain\s+([\d.]+) us, instrumented\s+([\d.]+) us \(([\d.]+)x', text, re.M):
        if int(m.group(2)) == exp and m.group(1) != 'host':
            vals.setdefault(m.group(1), float(m.group(5)))
    if not vals:
        return '?'
    lo = min(vals, key=vals.get)
    hi = max(vals, key=vals.get)
    return f'{vals[lo]:.2f}x ({lo}) to {vals[hi]:.2f}x ({hi})'


def issue_order(d):
    text = read(d, 'overhead.log') or read(d, 'lessons.log')
    rows = re.findall(r'issue order one queue K=(\d+): breadth/depth plain ([\d.]+), per-step timers ([\d.]+)', text)
    if not rows:
        return '?', '?'
    plain = ', '.join(f'{p} (K={k})' for k, p, _ in rows)
    timers = ', '.join(f'{t} (K={k})' for k, _, t in rows)
    return plain, timers


def summary_figure(d, pattern):
    m = re.search(pattern, read(d, 'summary.log'))
    return m.group(1) if m else '?'


def suite_runs(d):
    text = read(d, 'summary.log') + read(d, 'gpu-suite-3x.log')
    runs = re.findall(r'gpu suite run (\d+): rc=(\d+)', read(d, 'gpu-suite-3x.log'))
    if not runs:
        first = 'pass' if 'PASS: gpu suite' in text else 'fail'
        runs = [('1', '0' if first == 'pass' else '1')] + re.findall(r'gpu suite run (\d+): rc=(\d+)', text)
    return ', '.join('pass' if rc == '0' else 'fail' for _, rc in runs) or '?'


def main(dirs):
    heads = [pathlib.Path(d).name for d in dirs]
    print('| | ' + ' | '.join(heads) + ' |')
    print('| --- |' + ' --- |' * len(dirs))
    rows = [
        ('device, date', lambda d: summary_figure(d, r'== (\S+Z [^,\n]+)')),
        ('memsweep plain e2e ÷ a minimal CUDA program (bench-plain), 10 modes x 2^10, 2^14, 2^17, 2^20', bench_plain),
        ('timers\' cost at 2^10: instrumented ÷ plain median, GPU modes', lambda d: overhead(d, 10)),
        ('timers\' cost at 2^20', lambda d: overhead(d, 20)),
        ('issue order on one queue, breadth ÷ depth, plain', lambda d: issue_order(d)[0]),
        ('the same with an event pair around every step', lambda d: issue_order(d)[1]),
        ('three default sweeps: cells within the repeatability targets', lambda d: summary_figure(d, r'targets: (\d+ of \d+)')),
        ('the host-only mode over the same three sweeps: worst max/min (the machine\'s own noise)',
         lambda d: (re.search(r'^host\s+(?:[\d.]+\s+){11}([\d.]+)', read(d, 'repeatability-targets.txt'), re.M) or [None, '?'])[1]),
        ('default sweep wall time after CUDA initialisation', lambda d: summary_figure(d, r'default sweep under 3 s after CUDA initialisation \(([\d.]+ s)\)')),
        ('gpu suite, runs in a row', suite_runs),
        ('every lesson and its checks', lambda d: 'passed' if 'PASS: lessons' in read(d, 'lessons.log') else 'failed'),
    ]
    for title, f in rows:
        print(f'| {title} | ' + ' | '.join(f(d) for d in dirs) + ' |')


main(sys.argv[1:])
