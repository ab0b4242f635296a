#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/plain-groups.py OUTDIR N [LIVE_N]: the table of bench/plain-groups.sh
from OUTDIR/plain-pK.csv (K = 1..2N, each a process of bench-plain --cells).
Each cell's figure is ln(median) per process; two groups of processes are
compared by Welch's 95% interval of the difference of their means, the
ratio's interval being its exponential, and judged at 10% as
docs/compare.md's rule does (SAME: inside 1/1.1 .. 1.1; FASTER or SLOWER:
wholly beyond). LIVE_N (default N) is the processes a side compare --live
reaches in its budget: the share of cells whose spread between processes
lets that many find a 10% change at a 5% threshold, and a 20% change at
10%. Prints figures; judges nothing."""
import csv
import functools
import math
import statistics
import sys

FROM_EXP = 14


def t_pdf(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


@functools.lru_cache(maxsize=None)
def t_quantile_975(df):
    """Student's t at 0.975 by bisection on the integrated density."""
    def cdf_above_zero(x, steps=400):
        h = x / steps
        s = t_pdf(0, df) + t_pdf(x, df)
        s += sum((4 if i % 2 else 2) * t_pdf(i * h, df) for i in range(1, steps))
        return s * h / 3
    lo, hi = 0.0, 20.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf_above_zero(mid) < 0.475 else (lo, mid)
    return (lo + hi) / 2


def welch(a, b):
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    d = statistics.fmean(b) - statistics.fmean(a)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1)) if va + vb else 1e9
    hw = t_quantile_975(min(round(df, 1), 1000)) * math.sqrt(va + vb)
    return math.exp(d - hw), math.exp(d + hw)


def verdict(lo, hi, t=0.10):
    if lo >= 1 / (1 + t) and hi <= 1 + t:
        return "same"
    if lo > 1 + t or hi < 1 / (1 + t):
        return "differs"
    return "ambiguous"


def load(out, n):
    cells = {}
    for k in range(1, 2 * n + 1):
        # The first line says which CPU measured; the CSV follows it.
        lines = [x for x in open(f"{out}/plain-p{k}.csv") if "," in x]
        for row in csv.DictReader(lines):
            cells.setdefault((row["mode"], int(row["exponent"])), {})[k] = math.log(
                float(row["median_us"]))
    return {c: v for c, v in cells.items() if len(v) == 2 * n}


def needed(s, delta):
    """Processes a side for a 95% interval narrower than delta (in ln)."""
    for n in range(2, 1000):
        if t_quantile_975(2 * n - 2) * s * math.sqrt(2 / n) < delta:
            return n
    return 1000


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    live_n = int(sys.argv[3]) if len(sys.argv) > 3 else n
    cells = load(out, n)
    splits = {
        "separate (first half against second)": (range(1, n + 1), range(n + 1, 2 * n + 1)),
        "turns (A B B A ...)": ([k for k in range(1, 2 * n + 1) if k % 4 in (1, 0)],
                                [k for k in range(1, 2 * n + 1) if k % 4 in (2, 3)]),
    }
    print(f"plain yardstick, {n} processes a side, {len(cells)} GPU cells")
    for name, (ga, gb) in splits.items():
        big = [c for c in cells if c[1] >= FROM_EXP]
        v = {c: verdict(*welch([cells[c][k] for k in ga], [cells[c][k] for k in gb]))
             for c in cells}
        same = 100 * sum(v[c] == "same" for c in big) / len(big)
        differs = 100 * sum(v[c] == "differs" for c in cells) / len(cells)
        print(f"  {name:40s} SAME at 10% from 2^{FROM_EXP}: {same:5.1f} %  "
              f"FASTER/SLOWER of all: {differs:4.1f} %")
    print(f"\nper mode, cells from 2^{FROM_EXP}: spread between processes (sd of ln median), "
          f"drift (second half / first), processes a side to find 10% at 5% / 20% at 10%")
    d10, d20 = math.log(1.10 / 1.05), math.log(1.20 / 1.10)
    found10 = found20 = total = 0
    for mode in sorted({c[0] for c in cells}):
        big = sorted(c for c in cells if c[0] == mode and c[1] >= FROM_EXP)
        sds = [statistics.stdev(cells[c].values()) for c in big]
        drift = [math.exp(statistics.fmean(cells[c][k] for k in range(n + 1, 2 * n + 1))
                          - statistics.fmean(cells[c][k] for k in range(1, n + 1))) for c in big]
        n10 = [needed(s, d10) for s in sds]
        n20 = [needed(s, d20) for s in sds]
        found10 += sum(x <= live_n for x in n10)
        found20 += sum(x <= live_n for x in n20)
        total += len(big)
        print(f"  {mode:18s} {100 * statistics.median(sds):5.1f} %  "
              f"{statistics.median(drift):6.3f}  {statistics.median(n10):4.0f} / "
              f"{statistics.median(n20):3.0f}")
    print(f"\nwith {live_n} processes a side: a 10% change findable at 5% in "
          f"{100 * found10 / total:.1f} % of cells from 2^{FROM_EXP}, a 20% change at 10% in "
          f"{100 * found20 / total:.1f} %")


if __name__ == "__main__":
    main()
