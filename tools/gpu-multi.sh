#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-multi.sh: every multi-GPU experiment on a host with 2 or more
# GPUs, in one go: build (as tools/gpu-run.sh does), the gpu suite (with
# gpu-multi), bench-multi (memsweep against plain reference loops in the
# same process, one PASS or FAIL line per comparison), then the command
# line's multi, peer and portable reports. Logs and CSV go to $OUT (or
# ./gpu-out): multi-gpuN-samples.csv and gpus-peer.csv open in the app. Ends with the PASS/FAIL lines and the exit status.
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
log() { echo "== $*" | tee -a "$OUT/multi-summary.log"; }

. "$(dirname "$0")/gpu-build.sh"

log "$(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,serial,driver_version,pcie.link.gen.current,pcie.link.width.current \
  --format=csv,noheader 2>&1 | tee -a "$OUT/multi-summary.log"
nvidia-smi topo -m >"$OUT/nvidia-smi-topo.txt" 2>&1
cat "$OUT/nvidia-smi-topo.txt"
ms_gpu_build || exit 1

status=0
log "gpu suite (gpu and gpu-multi)"
meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >"$OUT/gpu-suite.log" 2>&1
rc=$?
cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-testlog.txt" 2>/dev/null
grep -E "^(device|[0-9]+ devices|multi|peer|portable|FAIL|SKIP|PASSED|FAILED)" \
  "$OUT/gpu-testlog.txt" | head -60
log "gpu suite rc=$rc"
[ $rc = 0 ] || status=1

log "bench-multi: memsweep against reference loops"
timeout 500 ./build-gpu/bench/bench-multi >"$OUT/bench-multi.log" 2>&1
rc=$?
cat "$OUT/bench-multi.log"
log "bench-multi rc=$rc"
[ $rc = 0 ] || status=1

log "memsweep multi --solo (each GPU alone, then all at once)"
./build-gpu/app/cli/memsweep multi --solo --modes pinned,zero-copy,streams --min-exp 20 \
  --max-exp 28 --step 2 --reps 5 --warmup 1 --out "$OUT/multi" >"$OUT/multi.txt" 2>&1
log "memsweep multi rc=$?"
cat "$OUT/multi.txt"

log "memsweep peer (device x device matrix, topology)"
# The matrix as a file too (gpus-peer.csv), for the app's GPUs page: the
# reference peer files in data/reference/ are copies of it.
./build-gpu/app/cli/memsweep peer --exp 26 --reps 11 --out "$OUT/gpus" >"$OUT/peer.txt" 2>&1
log "memsweep peer rc=$?"
cat "$OUT/peer.txt"
head -12 "$OUT/gpus-peer.csv" 2>/dev/null

log "memsweep portable"
./build-gpu/app/cli/memsweep portable --exp 26 --reps 11 >"$OUT/portable.txt" 2>&1
log "memsweep portable rc=$?"
cat "$OUT/portable.txt"

log "verdicts"
grep -hE "^(PASS|FAIL|SKIP)" "$OUT/bench-multi.log" "$OUT/gpu-testlog.txt" | tee -a "$OUT/multi-summary.log"
log "gpu-multi.sh status=$status"
exit $status
