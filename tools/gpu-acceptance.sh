#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-acceptance.sh GPU PART: the acceptance checks on one GPU
# machine (GPU: h100 or h200, the reference files' prefix), in two calls
# of under ten minutes each, logs in $OUT (a tarball beside summary.log):
#  measure  the build; the gpu suite three times in a row (the managed
#           counts must be whole each time); bench-plain (memsweep's plain
#           end-to-end time against a minimal program per mode and size);
#           bench-memsweep's default-sweep wall time; the default sweep
#           recorded as GPU-default;
#  lessons  every lesson recorded as a reference run (GPU-lesson-NAME), then
#           every lesson card run from the app (tools/gpu-gui-lessons.sh,
#           with the bundle made by tools/bundle-gui.sh carried as .gtk.tgz).
set -u
gpu=${1:?usage: tools/gpu-acceptance.sh h100|h200 measure|lessons}
part=${2:?usage: tools/gpu-acceptance.sh h100|h200 measure|lessons}
cd "$(dirname "$0")/.."
. tools/gpu-build.sh
ms_gpu_start || exit 1
ms=build-gpu/app/cli/memsweep
mkdir -p "$OUT/reference"
if [ "$part" = measure ]; then
  for i in 1 2 3; do
    meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >"$OUT/gpu-suite-$i.log" 2>&1
    log "gpu suite run $i: rc=$?"
    cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-testlog-$i.txt"
    grep -E "^ *[0-9]+/[0-9]+ |managed 16 MiB counted|counts unknown" "$OUT/gpu-suite-$i.log" |
      head -8 | tee -a "$OUT/summary.log"
  done
  s0=$(date +%s)
  ./build-gpu/bench/bench-plain 5 51 >"$OUT/bench-plain.log" 2>&1
  log "bench-plain rc=$? in $(( $(date +%s) - s0 )) s"
  grep -E "over 1.05|within" "$OUT/bench-plain.log" | tee -a "$OUT/summary.log"
  ./build-gpu/bench/bench-memsweep 3 --sweep-only >"$OUT/bench-memsweep.log" 2>&1
  grep -E "round|median|PASS|FAIL" "$OUT/bench-memsweep.log" | tee -a "$OUT/summary.log"
  s0=$(date +%s%N)
  "$ms" run --quiet --out "$OUT/reference/$gpu-default" >"$OUT/default-table.txt" 2>&1
  log "default sweep rc=$? in $(( ($(date +%s%N) - s0) / 1000000 )) ms (process wall)"
  "$ms" show "$OUT/reference/$gpu-default-samples.csv" >"$OUT/default-show.txt" 2>&1
else
  s0=$(date +%s)
  bash tools/gpu-lessons.sh "$OUT/sweep-lessons" >/dev/null 2>&1
  log "sweep lessons rc=$? in $(( $(date +%s) - s0 )) s"
  grep -E "PASS|FAIL|took" "$OUT/sweep-lessons/lessons.log" | tee -a "$OUT/summary.log"
  for f in "$OUT"/sweep-lessons/lesson-*-samples.csv "$OUT"/sweep-lessons/lesson-*-summary.csv; do
    [ -f "$f" ] && cp "$f" "$OUT/reference/$gpu-$(basename "$f")"
  done
  REFERENCE=$gpu NO_TAR=1 bash tools/gpu-probe-lessons.sh
  if [ -f .gtk.tgz ]; then
    tar -xzf .gtk.tgz
    # The cards: every lesson by the one name `lesson LIST` gives it.
    cards="$("$ms" lesson LIST | sed -n 's/^  memsweep-gtk --lesson //p' | tr '\n' ' ')"
    s0=$(date +%s)
    LIMIT=120 sh tools/gpu-gui-lessons.sh .gtk $cards >"$OUT/gui-cards.log" 2>&1
    log "app cards rc=$? in $(( $(date +%s) - s0 )) s"
    cat "$OUT/gui-cards.log" | tee -a "$OUT/summary.log"
  fi
fi
tar -C "$OUT" -czf "/tmp/acceptance-$gpu-$part.tar.gz" --exclude=summary.log . &&
  find "$OUT" -mindepth 1 ! -name summary.log -delete && mv "/tmp/acceptance-$gpu-$part.tar.gz" "$OUT/"
