#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-issue18.sh: issue 18 items 3-5 on a GPU machine in one call,
# logs in $OUT (default ./gpu-out):
#  1. build-gpu (tools/gpu-build.sh);
#  2. bench-plain: memsweep's end-to-end time against a plain CUDA program
#     per mode at 2^10, 2^14, 2^17, 2^20 (about a minute) -> bench-plain.log;
#  3. the gpu-lessons test SUITE_RUNS times in a row (default 3): the
#     managed-touch counts must be whole every time -> gpu-lessons-N.log;
#  4. tools/gpu-spread.sh: the run-to-run experiment switches (about four
#     minutes) -> spread/spread.txt.
# SKIP_PLAIN=1, SKIP_LESSONS=1 or SKIP_SPREAD=1 leave a step out.
set -u
. "$(dirname "$0")/gpu-build.sh"
ms_gpu_start || exit 1
if [ "${SKIP_PLAIN:-0}" != 1 ]; then
  s0=$(date +%s)
  ./build-gpu/bench/bench-plain 5 51 >"$OUT/bench-plain.log" 2>&1
  log "bench-plain rc=$? in $(( $(date +%s) - s0 )) s"
  cat "$OUT/bench-plain.log"
fi
if [ "${SKIP_LESSONS:-0}" != 1 ]; then
  for i in $(seq 1 "${SUITE_RUNS:-3}"); do
    s0=$(date +%s)
    meson test -C build-gpu gpu-lessons --print-errorlogs --no-rebuild >/dev/null 2>&1
    rc=$?
    cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-lessons-$i.log"
    log "gpu-lessons run $i: rc=$rc in $(( $(date +%s) - s0 )) s"
    grep -E "FAIL|managed 16 MiB counted|managed-prefetch 16 MiB counted|counts unknown" \
      "$OUT/gpu-lessons-$i.log" | head -12 | tee -a "$OUT/summary.log"
  done
fi
if [ "${SKIP_SPREAD:-0}" != 1 ]; then
  s0=$(date +%s)
  tools/gpu-spread.sh "$OUT/spread" >/dev/null 2>&1
  log "gpu-spread rc=$? in $(( $(date +%s) - s0 )) s"
  sed -n '/^## summary/,$p' "$OUT/spread/spread.txt" | tee -a "$OUT/summary.log"
fi
