#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/ledger-table.py LOG: the per-mode table of a sweep's time ledger
(MEMSWEEP_TIME_LEDGER=cells, engine/run/ms-time-ledger.h): each mode's
cells, kept repetitions, the cells' wall time beside what their timers
account for (end-to-end and instrumented repetitions, and the one-time and
per-repetition phases of instrumented repetitions), the rest per
repetition, and why the cells stopped (ci-reached or budget)."""
import collections
import sys


def main():
    rows = [line.split() for line in open(sys.argv[1]) if line.startswith("ledger cell:")]
    tot = collections.OrderedDict()
    for r in rows:
        mode, reps, stop = r[2], int(r[5]), r[7]
        wall, e2e, instr, once = float(r[9]), float(r[12]), float(r[14]), float(r[16])
        t = tot.setdefault(mode, {"cells": 0, "reps": 0, "wall": 0.0, "e2e": 0.0, "instr": 0.0,
                                  "once": 0.0, "budget": 0})
        t["cells"] += 1
        t["reps"] += reps
        t["wall"] += wall
        t["e2e"] += e2e
        t["instr"] += instr
        t["once"] += once
        t["budget"] += stop == "budget"
    print(f"{'mode':18s} {'cells':>5s} {'reps':>5s} {'wall ms':>8s} {'e2e ms':>7s} "
          f"{'instr ms':>8s} {'timed once ms':>13s} {'rest ms':>8s} {'rest/rep us':>11s} "
          f"{'budget':>6s}")
    sums = collections.Counter()
    for mode, t in tot.items():
        rest = t["wall"] - t["e2e"] - t["instr"] - t["once"]
        for k in ("cells", "reps", "wall", "e2e", "instr", "once", "budget"):
            sums[k] += t[k]
        sums["rest"] += rest
        print(f"{mode:18s} {t['cells']:5d} {t['reps']:5d} {t['wall']:8.1f} {t['e2e']:7.1f} "
              f"{t['instr']:8.1f} {t['once']:13.1f} {rest:8.1f} {1000 * rest / t['reps']:11.1f} "
              f"{t['budget']:6d}")
    print(f"{'all':18s} {sums['cells']:5d} {sums['reps']:5d} {sums['wall']:8.1f} "
          f"{sums['e2e']:7.1f} {sums['instr']:8.1f} {sums['once']:13.1f} {sums['rest']:8.1f} "
          f"{1000 * sums['rest'] / sums['reps']:11.1f} {sums['budget']:6d}")


if __name__ == "__main__":
    main()
