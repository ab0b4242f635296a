#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/grade-compare.py MEMSWEEP OUTDIR: the table of bench/grade-compare.sh
from the files it wrote: each pair through `memsweep compare --format json`
(so the figures are the verdicts a user gets), counted as the targets in
docs/compare.md count them."""
import json
import os
import re
import statistics
import subprocess
import sys

FROM_EXP = 14


def compare(ms, a, b, figure="e2e", threshold=10):
    p = subprocess.run([ms, "compare", a, b, "--format", "json", "--figure", figure,
                        "--threshold", str(threshold)],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"compare {a} {b}: {p.stderr.strip()}")
    return json.loads(p.stdout)["cells"]


def common(cells):
    return [c for c in cells if c["verdict"] not in ("only-a", "only-b")]


def share(cells, pred):
    return 100.0 * sum(1 for c in cells if pred(c)) / len(cells) if cells else float("nan")


def half_width(c):
    if c["ratio_low"] is None or c["ratio_high"] is None:
        return float("nan")
    return (c["ratio_high"] / c["ratio_low"]) ** 0.5 - 1


def live_rows(out):
    """The comparisons compare --live measured and judged itself."""
    rows = []
    for name, t, what in (("live-same", 10, "same"), ("live-inject20", 10, "slower"),
                          ("live-inject10", 5, "slower")):
        path = os.path.join(out, f"{name}.json")
        if not os.path.exists(path):
            continue
        doc = json.load(open(path))
        cells = common(doc["cells"])
        big = [c for c in cells if c["exponent"] >= FROM_EXP]
        procs = re.search(r"(\d+) processes", doc.get("spread_a", ""))
        sides = f"{procs.group(1)} processes a side" if procs else "processes unknown"
        if what == "same":
            rows.append((f"{name} at {t}%: SAME from 2^{FROM_EXP} ({sides})",
                         share(big, lambda c: c["verdict"] == "same"), len(big)))
            rows.append((f"{name} at {t}%: FASTER or SLOWER, all cells",
                         share(cells, lambda c: c["verdict"] in ("faster", "slower")), len(cells)))
        else:
            rows.append((f"{name} at {t}%: SLOWER (found) from 2^{FROM_EXP} ({sides})",
                         share(big, lambda c: c["verdict"] == "slower"), len(big)))
            rows.append((f"{name} at {t}%: FASTER (wrong way) from 2^{FROM_EXP}",
                         share(big, lambda c: c["verdict"] == "faster"), len(big)))
    return rows


def main():
    ms, out = sys.argv[1], sys.argv[2]
    f = lambda name: os.path.join(out, f"{name}-samples.csv")
    rows = []
    if not os.path.exists(f("grade-1")):
        for label, value, n in live_rows(out):
            print(f"{label:62s} {value:6.1f} %  of {n}")
        walls = os.path.join(out, "walls.txt")
        if os.path.exists(walls):
            print("\n" + open(walls).read().rstrip())
        return
    for figure in ("e2e", "kernel"):
        same = common(compare(ms, f("grade-1"), f("grade-2"), figure))
        big = [c for c in same if c["exponent"] >= FROM_EXP]
        rows.append((f"grade-1 vs grade-2 ({figure}): SAME from 2^{FROM_EXP}",
                     share(big, lambda c: c["verdict"] == "same"), len(big)))
        rows.append((f"grade-1 vs grade-2 ({figure}): FASTER or SLOWER, all cells",
                     share(same, lambda c: c["verdict"] in ("faster", "slower")), len(same)))
    # A change is found when it is called SLOWER at a threshold of half its
    # size: at 10% no interval could lie wholly above 1.10 for a change of 10%.
    for name, base, t in (("grade-inject20", "grade-1", 10), ("grade-inject20", "grade-2", 10),
                          ("grade-inject10", "grade-1", 5), ("grade-inject10", "grade-2", 5)):
        cells = [c for c in common(compare(ms, f(base), f(name), threshold=t))
                 if c["exponent"] >= FROM_EXP]
        rows.append((f"{base} vs {name} at {t}%: SLOWER (found) from 2^{FROM_EXP}",
                     share(cells, lambda c: c["verdict"] == "slower"), len(cells)))
        rows.append((f"{base} vs {name} at {t}%: FASTER (wrong way) from 2^{FROM_EXP}",
                     share(cells, lambda c: c["verdict"] == "faster"), len(cells)))
    quick = common(compare(ms, f("quick-1"), f("quick-2")))
    rows.append(("quick-1 vs quick-2: FASTER or SLOWER, all cells",
                 share(quick, lambda c: c["verdict"] in ("faster", "slower")), len(quick)))
    rows += live_rows(out)
    for label, value, n in rows:
        print(f"{label:62s} {value:6.1f} %  of {n}")
    # Where the intervals are wide: half-width of the ratio's 95% interval
    # per mode, cells from 2^14, between the two identical runs.
    same = [c for c in common(compare(ms, f("grade-1"), f("grade-2")))
            if c["exponent"] >= FROM_EXP]
    print("\nhalf-width of B/A's 95% interval, grade-1 vs grade-2, median per mode from 2^14:")
    for mode in sorted({c["mode"] for c in same}):
        hw = [half_width(c) for c in same if c["mode"] == mode]
        verdicts = [c["verdict"][0] for c in same if c["mode"] == mode]
        print(f"  {mode:18s} {100 * statistics.median(hw):5.1f} %  {''.join(verdicts)}")
    walls = os.path.join(out, "walls.txt")
    if os.path.exists(walls):
        print("\n" + open(walls).read().rstrip())


if __name__ == "__main__":
    main()
