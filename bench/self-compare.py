#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/self-compare.py MEMSWEEP OUTDIR NAME RUNS [PLAIN_DIR]: the tables of
bench/self-compare.sh. For every pair of the runs OUTDIR/NAME-K-samples.csv,
`memsweep compare --json` gives a verdict per cell; this counts them over
the GPU cells (the host CPU mode is not a GPU figure) per pair and per size
band (below 2^14, from 2^14), then the repeatability of each cell's median
over the runs (max/min) beside the plain yardstick's (OUTDIR/plain-K.csv
from `bench-plain --cells`, when present; PLAIN_DIR/plain-K.csv instead
when given, so that the tables can be printed again from the reference
runs in data/reference and the logs beside them). Prints figures; judges
nothing."""
import csv
import itertools
import json
import math
import os
import statistics
import subprocess
import sys

VERDICTS = ("same", "faster", "slower", "ambiguous")


def compare(ms, a, b):
    p = subprocess.run([ms, "compare", a, b, "--json"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"compare {a} {b} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def run_file(out, name, k):
    """A run's samples file, or its summary where only that was kept,
    plain or gzipped (as the reference runs ship)."""
    for kind in ("samples", "summary"):
        for tail in ("", ".gz"):
            path = f"{out}/{name}-{k}-{kind}.csv{tail}"
            if os.path.exists(path):
                return path
    return f"{out}/{name}-{k}-summary.csv"


def band(e):
    return "<2^14" if e < 14 else ">=2^14"



def pair_rows(ms, out, name, runs):
    rows = []
    for i, j in itertools.combinations(range(1, runs + 1), 2):
        doc = compare(ms, run_file(out, name, i), run_file(out, name, j))
        counts = {b: dict.fromkeys(VERDICTS, 0) for b in ("<2^14", ">=2^14", "all")}
        medians = {}
        for c in doc["cells"]:
            if c["mode"] == "host" or c["variant"] or c["verdict"] not in VERDICTS:
                continue
            for b in (band(c["exponent"]), "all"):
                counts[b][c["verdict"]] += 1
            if c["a"] and c["b"]:
                medians[(c["mode"], c["exponent"])] = (c["a"]["median_us"], c["b"]["median_us"])
        rows.append((i, j, counts, doc.get("spread_a") or "unknown (within-run only)", medians))
    return rows


def print_pairs(rows):
    print("pair   band     cells  SAME FASTER SLOWER AMBIGUOUS  FASTER+SLOWER  SAME share")
    for i, j, counts, _, _ in rows:
        for b in ("<2^14", ">=2^14", "all"):
            c = counts[b]
            n = sum(c.values())
            fs = c["faster"] + c["slower"]
            print(f"{i}-{j}    {b:7s} {n:5d} {c['same']:5d} {c['faster']:6d} {c['slower']:6d}"
                  f" {c['ambiguous']:9d} {fs:6d} ({100 * fs / max(n, 1):4.1f}%)"
                  f"   {100 * c['same'] / max(n, 1):5.1f}%")
    print(f"between-run spread: {rows[0][3]}")


def run_medians(rows, runs):
    """(mode, e) -> list of the runs' medians, from the pairs with run 1."""
    cells = {}
    for i, j, _, _, medians in rows:
        if i != 1:
            continue
        for key, (a, b) in medians.items():
            cells.setdefault(key, {1: a})[j] = b
    return {k: list(v.values()) for k, v in cells.items() if len(v) == runs}


def plain_medians(out, runs):
    cells = {}
    for k in range(1, runs + 1):
        try:
            for line in open(f"{out}/plain-{k}.csv"):
                parts = line.strip().split(",")
                if len(parts) == 3 and parts[1].isdigit():
                    cells.setdefault((parts[0], int(parts[1])), []).append(float(parts[2]))
        except OSError:
            return {}
    return {key: v for key, v in cells.items() if len(v) == runs}


def spread(values):
    logs = [math.log(v) for v in values]
    return max(values) / min(values), statistics.stdev(logs)


def print_repeatability(ms_cells, plain_cells):
    print("\nrepeatability of the medians over the runs (max/min; sd of ln median, %)")
    print("band     tool      cells  median max/min  worst max/min  median sd%")
    for b in ("<2^14", ">=2^14"):
        for tool, cells in (("memsweep", ms_cells), ("plain", plain_cells)):
            keys = [k for k in cells if band(k[1]) == b and (not plain_cells or k in plain_cells)]
            if not keys:
                continue
            sp = [spread(cells[k]) for k in keys]
            ratios = sorted(s[0] for s in sp)
            sds = sorted(s[1] for s in sp)
            worst = max(keys, key=lambda k: spread(cells[k])[0])
            print(f"{b:7s}  {tool:8s} {len(keys):5d}  {statistics.median(ratios):14.3f}"
                  f"  {ratios[-1]:8.3f} ({worst[0]} 2^{worst[1]})  {100 * statistics.median(sds):8.2f}")


def main():
    ms, out, name, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    plain_dir = sys.argv[5] if len(sys.argv) > 5 else out
    rows = pair_rows(ms, out, name, runs)
    print_pairs(rows)
    if runs >= 2:
        print_repeatability(run_medians(rows, runs), plain_medians(plain_dir, runs))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(1)
