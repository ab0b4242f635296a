#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/grade-table.py DIR...: the table of docs/compare.md's "Does it
decide?" from the logs bench/grade-compare.sh wrote (its table.txt and
walls.txt in each DIR): per log, SAME between two measurements of the same
thing, false FASTER or SLOWER, how often a 20% and a 10% change were found,
and how long each run or live comparison took. A figure seen in several
pairs is given as the range of them all."""
import os
import re
import sys

ROW = re.compile(r"^(.*?)\s+([\d.]+) %  of (\d+)$")
WALL = re.compile(r"^(\S+): rc=\d+, whole process (\d+) ms")


def read_rows(path):
    rows = []
    for line in open(path):
        m = ROW.match(line.rstrip("\n"))
        if m:
            rows.append((m.group(1), float(m.group(2)), int(m.group(3))))
    return rows


def pick(rows, *words):
    """The values of the rows whose label holds every word."""
    return [v for label, v, _ in rows if all(w in label for w in words)]


def span(values):
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f"{lo:.1f}%" if lo == hi else f"{lo:.1f}-{hi:.1f}%"


def walls(path, prefix):
    if not os.path.exists(path):
        return "-"
    secs = [int(m.group(2)) / 1000 for m in map(WALL.match, open(path))
            if m and m.group(1).startswith(prefix)]
    if not secs:
        return "-"
    lo, hi = f"{min(secs):.0f}", f"{max(secs):.0f}"
    return f"{lo} s" if lo == hi else f"{lo}-{hi} s"


def gpu(d):
    for line in open(os.path.join(d, "summary.log")):
        m = re.match(r"^== \S+Z (NVIDIA [^,]+),", line)
        if m:
            return m.group(1)
    return "?"


def main():
    print("| log | GPU | how | SAME at 10% from 2^14 | FASTER/SLOWER of all | "
          "20% found | 10% found (at 5%) | time each |")
    print("|---|---|---|---|---|---|---|---|")
    for d in sys.argv[1:]:
        rows = read_rows(os.path.join(d, "table.txt"))
        wall = os.path.join(d, "walls.txt")
        name = os.path.relpath(d)
        if pick(rows, "grade-1 vs grade-2 (e2e): SAME"):
            print(f"| {name} | {gpu(d)} | two grade runs | "
                  f"{span(pick(rows, 'grade-1 vs grade-2 (e2e): SAME'))} | "
                  f"{span(pick(rows, 'grade-1 vs grade-2 (e2e): FASTER or SLOWER'))} | "
                  f"{span(pick(rows, 'inject20 at 10%: SLOWER'))} | "
                  f"{span(pick(rows, 'inject10 at 5%: SLOWER'))} | {walls(wall, 'grade')} |")
            print(f"| {name} | {gpu(d)} | two quick sweeps | - | "
                  f"{span(pick(rows, 'quick-1 vs quick-2: FASTER or SLOWER'))} | - | - | "
                  f"{walls(wall, 'quick')} |")
        if pick(rows, "live-same at 10%: SAME"):
            procs = re.findall(r"\((\d+) processes a side\)", open(os.path.join(d, "table.txt")).read())
            lo, hi = min(map(int, procs)), max(map(int, procs))
            sides = f"{lo}" if lo == hi else f"{lo}-{hi}"
            how = f"compare --live ({sides} processes a side)"
            print(f"| {name} | {gpu(d)} | {how} | {span(pick(rows, 'live-same at 10%: SAME'))} | "
                  f"{span(pick(rows, 'live-same at 10%: FASTER or SLOWER'))} | "
                  f"{span(pick(rows, 'live-inject20 at 10%: SLOWER'))} | "
                  f"{span(pick(rows, 'live-inject10 at 5%: SLOWER'))} | {walls(wall, 'live')} |")


if __name__ == "__main__":
    main()
