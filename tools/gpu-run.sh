#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build memsweep on a GPU machine and run the gpu suite, the benchmarks, a
# default sweep and three more for repeatability in one go. Logs and CSV go
# to $OUT (or ./gpu-out); PASS/FAIL lines collect in $OUT/summary.log.
# libcsv comes from the .deb files in .deps/ (apt-get download libcsv3
# libcsv-dev) when the machine has no libcsv-dev.
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
log() { echo "== $*" | tee -a "$OUT/summary.log"; }

. "$(dirname "$0")/gpu-build.sh"
log "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader 2>&1)"
ms_gpu_build || exit 1

./build-gpu/app/cli/memsweep info 2>&1 | tee -a "$OUT/summary.log"

log "gpu suite"
meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >/tmp/gpu-suite.log 2>&1
rc=$?
cat build-gpu/meson-logs/testlog.txt >"$OUT/gpu-testlog.txt" 2>/dev/null
grep -E "^(device|2\^10|2\^20|cancel|warm-up|GPU state|PCIe link|link under load|SKIP|FAIL|PASSED|FAILED)" "$OUT/gpu-testlog.txt" | head -60
log "gpu suite rc=$rc"

if [ "${SKIP_BENCH:-0}" != 1 ]; then
  log "benchmark"
  ./build-gpu/bench/bench-memsweep 3 2>&1 | tee "$OUT/bench.log"
fi

log "default sweep through the command line"
/usr/bin/time -v ./build-gpu/app/cli/memsweep run --quiet --out "$OUT/default" >"$OUT/default-table.txt" 2>/tmp/default-stderr.txt
log "memsweep run rc=$?"
cat "$OUT/default-table.txt"
grep -E "Elapsed|Maximum resident" /tmp/default-stderr.txt | tee -a "$OUT/summary.log"
# Repeatability: three default sweeps as whole processes, one after the
# other, each timed; tools/repeatability.py compares their summaries.
log "three consecutive default sweeps (repeatability)"
for i in 1 2 3; do
  s0=$(date +%s%N)
  ./build-gpu/app/cli/memsweep run --quiet --out "$OUT/repeat-$i" >"$OUT/repeat-$i-table.txt" 2>"$OUT/repeat-$i-stderr.txt"
  rrc=$?
  wall_ms=$(( ($(date +%s%N) - s0) / 1000000 ))
  log "repeat $i: rc=$rrc, process wall ${wall_ms} ms (CUDA init and warm-up included)"
done
python3 tools/repeatability.py "$OUT"/repeat-{1,2,3}-summary.csv 2>&1 | tee "$OUT/repeatability.txt" | tee -a "$OUT/summary.log"
# Within-run against between-run variance: one process, three rounds.
log "default sweep in three rounds (--rounds 3)"
s0=$(date +%s%N)
./build-gpu/app/cli/memsweep run --rounds 3 --quiet --out "$OUT/rounds3" >"$OUT/rounds3-table.txt" 2>&1
log "rounds 3: rc=$?, process wall $(( ($(date +%s%N) - s0) / 1000000 )) ms"
python3 tools/repeatability.py --rounds "$OUT/rounds3-samples.csv" 2>&1 | tee -a "$OUT/summary.log"
grep -h "^# gpu-warmup\|^# measuring-cpu\|^# gpu-near-cpus" "$OUT"/repeat-1-samples.csv | tee -a "$OUT/summary.log"
if [ -f "$OUT/bench.log" ]; then
  grep -E "^(PASS|FAIL):" "$OUT/bench.log" | tee -a "$OUT/summary.log"
fi
grep -E "^(2\^10 kernel|2\^10 device|2\^20 [a-z-]+ +copy|warm-up|GPU state)" "$OUT/gpu-testlog.txt" | tee -a "$OUT/summary.log"
# Plain against instrumented repetitions, every cell (test-gpu), and the
# issue-order lesson's ratios with and without per-step timers (test-gpu-lessons).
grep -E "^[a-z-]+ +2\^[0-9]+ +plain |^issue order one queue" "$OUT/gpu-testlog.txt" >"$OUT/overhead.log"
log "instrumentation overhead: $(wc -l <"$OUT/overhead.log") lines in overhead.log"
if [ "$rc" = 0 ]; then log "PASS: gpu suite"; else log "FAIL: gpu suite (rc=$rc)"; fi

if [ "${LARGE:-0}" = 1 ]; then
  # The bandwidth plateau: 16 MiB to 1 GiB per vector.
  log "large sweep 2^22..2^28"
  ./build-gpu/app/cli/memsweep run --min-exp 22 --max-exp 28 --step 2 --reps 5 --warmup 1 --quiet \
    --out "$OUT/large" >"$OUT/large-table.txt" 2>/tmp/large-stderr.txt
  log "large sweep rc=$? $(tail -n 1 /tmp/large-stderr.txt)"
  rm -f "$OUT/large-summary.csv"
  cat "$OUT/large-table.txt"
fi
if [ "${SANITIZE:-0}" = 1 ]; then
  # memcheck over the whole gpu suite; racecheck (shared-memory hazards,
  # ~100x slower) over a short sweep of every mode.
  log "compute-sanitizer --tool memcheck on the gpu suite"
  timeout 400 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
    ./build-gpu/tests/test-gpu >"$OUT/sanitizer-memcheck.log" 2>&1
  log "compute-sanitizer memcheck rc=$? ($(grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$OUT/sanitizer-memcheck.log" | tr '\n' ' '))"
  log "compute-sanitizer --tool racecheck on a short sweep"
  timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 \
    ./build-gpu/app/cli/memsweep run --min-exp 10 --max-exp 16 --step 6 --reps 2 --warmup 1 --quiet \
    --out /tmp/racecheck >"$OUT/sanitizer-racecheck.log" 2>&1
  log "compute-sanitizer racecheck rc=$? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-racecheck.log" | tr '\n' ' '))"
fi
exit $rc
