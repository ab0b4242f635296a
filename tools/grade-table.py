#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/grade-table.py DIR...: the table of docs/compare.md's "Does it
decide?" from the logs bench/grade-compare.sh wrote (its table.txt and
walls.txt in each DIR): per log, SAME between two measurements of the same
thing, false FASTER or SLOWER, how often a 20% and a 10% change were found,
and how long each run or live comparison took. A figure seen in several
pairs is given as the range of them all. A DIR holding plain-groups.txt
(bench/plain-groups.sh) gives the plain program's rows: the same verdicts
on its processes split as two runs and as turns, and the share of cells its
spread between processes would let that many processes a side find."""
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


def modes(rows, *words):
    """The pooled verdicts' rows as counts of modes: "7-11 of 11"."""
    counts = [(round(v * n / 100), n) for label, v, n in rows if all(w in label for w in words)]
    if not counts:
        return "-"
    lo, hi, n = min(c for c, _ in counts), max(c for c, _ in counts), counts[0][1]
    return f"{lo} of {n}" if lo == hi else f"{lo}-{hi} of {n}"


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


PLAIN_HEAD = re.compile(r"^plain yardstick, (\d+) processes a side")
PLAIN_SPLIT = re.compile(r"^  (separate|turns)\b.*SAME at 10% from 2\^14:\s+([\d.]+) %"
                         r"\s+FASTER/SLOWER of all:\s+([\d.]+) %")
PLAIN_FIND = re.compile(r"findable at 5% in ([\d.]+) % .* at 10% in ([\d.]+) %")


def plain_rows(d):
    """The plain program's rows, from DIR/plain-groups.txt."""
    path = os.path.join(d, "plain-groups.txt")
    if not os.path.exists(path):
        return
    text = open(path).read().splitlines()
    n = next(m.group(1) for m in map(PLAIN_HEAD.match, text) if m)
    find = next(m for m in map(PLAIN_FIND.search, text) if m)
    wall = re.search(r": (\d+) s", open(os.path.join(d, "plain-walls.txt")).read())
    for m in filter(None, map(PLAIN_SPLIT.match, text)):
        how = "two runs" if m.group(1) == "separate" else "turns"
        print(f"| {os.path.relpath(d)} | {gpu(d)} | plain program, {n} processes a side "
              f"as {how} | {float(m.group(2)):.1f}% | {float(m.group(3)):.1f}% | "
              f"findable {float(find.group(2)):.1f}% | findable {float(find.group(1)):.1f}% | "
              f"- | - | - | {wall.group(1) if wall else '-'} s for both sides |")


def main():
    print("| log | GPU | how | SAME at 10% from 2^14 | FASTER/SLOWER of all | "
          "20% found | 10% found (at 5%) | modes SAME | 20% found in modes | "
          "10% found in modes | time each |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for d in sys.argv[1:]:
        if os.path.exists(os.path.join(d, "plain-groups.txt")):
            plain_rows(d)
            continue
        rows = read_rows(os.path.join(d, "table.txt"))
        wall = os.path.join(d, "walls.txt")
        name = os.path.relpath(d)
        if pick(rows, "grade-1 vs grade-2 (e2e): SAME"):
            print(f"| {name} | {gpu(d)} | two grade runs | "
                  f"{span(pick(rows, 'grade-1 vs grade-2 (e2e): SAME'))} | "
                  f"{span(pick(rows, 'grade-1 vs grade-2 (e2e): FASTER or SLOWER'))} | "
                  f"{span(pick(rows, 'grade-inject20 at 10%: SLOWER'))} | "
                  f"{span(pick(rows, 'grade-inject10 at 5%: SLOWER'))} | "
                  f"{modes(rows, 'grade-1 vs grade-2 at 10%: modes SAME')} | "
                  f"{modes(rows, 'grade-inject20 at 10%: modes SLOWER')} | "
                  f"{modes(rows, 'grade-inject10 at 5%: modes SLOWER')} | {walls(wall, 'grade')} |")
            if pick(rows, "quick-1 vs quick-2"):
                print(f"| {name} | {gpu(d)} | two quick sweeps | - | "
                      f"{span(pick(rows, 'quick-1 vs quick-2: FASTER or SLOWER'))} | - | - | "
                      f"- | - | - | {walls(wall, 'quick')} |")
        if pick(rows, "live-same at 10%: SAME"):
            procs = re.findall(r"\((\d+) processes a side\)", open(os.path.join(d, "table.txt")).read())
            lo, hi = min(map(int, procs)), max(map(int, procs))
            sides = f"{lo}" if lo == hi else f"{lo}-{hi}"
            how = f"compare --live ({sides} processes a side)"
            print(f"| {name} | {gpu(d)} | {how} | {span(pick(rows, 'live-same at 10%: SAME'))} | "
                  f"{span(pick(rows, 'live-same at 10%: FASTER or SLOWER'))} | "
                  f"{span(pick(rows, 'live-inject20 at 10%: SLOWER'))} | "
                  f"{span(pick(rows, 'live-inject10 at 5%: SLOWER'))} | "
                  f"{modes(rows, 'live-same at 10%: modes SAME')} | "
                  f"{modes(rows, 'live-inject20 at 10%: modes SLOWER')} | "
                  f"{modes(rows, 'live-inject10 at 5%: modes SLOWER')} | {walls(wall, 'live')} |")


if __name__ == "__main__":
    main()
