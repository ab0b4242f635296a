#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/self-compare.sh BUILD OUTDIR [RUNS [NAME [MEMSWEEP-RUN-ARGS...]]]
#
# The self-comparison benchmark: RUNS (default 3) sweeps of the same
# settings as separate processes on one GPU, back to back, then every pair
# compared with `memsweep compare` (the verdict rule of docs/compare.md).
# Nothing changed between the runs, so every FASTER or SLOWER is a false
# claim. Writes OUTDIR/NAME-K-samples.csv (K = 1..RUNS), the whole-process
# wall time of each run, and OUTDIR/NAME-pairs.txt with the counts per pair
# and per size band (bench/self-compare.py). With MEMSWEEP_EXPERIMENT=
# inject=P in the environment for the last run only (INJECT_LAST=P), the
# same table shows how often a known change of P% is found.
#
# With PLAIN_REPS=R, each run is followed by the plain yardstick in a
# process of its own (bench-plain --cells R > OUTDIR/plain-K.csv), so both
# meet the same drift; PLAIN_REPS=like gives each plain cell as many
# repetitions as the run before it kept for that cell.
#
# BUILD is a build folder with app/cli/memsweep; the runs use the profile
# that `memsweep run` finds unless MEMSWEEP-RUN-ARGS say --no-profile.
set -u
build=${1:?usage: bench/self-compare.sh BUILD OUTDIR [RUNS [NAME [ARGS...]]]}
out=${2:?usage: bench/self-compare.sh BUILD OUTDIR [RUNS [NAME [ARGS...]]]}
runs=${3:-3}
name=${4:-default}
shift $(( $# < 4 ? $# : 4 ))
ms=$build/app/cli/memsweep
here=$(dirname "$0")
mkdir -p "$out"
for k in $(seq 1 "$runs"); do
  env_x=()
  if [ -n "${INJECT_LAST:-}" ] && [ "$k" = "$runs" ]; then
    env_x=(env "MEMSWEEP_EXPERIMENT=inject=$INJECT_LAST")
  fi
  s0=$(date +%s%N)
  "${env_x[@]}" "$ms" run --quiet --out "$out/$name-$k" "$@" >"$out/$name-$k-table.txt" \
    2>"$out/$name-$k-stderr.txt"
  rc=$?
  echo "$name run $k: rc=$rc, whole process $(( ($(date +%s%N) - s0) / 1000000 )) ms" \
    "${env_x[*]:+(${env_x[*]:1})}" | tee -a "$out/$name-walls.txt"
  if [ -n "${PLAIN_REPS:-}" ]; then
    reps=$PLAIN_REPS
    [ "$reps" = like ] && reps="$out/$name-$k-summary.csv"
    "$build/bench/bench-plain" --cells "$reps" >"$out/plain-$k.csv" 2>>"$out/plain-stderr.txt"
  fi
done
python3 "$here/self-compare.py" "$ms" "$out" "$name" "$runs" | tee "$out/$name-pairs.txt"
