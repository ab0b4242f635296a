#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-data-tools.sh MEMSWEEP WRITE-PAIR REFERENCE-DIR SCHEMA-DIR PYTHON OLD-DIR DATA-DIR
#                    [OLD-FRICTIONLESS-PYTHON]:
# files written by the current code (a sweep and a lesson, from reference
# runs; a peer matrix, a sweep on several GPUs and a run-to-run profile,
# from files of the older form in OLD-DIR; a portable pinned memory run,
# from the fixture beside it) read by pandas, polars and
# DuckDB with default options, checked by check-data-tools.py, as is every
# CSV file shipped in DATA-DIR, and every file the commands wrote (compare's
# and show's tables, show's document and a profile written under names
# ending in .gz, which must hold gzip bytes, and a run, an export, show's
# table and a profile written with --compress). Skipped (77)
# when those packages are not installed. Every CSV file shipped and written,
# gzipped ones included, is validated by the frictionless of PYTHON (the
# current release) and of OLD-FRICTIONLESS-PYTHON (the older one
# tools/deps.sh test installs), which is skipped with a message when absent;
# the shipped files in the background, and each file found valid once is
# remembered by its hash (check-frictionless.py says where). Last, the
# table of files against tools: each kind of file shipped and written, and
# how many each tool opened or validated (files-tools-table.py).
set -u
cli=$1 write=$2 ref=$3 schema=$4 py=$5 old=$6 data=$7 old_py=${8:-}
if ! [ -x "$py" ] || ! "$py" -c 'import pandas, polars, duckdb, jsonschema, frictionless' 2>/dev/null; then
  echo "SKIP: pandas, polars, duckdb, jsonschema and frictionless are not in $py (sh tools/deps.sh test installs them from PyPI)"
  exit 77
fi
tmp=$(mktemp -d) || exit 1
logs=$(mktemp -d) || exit 1
shipped_new= shipped_old=
trap 'kill $shipped_new $shipped_old 2>/dev/null; rm -rf "$tmp" "$logs"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Every checker's verdicts, for the table of files against tools printed
# at the end (files-tools-table.py).
MEMSWEEP_DATA_TOOLS_TALLY=$logs/tally
export MEMSWEEP_DATA_TOOLS_TALLY
mkdir -p "$MEMSWEEP_DATA_TOOLS_TALLY"
# frictionless reads every row in Python, and the shipped files hold most
# of them (the grade runs): it validates DATA-DIR in the background, in both
# versions, while the commands write and the tools read; the files written
# are validated once check-data-tools.py has added its own.
old_ok=false
if [ -n "$old_py" ] && [ -x "$old_py" ] && "$old_py" -c 'import frictionless' 2>/dev/null; then
  old_ok=true
fi
"$py" "$(dirname "$0")/check-frictionless.py" "$schema" "$data" > "$logs/shipped-new" 2>&1 &
shipped_new=$!
if $old_ok; then
  "$old_py" "$(dirname "$0")/check-frictionless.py" "$schema" "$data" > "$logs/shipped-old" 2>&1 &
  shipped_old=$!
fi
# result_of PID OUTPUT: what a validation in the background printed, and
# its status.
result_of() {
  wait "$1"
  rc=$?
  cat "$2"
  return $rc
}
for run in sweep:h100-default-1 lesson:h100-lesson-pin-payoff; do
  "$write" "$ref/${run#*:}-samples.csv.gz" "$tmp/${run%%:*}" || fail "write-pair ${run#*:}"
  "$cli" show "$tmp/${run%%:*}-samples.csv" --format json > "$tmp/${run%%:*}.json" ||
    fail "show --format json ${run%%:*}"
done
# A run on the CPU alone (no GPU times) and a fleet report of it (no link).
"$cli" run --modes host --min-exp 10 --max-exp 12 --reps 3 --warmup 0 --out "$tmp/host" --quiet \
  > /dev/null 2>&1 || fail "run --modes host"
"$cli" fleet-node --dir "$tmp/fleet" --node a -- --modes host --min-exp 10 --max-exp 12 --reps 3 \
  --warmup 0 > /dev/null 2>&1 || fail "fleet-node"
