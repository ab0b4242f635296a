#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-reference-runs.sh GPU: one call on a GPU machine (GPU: h100 or
# h200, the reference files' prefix): the build, `memsweep info`, the gpu
# suite, every probe lesson recorded as a reference run
# ($OUT/reference/GPU-lesson-NAME-*.csv), a default sweep (its health and
# envelope through `memsweep show`) recorded as GPU-default, and with
# LARGE=1 the large sweep (2^22..2^28 step 2, 5 repetitions) as GPU-large.
# Everything it prints goes to $OUT/summary.log and one log per step.
set -u
gpu=${1:?usage: tools/gpu-reference-runs.sh h100|h200}
cd "$(dirname "$0")/.."
. tools/gpu-build.sh
ms_gpu_start || exit 1
ms=build-gpu/app/cli/memsweep
"$ms" info >"$OUT/info.log" 2>&1
log "gpu suite"
s0=$(date +%s%N)
meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >"$OUT/gpu-suite.log" 2>&1
log "gpu suite rc=$? in $(( ($(date +%s%N) - s0) / 1000000 )) ms"
cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-testlog.txt" 2>/dev/null
grep -E "^(FAIL|not ok)|FAIL:" "$OUT/gpu-testlog.txt" | head -20 | tee -a "$OUT/summary.log"
REFERENCE=$gpu NO_TAR=1 bash tools/gpu-probe-lessons.sh
mkdir -p "$OUT/reference"
log "default sweep"
s0=$(date +%s%N)
"$ms" run --quiet --out "$OUT/reference/$gpu-default" >"$OUT/default-table.txt" 2>&1
log "default sweep rc=$? in $(( ($(date +%s%N) - s0) / 1000000 )) ms"
"$ms" show "$OUT/reference/$gpu-default-samples.csv" >"$OUT/default-show.txt" 2>&1
if [ "${LARGE:-0}" = 1 ]; then
  log "large sweep"
  s0=$(date +%s%N)
  "$ms" run --quiet --min-exp 22 --max-exp 28 --step 2 --reps 5 --warmup 1 --out "$OUT/reference/$gpu-large" \
    >"$OUT/large-table.txt" 2>&1
  log "large sweep rc=$? in $(( ($(date +%s%N) - s0) / 1000000 )) ms"
fi
tar -C "$OUT" -czf "/tmp/reference-runs-$gpu.tar.gz" --exclude=summary.log . &&
  find "$OUT" -mindepth 1 ! -name summary.log -delete && mv "/tmp/reference-runs-$gpu.tar.gz" "$OUT/"
