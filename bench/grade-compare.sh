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
# The runs are interleaved so that drift meets every side. Then, with
# compare --live, the same three comparisons measured in processes that
# take turns (A B B A ...), each within LIVE_BUDGET seconds (120); LIVE
# names which of them (default "same inject20 inject10"), SEPARATE which
# runs of the first part.
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
# compare --live, A and B in processes that take turns: A against itself,
# and against B with each known change, its JSON kept for the table.
live() {
  local name=$1 x=$2 t=$3
  shift 3
  local s0
  s0=$(date +%s%N)
  "$ms" compare --live --budget "${LIVE_BUDGET:-120}" --threshold "$t" --format json \
    ${x:+--b-experiment "$x"} ${1:+--a "$*" --b "$*"} --out "$out/$name" \
    >"$out/$name.json" 2>"$out/$name-stderr.txt"
  echo "$name: rc=$?, whole process $(( ($(date +%s%N) - s0) / 1000000 )) ms${x:+ ($x)}" |
    tee -a "$out/walls.txt"
}
# PARTS: separate (two grade runs and the changed ones, two quick sweeps)
# and live (the same comparisons measured live); both by default.
for part in ${PARTS:-separate live}; do
  case $part in
  separate)
    # SEPARATE: which of these, in this order (default all six).
    for r in ${SEPARATE:-grade-1 grade-inject20 quick-1 grade-2 grade-inject10 quick-2}; do
      case $r in
      grade-inject*) run "$r" "inject=${r#grade-inject}" --grade "$@" ;;
      grade-*) run "$r" "" --grade "$@" ;;
      quick-*) run "$r" "" "$@" ;;
      esac
    done
    ;;
  live)
    for c in ${LIVE:-same inject20 inject10}; do
      case $c in
      same) live live-same "" 10 "$@" ;;
      inject20) live live-inject20 inject=20 10 "$@" ;;
      inject10) live live-inject10 inject=10 5 "$@" ;;
      esac
    done
    ;;
  esac
done
python3 "$(dirname "$0")/grade-compare.py" "$ms" "$out" | tee "$out/table.txt"
