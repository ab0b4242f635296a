#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-report.sh MEMSWEEP WRITE_SUMMARY SAMPLES: plot, report, JSON and
# summary files on a reference run. Exports: every view in every format,
# the caption there or not, SVG text as <text> elements; the report's pages
# and text through pdftotext; the report's table, captions and the JSON
# against the summary file written from the same samples.
memsweep=$1 write_summary=$2 samples=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL: $1"; [ -f "$tmp/out" ] && sed 's/^/  | /' "$tmp/out"; fails=$((fails + 1)); }
check() { what=$1; shift; if "$@" >"$tmp/out" 2>&1; then ok "$what"; else fail "$what"; fi; }

"$write_summary" "$samples" "$tmp/summary.csv" || { echo "FAIL: no summary"; exit 1; }
# The device from the run's metadata: its sidecar, or a '#' line in files
# of the inline form.
# A shipped run is gzipped: its sidecar sits beside X-samples.csv.gz as
# X-meta.json, and its own lines are read through gzip.
device=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["metadata"]["device"])' \
  "${samples%-samples.csv*}-meta.json" 2>/dev/null || gzip -dcf "$samples" | sed -n 's/^# device: //p')
version=$(gzip -dcf "$samples" | sed -n 's/^# memsweep-version: //p')

for view in bandwidth h2d d2h time breakdown timeline; do
  for fmt in png svg pdf; do
    check "plot --view $view --format $fmt" \
      "$memsweep" plot "$samples" --view $view --format $fmt --out "$tmp/$view.$fmt" --size 1200x800
  done
done
check "PNG is a PNG" sh -c "head -c 8 '$tmp/bandwidth.png' | od -c | grep -q 'P   N   G'"
check "SVG has <text> elements" grep -q '<text ' "$tmp/bandwidth.svg"
check "SVG text holds the axis title" grep -q '<text [^>]*>size per vector (log₂)</text>' \
  "$tmp/bandwidth.svg"
check "SVG holds the caption as text" grep -qF ">$device · " "$tmp/bandwidth.svg"
check "SVG is well-formed XML" python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" \
  "$tmp/bandwidth.svg"
"$memsweep" plot "$samples" --view time --out "$tmp/plain.svg" --no-caption
check "--no-caption leaves the caption out" sh -c "! grep -qF 'memsweep $version' '$tmp/plain.svg'"
if command -v pdftotext >/dev/null; then
  pdftotext "$tmp/time.pdf" "$tmp/time.txt"
  check "PDF chart has its caption as text" grep -qF "memsweep $version" "$tmp/time.txt"
  check "PDF chart has its title as text" grep -qF "End-to-end time" "$tmp/time.txt"
fi

# Usage errors: exit status 2 and a reason.
expect_rc() { want=$1; shift; "$@" >"$tmp/out" 2>&1; rc=$?
  if [ $rc = "$want" ]; then ok "$* -> $want"; else fail "$* -> $rc, want $want"; fi; }
expect_rc 2 "$memsweep" plot "$samples" --view pie --out "$tmp/x.png"
expect_rc 2 "$memsweep" plot "$samples" --view time --format png --out "$tmp/x.svg"
expect_rc 2 "$memsweep" plot "$samples" --view time --out "$tmp/x.gif"
expect_rc 2 "$memsweep" plot "$samples" --view time --out "$tmp/x.png" --size 10x10
expect_rc 2 "$memsweep" plot "$tmp/none.csv" --view time --out "$tmp/x.png"
expect_rc 2 "$memsweep" report "$samples" --out "$tmp/x.txt"
expect_rc 2 "$memsweep" report "$samples" --out "$tmp/no/such/folder/r.pdf"

# A summary file: charts and table from it, no timeline, and why.
check "show opens a summary file" sh -c "'$memsweep' show '$tmp/summary.csv' | grep -q 'holds 121 cells'"
check "plot draws a summary's bandwidth" "$memsweep" plot "$tmp/summary.csv" --view bandwidth \
  --out "$tmp/s.png"
expect_rc 2 "$memsweep" plot "$tmp/summary.csv" --view timeline --out "$tmp/s.png"
cp "$tmp/out" "$tmp/why"
check "the timeline says why it is unavailable" \
  grep -qF "a summary file has no per-repetition events; open the samples file" "$tmp/why"

