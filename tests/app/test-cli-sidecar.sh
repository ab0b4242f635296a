#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-cli-sidecar.sh MEMSWEEP DATA_DIR: a sidecar belongs to its file set.
# No command replaces a NAME-meta.json that names files it does not write
# (calibrate --out X.csv beside run X, run --out P beside profile P.csv),
# and every target, the sidecar included (a folder, a read-only file, a
# FIFO), is checked before anything is measured; a write past a file-size
# limit ends with a message, exit 1 and no temporary; a prefix that is not
# UTF-8 gives a sidecar that reads back; a file of another run beside a
# sidecar opens with its metadata "from another file"; settings a sidecar
# states out of range are reported, not shown as defaults. Needs no GPU.
memsweep=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
cd "$tmp" || exit 1
run="--modes host --min-exp 5 --max-exp 7 --reps 3 --warmup 0 --quiet"

fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' err
  fails=$((fails + 1))
}

# shellcheck disable=SC2086
"$memsweep" run $run --out X >/dev/null 2>&1 || { echo "FAIL: no run to start from"; exit 1; }
# shellcheck disable=SC2086
TMPDIR=$tmp "$memsweep" calibrate --runs 3 $run --out P.csv >/dev/null 2>&1 ||
  { echo "FAIL: no profile to start from"; exit 1; }
cp X-meta.json X-meta.keep
cp P-meta.json P-meta.keep

# refused LABEL SIDECAR KEPT_COPY WHY -- ARGS: exit 2 before any work, the
# sidecar byte for byte as it was.
refused() {
  label=$1 sidecar=$2 keep=$3 why=$4
  shift 5
  TMPDIR=$tmp "$memsweep" "$@" >/dev/null 2>err
  rc=$?
  if [ $rc != 2 ] || ! grep -qF -- "$why" err || grep -q "run 1 of" err; then
    fail "$label: rc $rc, want 2 and '$why' before any run"
  elif [ -n "$keep" ] && ! cmp -s "$sidecar" "$keep"; then
    fail "$label: $sidecar changed"
  else
    echo "ok   $label"
  fi
}

# shellcheck disable=SC2086
refused "calibrate --out X.csv beside run X" X-meta.json X-meta.keep \
  "X-meta.json: holds the metadata of X-" -- calibrate --runs 3 $run --out X.csv
[ -e X.csv ] && fail "calibrate wrote X.csv beside run X"
# shellcheck disable=SC2086
refused "run --out P beside profile P.csv" P-meta.json P-meta.keep \
  "P-meta.json: holds the metadata of P.csv" -- run $run --out P
[ -e P-samples.csv ] && fail "run measured and wrote P-samples.csv beside profile P.csv"
# The profile is still the profile.
# shellcheck disable=SC2086
# (without --quiet, which leaves out all but errors)
"$memsweep" run ${run%--quiet} --profile P.csv --out Q >/dev/null 2>err &&
  grep -q "intervals include the run-to-run spread of P.csv" err ||
  fail "profile P.csv no longer used"
# The same commands again under their own names replace their own files.
# shellcheck disable=SC2086
"$memsweep" run $run --out X >/dev/null 2>err || fail "run --out X again"
# shellcheck disable=SC2086
TMPDIR=$tmp "$memsweep" calibrate --runs 3 $run --out P.csv >/dev/null 2>err ||
  fail "calibrate --out P.csv again"

# A sidecar that is a folder, a read-only file or a FIFO: said before the sweep.
mkdir D-meta.json
printf '{}\n' >R-meta.json
chmod 444 R-meta.json
mkfifo F-meta.json
# shellcheck disable=SC2086
refused "run --out D, D-meta.json a folder" D-meta.json "" "D-meta.json: is a folder" -- \
  run $run --out D
# shellcheck disable=SC2086
refused "run --out R, R-meta.json read-only" R-meta.json "" "R-meta.json: is read-only" -- \
  run $run --out R
# shellcheck disable=SC2086
refused "run --out F, F-meta.json a FIFO" F-meta.json "" "F-meta.json: is a pipe or a device" -- \
  run $run --out F
# shellcheck disable=SC2086
refused "calibrate --out D.csv, D-meta.json a folder" D-meta.json "" "D-meta.json: is a folder" -- \
  calibrate --runs 3 $run --out D.csv
