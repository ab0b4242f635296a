#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/same-output.sh OLD_MEMSWEEP NEW_MEMSWEEP [OUT_DIR]: whether two
# builds of memsweep make the same of the shipped reference runs in
# data/reference, byte for byte: what `memsweep show` prints (text and
# JSON) and what `memsweep plot` writes (every view, as SVG), with each
# command's exit status and standard error, for every samples and summary
# file. For a change that should not change behaviour (moving code between
# files, say): build the program before and after it and give both.
# Writes OUT_DIR/old and OUT_DIR/new (a temporary folder if none is
# given), prints how many files each holds and the differences, and exits
# 0 when there are none, 1 when there are.
set -u
old=${1:?usage: same-output.sh OLD_MEMSWEEP NEW_MEMSWEEP [OUT_DIR]}
new=${2:?usage: same-output.sh OLD_MEMSWEEP NEW_MEMSWEEP [OUT_DIR]}
out=${3:-$(mktemp -d)}
ref=$(cd "$(dirname "$0")/../data/reference" && pwd)
# Plain C formatting and no translation: the comparison is of the program,
# not of the shell that ran it.
LC_ALL=C
LANGUAGE=
export LC_ALL LANGUAGE
# A build copied out of its tree finds neither the shipped envelopes nor
# the run-to-run profiles beside it: both programs read this tree's, so a
# difference is the program's and not where it was run from.
data=$(dirname "$ref")
MEMSWEEP_ENVELOPES=${MEMSWEEP_ENVELOPES:-$data/envelopes.csv}
MEMSWEEP_PROFILES_DIR=${MEMSWEEP_PROFILES_DIR:-$data/profiles}
export MEMSWEEP_ENVELOPES MEMSWEEP_PROFILES_DIR

record () {
  dir=$1
  name=$2
  shift 2
  "$@" >"$dir/$name.out" 2>"$dir/$name.err"
  echo $? >"$dir/$name.rc"
}

write_outputs () {
  prog=$1
  dir=$2
  mkdir -p "$dir"
  for csv in "$ref"/*-samples.csv.gz "$ref"/*-summary.csv.gz; do
    base=$(basename "${csv%.gz}" .csv)
    record "$dir" "$base.show" "$prog" show "$csv"
    record "$dir" "$base.show-json" "$prog" show "$csv" --format json
    for view in bandwidth h2d d2h time breakdown timeline; do
      record "$dir" "$base.plot-$view" "$prog" plot "$csv" --view "$view" --format svg \
        --out "$dir/$base.plot-$view.svg"
    done
  done
  # Standard error may name the output path: the same name in both.
  for f in "$dir"/*.err; do
    sed "s#$dir#OUT#g" "$f" >"$f.tmp" && mv "$f.tmp" "$f"
  done
  echo "$(ls "$dir" | wc -l) files from $prog"
}

write_outputs "$old" "$out/old"
write_outputs "$new" "$out/new"
if diff -r "$out/old" "$out/new"; then
  echo "same: every output byte for byte"
  exit 0
fi
exit 1
