#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-sweep-time.sh: where the default sweep's seconds go, on one GPU
# machine in one call, logs in $OUT:
#  1. with OLD_TREE=FILE (a previous commit, a .tar.gz from `git archive`), a
#     second build of it and bench-memsweep --sweep-only alternating between
#     the two builds (ROUNDS times each), so drift hits both;
#  2. the default sweep through the command line with each cell budget in
#     BUDGETS (ms), ROUNDS times, interleaved: process wall time, and from
#     each summary how many cells stopped on their interval and the median
#     and worst interval half-width (sweep-time.txt; the summaries in
#     sweeps.tgz).
set -u
. "$(dirname "$0")/gpu-build.sh"
ms_gpu_start || exit 1
ROUNDS=${ROUNDS:-3}
BUDGETS=${BUDGETS:-25 18 15}
txt=$OUT/sweep-time.txt
if [ -n "${OLD_TREE:-}" ] && [ -f "$OLD_TREE" ]; then
  rm -rf /tmp/old && mkdir -p /tmp/old
  tar -xzf "$OLD_TREE" -C /tmp/old && cp -r .deps /tmp/old/ 2>/dev/null
  (cd /tmp/old && ms_gpu_build) || exit 1
  for r in $(seq "$ROUNDS"); do
    for side in old new; do
      dir=.
      [ $side = old ] && dir=/tmp/old
      w=$("$dir/build-gpu/bench/bench-memsweep" 1 --sweep-only 2>&1 | grep -o 'median [0-9.]* s' | head -1)
      echo "round $r $side: default sweep $w" | tee -a "$txt"
    done
  done
fi
M=./build-gpu/app/cli/memsweep
mkdir -p /tmp/sweeps
for r in $(seq "$ROUNDS"); do
  for b in $BUDGETS; do
    t0=$(date +%s%N)
    $M run --quiet --cell-budget "$b" --out "/tmp/sweeps/b$b-r$r" >/dev/null 2>&1
    rc=$?
    t1=$(date +%s%N)
    echo "round $r budget $b ms: rc=$rc process wall $(( (t1 - t0) / 1000000 )) ms" | tee -a "$txt"
  done
done
python3 - /tmp/sweeps "$BUDGETS" <<'PY' | tee -a "$txt"
import csv, glob, statistics, sys
for b in sys.argv[2].split():
    half, ci, n = [], 0, 0
    for f in sorted(glob.glob(f"{sys.argv[1]}/b{b}-r*-summary.csv")):
        for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
            if r['status'] != 'ok' or not r['e2e_ci_low_us']:
                continue
            m, lo, hi = float(r['e2e_median_us']), float(r['e2e_ci_low_us']), float(r['e2e_ci_high_us'])
            half.append(100 * max(m - lo, hi - m) / m)
            n += 1
    print(f"budget {b} ms: {n} cells, interval half-width median {statistics.median(half):.1f}%, "
          f"90th percentile {sorted(half)[int(0.9 * len(half))]:.1f}%, worst {max(half):.1f}%")
PY
tar czf "$OUT/sweeps.tgz" -C /tmp sweeps
