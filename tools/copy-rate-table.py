#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/copy-rate-table.py DIR: the copy-rate step's table (tools/gpu.sh).

Reads DIR/plain-R.txt (bench/plain-copy-rate.cu's lines) and
DIR/memsweep-R-summary.csv (a pinned sweep at 4 and 256 MiB) of every
round R, and prints per size and direction the steady-state copy rate of
each round, memsweep's against the plain program's latched copies (the
copy-rate tools' method) and its unlatched burst, and their ratios."""
import csv
import glob
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_files  # noqa: E402 (beside this script)

LINE = re.compile(r"copy-rate bytes=(\d+) dir=(h2d|d2h) way=(latched|burst) ([0-9.]+)")


def plain_rates(path):
    rates = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                rates[(int(m[1]), m[2], m[3])] = float(m[4])
    return rates


def memsweep_rates(path):
    rates = {}
    with run_files.open_text(path) as f:
        for row in csv.DictReader(f):
            if row["mode"] != "pinned" or row["status"] != "ok":
                continue
            size = int(row["bytes_per_vector"])
            for d in ("h2d", "d2h"):
                steady, single = row.get(d + "_copy_gbps", ""), row.get(d + "_gbps", "")
                if steady:
                    rates[(size, d)] = (float(steady), float(single) if single else None)
    return rates


def main():
    d = sys.argv[1]
    rounds = sorted(int(re.search(r"plain-(\d+)", p)[1])
                    for p in glob.glob(os.path.join(d, "plain-*.txt")))
    rows = {}
    for r in rounds:
        plain = plain_rates(os.path.join(d, "plain-%d.txt" % r))
        summary = os.path.join(d, "memsweep-%d-summary.csv" % r)
        ms = memsweep_rates(summary) if run_files.existing(summary) else {}
        for (size, direction), (rate, single) in ms.items():
            latched = plain.get((size, direction, "latched"))
            burst = plain.get((size, direction, "burst"))
            rows.setdefault((size, direction), []).append((r, rate, latched, burst, single))
    print("Steady-state pinned copies, GB/s (memsweep's h2d/d2h_copy_gbps; plain: "
          "16 copies behind a latch kernel, and without it; memsweep's single copy in the "
          "vector add's pipeline, h2d/d2h_gbps, beside them)")
    print("%-10s %-4s %5s %9s %13s %11s %11s %11s %9s %9s" % (
        "size", "dir", "round", "memsweep", "plain latched", "plain burst",
        "ms/latched", "ms/burst", "single", "single/latched"))
    for (size, direction), items in sorted(rows.items()):
        ratios = []
        for r, rate, latched, burst, single in items:
            rl = rate / latched if latched else float("nan")
            rb = rate / burst if burst else float("nan")
            sl = single / latched if single and latched else float("nan")
            ratios.append(rl)
            print("%-10s %-4s %5d %9.2f %13.2f %11.2f %11.3f %11.3f %9.2f %9.3f" % (
                "%d MiB" % (size >> 20), direction, r, rate, latched or 0, burst or 0, rl, rb,
                single or 0, sl))
        good = [x for x in ratios if x == x]
        if good:
            print("%-10s %-4s  ms/latched over the rounds: %.3f to %.3f, median %.3f" % (
                "%d MiB" % (size >> 20), direction, min(good), max(good),
                statistics.median(good)))


if __name__ == "__main__":
    main()