ls D-samples.csv R-samples.csv F-samples.csv D.csv >/dev/null 2>&1 && fail "a refused target was written"

# Past a file-size limit: a message, exit 4 (a file not written), nothing left at the
# names; a run keeps what it measured gzipped in a folder beside, named (docs/cli.md,
# "Stopping"). SIGXFSZ as a fresh process has it (a test runner may ignore it), the
# limit 2 KiB.
limited() {
  python3 -c 'import os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
os.execv(sys.argv[1], sys.argv[1:])' "$memsweep" "$@"
}
mkdir limit
# shellcheck disable=SC2086
limited run ${run%% --max-exp 7 *} --max-exp 9 --reps 3 --warmup 0 --quiet --out limit/L >/dev/null 2>err
rc=$?
kept=$(ls -d limit/memsweep-kept-* 2>/dev/null)
if [ $rc != 4 ] || ! grep -qF "limit/L-samples.csv: write failed: File too large" err; then
  fail "run past a file-size limit: rc $rc, want 4 and the reason"
elif [ "$(ls -A limit)" != "${kept#limit/}" ] || [ ! -s "$kept/L-samples.csv.gz" ] ||
     ! grep -qF "kept in $kept/L-samples.csv.gz" err; then
  fail "run past a file-size limit: not kept gzipped beside, named: $(ls -AR limit) $(cat err)"
else
  echo "ok   run past a file-size limit"
fi
rm -rf limit/memsweep-kept-*
limited show X-samples.csv --format json --out limit/J.json >/dev/null 2>err
rc=$?
if [ $rc != 4 ] || ! grep -qF "limit/J.json: write failed: File too large" err ||
   [ -n "$(ls -A limit)" ]; then
  fail "show --out past a file-size limit: rc $rc, want 4, the reason and nothing left"
else
  echo "ok   show --out past a file-size limit"
fi

# A prefix that is not UTF-8: its sidecar is JSON, and the run reads back whole.
name=$(printf 'n\377')
# shellcheck disable=SC2086
"$memsweep" run $run --out "$name" >/dev/null 2>err || fail "run --out with a non-UTF-8 prefix"
python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' \
  "$name-meta.json" 2>err || fail "the sidecar of a non-UTF-8 prefix is no UTF-8 JSON"
"$memsweep" show "$name-samples.csv" >/dev/null 2>err
if [ -s err ]; then
  fail "show of a non-UTF-8 prefix's run warns"
else
  echo "ok   a non-UTF-8 prefix reads back"
fi

# Another file of the same size beside X-meta.json (one digit changed) does
# not take X's date, device and settings.
python3 -c 'import sys
p = sys.argv[1]
lines = open(p, "rb").read().split(b"\n")
f = lines[1].split(b",")
f[8] = f[8][:-1] + bytes([48 + (f[8][-1] - 47) % 10])
lines[1] = b",".join(f)
open(p, "wb").write(b"\n".join(lines))' X-samples.csv
"$memsweep" show X-samples.csv >out 2>err
if ! grep -q "its metadata is from another file" err || grep -q "^settings:" out; then
  fail "a same-size file of other bytes took X-meta.json's metadata"
else
  echo "ok   a same-size file of other bytes: metadata from another file"
fi

# Settings a sidecar states out of their kind or range are said, not shown
# as the defaults that stand in for them.
# shellcheck disable=SC2086
"$memsweep" run $run --out S >/dev/null 2>&1 || fail "run --out S"
sed -i 's/"step": 1,/"step": 0,/; s/"min-exp": 5,/"min-exp": -7,/; s/"warmup": 0,/"warmup": "abc",/' \
  S-meta.json
"$memsweep" show S-samples.csv --format json >out.json 2>err
if ! grep -q "metadata out of its kind or range, not used: .*step" err ||
   ! python3 -c 'import json, sys
import jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2] + "/schema/memsweep-results.json")))
assert sorted(doc["settings"]["refused"]) == ["min-exp", "step", "warmup"], doc["settings"]' \
     out.json "$2" 2>>err; then
  fail "refused settings not reported by show --format json"
else
  echo "ok   refused settings reported"
fi

echo "cli-sidecar: $fails failed"
[ "$fails" = 0 ]
