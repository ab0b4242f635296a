#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/measurements-table.py PREFIX [PREFIX ...]: docs/measurements.md's
measurement table, printed from the committed logs.

Each PREFIX names one GPU's final run under docs/measurements/, e.g.
docs/measurements/2026-11-22-h100-run2; the script reads PREFIX-bench.log
(bench-memsweep), PREFIX-summary.log (tools/gpu-run.sh, in git history at
b600a09; today tools/gpu.sh suite bench repeat), PREFIX-gpu-suite.txt
(the gpu suite's log), PREFIX-targets.txt (tools/repeatability-targets.py
over three default sweeps) and, when present, PREFIX-sanitizer-memcheck.log and
PREFIX-sanitizer-racecheck.log (compute-sanitizer),
PREFIX-run-to-run-coverage.txt (calibrate and four held-out sweeps; today tools/gpu.sh self-compare), PREFIX-lessons.log
(tools/gpu-lessons.sh, at b600a09; today tools/gpu.sh lesson-checks) and PREFIX-gpu-suite-2.txt (a second gpu suite). Nothing is typed in by hand: a figure that is
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


def sanitizer(path, keys):
    text = read(path)
    found = [find(r'^========= ' + k + r': (.*)$', text) for k in keys]
    return ', '.join(found) if text else 'not run'


def column(prefix):
    bench = read(prefix + '-bench.log')
    summary = read(prefix + '-summary.log')
    suite = read(prefix + '-gpu-suite.txt')
    targets = read(prefix + '-targets.txt')
    coverage = read(prefix + '-run-to-run-coverage.txt')
    lessons = read(prefix + '-lessons.log')
    again = read(prefix + '-gpu-suite-2.txt')
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
        'suite': ('passed' if 'PASS: gpu suite' in summary else
                  ('failed: ' + '; '.join(re.findall(r'^FAIL \S+: (.*)$', suite, re.M))
                   if 'FAIL: gpu suite' in summary else '?')) +
                 ('; second run: ' + ('passed' if re.search(r'^Fail:\s+0', again, re.M) else 'failed')
                  if again else ''),
        'rr_within': find(r"^medians inside the other run's 95% interval: .*pairs inside each "
                          r"other's: (.*)$", coverage),
        'rr': find(r"^medians inside the other run's 95% run-to-run interval.*pairs inside each "
                   r"other's: (.*)$", coverage),
        'lessons': ('passed' if 'PASS: lessons' in lessons else
                    ('failed' if 'FAIL: lessons' in lessons else 'not run')),
        'memcheck': sanitizer(prefix + '-sanitizer-memcheck.log', ('ERROR SUMMARY', 'LEAK SUMMARY')),
        'racecheck': sanitizer(prefix + '-sanitizer-racecheck.log', ('RACECHECK SUMMARY',)),
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
    ("four more default sweeps: pairs of medians inside each other's 95% interval, within-run", 'rr_within'),
    ("the same four: inside each other's run-to-run interval (profile of five other sweeps, memsweep calibrate)", 'rr'),
    ('every lesson (tools/gpu-lessons.sh) and its checks', 'lessons'),
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
