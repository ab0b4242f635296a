#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/run-to-run-rules.py DIR: how the interval rules of ms-run-to-run.c
were chosen. DIR holds runN-summary.csv from separate default sweeps (nine
on the H100: docs/measurements/2026-11-22-h100-nine-runs). Over 30 random
splits, the spread is measured on some runs and each rule's interval is
checked on the others: the share of pairs of held-out runs whose medians
lie inside each other's interval.

Rules: ci (the run's own 95% interval), cell (t * sqrt(2) * the cell's sd),
pool (the larger of the cell's and the mode's pooled sd: what memsweep
uses), pool-only (the mode's pooled sd alone)."""
import csv, glob, gzip, itertools, math, random, statistics as st, sys

T975 = {2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306}


def load(path):
    d = {}
    # The logs' summaries are kept gzipped.
    with (gzip.open(path, 'rt', newline='') if path.endswith('.gz') else open(path, newline='')) as f:
        for row in csv.DictReader(l for l in f if not l.startswith('#')):
            if row['status'] == 'ok':
                d[(row['mode'], int(row['elements']))] = tuple(
                    float(row[k]) for k in ('e2e_median_us', 'e2e_ci_low_us', 'e2e_ci_high_us'))
    return d


def coverage(runs, cells, cal, val, rule):
    t = T975[len(cal) - 1]
    sd = {c: st.stdev(math.log(runs[i][c][0]) for i in cal) for c in cells}
    pooled = {m: math.sqrt(st.mean(sd[c] ** 2 for c in cells if c[0] == m))
              for m in {c[0] for c in cells}}
    def half(c):
        s = {'ci': 0, 'cell': sd[c], 'pool': max(sd[c], pooled[c[0]]),
             'pool-only': pooled[c[0]]}[rule]
        return t * math.sqrt(2) * s
    def interval(m, lo, hi, h):
        return m * math.exp(-max(math.log(m / lo), h)), m * math.exp(max(math.log(hi / m), h))
    ok = total = 0
    for a, b in itertools.combinations(val, 2):
        for c in cells:
            (ma, la, ha), (mb, lb, hb) = runs[a][c], runs[b][c]
            la, ha = interval(ma, la, ha, half(c))
            lb, hb = interval(mb, lb, hb, half(c))
            total += 1
            ok += la <= mb <= ha and lb <= ma <= hb
    return ok / total


def main(folder):
    paths = sorted(glob.glob(folder + '/run*-summary.csv') + glob.glob(folder + '/run*-summary.csv.gz'))
    runs = [load(p) for p in paths]
    cells = sorted(set.intersection(*(set(r) for r in runs)))
    print(f'# {len(runs)} runs, {len(cells)} cells; 30 random splits (seed 1)')
    print('calibration runs  rule       both-ways coverage: mean   worst split')
    for n_cal in (3, 5):
        for rule in ('ci', 'cell', 'pool', 'pool-only'):
            random.seed(1)
            covs = []
            for _ in range(30):
                idx = list(range(len(runs)))
                random.shuffle(idx)
                covs.append(coverage(runs, cells, idx[:n_cal], idx[n_cal:], rule))
            print(f'{n_cal:<17} {rule:<10} {100 * st.mean(covs):6.1f}%  {100 * min(covs):6.1f}%')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
