#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/measurements-table.py PREFIX [PREFIX ...]: the README's
measurement table, printed from the committed logs.

Each PREFIX names one GPU's final run under docs/measurements/, e.g.
docs/measurements/2026-11-22-h100-final; the script reads PREFIX-bench.log
(bench-memsweep), PREFIX-summary.log (tools/gpu-run.sh), PREFIX-gpu-suite.txt
(the gpu suite's log) and PREFIX-targets.txt (tools/repeatability-targets.py
over three default sweeps). Nothing is typed in by hand: a figure that is
not in the logs prints as '?'."""
import pathlib, re, sys


def read(path):
    p = pathlib.Path(path)
    return p.read_text(errors='replace') if p.exists() else ''


def find(pattern, text, group=1, default='?'):
    m = re.search(pattern, text, re.M)
    return m.group(group) if m else default


def bench_rows(bench):
    rows = {}
    for m in re.finditer(r'^(2\^\d+)\s+(h2d|d2h)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)',
                         bench, re.M):
        rows[(m.group(1), m.group(2))] = dict(ref=m.group(3), single=m.group(4),
                                              single_ratio=m.group(5), steady=m.group(6),
                                              steady_ratio=m.group(7))
    return rows


def column(prefix):
    bench = read(prefix + '-bench.log')
    summary = read(prefix + '-summary.log')
    suite = read(prefix + '-gpu-suite.txt')
    targets = read(prefix + '-targets.txt')
    rows = bench_rows(bench)

    def pair(size, key):
        a, b = rows.get((size, 'h2d'), {}), rows.get((size, 'd2h'), {})
        return f"{a.get(key, '?')} / {b.get(key, '?')}"

    device = find(r'^Device: (.*?) \(cc', bench) if bench else '?'
    device = find(r'^device: (.*?),', suite) if device == '?' else device
    return {
        'device': device,
        'wall': find(r'default sweep wall time: median ([\d.]+ s)', bench),
        'steady20': pair('2^20', 'steady_ratio'),
        'steady26': pair('2^26', 'steady_ratio'),
        'single20': pair('2^20', 'single_ratio'),
        'single26': pair('2^26', 'single_ratio'),
        'ref26': pair('2^26', 'ref'),
        'kernel': find(r'2\^10 kernel: latched ([\d.]+ us), events around the launch ([\d.]+ us)',
                       suite, 0).replace('2^10 kernel: ', ''),
        'worst': find(r'^worst cell: (.*)$', targets),
        'held': find(r'^targets: (\d+ of \d+) judged cells held', targets),
        'inside': find(r"^medians inside the other run's 95% interval: (.*)$", targets),
        'suite': 'passed' if 'PASS: gpu suite' in summary else
                 ('failed' if 'FAIL: gpu suite' in summary else '?'),
        'memcheck': find(r'compute-sanitizer memcheck rc=\d+ \((.*?)\)', summary),
        'racecheck': find(r'compute-sanitizer racecheck rc=\d+ \((.*?)\)', summary),
    }


LINES = [
    ('device', 'device'),
    ('default sweep (11 sizes x 11 modes, adaptive repetitions), wall time after CUDA init, median of 3', 'wall'),
    ('steady-state copy h2d / d2h at 2^20 (4 MiB), ÷ reference loop', 'steady20'),
    ('steady-state copy h2d / d2h at 2^26 (256 MiB), ÷ reference loop', 'steady26'),
    ('single pipeline copy h2d / d2h at 2^20, ÷ reference loop', 'single20'),
    ('single pipeline copy h2d / d2h at 2^26, ÷ reference loop', 'single26'),
    ('reference loop h2d / d2h at 2^26, GB/s', 'ref26'),
    ('device-only kernel at 2^10: latched, and events around the launch (as before)', 'kernel'),
    ('three default sweeps: worst max/min of an (mode, size) median', 'worst'),
    ('three default sweeps: cells within the repeatability target', 'held'),
    ("medians inside another run's 95% interval", 'inside'),
    ('gpu suite', 'suite'),
    ('compute-sanitizer memcheck (gpu suite)', 'memcheck'),
    ('compute-sanitizer racecheck (short sweep)', 'racecheck'),
]


def main(prefixes):
    cols = [column(p) for p in prefixes]
    names = [pathlib.Path(p).name for p in prefixes]
    print('| | ' + ' | '.join(names) + ' |')
    print('| --- |' + ' --- |' * len(cols))
    for title, key in LINES:
        print(f'| {title} | ' + ' | '.join(c[key] for c in cols) + ' |')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
