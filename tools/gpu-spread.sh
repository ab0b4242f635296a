#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-spread.sh OUTDIR: the candidate causes of the
# run-to-run spread tested one at a time, on a GPU machine after
# tools/gpu-build.sh (build-gpu/). For the baseline and each experiment
# switch (MEMSWEEP_EXPERIMENT, HACKING.md): three consecutive default
# sweeps as separate processes (`memsweep run`, default settings), the
# max/min of each cell's end-to-end median against the targets
# (tools/repeatability-targets.py: >= 2^14 1.05 for pinned, registered,
# write-combined, zero-copy, uva, streams, device and 1.10 for pageable and
# managed; 1.10 below 2^14; the count of the 110 GPU cells that hold), and
# the default sweep's wall time after CUDA initialisation (bench-memsweep
# --sweep-only). The baseline runs again at the end to show drift over the
# script, and the host-only mode runs three times for the host's own noise.
# About 4 minutes. Results: OUTDIR/spread.txt (the tables), one folder per
# switch with the CSV files.
set -u
out=${1:?usage: tools/gpu-spread.sh OUTDIR}
mkdir -p "$out"
ms=${MEMSWEEP:-./build-gpu/app/cli/memsweep}
bench=${BENCH_MEMSWEEP:-./build-gpu/bench/bench-memsweep}
report="$out/spread.txt"
: >"$report"
say() { echo "$*" | tee -a "$report"; }

# name=switches; the baseline has none.
configs=(
  "baseline="
  "thp=thp"
  "cpu-fixed=cpu-fixed"
  "buffers-per-size=buffers-per-size"
  "copy-warm=copy-warm"
  "order-mode=order=mode"
  "order-shuffle=order=shuffle"
  "all-but-order=thp,cpu-fixed,buffers-per-size,copy-warm"
  "baseline-again="
)

say "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,temperature.gpu \
  --format=csv,noheader 2>&1); THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"
say "# nproc $(nproc); $(lscpu 2>/dev/null | grep -E '^NUMA node\(s\)' | tr -s ' ')"
summary=()
for c in "${configs[@]}"; do
  name=${c%%=*} switches=${c#*=}
  dir="$out/$name"
  mkdir -p "$dir"
  say ""
  say "## $name: MEMSWEEP_EXPERIMENT='$switches'"
  walls=""
  for i in 1 2 3; do
    s0=$(date +%s%N)
    MEMSWEEP_EXPERIMENT=$switches $ms run --quiet --no-profile --out "$dir/run$i" \
      >"$dir/run$i-table.txt" 2>"$dir/run$i-stderr.txt"
    rc=$?
    walls="$walls $(( ($(date +%s%N) - s0) / 1000000 ))"
    [ $rc = 0 ] || say "run $i rc=$rc: $(tail -2 "$dir/run$i-stderr.txt")"
  done
  say "process wall times (ms, CUDA init and warm-up included):$walls"
  say "$(grep -h '^# measuring-cpu\|^# measuring-node\|^# experiment-switches' \
    "$dir"/run1-samples.csv | tr '\n' ' ')"
  python3 tools/repeatability-targets.py "$dir"/run{1,2,3}-summary.csv 2>&1 |
    grep -v "^# max/min" | tee -a "$report" >"$dir/targets.txt"
  sweep=$(MEMSWEEP_EXPERIMENT=$switches $bench 1 --sweep-only 2>&1 |
    sed -n 's/^default sweep wall time: median \([0-9.]*\) s.*/\1 s/p')
  say "default sweep wall time after CUDA initialisation: ${sweep:-unknown}"
  held=$(grep -o 'targets: [0-9]* of [0-9]*' "$dir/targets.txt")
  summary+=("$(printf '%-18s %-22s %s' "$name" "${held#targets: }" "${sweep:-?}")")
done

say ""
say "## host-only mode, three runs (the host's own noise; not judged)"
for i in 1 2 3; do
  $ms run --quiet --no-profile --modes host --out "$out/host$i" >/dev/null 2>&1 ||
    say "host run $i failed"
done
python3 tools/repeatability-targets.py "$out"/host{1,2,3}-summary.csv 2>&1 |
  grep -v "^# max/min\|^targets" | tee -a "$report"

say ""
say "## summary: cells within the targets (of the judged GPU cells), default sweep wall time"
for line in "${summary[@]}"; do say "$line"; done
