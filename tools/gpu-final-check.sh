#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-final-check.sh: a short check of the final code on a GPU machine
# in one call: build-gpu, the gpu suite, a plain sweep with the lessons'
# knobs (run --reuse 4 --stores ordinary: which cells got which variant),
# the same sweep without them, and bench-memsweep. Logs in $OUT.
set -u
. "$(dirname "$0")/gpu-build.sh"
ms_gpu_start || exit 1
meson test -C build-gpu --suite gpu --print-errorlogs --no-rebuild >/tmp/gpu-suite.log 2>&1
log "gpu suite rc=$?"
grep -E "^ *[0-9]+/[0-9]+ " /tmp/gpu-suite.log | tee -a "$OUT/summary.log"
cp build-gpu/meson-logs/testlog.txt "$OUT/gpu-testlog.txt"
M=./build-gpu/app/cli/memsweep
sweep=(--min-exp 20 --max-exp 22 --step 2 --reps 5 --quiet)
$M run --modes pinned,zero-copy,write-combined,host --reuse 4 --stores ordinary "${sweep[@]}" \
  --out "$OUT/knobs" >"$OUT/knobs.txt" 2>&1
log "run --reuse 4 --stores ordinary rc=$?"
python3 - "$OUT/knobs-samples.csv" <<'PY' | tee -a "$OUT/summary.log"
import csv, sys, collections
rows = (l for l in open(sys.argv[1]) if not l.startswith('#'))
seen = collections.Counter((r['mode'], r['variant']) for r in csv.DictReader(rows))
for (mode, variant), n in sorted(seen.items()):
    print(f"{mode:16s} variant '{variant}': {n} rows")
PY
$M run --modes pinned,zero-copy,write-combined "${sweep[@]}" --out "$OUT/plain" >"$OUT/plain.txt" 2>&1
log "the same sweep without knobs rc=$?"
./build-gpu/bench/bench-memsweep 3 >"$OUT/bench.log" 2>&1
log "bench-memsweep rc=$?"
grep -E "wall|PASS|FAIL" "$OUT/bench.log" | head -8 | tee -a "$OUT/summary.log"
