#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-json-trees.sh MEMSWEEP SOURCE_ROOT: every JSON document memsweep
# writes is a json-c tree (engine/io/ms-json.h): no C file of the
# program, its tools or benchmarks holds a member's key in a string (printed
# or appended by hand) or prints a brace of a document with printf, fputs
# or fputc; and each command's document is one JSON value on one line that
# Python's json module reads, strings with quotes, backslashes and
# non-UTF-8 bytes included.
set -u
M=$1 src=$2
. "$(dirname "$0")/../fixtures/ms-check.sh"

check "no JSON member in a C string, printed or appended" sh -c "
  ! (cd '$src' && grep -rnE '\\\\\"[A-Za-z0-9_\$-]+\\\\\" *:' \
       engine app draw ui tools bench kernels data --include='*.c' --include='*.cu' --include='*.h')"
check "no JSON object or array opened with printf, fputs or fputc" sh -c "
  ! (cd '$src' && grep -rnE '(printf|fputs|fputc|puts) *\\(\"[[{]\\\\\"' \
       engine app draw ui tools bench kernels data --include='*.c' --include='*.cu')"

ref=$src/data/reference/h100-default-1-samples.csv.gz
# A label with a quote, a backslash and a byte that is no UTF-8.
odd=$(printf 'q"b\\\\x\377-samples.csv')
cp "$ref" "$tmp/$odd"
one_document() { # one_document WHAT FILE: one line, one JSON value
  check "$1: one line of JSON" python3 -c "
import json, sys
text = open(sys.argv[1], 'rb').read().decode('utf-8')
assert text.endswith('\n') and text.count('\n') == 1, 'not one line'
json.loads(text)" "$2"
}
"$M" show "$tmp/$odd" --format json >"$tmp/show.json" 2>/dev/null
one_document "show --format json" "$tmp/show.json"
"$M" compare "$ref" "$tmp/$odd" --format json >"$tmp/compare.json" 2>/dev/null
one_document "compare --format json" "$tmp/compare.json"
"$M" info --format json >"$tmp/info.json" 2>/dev/null
one_document "info --format json" "$tmp/info.json"
"$M" modes --format json >"$tmp/modes.json" 2>/dev/null
one_document "modes --format json" "$tmp/modes.json"
"$M" lesson LIST --format json >"$tmp/lessons.json" 2>/dev/null
one_document "lesson LIST --format json" "$tmp/lessons.json"
"$M" __options >"$tmp/options.json" 2>/dev/null
one_document "the options document" "$tmp/options.json"
"$M" fleet-node --quiet --dir "$tmp/fleet" --node 'a"b' -- --modes host --min-exp 8 \
  --max-exp 8 --reps 3 --warmup 1 >/dev/null 2>&1
"$M" fleet-report --format json "$tmp/fleet" >"$tmp/fleet.json" 2>/dev/null
one_document "fleet-report --format json" "$tmp/fleet.json"
check "the node's quote kept" grep -qF '"a\"b"' "$tmp/fleet.json"
echo "json-trees: $fails failed"
[ "$fails" -eq 0 ]
