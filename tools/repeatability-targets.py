#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/repeatability-targets.py SUMMARY.csv SUMMARY.csv [...]: how far the
end-to-end median of each (mode, size) moves between whole runs.

Prints, per mode and size, max/min of the e2e median over the files, the
worst cell, and whether issue 7's targets hold: <= 1.05 for sizes >= 2^14
and <= 1.10 below for the copy, zero-copy, uva, streams and device modes,
<= 1.10 at every size for pageable and managed. When the files carry
confidence intervals (e2e_ci_low_us, e2e_ci_high_us) or run-to-run
intervals (e2e_rr_low_us, e2e_rr_high_us, from a `memsweep calibrate`
profile), it also counts the medians that lie inside the other run's
interval, one way and both ways."""
import csv, itertools, math, sys

STRICT = {'pinned', 'registered', 'write-combined', 'zero-copy', 'uva', 'streams', 'device'}
LOOSE = {'pageable', 'managed', 'managed-prefetch'}


def read(path):
    rows = {}
    with open(path, newline='') as f:
        lines = [l for l in f if not l.startswith('#')]
    for r in csv.DictReader(lines):
        if r.get('status') != 'ok' or not r.get('e2e_median_us'):
            continue
        key = (r['mode'], int(r['elements']))
        rows[key] = r
    return rows


def target(mode, elements):
    if mode in STRICT:
        return 1.05 if elements >= 2 ** 14 else 1.10
    if mode in LOOSE:
        return 1.10
    return None  # host: the host's own noise, reported but not judged


def main(paths):
    runs = [read(p) for p in paths]
    keys = sorted(set.intersection(*(set(r) for r in runs)), key=lambda k: (k[0], k[1]))
    modes = sorted({k[0] for k in keys}, key=lambda m: [k[0] for k in keys].index(m))
    sizes = sorted({k[1] for k in keys})
    ratio = {}
    for k in keys:
        v = [float(r[k]['e2e_median_us']) for r in runs]
        ratio[k] = max(v) / min(v) if min(v) > 0 else math.inf
    print(f'# max/min of the e2e median over {len(paths)} runs: ' + ', '.join(paths))
    print('mode'.ljust(18) + ''.join(f'2^{int(math.log2(s)):<5}' for s in sizes) + ' worst  target')
    misses = []
    for m in modes:
        cells = [ratio.get((m, s)) for s in sizes]
        worst = max(c for c in cells if c is not None)
        line = m.ljust(18) + ''.join(f'{c:<7.3f}' if c else ' -     ' for c in cells)
        held = True
        for s in sizes:
            t = target(m, s)
            if t and (m, s) in ratio and ratio[(m, s)] > t:
                held = False
                misses.append((m, s, ratio[(m, s)], t))
        tag = 'n/a' if target(m, sizes[0]) is None else ('held' if held else 'MISSED')
        print(line + f'{worst:6.3f}  {tag}')
    w = max(ratio, key=ratio.get)
    print(f'worst cell: {w[0]} 2^{int(math.log2(w[1]))}: {ratio[w]:.3f}')
    judged = [k for k in keys if target(*k)]
    print(f'targets: {len(judged) - len(misses)} of {len(judged)} judged cells held')
    for m, s, r, t in misses[:12]:
        print(f'  missed: {m} 2^{int(math.log2(s))} {r:.3f} > {t:.2f}')
    for low, high, what in (('e2e_ci_low_us', 'e2e_ci_high_us', "95% interval"),
                            ('e2e_rr_low_us', 'e2e_rr_high_us',
                             "95% run-to-run interval (memsweep calibrate)")):
        coverage(runs, keys, low, high, what)


def coverage(runs, keys, low, high, what):
    """Medians inside the other run's interval, one way (ordered pairs) and
    both ways (each pair's medians inside each other's interval)."""
    def inside(a, b, k):
        ra, rb = runs[a][k], runs[b][k]
        return float(rb[low]) <= float(ra['e2e_median_us']) <= float(rb[high])
    one = both = n_one = n_both = 0
    for a, b in itertools.combinations(range(len(runs)), 2):
        for k in keys:
            if not all(runs[i][k].get(low) for i in (a, b)):
                continue
            ab, ba = inside(a, b, k), inside(b, a, k)
            one += ab + ba
            n_one += 2
            both += ab and ba
            n_both += 1
    if n_one:
        print(f"medians inside the other run's {what}: {one} of {n_one} "
              f"({100.0 * one / n_one:.1f}%); pairs inside each other's: {both} of {n_both} "
              f"({100.0 * both / n_both:.1f}%)")

if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:])
