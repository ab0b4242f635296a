#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-cli-inputs.sh MEMSWEEP DATA_DIR: no output of any command replaces
# a file the command reads, names or implies: the file itself, the summary
# beside a samples file and the samples beside a summary, an envelope file
# named by an option or by MEMSWEEP_ENVELOPES, a profile; reached by its
# name, a symbolic link, a hard link or an open descriptor. Each case is
# refused with "is one of the inputs: not replaced", and the input keeps
# every byte; standard output appended to an input is refused too. Needs no
# GPU.
memsweep=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
cd "$tmp" || exit 1

"$memsweep" run --modes host --min-exp 5 --max-exp 6 --reps 3 --warmup 0 --quiet --out P \
  >/dev/null 2>&1 || { echo "FAIL: no run to start from"; exit 1; }
"$memsweep" run --modes host --min-exp 5 --max-exp 6 --reps 3 --warmup 0 --quiet --out Q \
  >/dev/null 2>&1 || exit 1
# A samples file whose name an image may have, for plot, compare and report.
cp P-samples.csv R.png
cp P-samples.csv R.pdf
cp "$data/envelopes.csv" E
cp "$data/envelopes.csv" E.html
TMPDIR=$tmp "$memsweep" calibrate --runs 3 --modes host --min-exp 5 --max-exp 5 --reps 6 \
  --warmup 0 --out prof.csv >/dev/null 2>&1 || { echo "FAIL: no profile to start from"; exit 1; }
mkdir keep
cp P-samples.csv P-summary.csv R.png R.pdf E E.html prof.csv keep/

# refused LABEL INPUT [VAR=VALUE] -- ARGS...: the command refuses, INPUT stays.
refused() {
  label=$1 input=$2
  shift 2
  if [ "$1" != -- ]; then
    env_set=$1
    shift
  else
    env_set=MEMSWEEP_TEST_NOTHING=1
  fi
  shift
  env "$env_set" "$memsweep" "$@" >out 2>&1
  rc=$?
  if [ $rc = 0 ] || ! grep -q "is one of the inputs: not replaced" out ||
     ! cmp -s "$input" "keep/$input"; then
    echo "FAIL: $label: rc $rc, $input $(cmp -s "$input" "keep/$input" && echo kept || echo CHANGED), output:"
    sed 's/^/  | /' out
    fails=$((fails + 1))
    cp "keep/$input" "$input"
  else
    echo "ok   $label (rc $rc)"
  fi
}

refused "show: --out is the file shown" P-samples.csv -- show P-samples.csv --format csv --out P-samples.csv
refused "show: --out is the summary beside the samples" P-summary.csv -- show P-samples.csv --format csv --out P-summary.csv
refused "show: --out is the summary shown" P-summary.csv -- show P-summary.csv --format csv --out P-summary.csv
refused "show: --out is the samples beside the summary" P-samples.csv -- show P-summary.csv --format csv --out P-samples.csv
refused "show: --out is --envelopes" E -- show P-samples.csv --envelopes E --format json --out E
refused "show: --out is \$MEMSWEEP_ENVELOPES" E "MEMSWEEP_ENVELOPES=$tmp/E" -- show P-samples.csv --format json --out E
ln -s P-summary.csv link.json
refused "show: --out is a link to the summary" P-summary.csv -- show P-samples.csv --format json --out link.json
ln P-samples.csv hard.json
refused "show: --out is a hard link to the samples" P-samples.csv -- show P-summary.csv --format json --out hard.json
rm hard.json
refused "show: --out is a descriptor open on the samples" P-samples.csv -- show P-summary.csv --format json --out /dev/fd/3 3<>P-samples.csv

refused "compare: --plot is A" R.png -- compare R.png Q-samples.csv --plot R.png
refused "compare: --plot is B" R.png -- compare Q-samples.csv R.png --plot R.png
ln R.png hard.png
refused "compare: --plot is a hard link to A" R.png -- compare R.png Q-samples.csv --plot hard.png
rm hard.png

