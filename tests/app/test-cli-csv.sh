#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-cli-csv.sh MEMSWEEP SOURCE_ROOT: every CSV memsweep writes has one
# writer for its text fields (engine/files/ms-csv-field.c) and one guard
# against spreadsheet formulas (docs/csv.md). A node named '=1+1' (and
# '+1', '@SUM(A1)', '-2') reaches fleet-report's CSV only quoted with a
# leading apostrophe, and reads back as its name in pandas' eyes but
# '=...' in none; and no other file of the program quotes CSV itself.
set -u
M=$1 src=$2
. "$(dirname "$0")/../fixtures/ms-check.sh"

for n in '=1+1' '+1' '@SUM(A1)' '-2' plain; do
  "$M" fleet-node --quiet --dir "$tmp/fleet" --node "$n" -- --modes host --min-exp 8 \
    --max-exp 8 --reps 3 --warmup 1 >"$tmp/node.txt" 2>&1 ||
    { echo "FAIL: fleet-node --node '$n': $(cat "$tmp/node.txt")"; fails=$((fails + 1)); }
done
"$M" fleet-report --format csv "$tmp/fleet" >"$tmp/report.csv" 2>/dev/null
check "fleet-report --format csv writes its table (rc $?)" test -s "$tmp/report.csv"
check "a node named =1+1 is written inert and quoted" grep -qF "\"'=1+1\"" "$tmp/report.csv"
check "so are +1, @SUM(A1) and -2" sh -c "grep -qF \"\\\"'+1\\\"\" '$tmp/report.csv' &&
  grep -qF \"\\\"'@SUM(A1)\\\"\" '$tmp/report.csv' && grep -qF \"\\\"'-2\\\"\" '$tmp/report.csv'"
check "a plain name is quoted, not guarded" grep -qF '"plain"' "$tmp/report.csv"
# What a spreadsheet sees: no field, as parsed, starts a formula.
check "no field of the CSV starts a formula (a negative number aside)" python3 -c "
import csv, sys
def number(f):
    try:
        float(f)
        return True
    except ValueError:
        return False
bad = [f for row in csv.reader(open(sys.argv[1], newline='')) for f in row
       if f[:1] in ('=', '+', '@', '\t', '\r') or (f[:1] == '-' and not number(f))]
print(bad)
sys.exit(1 if bad else 0)" "$tmp/report.csv"
# The guard is CSV's alone: JSON keeps the name whole.
"$M" fleet-report --format json "$tmp/fleet" >"$tmp/report.json" 2>/dev/null
check "JSON keeps the name as it is" grep -qF '"=1+1"' "$tmp/report.json"

# One writer: libcsv's csv_fwrite is called in one file, and no other file
# of the program writes a quote doubled for CSV.
check "csv_fwrite is called only by ms-csv-field.c" sh -c "
  [ \"\$(cd '$src' && grep -rl 'csv_fwrite *(' engine app draw ui --include='*.c' --include='*.h')\" = engine/files/ms-csv-field.c ]"
check "no other CSV quoting loop (a quote written twice) outside the writers" sh -c "
  ! (cd '$src' && grep -rnE \"fputc \\('\\\"'\" engine app draw ui --include='*.c')"
echo "cli-csv: $fails failed"
[ "$fails" -eq 0 ]
