#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""host-prep-compare.py DIR: the default sweep with --host-prep every
against once, from what `tools/gpu.sh host-prep` left in DIR: times.txt
(one line per process) and each process's WAY-rN-summary.csv and
WAY-rN-ledger.txt.

Prints, per way, the sweep's time after CUDA's start (the time ledger's
"since the sweep's first step" less its "query device", which holds the
CUDA runtime's first calls) and the ledger's init and verify totals; then,
per cell, the median over processes of each way's end-to-end median, their
ratio, and each way's between-process spread (max/min of its processes'
medians). A cell's difference is "beyond" the process variation when the
two ways' ranges over processes do not overlap; "within" otherwise.
"""
import csv
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_files  # noqa: E402 (beside this script)

WAYS = ("every", "once")


def read_times(path):
    """{way: [dict per process]} from times.txt's key=value lines."""
    out = {w: [] for w in WAYS}
    with open(path) as f:
        for line in f:
            kv = dict(re.findall(r"(\w+)=(\S+)", line))
            if kv.get("way") in out:
                out[kv["way"]].append(kv)
    return out


NOT_OK = []  # "WAY rN mode 2^k status", every cell of a process that did not end well


def read_summary(path, label=""):
    """{(mode, elements): e2e median in us} of one process's cells that ran."""
    cells = {}
    with run_files.open_text(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        for row in rows:
            if row.get("status") != "ok":
                NOT_OK.append("%s %s %s %s" % (label, row.get("mode"), row.get("elements"),
                                               row.get("status")))
            if row.get("status") not in ("ok", "partial") or row.get("variant"):
                continue
            try:
                cells[(row["mode"], int(row["elements"]))] = float(row["e2e_median_us"])
            except (KeyError, ValueError):
                continue
    return cells


def read_ledger_cells(path):
    """{(mode, exponent): (wall ms, reps)} from MEMSWEEP_TIME_LEDGER=cells lines."""
    cells = {}
    pat = re.compile(r"ledger cell: (\S+) (\d+) reps (\d+) stop (\S+) wall ([0-9.]+) ms")
    if not run_files.existing(path):
        return cells
    with run_files.open_text(path) as f:
        for line in f:
            m = pat.search(line)
            if m:
                cells[(m.group(1), int(m.group(2)))] = (float(m.group(5)), int(m.group(3)))
    return cells


def ledger_total(path, name):
    if not run_files.existing(path):
        return None
    with run_files.open_text(path) as f:
        for line in f:
            if line.startswith("time ledger:") and name in line:
                m = re.search(r"(\d+\.\d+) s", line)
                if m:
                    return float(m.group(1))
    return None


def span(values):
    return "%.3f-%.3f, median %.3f" % (min(values), max(values), statistics.median(values))


def process_figures(d, times):
    print("## whole sweep, per way (s; time ledger)")
    after = {}
    for w in WAYS:
        a, init, verify, cells = [], [], [], []
        for p in times[w]:
            led = os.path.join(d, "%s-r%s-ledger.txt" % (w, p["round"]))
            since = ledger_total(led, "since the sweep's first step")
            query = ledger_total(led, "query device")
            if p.get("rc") != "0" or since is None or query is None:
                print("%s round %s: rc=%s, no ledger" % (w, p["round"], p.get("rc")))
                continue
            a.append(since - query)
            init.append(ledger_total(led, "of which init (plain)") or 0)
            verify.append(ledger_total(led, "of which verify (plain)") or 0)
            cells.append(ledger_total(led, "cells (backend run)") or 0)
        after[w] = a
        if a:
            print("%-5s %d processes: after CUDA's start %s; cells %s; plain init %s; "
                  "plain verify %s" % (w, len(a), span(a), span(cells), span(init), span(verify)))
    if after["every"] and after["once"]:
        e, o = statistics.median(after["every"]), statistics.median(after["once"])
        disjoint = max(after["once"]) < min(after["every"]) or min(after["once"]) > max(after["every"])
        print("once - every: %+.3f s of the median (%s the ranges over processes)"
              % (o - e, "beyond" if disjoint else "within"))
    print()


def cell_figures(d, times):
    per = {w: {} for w in WAYS}
    walls = {w: {} for w in WAYS}
    for w in WAYS:
        for p in times[w]:
            base = os.path.join(d, "%s-r%s" % (w, p["round"]))
            path = run_files.existing(base + "-summary.csv")
            if path:
                for k, v in read_summary(path, "%s r%s" % (w, p["round"])).items():
                    per[w].setdefault(k, []).append(v)
            for k, v in read_ledger_cells(base + "-ledger.txt").items():
                walls[w].setdefault(k, []).append(v)
    keys = sorted(set(per["every"]) & set(per["once"]), key=lambda k: (k[0], k[1]))
    print("## per cell: end-to-end median over processes (us), once/every, max/min over "
          "processes; cell wall (ms) and repetitions, medians")
    print("%-17s %4s %10s %10s %7s %7s %7s %7s %7s %5s %5s  %s" % (
        "mode", "2^k", "every", "once", "ratio", "mm-ev", "mm-on", "wall-ev", "wall-on",
        "reps-e", "reps-o", "difference"))
    beyond = {}
    for mode, n in keys:
        e, o = per["every"][(mode, n)], per["once"][(mode, n)]
        if len(e) < 2 or len(o) < 2:
            continue
        me, mo = statistics.median(e), statistics.median(o)
        disjoint = max(o) < min(e) or min(o) > max(e)
        exp = n.bit_length() - 1
        we, wo = walls["every"].get((mode, exp), []), walls["once"].get((mode, exp), [])
        wall_e = statistics.median([x[0] for x in we]) if we else float("nan")
        wall_o = statistics.median([x[0] for x in wo]) if wo else float("nan")
        reps_e = statistics.median([x[1] for x in we]) if we else float("nan")
        reps_o = statistics.median([x[1] for x in wo]) if wo else float("nan")
        verdict = "beyond" if disjoint else "within"
        if disjoint:
            beyond.setdefault(mode, []).append("2^%d %.3f" % (exp, mo / me))
        print("%-17s %4d %10.2f %10.2f %7.3f %7.3f %7.3f %7.2f %7.2f %5.0f %5.0f  %s" % (
            mode, exp, me, mo, mo / me, max(e) / min(e), max(o) / min(o), wall_e, wall_o,
            reps_e, reps_o, verdict))
    print()
    print("## cells not ok (a failed verification among them): %d" % len(NOT_OK))
    for line in NOT_OK:
        print(line)
    n = sum(len(v) for v in beyond.values())
    print("## cells whose difference is beyond the process variation: %d of %d" % (n, len(keys)))
    # Without any difference, a and b processes' ranges are disjoint by
    # chance in 2 / C(a + b, a) of the cells (every order equally likely).
    a, b = len(times["every"]), len(times["once"])
    if a and b:
        p = 2 / math.comb(a + b, a)
        print("(with %d and %d processes, chance alone puts %.1f of %d cells there)"
              % (a, b, p * len(keys), len(keys)))
    for mode, items in sorted(beyond.items()):
        print("%-17s %s" % (mode, "; ".join(items)))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    d = sys.argv[1]
    times = read_times(os.path.join(d, "times.txt"))
    process_figures(d, times)
    cell_figures(d, times)
    return 0


if __name__ == "__main__":
    sys.exit(main())