"$cli" fleet-report --format csv "$tmp/fleet" > "$tmp/fleet.csv" 2> /dev/null || fail "fleet-report"
# Every column the engine can write, with metadata inline (standard output).
for kind in samples summary; do
  "$write" "$ref/h100-default-1-samples.csv.gz" $kind | grep -v '^#' | head -n 1 > "$tmp/all-$kind.header" ||
    fail "inline $kind"
done
for file in peer:h200x2-peer multi:x-multi profile:run-to-run-h100; do
  kind=${file%%:*}
  "$write" $kind "$old/${file#*:}.csv" "$tmp/$kind.csv" || fail "write-pair $kind"
  "$write" $kind "$old/${file#*:}.csv" /dev/stdout | grep -v '^#' | head -n 1 > "$tmp/all-$kind.header" ||
    fail "inline $kind"
done
# A portable pinned memory run, from the made-up fixture (metadata inline).
"$write" portable "$old/../portable/fixture-x2-portable.csv" "$tmp/portable.csv" ||
  fail "write-pair portable"
"$write" portable "$old/../portable/fixture-x2-portable.csv" /dev/stdout | grep -v '^#' |
  head -n 1 > "$tmp/all-portable.header" || fail "inline portable"
# compare tells a plain peer matrix by its header, its sidecar aside.
cp "$tmp/peer.csv" "$tmp/alone-peer.csv"
"$cli" compare "$tmp/alone-peer.csv" "$tmp/peer.csv" > /dev/null 2> "$tmp/err"
grep -q "peer matrix" "$tmp/err" || fail "compare did not tell a plain peer matrix: $(cat "$tmp/err")"
# The bad inputs of the sidecar: each named in show's warning, the CSV still
# read, nothing written over the inputs.
cp "$tmp/sweep-summary.csv" "$tmp/alone-summary.csv"
"$cli" show "$tmp/alone-summary.csv" > /dev/null 2> "$tmp/err" || fail "a summary without its sidecar did not open"
grep -q "alone-meta.json: not found" "$tmp/err" || fail "missing sidecar not named: $(cat "$tmp/err")"
cp "$tmp/sweep-summary.csv" "$tmp/broken-summary.csv"
printf '{"format": "memsweep-meta", "run-id": \n' > "$tmp/broken-meta.json"
"$cli" show "$tmp/broken-summary.csv" > /dev/null 2> "$tmp/err" || fail "a summary with a damaged sidecar did not open"
grep -q "broken-meta.json: line 2" "$tmp/err" || fail "damaged sidecar not named: $(cat "$tmp/err")"
cp "$tmp/sweep-summary.csv" "$tmp/other-summary.csv"
cp "$tmp/lesson-meta.json" "$tmp/other-meta.json"
sed 's/lesson-/other-/g' "$tmp/lesson-meta.json" > "$tmp/other-meta.json"
sum=$(cksum < "$tmp/other-meta.json")
"$cli" show "$tmp/other-summary.csv" > "$tmp/out" 2> "$tmp/err" || fail "a summary with another run's sidecar did not open"
grep -q "other-meta.json: it describes another run" "$tmp/err" || fail "another run's sidecar not named: $(cat "$tmp/err")"
grep -q "H100" "$tmp/out" && fail "another run's metadata was used"
[ "$(cksum < "$tmp/other-meta.json")" = "$sum" ] || fail "the sidecar was written over"
# What the commands write besides runs: tables, and files named .gz, which
# get gzip bytes (the profile, a table, a document).
"$cli" compare "$ref/h100-default-1-samples.csv.gz" "$ref/h100-default-2-samples.csv.gz" \
  --format csv > "$tmp/compare.csv" 2> /dev/null
"$cli" show "$tmp/sweep-samples.csv" --format csv --out "$tmp/show-table.csv.gz" 2> /dev/null ||
  fail "show --out X.csv.gz"
"$cli" show "$tmp/sweep-samples.csv" --format json --out "$tmp/show.json.gz" 2> /dev/null ||
  fail "show --out X.json.gz"
mkdir -p "$tmp/profiles"
TMPDIR=$tmp "$cli" calibrate --runs 3 --modes host --min-exp 5 --max-exp 7 --reps 3 --warmup 0 \
  --out "$tmp/profiles/written.csv.gz" > /dev/null 2>&1 || fail "calibrate --out X.csv.gz"
