#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-lesson-check.sh: issue 8's check on one GPU machine in one call:
# build-gpu, the gpu suite, every lesson through the CLI as reference runs
# (tools/gpu-lessons.sh, with the unified-memory counts), then every lesson
# card's Run in the app (tools/gpu-gui-lessons.sh, the bundle carried as
# .gtk or packed as .gtk.tgz). Everything lands in $OUT: summary.log, gpu-testlog.txt,
# lessons/, cards/, packed as $OUT/lesson-check.tgz.
set -u
. "$(dirname "$0")/gpu-build.sh"
ms_gpu_start || exit 1
t0=$(date +%s)
meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >/tmp/gpu-suite.log 2>&1
rc=$?
cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-testlog.txt" 2>/dev/null
grep -E "^ *[0-9]+/[0-9]+ " /tmp/gpu-suite.log | tee -a "$OUT/summary.log"
log "gpu suite rc=$rc, $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
bash tools/gpu-lessons.sh "$OUT/lessons" >"$OUT/lessons-run.log" 2>&1
log "gpu-lessons.sh rc=$?, $(( $(date +%s) - t0 )) s"
grep -E "PASS|FAIL|counts|faults" "$OUT/lessons/lessons.log" | head -20 | tee -a "$OUT/summary.log"
# The bundle travels packed (the working tree a device call takes is small).
[ -d .gtk ] || [ ! -f .gtk.tgz ] || tar xzf .gtk.tgz
if [ -d .gtk ]; then
  t0=$(date +%s)
  OUT="$OUT/cards" LIMIT=${LIMIT:-120} timeout 420 sh tools/gpu-gui-lessons.sh .gtk | tee "$OUT/cards.txt"
  log "cards rc=$?, $(( $(date +%s) - t0 )) s"
  cat "$OUT/cards.txt" >>"$OUT/summary.log"
fi
# A device call brings back a few files only: everything as one archive.
tar czf /tmp/lesson-check.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/lesson-check.tgz "$OUT/"
ls -la "$OUT"
