#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-final.sh NAME: the measurements a release ships, on one GPU
# machine in one call: tools/gpu-run.sh with the large sweep, the targets
# table over its three default sweeps, and everything packed as
# $OUT/NAME.tgz (logs named as docs/measurements/ expects, the reference
# runs as data/reference/ expects).
set -u
name=${1:?usage: tools/gpu-final.sh NAME (e.g. h100)}
OUT=${OUT:-$PWD/gpu-out}
work=/tmp/gpu-final
rm -rf "$work"
mkdir -p "$work/m" "$work/r"
OUT="$work/run" LARGE=${LARGE:-1} SANITIZE=${SANITIZE:-0} bash tools/gpu-run.sh >"$work/run.log" 2>&1
echo "gpu-run.sh rc=$?"
r=$work/run
python3 tools/repeatability-targets.py "$r"/repeat-{1,2,3}-summary.csv >"$work/m/targets.txt" 2>&1
cp "$work/run.log" "$work/m/run.log"
for f in summary.log bench.log default-table.txt repeatability.txt large-table.txt rounds3-table.txt \
         sanitizer-memcheck.log sanitizer-racecheck.log; do
  [ -f "$r/$f" ] && cp "$r/$f" "$work/m/$f"
done
cp "$r/gpu-testlog.txt" "$work/m/gpu-suite.txt" 2>/dev/null
for i in 1 2 3; do cp "$r/repeat-$i-summary.csv" "$work/m/repeat$i-summary.csv" 2>/dev/null; done
cp "$r/default-samples.csv" "$work/r/$name-default-samples.csv" 2>/dev/null
cp "$r/large-samples.csv" "$work/r/$name-large-samples.csv" 2>/dev/null
(cd "$work" && tar czf "$OUT/$name.tgz" m r)
grep -E "PASS|FAIL|rc=|wall|worst cell|targets:|inside" "$work/m/summary.log" "$work/m/targets.txt" | head -40
ls -la "$OUT"