# --out -: the bytes --out F writes (but the values measured), which every
# tool reads (check-data-tools.py) and run --profile - reads back.
TMPDIR=$tmp "$cli" calibrate --runs 3 --modes host --min-exp 5 --max-exp 7 --reps 3 --warmup 0 \
  --out - > "$tmp/profiles/piped.csv" 2> /dev/null || fail "calibrate --out -"
values_out() { sed 's/,[0-9.]*$/,SD/'; }
[ "$(values_out < "$tmp/profiles/piped.csv")" = "$(gzip -dc "$tmp/profiles/written.csv.gz" | values_out)" ] ||
  fail "calibrate --out - differs from --out F beyond the values: $(head -c 300 "$tmp/profiles/piped.csv")"
TMPDIR=$tmp "$cli" run --modes host --min-exp 5 --max-exp 5 --reps 3 --warmup 0 --profile - \
  --out "$tmp/alone-profiled" --quiet < "$tmp/profiles/piped.csv" > /dev/null 2> "$tmp/err" ||
  fail "run --profile - did not read calibrate --out -: $(cat "$tmp/err")"
# --compress: a run's pair (its sidecar naming the .gz files), a CSV
# export, show's CSV --out and a profile, each written gzipped under its
# name with .gz added; all read back by memsweep without a warning.
"$cli" run --modes host --min-exp 10 --max-exp 12 --reps 3 --warmup 0 --out "$tmp/packed" \
  --export-csv "$tmp/packed-table.csv" --compress --quiet > /dev/null 2>&1 || fail "run --compress"
"$cli" show "$tmp/sweep-samples.csv" --format csv --out "$tmp/packed-show.csv" --compress \
  2> /dev/null || fail "show --out X.csv --compress"
TMPDIR=$tmp "$cli" calibrate --runs 3 --modes host --min-exp 5 --max-exp 7 --reps 3 --warmup 0 \
  --out "$tmp/profiles/packed.csv" --compress > /dev/null 2>&1 || fail "calibrate --compress"
for f in packed-samples.csv.gz packed-summary.csv.gz packed-meta.json packed-table.csv.gz \
         packed-show.csv.gz profiles/packed.csv.gz; do
  [ -s "$tmp/$f" ] || fail "--compress did not write $f"
done
for f in packed-samples.csv packed-summary.csv packed-table.csv packed-show.csv profiles/packed.csv; do
  [ -e "$tmp/$f" ] && fail "--compress wrote $f plain"
done
grep -q '"packed-samples.csv.gz"' "$tmp/packed-meta.json" ||
  fail "the sidecar of a --compress run does not name packed-samples.csv.gz"
"$cli" show "$tmp/packed-samples.csv.gz" > /dev/null 2> "$tmp/err" || fail "show of a --compress run"
[ -s "$tmp/err" ] && fail "show of a --compress run warned: $(cat "$tmp/err")"
"$cli" compare "$tmp/packed-samples.csv.gz" "$tmp/host-samples.csv" > /dev/null 2> "$tmp/err"
rc=$?
# 1: a difference; 5: nothing decided (tiny runs).
[ $rc -eq 0 ] || [ $rc -eq 1 ] || [ $rc -eq 5 ] || fail "compare of a --compress run: $(cat "$tmp/err")"
failed=0
"$py" "$(dirname "$0")/check-data-tools.py" "$tmp" "$schema" "$data" || failed=1
# The written files in both versions at once (the shipped ones are still
# being validated in the background, on the other core).
if [ "$failed" = 0 ]; then
  if $old_ok; then
    "$old_py" "$(dirname "$0")/check-frictionless.py" "$schema" "$tmp" > "$logs/written-old" 2>&1 &
    written_old=$!
  fi
  "$py" "$(dirname "$0")/check-frictionless.py" "$schema" "$tmp" || failed=1
  if $old_ok; then
    result_of $written_old "$logs/written-old" || failed=1
  fi
fi
echo "shipped in $data:"
result_of $shipped_new "$logs/shipped-new" || failed=1
shipped_new=
if $old_ok; then
  result_of $shipped_old "$logs/shipped-old" || failed=1
  shipped_old=
else
  echo "note: no older frictionless in ${old_py:-(not given)} (sh tools/deps.sh test installs it): checked with the current one only"
fi
echo "files against tools (good/files):"
"$py" "$(dirname "$0")/files-tools-table.py" "$MEMSWEEP_DATA_TOOLS_TALLY" "$data" "$tmp" || failed=1
exit $failed
