#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""phases.py DIR...: for each DIR of gzipped meson test logs (*testlog.jsonl.gz
of one ./test.sh), the tests' phase (first start to last end), each log's
span and test-seconds, the tests of suite 'alone' and the longest tests."""
import glob, gzip, json, os, sys

for d in sys.argv[1:]:
    rows = []
    for path in sorted(glob.glob(os.path.join(d, "*testlog.jsonl.gz"))):
        for line in gzip.open(path, "rt"):
            r = json.loads(line)
            r["log"] = os.path.basename(path)
            rows.append(r)
    t0 = min(r["starttime"] for r in rows)
    end = max(r["starttime"] + r["duration"] for r in rows)
    bad = [r["name"] for r in rows if r["result"] not in ("OK", "SKIP", "EXPECTEDFAIL")]
    print(f"== {d}: the tests {end - t0:.0f} s, {sum(r['duration'] for r in rows):.0f} test-seconds;"
          f" not passed: {', '.join(bad) or 'none'}")
    groups = {}
    for r in rows:
        groups.setdefault(r["log"], []).append(r)
    groups["suite alone"] = [r for r in rows if "alone" in r["name"].split(" / ")[0]]
    for name, rs in groups.items():
        print(f"  {name}: {min(r['starttime'] for r in rs) - t0:.0f} to "
              f"{max(r['starttime'] + r['duration'] for r in rs) - t0:.0f} s, "
              f"{sum(r['duration'] for r in rs):.0f} test-seconds")
    print("  longest: " + ", ".join(f"{r['name'].split(' / ')[1]} {r['duration']:.0f} s" for r in
                                    sorted(rows, key=lambda r: -r["duration"])[:8]))
