#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-bench-scale.sh: the scale benchmarks on a GPU host's own CPUs
# (the lent H100 host has 16 cores), for comparison with the 2-core VM the
# code is written on: bench-csv (build-gpu's), bench-ui and the app's open
# and first-frame times (bench/bench-app-open.sh) from the GTK bundle carried
# as .gtk.tgz (tools/bundle-gui.sh .gtk, with bench-ui). One device call:
#   run --carry .deps --carry .gtk.tgz 'bash tools/gpu-bench-scale.sh'
# Logs go to $OUT (summary.log, gpu-tests.txt, bench-csv.txt, bench-ui.txt,
# app-open.txt), and all of them in logs.tgz.
# The bundle has no GL driver, so the app draws with the cairo renderer.
set -u
. tools/gpu-build.sh
ms_gpu_start || exit 1
log "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
tar xzf .gtk.tgz -C /tmp && b=/tmp/.gtk
git rev-parse --short HEAD >"$OUT/commit.txt" 2>/dev/null
# PARTS picks what runs (default all): tests csv ui open.
want () { case " ${PARTS:-tests csv ui open} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# The engine's structures change with this work: the gpu suite first.
if want tests; then
  meson test -C build-gpu --suite gpu --num-processes 1 >"$OUT/gpu-tests.txt" 2>&1
  log "gpu suite: exit $?, $(grep -E '^(Ok|Fail|Skipped):' "$OUT/gpu-tests.txt" | tr -s ' ' | tr '\n' ' ')"
fi

if want csv; then
  t0=$(date +%s)
  mkdir -p /tmp/bench-csv
  build-gpu/bench/bench-csv --rounds "${CSV_ROUNDS:-5}" --dir /tmp/bench-csv >"$OUT/bench-csv.txt" 2>&1
  log "bench-csv: exit $?, $(( $(date +%s) - t0 )) s"
fi

if want ui; then
  t0=$(date +%s)
  LD_LIBRARY_PATH="$b/lib" FONTCONFIG_FILE="$b/fonts.conf" "$b/bin/bench-ui" >"$OUT/bench-ui.txt" 2>&1
  log "bench-ui: exit $?, $(( $(date +%s) - t0 )) s"
fi

if want open; then
  t0=$(date +%s)
  SCREEN=1600x1000x24
  . tools/gpu-gui-env.sh
  APP="$b/bin/memsweep-gtk" BENCH_DIR=/tmp/bench-open sh bench/bench-app-open.sh build \
    "${OPEN_RUNS:-5}" >"$OUT/app-open.txt" 2>&1
  log "bench-app-open: exit $?, $(( $(date +%s) - t0 )) s"
  kill "$xpid" 2>/dev/null
fi
cd "$OUT" && tar czf logs.tgz $(ls summary.log gpu-tests.txt bench-csv.txt bench-ui.txt app-open.txt 2>/dev/null)
