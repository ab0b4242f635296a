#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-measure-plainly.sh: plain against instrumented repetitions on one GPU machine in
# one call, logs in $OUT (default ./gpu-out):
#  1. tools/gpu-run.sh: build, the gpu suite (plain <= instrumented in every
#     cell, overhead.log), bench-memsweep, the default sweep, three more for
#     repeatability (max/min table against the targets in
#     repeatability-targets.txt) and, with LARGE=1, the 2^22..2^28 sweep;
#  2. the gpu suite twice more (three runs in a row in all: the managed
#     counts must be whole every time);
#  3. bench-plain: memsweep's plain end-to-end time against a minimal CUDA
#     program per mode at 2^10, 2^14, 2^17 and 2^20;
#  4. tools/gpu-lessons.sh: every lesson, written as reference runs
#     (LESSONS=0 leaves it out, for a call that must stay under ten minutes);
#  5. with REFERENCE=h100 (the reference files' prefix): the probe lessons
#     again with their defaults (tools/gpu-probe-lessons.sh), and the
#     default sweep and every lesson copied to $OUT/reference/ as
#     REFERENCE-default-* and REFERENCE-lesson-NAME-*; then everything but
#     summary.log goes into one archive, since a device call brings back
#     few files.
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
OUT=$OUT SKIP_BENCH=${SKIP_BENCH:-0} bash "$(dirname "$0")/gpu-run.sh" >"$OUT/gpu-run.log" 2>&1
log "gpu-run.sh rc=$?"
python3 tools/repeatability-targets.py "$OUT"/repeat-{1,2,3}-summary.csv >"$OUT/repeatability-targets.txt" 2>&1
tail -n 25 "$OUT/repeatability-targets.txt" | tee -a "$OUT/summary.log"
for i in 2 3; do
  meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >/dev/null 2>&1
  rc=$?
  cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-testlog-$i.txt"
  log "gpu suite run $i: rc=$rc"
  grep -E "FAIL|managed 16 MiB counted|counts unknown" "$OUT/gpu-testlog-$i.txt" | head -6 |
    tee -a "$OUT/summary.log"
done
s0=$(date +%s)
./build-gpu/bench/bench-plain >"$OUT/bench-plain.log" 2>&1
log "bench-plain rc=$? in $(( $(date +%s) - s0 )) s"
tail -n 1 "$OUT/bench-plain.log" | tee -a "$OUT/summary.log"
if [ "${LESSONS:-1}" != 0 ]; then
  tools/gpu-lessons.sh "$OUT/lessons" >/dev/null 2>&1
  log "gpu-lessons.sh rc=$?"
  grep -E "lesson |PASS|FAIL|took" "$OUT/lessons/lessons.log" | tee -a "$OUT/summary.log"
fi
[ -n "${REFERENCE:-}" ] || exit 0
mkdir -p "$OUT/reference"
for k in samples summary; do
  cp "$OUT/default-$k.csv" "$OUT/reference/$REFERENCE-default-$k.csv"
  for f in "$OUT"/lessons/lesson-*-$k.csv; do
    [ -f "$f" ] && cp "$f" "$OUT/reference/$REFERENCE-$(basename "$f")"
  done
done
if [ "${LESSONS:-1}" != 0 ]; then
  OUT=$OUT/probe REFERENCE=$REFERENCE NO_TAR=1 bash tools/gpu-probe-lessons.sh >/dev/null 2>&1
  log "probe lessons rc=$?"
  cat "$OUT/probe/summary.log" >>"$OUT/summary.log"
  cp "$OUT"/probe/reference/*.csv "$OUT/reference/" 2>/dev/null
fi
tar -C "$OUT" -czf "/tmp/measure-$REFERENCE.tar.gz" --exclude=summary.log . &&
  find "$OUT" -mindepth 1 -maxdepth 1 ! -name summary.log -exec rm -rf {} + && mv "/tmp/measure-$REFERENCE.tar.gz" "$OUT/"
