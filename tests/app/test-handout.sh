#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-handout.sh MEMSWEEP REFERENCE_DIR: `report --handout` on shipped
# lesson runs, one with a picture of its own and two answered by the reuse
# chart and by timelines: one A4 page whose text holds the lesson's title,
# question and takeaway (the line `memsweep show` prints under the table)
# and the run's file; then every lesson on both GPUs' reference runs: one
# page, no text under 8 pt, nothing off the page or over the footer.
# Refused input (a run of no lesson, an --out not .pdf, two files): exit
# 2, a reason, nothing written.
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

# Every lesson on both GPUs, as a class gets it: its own run, or for a
# lesson a plain sweep answers the default sweep with --lesson; a lesson
# with an experiment of its own whose run is not measured yet (one just
# added without a GPU) is left out, and said: the reference-completeness
# test names the runs missing and the command that makes them. One page,
# no text under 8 pt (a word's box is 1.164 times its DejaVu size), no
# word outside the page, none reaching into the footer's line, and the
# footer naming the GPU and the file.
lessons=$(python3 -c 'import json, sys
print(" ".join("%s:%s" % (l["name"], l["experiment"] or "")
               for l in json.load(open(sys.argv[1]))["lessons"]))' "$tmp/lessons.json")
n=0
for gpu in h100 h200; do
  for entry in $lessons; do
    lesson=${entry%%:*} experiment=${entry#*:}
    run="$ref/$gpu-lesson-$lesson-samples.csv.gz"
    if [ ! -f "$run" ] && [ -n "$experiment" ]; then
      echo "left out: $gpu $lesson, $(basename "$run") not measured yet (reference-completeness)"
      n=$((n + 1))
      continue
    fi
    [ -f "$run" ] || run="$ref/$gpu-default-samples.csv.gz"
    pdf="$tmp/$gpu-$lesson.pdf"
    # The portable lesson draws the shipped run of two GPUs, as its slide
    # does, and names that run (it named the sweep it was opened with).
    source=$(basename "$run") named=$gpu
    [ "$lesson" = portable ] && source=h200x2-portable named=h200
    # The host-link lesson draws the shipped run of several GPUs of the
    # GPU's model where there is one (the most GPUs), else of the most.
    if [ "$lesson" = host-link ]; then
      source=$(ls "$ref"/*-host-link.csv.gz | sed 's|.*/||; s|-host-link.csv.gz||' |
        awk -v g="$gpu" -F x '{ s = ($1 == g) * 1000 + $2 } s > b { b = s; n = $0 } END { print n }')
      named=${source%%x*} source=$source-host-link
    fi
    check "$gpu $lesson: report --handout --lesson" \
      "$memsweep" report "$run" --handout --lesson "$lesson" --out "$pdf"
    check "$gpu $lesson: one page" sh -c "pdfinfo '$pdf' | grep -Eq '^Pages: +1$'"
    check "$gpu $lesson: 8 pt and more, all on the page, the footer apart" python3 - "$pdf" \
      "$source" "$named" <<'PY'
import re, subprocess, sys
pdf, source, gpu = sys.argv[1:]
out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True,
                     check=True).stdout
pw, ph = map(float, re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out).groups())
words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
    r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*?)</word>', out)]
assert len(words) > 20, "too few words: %d" % len(words)
small = min(words, key=lambda w: w[3] - w[1])
assert (small[3] - small[1]) / 1.164 >= 7.9, "%r at %.1f pt" % (small[4], (small[3] - small[1]) / 1.164)
out_of_page = [w[4] for w in words if w[0] < 0 or w[1] < 0 or w[2] > pw or w[3] > ph]
assert not out_of_page, "outside the page: %r" % out_of_page[:5]
foot = max(w[1] for w in words)
footer = " ".join(w[4] for w in words if w[1] >= foot - 1)
assert source in footer and gpu.upper() in footer, "footer: %r" % footer
low = [w[4] for w in words if w[1] < foot - 1 and w[3] > foot - 2]
assert not low, "reaching the footer: %r" % low[:5]
PY
    n=$((n + 1))
  done
done
check "every lesson, both GPUs" test "$n" -ge 40

# The CLI draws every lesson the app shows: a plain sweep's lessons too.
for lesson in pinned-pageable register-allocate portable; do
  check "plot --view lesson --lesson $lesson" "$memsweep" plot "$ref/h100-default-samples.csv.gz" \
    --view lesson --lesson "$lesson" --out "$tmp/$lesson.png"
done

# Refused: exit 2 with a reason on standard error, nothing written.
expect_refused() { what=$1 out=$2; shift 2
  "$@" >"$tmp/stdout" 2>"$tmp/out"; rc=$?
  cp "$tmp/out" "$tmp/why"
  if [ $rc = 2 ] && [ -s "$tmp/why" ] && [ ! -e "$out" ]; then ok "$what"
  else fail "$what (exit $rc)"; fi; }
expect_refused "a run of no lesson" "$tmp/default.pdf" \
  "$memsweep" report "$ref/h100-default-samples.csv.gz" --handout --out "$tmp/default.pdf"
check "it says why, and which lessons it answers" grep -q "not a lesson.*--lesson NAME.*pinned-pageable" "$tmp/why"
expect_refused "an --out not .pdf" "$tmp/duplex.png" \
  "$memsweep" report "$ref/h100-lesson-duplex-samples.csv.gz" --handout --out "$tmp/duplex.png"
check "it says .pdf" grep -q "\.pdf" "$tmp/why"
expect_refused "--format html" "$tmp/duplex.html" \
  "$memsweep" report "$ref/h100-lesson-duplex-samples.csv.gz" --handout --format html --out "$tmp/duplex.html"
expect_refused "two files" "$tmp/two.pdf" "$memsweep" report "$ref/h100-lesson-duplex-samples.csv.gz" \
  "$ref/h100-lesson-reuse-samples.csv.gz" --handout --out "$tmp/two.pdf"

[ $fails = 0 ] || { echo "$fails failed"; exit 1; }
