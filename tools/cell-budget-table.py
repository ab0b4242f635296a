#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/cell-budget-table.py BUDGET_TXT: the default sweep's time at each
cell budget, from the lines of tools/gpu.sh's cell-budget step.

Prints, per budget, the processes counted and the range and median of the
whole process's time and of the sweep's time after the device query (the
time ledger's total less its "query device" line: what bench-memsweep
times after CUDA's start)."""
import re
import statistics
import sys

LINE = re.compile(r"budget (\d+) round \d+: rc=(\d+) whole (\d+) ms; "
                  r"time ledger: ([\d.]+) s since the sweep's first step;"
                  r"time ledger: query device ([\d.]+) s;")


def main(path):
    by_budget = {}
    for line in open(path, encoding="utf-8"):
        m = LINE.match(line)
        if not m or m[2] != "0":
            continue
        whole = int(m[3]) / 1000
        after_query = float(m[4]) - float(m[5])
        by_budget.setdefault(int(m[1]), []).append((whole, after_query))
    print("| cell budget | processes | whole process (s) | after the device query (s) |")
    print("|---|---|---|---|")
    for budget in sorted(by_budget, reverse=True):
        rows = by_budget[budget]
        cols = []
        for i in (0, 1):
            v = [r[i] for r in rows]
            cols.append(f"{min(v):.2f}-{max(v):.2f}, median {statistics.median(v):.2f}")
        print(f"| {budget} ms | {len(rows)} | {cols[0]} | {cols[1]} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: cell-budget-table.py BUDGET_TXT")
    main(sys.argv[1])
