#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/reports.sh [BUILD_DIR]: a PDF and an HTML report of every bundled
# reference run (data/reference/*-samples.csv) into docs/reports/, with
# memsweep report from BUILD_DIR (default build).
set -e
cd "$(dirname "$0")/.."
memsweep=${1:-build}/app/cli/memsweep
[ -x "$memsweep" ] || { echo "reports: no $memsweep: build first" >&2; exit 1; }
mkdir -p docs/reports
for samples in data/reference/*-samples.csv; do
  name=$(basename "$samples" -samples.csv)
  "$memsweep" report "$samples" --out "docs/reports/$name.pdf"
  "$memsweep" report "$samples" --out "docs/reports/$name.html"
  echo "reports: docs/reports/$name.pdf, .html"
done