refused "plot: --out is the file drawn" R.png -- plot R.png --view bandwidth --out R.png
ln -s R.png link.png
refused "plot: --out is a link to the file drawn" R.png -- plot Q-samples.csv R.png --view time --out link.png
refused "report: --out is the file reported" R.pdf -- report R.pdf --out R.pdf
refused "report: --out is \$MEMSWEEP_ENVELOPES" E.html "MEMSWEEP_ENVELOPES=$tmp/E.html" -- report P-samples.csv --out E.html

cp prof.csv prof-samples.csv
cp prof.csv keep/prof-samples.csv
refused "run: --out's samples file is the profile" prof-samples.csv -- run --modes host --min-exp 5 --max-exp 5 --reps 1 --quiet --profile prof-samples.csv --out prof
ln prof.csv X-summary.csv
refused "run: --out's summary is a hard link to the profile" prof.csv -- run --modes host --min-exp 5 --max-exp 5 --reps 1 --quiet --profile prof.csv --out X

# Standard output appended to an input (as cat refuses `cat f >> f`).
# appended LABEL INPUT -- ARGS...: refused with nothing written, INPUT stays.
appended() {
  label=$1 input=$2
  shift 3
  "$memsweep" "$@" >>"$input" 2>out
  rc=$?
  # Refused as an input, or (a fleet's node files, read after the plan is
  # made) as a file holding a run's measurements.
  if [ $rc = 0 ] || ! grep -qxE "memsweep $1: (standard output is one of the inputs: nothing written|--format -: holds measurements \(a run's samples\): not replaced; choose another name)" out ||
     ! cmp -s "$input" "keep/$input"; then
    echo "FAIL: $label: rc $rc, $input $(cmp -s "$input" "keep/$input" && echo kept || echo CHANGED), output:"
    sed 's/^/  | /' out
    fails=$((fails + 1))
    cp "keep/$input" "$input"
  else
    echo "ok   $label (rc $rc)"
  fi
}
appended "show >> the file shown" P-samples.csv -- show P-samples.csv
appended "show >> the summary beside it" P-summary.csv -- show P-samples.csv
appended "compare >> B" R.png -- compare Q-samples.csv R.png
appended "run >> its profile" prof.csv -- run --modes host --min-exp 5 --max-exp 5 --reps 1 --quiet --profile prof.csv --out fresh
[ -e fresh-samples.csv ] && { echo "FAIL: run >> its profile measured and wrote"; fails=$((fails + 1)); }
mkdir fleet
cp P-samples.csv fleet/n1-samples.csv
mkdir keep/fleet
cp P-samples.csv keep/fleet/n1-samples.csv
appended "fleet-report >> a node's file" fleet/n1-samples.csv -- fleet-report fleet

# Standard input that is a file is an input too: `show - < F` neither
# writes --out F nor appends its table to F.
"$memsweep" show - --format csv --out P-samples.csv <P-samples.csv >out 2>&1
rc=$?
if [ $rc = 0 ] || ! grep -q "is one of the inputs: not replaced" out || ! cmp -s P-samples.csv keep/P-samples.csv; then
  echo "FAIL: show - < F --out F: rc $rc"; sed 's/^/  | /' out; fails=$((fails + 1)); cp keep/P-samples.csv P-samples.csv
else
  echo "ok   show - < F --out F (rc $rc)"
fi
"$memsweep" show - <P-samples.csv >>P-samples.csv 2>out
rc=$?
if [ $rc = 0 ] || ! grep -qxF "memsweep show: standard output is one of the inputs: nothing written" out ||
   ! cmp -s P-samples.csv keep/P-samples.csv; then
  echo "FAIL: show - < F >> F: rc $rc"; sed 's/^/  | /' out; fails=$((fails + 1)); cp keep/P-samples.csv P-samples.csv
else
  echo "ok   show - < F >> F (rc $rc)"
fi

echo "cli-inputs: $fails failed"
[ "$fails" = 0 ]
