#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-host-func-core.sh: does pinning the measuring thread to one
# core bend the host-function lesson? bench/plain-host-func.cu in five
# pinnings, interleaved twice, then the lesson through the CLI twice.
# Logs in $OUT.
set -u
. "$(dirname "$0")/gpu-build.sh"
ms_gpu_start || exit 1
nvcc -O2 -o "$OUT/plain-host-func" bench/plain-host-func.cu >"$OUT/nvcc.log" 2>&1
log "nvcc rc=$?"
for round in 1 2; do
  for how in free pin-before pin-ctx pin-after pin-unpin; do
    "$OUT/plain-host-func" "$how" 30 2>&1 | tee -a "$OUT/plain.log" >/dev/null
  done
done
cat "$OUT/plain.log" >>"$OUT/summary.log"
rm -f "$OUT/plain-host-func"
for i in 1 2; do
  ./build-gpu/app/cli/memsweep lesson host-func --quiet --out "$OUT/lesson-$i" >"$OUT/lesson-$i.txt" 2>&1
  log "lesson host-func $i rc=$?"
  ./build-gpu/app/cli/memsweep show "$OUT/lesson-$i-samples.csv" 2>&1 | head -40 >>"$OUT/summary.log"
done
