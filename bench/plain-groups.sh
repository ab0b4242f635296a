#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/plain-groups.sh BUILD OUTDIR [PROCESSES [REPS]]
#
# What the machine itself allows a comparison to decide, measured without
# memsweep: the plain yardstick (bench-plain --cells REPS: the shortest
# CUDA program for each GPU cell of the default sweep, its median per
# cell) run in 2 x PROCESSES processes back to back on one GPU, nothing
# changed between them. bench/plain-groups.py then splits the same
# processes two ways and judges each split as `memsweep compare` judges
# compare-grade runs (a 95% interval of the ratio of the two groups'
# geometric means, SAME when it lies inside 1 -/+ 10%):
# - separate: the first half against the second, as two runs made one
#   after the other are;
# - turns: A B B A ..., as compare --live takes them.
# Both splits hold the same spread between processes; only the drift
# between the first and the second minute falls on one side in the first
# and on both in the second. It also prints each mode's spread between
# processes and how many processes a side a 10% change needs to be found
# at a 5% threshold (docs/compare.md).
set -u
build=${1:?usage: bench/plain-groups.sh BUILD OUTDIR [PROCESSES [REPS]]}
out=${2:?usage: bench/plain-groups.sh BUILD OUTDIR [PROCESSES [REPS]]}
n=${3:-12}
reps=${4:-15}
mkdir -p "$out"
s0=$(date +%s)
for k in $(seq 1 $((2 * n))); do
  "$build/bench/bench-plain" --cells "$reps" >"$out/plain-p$k.csv" 2>>"$out/plain-stderr.txt" ||
    echo "process $k: rc=$?" >>"$out/plain-stderr.txt"
done
echo "$((2 * n)) processes of $reps repetitions a cell: $(( $(date +%s) - s0 )) s" >"$out/plain-walls.txt"
python3 "$(dirname "$0")/plain-groups.py" "$out" "$n" | tee "$out/plain-groups.txt"