# JSON: valid, and its numbers those of the summary.
"$memsweep" show "$samples" --format json >"$tmp/r.json"
check "show --format json is valid JSON" python3 -m json.tool "$tmp/r.json"
"$memsweep" show "$tmp/summary.csv" --format json --out "$tmp/s.json"
check "a summary's JSON is valid" python3 -m json.tool "$tmp/s.json"

"$memsweep" run --modes host --min-exp 10 --max-exp 11 --reps 3 --warmup 0 --quiet \
  --format json --out "$tmp/run" >"$tmp/run.json" 2>"$tmp/run.err"
check "run --format json is valid JSON with its cells" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['schema'] == 'memsweep-results' and len(d['cells']) == 2, d
assert all(c['status'] == 'ok' and c['e2e']['n'] == 3 for c in d['cells'])" "$tmp/run.json"

# The report: pages, text, table and captions against the summary.
check "report PDF" "$memsweep" report "$samples" --out "$tmp/r.pdf"
check "report HTML" "$memsweep" report "$samples" --out "$tmp/r.html"
if command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null; then
  pdftotext -layout "$tmp/r.pdf" "$tmp/r.txt"
  pages=$(pdfinfo "$tmp/r.pdf" | sed -n 's/^Pages: *//p')
  check "report PDF has every section's pages ($pages)" python3 - "$tmp/r.txt" "$pages" <<'PY'
import sys
text = open(sys.argv[1]).read().split("\f")
pages = int(sys.argv[2])
assert len([p for p in text if p.strip()]) == pages, "pdftotext pages differ from pdfinfo"
assert "Device" in text[0] and "PCIe link" in text[0], "title page"
for title in ("End-to-end bandwidth", "Host to device copy", "Device to host copy",
              "End-to-end time", "Pinned at"):
    assert any(title in p for p in text[1:7]), title
tables = [p for p in text if "Summary table:" in p]
n = int(tables[0].split(" of ")[1].split(")")[0])
assert len(tables) == n and n >= 2, "the table spans %d pages, says %d" % (len(tables), n)
assert "What the data says" in text[pages - 1]
PY
  check "report table and captions match the summary" python3 - "$tmp/r.txt" "$tmp/summary.csv" \
    "$tmp/r.json" <<'PY'
