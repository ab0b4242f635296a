#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-probe-lessons.sh [NAME...]: on a GPU machine, in one call: the
# build, then every probe lesson (those `memsweep lesson LIST` names after
# the sweep lessons; or the ones given) with its defaults, each to
# $OUT/lesson-NAME-{samples,summary}.csv with its printed table and
# caption in $OUT/lesson-NAME.log and its wall time in $OUT/summary.log.
# REFERENCE=h100 also copies the pair to $OUT/reference/h100-lesson-NAME-*.
set -u
cd "$(dirname "$0")/.."
. tools/gpu-build.sh
ms_gpu_start || exit 1
ms=build-gpu/app/cli/memsweep
sweep_lessons="reuse duplex issue-order cache-state managed-touch costs"
if [ $# -gt 0 ]; then
  names="$*"
else
  names=$("$ms" lesson LIST | sed -n 's/^  memsweep lesson //p' | tr '\n' ' ')
  for s in $sweep_lessons; do names=${names/$s /}; done
fi
log "probe lessons: $names"
for name in $names; do
  t0=$(date +%s%N)
  timeout 300 "$ms" lesson "$name" --out "$OUT/lesson-$name" >"$OUT/lesson-$name.log" 2>&1
  rc=$?
  log "$name: exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  if [ -n "${REFERENCE:-}" ] && [ $rc -eq 0 ]; then
    mkdir -p "$OUT/reference"
    for k in samples summary; do
      cp "$OUT/lesson-$name-$k.csv" "$OUT/reference/$REFERENCE-lesson-$name-$k.csv"
    done
  fi
done
# The device call brings back few files: one archive, and the summary.
if [ -z "${NO_TAR:-}" ]; then
  tar -C "$OUT" -czf /tmp/probe-lessons.tar.gz --exclude=summary.log . &&
    find "$OUT" -mindepth 1 ! -name summary.log -delete && mv /tmp/probe-lessons.tar.gz "$OUT/"
fi
