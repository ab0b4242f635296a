#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-lessons.sh OUTDIR: every lesson (docs/lessons.md) on a GPU
# machine at modest sizes (4 and 16 MiB per vector, 5 repetitions), then
# the gpu suite's lesson checks over those very runs. Writes
# OUTDIR/lesson-NAME-samples.csv and -summary.csv (the reference runs), the
# tables as OUTDIR/lesson-NAME.txt and a log, OUTDIR/lessons.log. Builds
# build-gpu through tools/gpu-build.sh when it is not built yet. Under 4
# minutes on an H100.
set -u
out=${1:?usage: tools/gpu-lessons.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log() { echo "== $*" | tee -a "$out/lessons.log"; }

. "$(dirname "$0")/gpu-build.sh"
log "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.free --format=csv,noheader 2>&1)"
ms_gpu_build || exit 1
memsweep=./build-gpu/app/cli/memsweep
rc=0
t_all=$(date +%s)
for name in $("$memsweep" lesson LIST | sed -n 's/^  memsweep lesson \([a-z-]*\)$/\1/p'); do
  t0=$(date +%s)
  # The sizes stay far below any GPU's free memory: 3 vectors of 16 MiB.
  "$memsweep" lesson "$name" --sizes 20:22:2 --reps 5 --quiet --out "$out/lesson-$name" \
    >"$out/lesson-$name.txt" 2>>"$out/lessons.log"
  lrc=$?
  [ "$lrc" = 0 ] || rc=1
  log "lesson $name: rc=$lrc, $(( $(date +%s) - t0 )) s"
  grep -E '^(At |Both |queue=|Pinned |The |After )' "$out/lesson-$name.txt" | tee -a "$out/lessons.log"
  # managed-touch: each cell's line with its unified-memory counts under it.
  grep -B1 -E '^ +(counted repetition|unified memory not counted)' "$out/lesson-$name.txt" |
    tee -a "$out/lessons.log"
done
log "lessons took $(( $(date +%s) - t_all )) s"

log "gpu suite lesson checks over these runs"
MS_LESSONS_DIR=$out ./build-gpu/tests/test-gpu-lessons "$memsweep" 2>&1 | tee -a "$out/lessons.log"
crc=${PIPESTATUS[0]}
if [ "$crc" = 0 ] && [ "$rc" = 0 ]; then log "PASS: lessons"; else log "FAIL: lessons (runs rc=$rc, checks rc=$crc)"; fi
[ "$crc" = 0 ] && [ "$rc" = 0 ]