import csv, json, sys
text = open(sys.argv[1]).read()
rows = [r for r in csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#"))]
lines = [l.split() for l in text.splitlines()]
def close(a, b, tol):
    return abs(float(a) - float(b)) <= tol
for r in rows:
    if r["status"] != "ok":
        continue
    hits = [l for l in lines if len(l) >= 10 and l[0] == r["mode"] and l[3] == "ok"
            and l[4] == r["reps"] and close(l[5], r["e2e_median_us"], 0.051)]
    assert hits, "no table row for %s %s" % (r["mode"], r["elements"])
    assert close(hits[0][7], r["e2e_gbps"], 0.0051), (r["mode"], r["elements"], hits[0][7])
big = max(int(r["elements"]) for r in rows)
cell = {r["mode"]: r for r in rows if int(r["elements"]) == big}
ratio = float(cell["pinned"]["h2d_gbps"]) / float(cell["pageable"]["h2d_gbps"])
want = "Pinned host-to-device copies are %.1f × pageable" % ratio
assert want in text.replace("\n", " "), want
cells = json.load(open(sys.argv[3]))["cells"]
assert len(cells) == len(rows)
for c, r in zip(cells, rows):
    assert c["mode"] == r["mode"] and c["status"] == r["status"]
    if r["e2e_median_us"]:
        assert close(c["e2e"]["median_us"], r["e2e_median_us"], 0.0006)
PY
fi
check "report HTML has the charts as SVG with text" python3 - "$tmp/r.html" <<'PY'
import sys
html = open(sys.argv[1]).read()
assert html.count("<svg") == 6, html.count("<svg")
assert "<table>" in html and html.count("<tr>") == 122
assert ">size per vector (log₂)</text>" in html
PY

# SVG in pixels (user units), so that a browser shows it at 1:1.
check "SVG is sized in pixels" grep -q '<svg [^>]*width="1200" height="800" viewBox="0 0 1200 800"' \
  "$tmp/bandwidth.svg"

# Several runs: each run's settings in the caption when they differ; the
# timeline names its run and its caption only that run's settings.
ref=$(dirname "$samples")
"$memsweep" plot "$samples" "$ref/h100-large-samples.csv.gz" --view time --out "$tmp/two.svg" >"$tmp/out" 2>&1
check "caption: each run's own settings" sh -c "grep -qF '>h100-default-samples.csv: sizes 2^10..2^20' '$tmp/two.svg' && grep -qF '>h100-large-samples.csv: sizes 2^22..2^28' '$tmp/two.svg'"
"$memsweep" plot "$ref/h100-large-samples.csv.gz" "$samples" --view timeline --out "$tmp/tl.svg" >"$tmp/out" 2>&1
check "timeline caption: the settings of the run it shows" sh -c "grep -qF '>sizes 2^22..2^28' '$tmp/tl.svg' && ! grep -qF '2^10..2^20' '$tmp/tl.svg'"
check "timeline title names its run" grep -qF "repetition 2 · ${device#NVIDIA } · " "$tmp/tl.svg"

# A host-only run: no GPU facts of zeros, a CPU baseline.
"$memsweep" run --modes host --min-exp 10 --max-exp 11 --reps 3 --warmup 0 --quiet --out "$tmp/cpu" >/dev/null 2>&1
"$memsweep" report "$tmp/cpu-samples.csv" --out "$tmp/cpu.pdf" >"$tmp/out" 2>&1
if command -v pdftotext >/dev/null; then
  pdftotext -layout -f 1 -l 1 "$tmp/cpu.pdf" "$tmp/cpu.txt"
  check "host-only report: CPU baseline, no GPU facts" sh -c "grep -q 'CPU baseline' '$tmp/cpu.txt' && ! grep -qE 'Compute capability|Copy engines|Memory  ' '$tmp/cpu.txt'"
  pdftotext -layout "$tmp/r.pdf" "$tmp/r.txt"
  check "report names the timeline's run" grep -qF "Pinned at 4 MiB per vector, repetition 2 · ${device#NVIDIA }" "$tmp/r.txt"
  # Three runs' facts: the page number never prints over them.
  "$memsweep" report "$samples" "$ref/h200-default-samples.csv.gz" "$ref/h100-large-samples.csv.gz" --out "$tmp/three.pdf" >"$tmp/out" 2>&1
  pdftotext -bbox "$tmp/three.pdf" "$tmp/three.html"
  check "no text on or under a page's foot" python3 - "$tmp/three.html" <<'PY'
import re, sys
html = open(sys.argv[1]).read()
for n, page in enumerate(html.split("<page ")[1:], 1):
    words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page)]
    foot = max((w for w in words if w[4] == "page"), key=lambda w: w[1])
    for w in words:
        on_foot_line = abs(w[1] - foot[1]) < 1
        if on_foot_line:
            assert w[4] in ("memsweep", "report", "·", "page", str(n)), (n, w)
        else:
            assert w[3] <= foot[1] + 0.5, ("under the foot", n, w)
PY
fi
# A run whose sidecar is missing: its device and settings unknown, not the
# reader's defaults shown as the run's (show and compare warn the same).
cp "$ref/h100-grade-1-samples.csv.gz" "$tmp/bare-samples.csv.gz"
"$memsweep" report "$tmp/bare-samples.csv.gz" --out "$tmp/bare.html" >"$tmp/out" 2>&1
check "a run without its sidecar: device and settings unknown" sh -c \
  "grep -q 'unknown: ' '$tmp/bare.html' && ! grep -qF 'CPU baseline' '$tmp/bare.html' && ! grep -qF '2^10..2^20' '$tmp/bare.html'"
# Finding 22: text from files (a raw non-UTF-8 file name as the label, a
# note and device name cut to their buffers) never makes the page invalid.
odd="$tmp/run-$(printf '\377\376')-samples.csv"
# From a file of the inline form, whose metadata lines the text goes into.
python3 - "$(dirname "$0")/../data/old-format/h100-default-samples.csv" "$odd" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
lines.insert(1, b"# note: " + "é€".encode() * 200)
lines = [b"# device: " + "Ü".encode() * 300 if l.startswith(b"# device: ") else l for l in lines]
open(sys.argv[2], "wb").write(b"\n".join(lines))
PY
"$memsweep" report "$odd" --out "$tmp/odd.html" >"$tmp/out" 2>&1
check "report HTML of odd text is UTF-8" python3 -c \
  "import sys; t = open(sys.argv[1], 'rb').read().decode('utf-8'); assert 'é€é€' in t" \
  "$tmp/odd.html"
echo "report: $fails failed"
[ "$fails" = 0 ]
