#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run-to-run repeatability of memsweep summaries.

tools/repeatability.py A-summary.csv B-summary.csv [C-summary.csv ...]
tools/repeatability.py --rounds SAMPLES.csv   (one run with --rounds N)

For every (mode, size) that is ok in all files: the spread of the end-to-end
median between runs (max / min), and the same for the h2d and d2h copy
throughput where present. Prints the worst cells, the median and 90th
percentile spread, and how many cells any run flagged (clock changed or
throttled). Issue 7 measured up to 2.20x on main before this work."""
import csv
import statistics
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_files  # noqa: E402 (beside this script)


def load(path):
    rows = {}
    with run_files.open_text(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines):
        if row.get("status") == "ok":
            rows[(row["mode"], int(row["elements"]))] = row
    return rows


def spread(values):
    values = [v for v in values if v > 0]
    return max(values) / min(values) if len(values) >= 2 else None


def number(row, key):
    try:
        return float(row.get(key) or 0)
    except ValueError:
        return 0.0


def stopped_by_budget(samples_path):
    """(mode, elements) whose repetitions ended on the time budget, or None
    when the samples file is not there."""
    try:
        with run_files.open_text(samples_path) as f:
            lines = [line for line in f if not line.startswith("#")]
    except OSError:
        return None
    cells = set()
    for row in csv.DictReader(lines):
        if row["phase"] == "e2e" and row.get("stop") in ("budget", "max-reps"):
            cells.add((row["mode"], int(row["elements"])))
    return sorted(cells)


def rounds_main(path):
    """Spread of the per-round end-to-end medians within one run."""
    times = {}
    with run_files.open_text(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines):
        if row["phase"] == "e2e" and row.get("round", "") != "":
            key = (row["mode"], int(row["elements"]))
            times.setdefault(key, {}).setdefault(int(row["round"]), []).append(
                float(row["host_us"]))
    spreads = []
    for key, rounds in times.items():
        s = spread([statistics.median(v) for v in rounds.values()])
        if s is not None:
            spreads.append((s, key))
    if not spreads:
        print("no cell has more than one round")
        return 1
    spreads.sort(reverse=True)
    values = sorted(s for s, _ in spreads)
    print(f"per-round e2e medians within one run: {len(values)} cells, spread median "
          f"{statistics.median(values):.3f}x, max {values[-1]:.3f}x")
    for s, (mode, n) in spreads[:5]:
        print(f"  {mode:<17} 2^{n.bit_length() - 1:<3} {s:.3f}x")
    return 0


def main(paths):
    runs = [load(p) for p in paths]
    cells = sorted(set.intersection(*(set(r) for r in runs)))
    if not cells:
        print("no cell is ok in every file")
        return 1
    report = {}
    for key in ("e2e_median_us", "h2d_copy_gbps", "d2h_copy_gbps"):
        spreads = []
        for cell in cells:
            s = spread([number(r[cell], key) for r in runs])
            if s is not None:
                spreads.append((s, cell))
        if not spreads:
            continue
        spreads.sort(reverse=True)
        values = sorted(s for s, _ in spreads)
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        report[key] = (statistics.median(values), p90, spreads[0][0])
        print(f"{key}: {len(spreads)} cells, spread median {statistics.median(values):.3f}x, "
              f"p90 {p90:.3f}x, max {spreads[0][0]:.3f}x")
        for s, (mode, n) in spreads[:5]:
            print(f"  {mode:<17} 2^{n.bit_length() - 1:<3} {s:.3f}x")
    for path in paths:
        budget = stopped_by_budget(path.replace("-summary.csv", "-samples.csv"))
        if budget is not None:
            print(f"{path}: cells that spent their time budget: {len(budget)}"
                  + (": " + ", ".join(f"{m} 2^{n.bit_length() - 1}" for m, n in budget[:8])
                     if budget else ""))
    flagged = sum(1 for cell in cells
                  if any(r[cell].get("gpu_state", "") not in ("", "steady") for r in runs))
    print(f"cells flagged by the GPU state in some run: {flagged} of {len(cells)}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--rounds":
        sys.exit(rounds_main(sys.argv[2]))
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
