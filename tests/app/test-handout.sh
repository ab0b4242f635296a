#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-handout.sh MEMSWEEP REFERENCE_DIR: `report --handout` on shipped
# lesson runs, one with a picture of its own and two answered by the reuse
# chart and by timelines: one A4 page whose text holds the lesson's title,
# question and takeaway (the line `memsweep show` prints under the table)
# and the run's file. Refused input (a run of no lesson, an --out not
# .pdf, two files): exit 2, a reason, nothing written.
memsweep=$1 ref=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL: $1"; [ -f "$tmp/out" ] && sed 's/^/  | /' "$tmp/out"; fails=$((fails + 1)); }
check() { what=$1; shift; if "$@" >"$tmp/out" 2>&1; then ok "$what"; else fail "$what"; fi; }
if ! command -v pdfinfo >/dev/null || ! command -v pdftotext >/dev/null; then
  echo "SKIP: no pdfinfo or pdftotext (poppler-utils)"
  exit 77
fi

"$memsweep" lesson list --format json >"$tmp/lessons.json" || { echo "FAIL: lesson list"; exit 1; }
for lesson in concurrent reuse duplex; do
  run="$ref/h100-lesson-$lesson-samples.csv.gz"
  pdf="$tmp/$lesson-handout.pdf"
  check "$lesson: report --handout" "$memsweep" report "$run" --handout --out "$pdf"
  check "$lesson: one page" sh -c "pdfinfo '$pdf' | grep -Eq '^Pages: +1$'"
  check "$lesson: A4" sh -c "pdfinfo '$pdf' | grep -Eq '^Page size: +595(\.[0-9]+)? x 842(\.[0-9]+)? pts'"
  pdftotext "$pdf" "$tmp/$lesson.txt"
  # The takeaway: the first line after the table of `memsweep show`.
  "$memsweep" show "$run" | awk 'blank >= 2 && NF && !done { print; done = 1 } !NF { blank++ }' \
    >"$tmp/$lesson.takeaway"
  check "$lesson: title, question, takeaway and file in the text" python3 - "$tmp/$lesson.txt" \
    "$tmp/lessons.json" "$lesson" "$tmp/$lesson.takeaway" "$(basename "$run")" <<'PY'
import json, sys
text, lessons, name, takeaway, source = sys.argv[1:]
# Wrapped lines join with a space; the footer may ellipsize nothing here.
words = " ".join(open(text, encoding="utf-8").read().split())
lesson = next(l for l in json.load(open(lessons))["lessons"] if l["name"] == name)
line = " ".join(open(takeaway, encoding="utf-8").read().split())
assert line, "no takeaway from memsweep show"
for what, want in (("title", lesson["title"]), ("question", lesson["question"]),
                   ("takeaway", line), ("file", source), ("memsweep", "memsweep")):
    assert want in words, "%s %r not in %r" % (what, want, words[:400])
PY
done

# Refused: exit 2 with a reason on standard error, nothing written.
expect_refused() { what=$1 out=$2; shift 2
  "$@" >"$tmp/stdout" 2>"$tmp/out"; rc=$?
  cp "$tmp/out" "$tmp/why"
  if [ $rc = 2 ] && [ -s "$tmp/why" ] && [ ! -e "$out" ]; then ok "$what"
  else fail "$what (exit $rc)"; fi; }
expect_refused "a run of no lesson" "$tmp/default.pdf" \
  "$memsweep" report "$ref/h100-default-samples.csv.gz" --handout --out "$tmp/default.pdf"
check "it says why" grep -q "not a lesson" "$tmp/why"
expect_refused "an --out not .pdf" "$tmp/duplex.png" \
  "$memsweep" report "$ref/h100-lesson-duplex-samples.csv.gz" --handout --out "$tmp/duplex.png"
check "it says .pdf" grep -q "\.pdf" "$tmp/why"
expect_refused "--format html" "$tmp/duplex.html" \
  "$memsweep" report "$ref/h100-lesson-duplex-samples.csv.gz" --handout --format html --out "$tmp/duplex.html"
expect_refused "two files" "$tmp/two.pdf" "$memsweep" report "$ref/h100-lesson-duplex-samples.csv.gz" \
  "$ref/h100-lesson-reuse-samples.csv.gz" --handout --out "$tmp/two.pdf"

[ $fails = 0 ] || { echo "$fails failed"; exit 1; }
