#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-health.sh: issue 23's link health and envelopes on one GPU
# machine in one call: build-gpu, the gpu suite (the link under load in
# every cell equals the device's maximum), a default sweep and a pinned and
# pageable sweep at 256 MiB, each shown with its Health and Envelope
# paragraphs (every figure should read normal). Everything lands in $OUT:
# summary.log, gpu-testlog.txt, the samples files.
set -u
. "$(dirname "$0")/gpu-build.sh"
ms_gpu_start || exit 1
log "$(nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current,pcie.link.gen.max,pcie.link.width.max --format=csv 2>&1 | tr '\n' ' ')"
log "AER: $(for d in /sys/bus/pci/devices/*/aer_dev_correctable; do [ -r "$d" ] && echo "$d"; done | head -3 | tr '\n' ' ')"
meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >/tmp/gpu-suite.log 2>&1
rc=$?
cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-testlog.txt" 2>/dev/null
grep -E "^ *[0-9]+/[0-9]+ |PCIe link under load|link under load at|FAIL" "$OUT/gpu-testlog.txt" | tee -a "$OUT/summary.log"
log "gpu suite rc=$rc"
ms=./build-gpu/app/cli/memsweep
$ms run --quiet --out "$OUT/default" >/dev/null 2>"$OUT/default-stderr.txt"
log "default sweep rc=$?"
$ms show "$OUT/default-samples.csv" | sed -n '/^Health/,$p' | tee -a "$OUT/summary.log"
grep "^# pcie" "$OUT/default-samples.csv" | tee -a "$OUT/summary.log"
$ms run --quiet --modes pinned,pageable --min-exp 26 --max-exp 26 --out "$OUT/large" >/dev/null 2>"$OUT/large-stderr.txt"
log "256 MiB sweep rc=$?"
$ms show "$OUT/large-samples.csv" | sed -n '/^Health/,$p' | tee -a "$OUT/summary.log"
