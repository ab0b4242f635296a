#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/grade-compare.py MEMSWEEP OUTDIR [PREFIX]: the table of
bench/grade-compare.sh from the files it wrote (PREFIX: files named
PREFIXgrade-1-samples.csv..., as data/reference/h100-), each pair through
`memsweep compare --format json` (so the figures are the verdicts a user
gets), counted as the targets in docs/compare.md count them: cell by cell
from 2^14, and the pooled verdicts, one per mode and one per run. Cells
are GPU cells: the CPU baseline's (`memsweep modes`, uses_gpu false) are
left out of the counts, as in docs/compare.md; the pooled verdicts keep
every mode. Pairs whose files are missing are left out."""
import json
import os
import re
import statistics
import subprocess
import sys

FROM_EXP = 14
GPU_MODES = set()


def load_gpu_modes(ms):
    doc = json.loads(subprocess.run([ms, "modes", "--format", "json"], capture_output=True,
                                    text=True, check=True).stdout)
    GPU_MODES.update(m["name"] for m in doc["modes"] if m["uses_gpu"])


def compare_doc(ms, a, b, figure="e2e", threshold=10):
    p = subprocess.run([ms, "compare", a, b, "--format", "json", "--figure", figure,
                        "--threshold", str(threshold)],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1, 5):
        sys.exit(f"compare {a} {b}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def compare(ms, a, b, figure="e2e", threshold=10):
    return compare_doc(ms, a, b, figure, threshold)["cells"]


def pooled_rows(label, doc, want):
    """The modes whose pooled verdict is want, and the run's."""
    modes = doc.get("pooled", {})
    n = sum(1 for v in modes.values() if v["verdict"] == want)
    rows = [(f"{label}: modes {want.upper()} (pooled)", 100.0 * n / len(modes) if modes else
             float("nan"), len(modes))]
    run = doc.get("pooled_run")
    if run:
        rows.append((f"{label}: whole run {want.upper()} (pooled)",
                     100.0 if run["verdict"] == want else 0.0, 1))
    return rows


def common(cells):
    return [c for c in cells
            if c["verdict"] not in ("only-a", "only-b") and c["mode"] in GPU_MODES]


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
        rows += pooled_rows(f"{name} at {t}%", doc, "same" if what == "same" else "slower")
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
    prefix = sys.argv[3] if len(sys.argv) > 3 else ""
    load_gpu_modes(ms)
    f = lambda name: os.path.join(out, f"{prefix}{name}-samples.csv")
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
    rows += pooled_rows("grade-1 vs grade-2 at 10%", compare_doc(ms, f("grade-1"), f("grade-2")),
                        "same")
    for name, base, t in (("grade-inject20", "grade-1", 10), ("grade-inject20", "grade-2", 10),
                          ("grade-inject10", "grade-1", 5), ("grade-inject10", "grade-2", 5)):
        if not os.path.exists(f(name)):
            continue
        doc = compare_doc(ms, f(base), f(name), threshold=t)
        rows += pooled_rows(f"{base} vs {name} at {t}%", doc, "slower")
        cells = [c for c in common(doc["cells"]) if c["exponent"] >= FROM_EXP]
        rows.append((f"{base} vs {name} at {t}%: SLOWER (found) from 2^{FROM_EXP}",
                     share(cells, lambda c: c["verdict"] == "slower"), len(cells)))
        rows.append((f"{base} vs {name} at {t}%: FASTER (wrong way) from 2^{FROM_EXP}",
                     share(cells, lambda c: c["verdict"] == "faster"), len(cells)))
    if os.path.exists(f("quick-1")):
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
