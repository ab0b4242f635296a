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
# Issue 7: the run-to-run profile and its check on held-out runs.
bash tools/gpu-run-to-run.sh "$work/rr" >"$work/m/run-to-run.log" 2>&1
for f in calibrate.txt check-runs.txt run-to-run-coverage.txt run-to-run-profile.csv; do
  cp "$work/rr/$f" "$work/m/$f" 2>/dev/null
done
for i in 1 2 3 4; do cp "$work/rr/check$i-summary.csv" "$work/m/rr-check$i-summary.csv" 2>/dev/null; done
# Issue 8: every lesson's experiment, as reference runs.
if [ -x tools/gpu-lessons.sh ] && [ "${LESSONS:-1}" = 1 ]; then
  bash tools/gpu-lessons.sh "$work/lessons" >"$work/m/lessons.log" 2>&1
  echo "gpu-lessons.sh rc=$?" >>"$work/m/lessons.log"
  for f in "$work"/lessons/lesson-*-samples.csv; do
    [ -e "$f" ] && cp "$f" "$work/r/$name-$(basename "$f")"
  done
  cp "$work"/lessons/*.txt "$work/m/" 2>/dev/null
fi
cp "$r/default-samples.csv" "$work/r/$name-default-samples.csv" 2>/dev/null
cp "$r/large-samples.csv" "$work/r/$name-large-samples.csv" 2>/dev/null
(cd "$work" && tar czf "$OUT/$name.tgz" m r)
grep -E "PASS|FAIL|rc=|wall|worst cell|targets:|inside" "$work/m/summary.log" "$work/m/targets.txt" \
  "$work/m/run-to-run-coverage.txt" "$work/m/lessons.log" | head -60
ls -la "$OUT"
