#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-run-to-run.sh OUTDIR: issue 7's honest intervals on a GPU
# machine, after tools/gpu-build.sh. `memsweep calibrate` measures the
# run-to-run spread over five default sweeps (separate processes); four
# more default sweeps, run with that profile, are the held-out check: how
# often each one's median lies inside another's interval, within-run only
# (e2e_ci_*) and with the run-to-run spread (e2e_rr_*).
set -u
out=${1:?usage: tools/gpu-run-to-run.sh OUTDIR}
mkdir -p "$out"
ms=./build-gpu/app/cli/memsweep
s0=$(date +%s%N)
$ms calibrate --runs 5 --out "$out/run-to-run-profile.csv" >"$out/calibrate.txt" 2>&1
echo "calibrate rc=$? in $(( ($(date +%s%N) - s0) / 1000000 )) ms" | tee -a "$out/calibrate.txt"
cat "$out/calibrate.txt"
for i in 1 2 3 4; do
  s0=$(date +%s%N)
  $ms run --quiet --profile "$out/run-to-run-profile.csv" --out "$out/check$i" >"$out/check$i-table.txt" 2>&1
  echo "check run $i rc=$?, process wall $(( ($(date +%s%N) - s0) / 1000000 )) ms"
done | tee "$out/check-runs.txt"
python3 tools/repeatability-targets.py "$out"/check{1,2,3,4}-summary.csv | tee "$out/run-to-run-coverage.txt"
