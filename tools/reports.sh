#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/reports.sh [BUILD_DIR [OUT_DIR]]: a PDF and an HTML report of every
# bundled reference run (data/reference/*-samples.csv.gz) into OUT_DIR
# (default BUILD_DIR/reports), with memsweep report from BUILD_DIR (default
# build). The tree keeps one example, docs/reports/h100-default.pdf:
#   memsweep report data/reference/h100-default-samples.csv.gz --out docs/reports/h100-default.pdf
set -e
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-$build/reports}
memsweep=$build/app/cli/memsweep
[ -x "$memsweep" ] || { echo "reports: no $memsweep: build first" >&2; exit 1; }
mkdir -p "$out"
for samples in data/reference/*-samples.csv.gz; do
  name=$(basename "$samples" -samples.csv.gz)
  "$memsweep" report "$samples" --out "$out/$name.pdf"
  "$memsweep" report "$samples" --out "$out/$name.html"
  echo "reports: $out/$name.pdf, .html"
done
