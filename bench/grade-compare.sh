#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/grade-compare.sh BUILD OUTDIR [MEMSWEEP-RUN-ARGS...]
#
# Whether compare-grade runs decide (docs/compare.md): on one GPU, back to
# back, two compare-grade runs of the same settings (grade-1, grade-2),
# one with a known change of 20% in every repetition's end-to-end time and
# one of 10% (the experiment switch inject=P: a host spin of P% of the
# repetition's own work inside its timed window, recorded in the file),
# and two quick default sweeps (quick-1, quick-2). Then bench/grade-compare.py
# compares the pairs and prints the table: SAME among the cells from 2^14
# of the two identical runs, false FASTER or SLOWER among all cells, how
# often each change is found (SLOWER), and each run's whole-process time.
# The runs are interleaved so that drift meets every side.
set -u
build=${1:?usage: bench/grade-compare.sh BUILD OUTDIR [ARGS...]}
out=${2:?usage: bench/grade-compare.sh BUILD OUTDIR [ARGS...]}
shift 2
ms=$build/app/cli/memsweep
mkdir -p "$out"
run() {
  local name=$1 x=$2
  shift 2
  local s0
  s0=$(date +%s%N)
  env ${x:+MEMSWEEP_EXPERIMENT=$x} "$ms" run --quiet --out "$out/$name" "$@" \
    >"$out/$name-table.txt" 2>"$out/$name-stderr.txt"
  echo "$name: rc=$?, whole process $(( ($(date +%s%N) - s0) / 1000000 )) ms${x:+ ($x)}" |
    tee -a "$out/walls.txt"
}
run grade-1 "" --grade "$@"
run grade-inject20 inject=20 --grade "$@"
run quick-1 "" "$@"
run grade-2 "" --grade "$@"
run grade-inject10 inject=10 --grade "$@"
run quick-2 "" "$@"
python3 "$(dirname "$0")/grade-compare.py" "$ms" "$out" | tee "$out/table.txt"
