#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-cli.sh MEMSWEEP DATA_DIR: the command line as a user meets it,
# including bad input: every option with its exact message and exit status.
# Needs no GPU.
memsweep=$1
. "$(dirname "$0")/../fixtures/ms-check.sh"

# expect_with GREP_FLAGS RC TEXT -- ARGS...: exit status and output
expect_with() {
  flags=$1 want_rc=$2 pattern=$3
  shift 4
  "$memsweep" "$@" >"$tmp/out" 2>&1
  rc=$?
  if [ "$rc" != "$want_rc" ] || ! grep $flags -- "$pattern" "$tmp/out"; then
    echo "FAIL: memsweep $* -> rc $rc (want $want_rc), output:"
    sed 's/^/  | /' "$tmp/out"
    echo "  wanted: $pattern"
    fails=$((fails + 1))
  else
    echo "ok   memsweep $*"
  fi
}
expect() { expect_with -q "$@"; }           # RC PATTERN -- ARGS: a line matching
expect_line() { expect_with -qxF "$@"; }    # RC LINE -- ARGS: one whole line

# wait_catching PID MASK: until PID catches the signals of MASK (hex bits
# of /proc's SigCgt: 4000 SIGTERM) or has ended. Before main() installs
# its handlers a signal ends any program, however long the loader takes.
wait_catching() {
  while :; do
    state= caught=
    while read -r key value _; do
      case $key in
      State:) state=$value ;;
      SigCgt:) caught=$value ;;
      esac
    done <"/proc/$1/status" 2>/dev/null || return 0
    case $state in '' | Z | X) return 0 ;; esac
    [ $((0x$caught & 0x$2)) = $((0x$2)) ] && return 0
    sleep 0.002
  done
}

expect 2 "Usage: memsweep COMMAND" --
expect 0 "Usage: memsweep COMMAND" -- --help
expect 0 "memsweep 0" -- --version
expect 2 "unknown command 'frobnicate'" -- frobnicate
expect 0 "managed-prefetch  cudaMallocManaged with cudaMemPrefetchAsync" -- modes
expect 2 "unknown mode 'bogus'" -- run --modes bogus
# The run-to-run experiment switches (HACKING.md): a bad one stops the run
# before anything is measured or written.
export MEMSWEEP_EXPERIMENT=thp,bogus
expect 2 "MEMSWEEP_EXPERIMENT: unknown switch 'bogus'" -- \
  run --modes host --min-exp 10 --max-exp 10 --out "$tmp/xsw"
check "a bad switch writes nothing" test ! -e "$tmp/xsw-samples.csv" -a ! -e "$tmp/xsw-summary.csv"
# A newline or an escape sequence given in a name or value goes out
# escaped, in whatever message names it: one line, no terminal control.
nl='
'
esc=$(printf '\033')
for args in "plot x --view bandwidth --format svg --out a${nl}b" "run --modes ho${esc}[31mst" \
  "lesson no${nl}such" "show --fromat${esc}[2J x"; do
  # shellcheck disable=SC2086
  (IFS=' '; "$memsweep" $args) >/dev/null 2>"$tmp/err"
  check "escaped in the message: $(printf %s "$args" | od -An -c | tr -s ' ' | head -c 60)" \
    sh -c "[ \$(wc -l <'$tmp/err') -le 2 ] && ! grep -q '$esc' '$tmp/err' && head -1 '$tmp/err' | grep -q '^memsweep [a-z]*: .*\\\\x'"
done
MEMSWEEP_EXPERIMENT=thp,cpu-fixed,order=mode
expect 0 "host" -- \
  run --modes host --min-exp 10 --max-exp 11 --reps 6 --out "$tmp/xsw"
check "switches in the metadata" grep -qx '    "experiment-switches": "thp,cpu-fixed,order=mode",' \
  "$tmp/xsw-meta.json"
unset MEMSWEEP_EXPERIMENT
expect 2 "memsweep run: --max-exp: '29' is not from 0 to 28" -- run --max-exp 29
expect 2 "empty size range: minimum exponent 12 is larger than maximum exponent 11" -- run --min-exp 12 --max-exp 11
expect 2 "memsweep run: --reps: '0' is not from 1 to 100000" -- run --reps 0
expect 2 "memsweep run: --streams: '0' is not from 1 to 64" -- run --streams 0
expect 2 "--reps: 'ten' is not a whole number" -- run --reps ten
expect 2 "--order: 'sideways' is neither depth nor breadth" -- run --order sideways
expect 2 "--reps sets a fixed count, --ci-target belongs to the adaptive rule" -- run --reps 5 --ci-target 1
expect 2 "--ci-target: 'lots' is not a number" -- run --ci-target lots
expect 2 "memsweep run: --ci-target: '0' is not over 0, up to 100" -- run --ci-target 0
expect 2 "memsweep run: --cell-budget: '0' is not over 0, up to 3600000" -- run --cell-budget 0
big=1$(printf '%0400d' 0) # past a double's range
expect_line 2 "memsweep run: --cell-budget: '$big' is out of range" -- run --cell-budget "$big"
# One rule for every number: digits, no exponent (fleet --wait-max 1e3 too).
expect_line 2 "memsweep run: --cell-budget: '1e3' is not a number in digits, with a '.' for a fraction (1000, 2.5; no exponent)" -- run --cell-budget 1e3
expect_line 2 "memsweep fleet: --wait-max: '1e3' is not a number in digits, with a '.' for a fraction (1000, 2.5; no exponent)" -- fleet --wait-max 1e3 --dry-run --dir "$tmp"
expect_line 2 "memsweep: --version takes no arguments" -- --version extra
expect 2 "memsweep run: --min-reps: '0' is not from 1 to 100000" -- run --min-reps 0
expect 2 "memsweep run: --device: '-1' is not from 0 to 2147483647" -- run --device -1
expect_line 0 "memsweep run: note: --device 3 has no effect: the host mode runs on the CPU only" -- run --modes host --device 3 --min-exp 5 --max-exp 5 --reps 1 --out "$tmp/dev3"
expect 2 "unexpected argument 'extra'" -- run extra
expect 2 "memsweep show: exactly one FILE is needed (a samples CSV)" -- show
expect 2 "cannot open: No such file or directory" -- show "$tmp/nothing.csv"
printf 'not,a,memsweep,file\n1,2,3,4\n' >"$tmp/bad.csv"
expect 2 "bad.csv:1: missing column 'mode'" -- show "$tmp/bad.csv"

# Every command's --help, and bad arguments of every command.
expect_line 0 "Usage: memsweep run [OPTIONS]" -- run --help
expect_line 0 "  --step S             exponent step, 1..28 (default 1)" -- run --help
# The rounds' bound is the engine's constant, not a number in the text.
max_rounds=$(sed -n 's/^#define MS_MAX_ROUNDS \([0-9]*\)$/\1/p' "$2/../engine/memsweep.h")
check "MS_MAX_ROUNDS read from engine/memsweep.h" test -n "$max_rounds"
expect_line 0 "--processes x --rounds: at most $max_rounds rounds in all." -- run --help
expect 2 "processes x rounds must be at most $max_rounds" -- run --processes 2 --rounds $((max_rounds / 2 + 1))
expect_line 0 "Usage: memsweep show [OPTIONS] FILE" -- show --help
expect_line 0 "Usage: memsweep info [OPTIONS]" -- info --help
expect_line 0 "Usage: memsweep modes [OPTIONS]" -- modes --help
expect_line 0 "Usage: memsweep fleet-report [OPTIONS] DIR" -- fleet-report --help
expect_line 0 "  --outliers           only the flagged nodes" -- fleet-report --help
expect_line 2 "memsweep modes: unexpected argument 'extra'" -- modes extra
expect 2 "'yaml' is none of table|json|csv|markdown|text" -- modes --format yaml
expect 2 "'yaml' is none of table|json|csv|markdown|text" -- show --format yaml "$2/reference/h100-default-samples.csv.gz"
# -h is --help everywhere.
expect_line 0 "Usage: memsweep show [OPTIONS] FILE" -- show -h
expect_line 0 "Usage: memsweep modes [OPTIONS]" -- modes -h
expect_line 2 "memsweep info: unexpected argument 'extra'" -- info extra
expect_line 2 "memsweep info: --device: '-1' is not a whole number from 0 to 2147483647" -- info --device -1
expect_line 2 "memsweep info: --device: 'x' is not a whole number from 0 to 2147483647" -- info --device x
expect_line 2 "Try 'memsweep info --help'." -- info --bogus
expect_line 2 "Try 'memsweep run --help'." -- run --bogus
expect_line 2 "memsweep show: unknown option '--bogus'" -- show --bogus
expect_line 2 "memsweep show: exactly one FILE is needed (a samples CSV)" -- show a b

# Every option of run: bounds, overflow, words, empties.
expect_line 2 "memsweep run: --step: '2147483647' is not from 1 to 28" -- run --step 2147483647
expect_line 2 "memsweep run: --step: '0' is not from 1 to 28" -- run --step 0
expect_line 2 "memsweep run: --step: '99999999999' is not a whole number" -- run --step 99999999999
expect_line 2 "memsweep run: --min-exp: '-1' is not from 0 to 28" -- run --min-exp -1
expect_line 2 "memsweep run: --min-exp: '2147483648' is not a whole number" -- run --min-exp 2147483648
expect_line 2 "memsweep run: --max-exp: '2147483647' is not from 0 to 28" -- run --max-exp 2147483647
expect_line 2 "memsweep run: --reps: '2147483647' is not from 1 to 100000" -- run --reps 2147483647
expect_line 2 "memsweep run: --warmup: '-2147483648' is not from 0 to 1000" -- run --warmup -2147483648
expect_line 2 "memsweep run: --warmup: '1001' is not from 0 to 1000" -- run --warmup 1001
expect_line 2 "memsweep run: --instrumented-reps: '-1' is not from 0 to 100000" -- run --instrumented-reps -1
expect_line 2 "memsweep run: --instrumented-reps: '100001' is not from 0 to 100000" -- run --instrumented-reps 100001
expect_line 2 "memsweep run: --instrumented-reps: 'all' is not a whole number" -- run --instrumented-reps all
expect_line 2 "memsweep run: --streams: '65' is not from 1 to 64" -- run --streams 65
expect_line 2 "memsweep run: --streams: '4x' is not a whole number" -- run --streams 4x
expect_line 2 "memsweep run: option '--modes' needs a value, not an empty one" -- run --modes ""
expect_line 2 "memsweep run: option '--out' needs a value, not an empty one" -- run --out ""

# The output files are checked before anything is measured.
expect_line 2 "memsweep run: --out: $tmp/missing/p-samples.csv: cannot write: No such file or directory" -- run --modes host --out "$tmp/missing/p"
mkdir "$tmp/dir-samples.csv"
expect_line 2 "memsweep run: --out: $tmp/dir-samples.csv: is a folder" -- run --modes host --out "$tmp/dir"
long=$(printf '%0250d' 0)
expect_line 2 "memsweep run: --out: $tmp/$long-samples.csv: cannot write: File name too long" -- run --modes host --out "$tmp/$long"
printf 'mine\n' >"$tmp/ro-samples.csv"
chmod 444 "$tmp/ro-samples.csv"
expect_line 2 "memsweep run: --out: $tmp/ro-samples.csv: is read-only: not replaced" -- run --modes host --out "$tmp/ro"
check "a read-only target keeps its contents and mode" \
  sh -c "[ \"\$(cat '$tmp/ro-samples.csv')\" = mine ] && [ \"\$(stat -c %a '$tmp/ro-samples.csv')\" = 444 ]"

# The CPU baseline runs anywhere, and what it writes reads back.
expect 0 "End-to-end time" -- run --modes host --min-exp 8 --max-exp 10 --reps 3 --warmup 1 --quiet --out "$tmp/host"
expect 0 "host " -- show "$tmp/host-samples.csv"
[ -s "$tmp/host-summary.csv" ] || { echo "FAIL: no summary written"; fails=$((fails + 1)); }
# The metadata in the run's sidecar; the columns empty in every row (the
# second state of a run without one) left out of the summary. Each by
# name: a cell of two states, which a loaded machine can make of the
# host's own loop, adds its state's columns between them. The fit's
# columns from sizes whose times grow with the size on any machine: at
# 2^8-2^10 (a microsecond each) a load of 15 once made them no steeper
# than flat, the fit's bandwidth unknown and its column empty, so left out.
expect 0 "End-to-end time" -- run --modes host --min-exp 14 --max-exp 18 --step 2 --reps 3 --warmup 1 --quiet --out "$tmp/cols"
missing=
grep -q '^    "instrumented-reps": 3,' "$tmp/host-meta.json" || missing="$missing instrumented-reps"
grep -q '^    "reps-rule": "fixed",' "$tmp/host-meta.json" || missing="$missing reps-rule"
grep -q "e2e_ci_low_us,e2e_ci_high_us" "$tmp/cols-summary.csv" || missing="$missing e2e_ci_low_us,e2e_ci_high_us"
for c in fit_latency_us fit_gbps fit_r2 fit_residual fit_describes_data e2e_states message; do
  head -n 1 "$tmp/cols-summary.csv" | tr ',' '\n' | grep -qx "$c" || missing="$missing $c"
done
[ -z "$missing" ] || {
  echo "FAIL: summary lacks the rule, interval or fit columns:$missing"
  sed 's/^/  /' "$tmp/cols-summary.csv"
  fails=$((fails + 1))
}
expect 0 "at least 6 repetitions until the median's 95% interval is within +-5%" -- run --modes host --min-exp 8 --max-exp 9 --min-reps 6 --ci-target 5 --cell-budget 50 --warmup 0 --quiet --out "$tmp/adaptive"

# What show prints is what the file holds, with or without metadata.
expect_line 0 "holds 3 cells: 1 mode, 3 sizes from 2^8 to 2^10, 3 repetitions per cell with data" -- show "$tmp/host-samples.csv"
# A file without its sidecar: the metadata is unknown, and said so.
cp "$tmp/host-samples.csv" "$tmp/bare.csv"
expect_line 0 "holds 3 cells: 1 mode, 3 sizes from 2^8 to 2^10, 3 repetitions per cell with data" -- show "$tmp/bare.csv"
check "no settings line without metadata" sh -c "! grep -q '^settings:' '$tmp/out'"
check "the missing sidecar is named" grep -q "bare-meta.json: not found" "$tmp/out"

# Settings the metadata claims but no sweep could have had are not shown.
cp "$tmp/host-samples.csv" "$tmp/badmeta-samples.csv"
sed -e 's/^    "step": .*/    "step": 0,/' -e 's/^    "max-exp": .*/    "max-exp": 1073741824,/' \
  "$tmp/host-meta.json" >"$tmp/badmeta-meta.json"
expect_line 0 "holds 3 cells: 1 mode, 3 sizes from 2^8 to 2^10, 3 repetitions per cell with data" -- show "$tmp/badmeta-samples.csv"
check "no settings line from impossible metadata" sh -c "! grep -q '^settings:' '$tmp/out'"
# A reuse lesson whose metadata names step 0 or a huge size: show ends
# (its findings go by the cells present, not the sizes named).
for bad in 's/^# step: .*/# step: 0/' 's/^# max-exp: .*/# max-exp: 1073741824/'; do
  gzip -dc "$2/reference/h100-lesson-reuse-samples.csv.gz" | sed -e "$bad" >"$tmp/reuse-badmeta.csv"
  check "show ends on a reuse lesson with '$bad'" \
    sh -c "timeout 20 '$memsweep' show '$tmp/reuse-badmeta.csv' | grep -q 'zero-copy'"
done

# Control characters from a file reach the terminal escaped.
cp "$tmp/host-samples.csv" "$tmp/evil-samples.csv"
sed 's/^    "device": .*/    "device": "evil\\u001b[31m red",/' "$tmp/host-meta.json" >"$tmp/evil-meta.json"
expect 0 "evil\\\\x1b\[31m red" -- show "$tmp/evil-samples.csv"
check "no raw escape character on the terminal" sh -c "! grep -q \"\$(printf '\\033')\" '$tmp/out'"
# ... and reach an SVG or an HTML report as characters XML 1.0 allows:
# not raw, and not as &#x1b;, which XML forbids too.
check "plot draws a device name with a control character" \
  "$memsweep" plot "$tmp/evil-samples.csv" --view bandwidth --out "$tmp/evil.svg"
check "the SVG with a control character in the device name is XML" \
  python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/evil.svg"
check "report writes a device name with a control character" \
  "$memsweep" report "$tmp/evil-samples.csv" --out "$tmp/evil.html"
for f in evil.svg evil.html; do
  check "$f names the device without a control character" \
    sh -c "grep -q 'evil.\[31m red' '$tmp/$f' && ! grep -qi '&#x1b;' '$tmp/$f' && ! grep -q \"\$(printf '\\033')\" '$tmp/$f'"
done

# Invalid UTF-8 from a file is escaped too, not passed to the terminal.
cp "$tmp/host-samples.csv" "$tmp/badutf-samples.csv"
sed "s/^    \"device\": .*/    \"device\": \"bad$(printf '\377\376')name\",/" "$tmp/host-meta.json" >"$tmp/badutf-meta.json"
# (A sidecar is JSON, UTF-8 by definition: one that is not is named, and
# the metadata is unknown.)
expect 0 "badutf-meta.json:[0-9]*: not UTF-8 text" -- show "$tmp/badutf-samples.csv"
check "no invalid UTF-8 on the terminal" sh -c "! grep -q \"\$(printf '\377')\" '$tmp/out'"
# A file name is printed escaped on every path, success included.
expect 0 "wrote $tmp/esc\\\\x1b\[1mx-samples.csv" -- run --modes host --min-exp 5 --max-exp 5 --reps 1 --out "$tmp/esc$(printf '\033')[1mx"

# CR-only line ends and a byte order mark hide no metadata: the settings
# line and the run id are read as from the plain file.
tr '\n' '\r' <"$tmp/host-samples.csv" >"$tmp/cr-samples.csv"
tr '\n' '\r' <"$tmp/host-summary.csv" >"$tmp/cr-summary.csv"
cp "$tmp/host-meta.json" "$tmp/cr-meta.json"
expect 0 "^settings: sizes 2^8..2^10" -- show "$tmp/cr-samples.csv"
check "CR-only pair: no run id warning" sh -c "! grep -q 'not from the same run' '$tmp/out'"
{ printf '\357\273\277'; cat "$tmp/host-samples.csv"; } >"$tmp/bom-samples.csv"
cp "$tmp/host-summary.csv" "$tmp/bom-summary.csv"
cp "$tmp/host-meta.json" "$tmp/bom-meta.json"
expect 0 "^settings: sizes 2^8..2^10" -- show "$tmp/bom-samples.csv"
check "byte order mark: no run id warning" sh -c "! grep -q 'not from the same run' '$tmp/out'"

# A plain sweep's knobs (run --reuse, --stores) are named in its cells'
# variant; show says which cells they reached.
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
  !v { for (i = 1; i <= NF; i++) if ($i == "variant") v = i; print; next }
  { $v = "\"R=4\""; print }' "$tmp/host-samples.csv" >"$tmp/knob-samples.csv"
# R = 0 would be the engine's plain kernel: refused like any R outside 1..64.
expect_line 2 "memsweep run: --reuse: '0' is not from 1 to 64" -- run --modes pinned --reuse 0
expect_line 2 "memsweep run: --reuse: '65' is not from 1 to 64" -- run --modes pinned --reuse 65
expect_line 0 "knobs: host R=4" -- show "$tmp/knob-samples.csv"
"$memsweep" show "$tmp/host-samples.csv" >"$tmp/out" 2>&1
check "no knobs line for a plain run" sh -c "! grep -q '^knobs:' '$tmp/out'"

# Whatever stands beside the samples as its summary is opened like the
# samples: a FIFO there must not hang show.
cp "$tmp/host-samples.csv" "$tmp/fifo-samples.csv"
mkfifo "$tmp/fifo-summary.csv"
timeout 10 "$memsweep" show "$tmp/fifo-samples.csv" >"$tmp/out" 2>&1
rc=$?
check "a FIFO as the summary does not hang show (rc $rc)" test $rc = 0

# The small files (run-to-run profile, peer and multi-GPU results) are
# refused at once when they are FIFOs, not waited on.
mkfifo "$tmp/fifo-profile.csv" "$tmp/fifo-peer.csv"
timeout -s KILL 10 "$memsweep" run --modes host --min-exp 5 --max-exp 5 --reps 1 --quiet --profile "$tmp/fifo-profile.csv" --out "$tmp/fp" >"$tmp/out" 2>&1
rc=$?
check "a FIFO as --profile is refused at once (rc $rc)" sh -c "[ $rc = 2 ] && grep -q 'not a regular file (a pipe)' '$tmp/out'"
timeout -s KILL 10 "$memsweep" show "$tmp/fifo-peer.csv" >"$tmp/out" 2>&1
rc=$?
check "a FIFO named like a peer file is refused at once (rc $rc)" sh -c "[ $rc != 124 ] && [ $rc != 0 ] && grep -q 'not a regular file (a pipe)' '$tmp/out'"

# A name's extension says its kind in any case: o.CSV is a CSV table,
# and X.CSV is no prefix (it would write X.CSV-samples.csv).
expect 0 "wrote $tmp/o.CSV" -- show "$tmp/host-samples.csv" --out "$tmp/o.CSV"
check "show --out o.CSV writes CSV" grep -q '^mode,variant,' "$tmp/o.CSV"
expect 2 "ends in .CSV, which would write" -- run --modes host --min-exp 8 --max-exp 8 --out "$tmp/X.CSV"
check "run --out X.CSV writes no X.CSV-*" sh -c "! ls '$tmp'/X.CSV-* >/dev/null 2>&1"
# A file that keeps growing is read as it was when opened, not forever.
cp "$tmp/host-samples.csv" "$tmp/grow.csv"
head -c 1000000 /dev/zero | tr '\0' '\n' >"$tmp/lines"
(while [ ! -e "$tmp/stop" ] && [ $(stat -c %s "$tmp/grow.csv") -lt 1000000000 ]; do
  cat "$tmp/lines" >>"$tmp/grow.csv"
done) &
pid=$!
while [ $(stat -c %s "$tmp/grow.csv") -lt 2000000 ]; do sleep 0.01; done
timeout 10 "$memsweep" show "$tmp/grow.csv" >"$tmp/out" 2>&1
rc=$?
touch "$tmp/stop"
wait $pid
# The lines it grows by hold no data: read as opened (0), or refused at
# the limit of lines without data (2, docs/csv.md), never read for ever.
check "a growing file: show ends (rc $rc)" sh -c "[ $rc = 0 ] || { [ $rc = 2 ] && grep -q 'lines' '$tmp/out'; }"
rm -f "$tmp/grow.csv" "$tmp/lines"
# '#' lines hold no rows either: 65,536 of them before the header are
# read, one more is refused with its line (a bomb of them, 21 million in
# 47 KB of gzip, was read for 14 s), in a samples and a summary file.
for kind in samples summary; do
  for n in 65536 65537; do
    { yes '# note: x' | head -n $n; grep -v '^#' "$tmp/host-$kind.csv"; } >"$tmp/notes-$kind.csv"
    "$memsweep" show "$tmp/notes-$kind.csv" >/dev/null 2>"$tmp/err"
    rc=$?
    want=$([ $n = 65536 ] && echo 0 || echo 2)
    check "$n '#' lines in a $kind file: exit $rc, not $want" sh -c "[ $rc = $want ] && { [ $want = 0 ] || grep -q ':65537: more than 65536 lines in a row that hold no data' '$tmp/err'; }"
  done
done
rm -f "$tmp"/notes-*.csv

# A FIFO as a target is written in place, but one that nobody reads is
# refused before the work (it could only fail after it), not a run that
# never ends (its stop signals are blocked then).
mkfifo "$tmp/nobody-samples.csv"
timeout -s KILL 20 "$memsweep" run --modes host --min-exp 5 --max-exp 5 --reps 1 --quiet --out "$tmp/nobody" >"$tmp/out" 2>&1
rc=$?
check "a FIFO nobody reads: run refused at once, nothing measured (rc $rc)" sh -c "[ $rc = 2 ] && grep -qF 'memsweep run: --out $tmp/nobody-samples.csv: is a pipe (FIFO) that nothing reads: refused before any work' '$tmp/out' && ! ls '$tmp'/memsweep-kept-* >/dev/null 2>&1"
# Its reader is this shell (a read end opened before memsweep starts; a
# reader started with & might open it only after memsweep has looked).
mkfifo "$tmp/read-samples.csv"
exec 3<>"$tmp/read-samples.csv"
timeout -s KILL 20 "$memsweep" run --modes host --min-exp 5 --max-exp 5 --reps 1 --quiet --out "$tmp/read" >"$tmp/out" 2>&1
rc=$?
timeout 10 head -n 1 <&3 >"$tmp/read-copy"
exec 3<&-
check "a FIFO that is read gets the samples (rc $rc)" sh -c "[ $rc = 0 ] && grep -q '^# memsweep samples file' '$tmp/read-copy'"

# A pair from two runs is named as such; one written together is not.
expect 0 "End-to-end time" -- run --modes host --min-exp 5 --max-exp 6 --reps 2 --quiet --out "$tmp/other"
cp "$tmp/host-samples.csv" "$tmp/mixed-samples.csv"
cp "$tmp/other-summary.csv" "$tmp/mixed-summary.csv"
cp "$tmp/host-meta.json" "$tmp/mixed-meta.json"
expect 0 "memsweep show: warning: $tmp/mixed-samples.csv and $tmp/mixed-summary.csv are not from the same run" -- show "$tmp/mixed-samples.csv"
"$memsweep" show "$tmp/other-samples.csv" >/dev/null 2>"$tmp/err"
check "a pair written together passes the check" test ! -s "$tmp/err"

# A symbolic link is followed: the link stays, its target gets the data.
mkdir "$tmp/real"
printf 'old\n' >"$tmp/real/s.csv"
ln -s real/s.csv "$tmp/link-samples.csv"
expect 0 "End-to-end time" -- run --modes host --min-exp 5 --max-exp 5 --reps 2 --quiet --out "$tmp/link"
check "the link stays a link" test -L "$tmp/link-samples.csv"
check "the link's target holds the samples" grep -q "^mode,elements,bytes_per_vector,rep," "$tmp/real/s.csv"

# Output errors count: a full disk.
if [ -w /dev/full ]; then
  "$memsweep" show "$tmp/host-samples.csv" >/dev/full 2>"$tmp/out"
  rc=$?
  check "show > /dev/full fails (rc $rc)" sh -c "[ $rc = 4 ] && grep -qxF 'memsweep show: standard output: No space left on device' '$tmp/out'"
fi
rm -f "$tmp/pipe-samples.csv"
# Standard output a pipe whose reader is gone before memsweep starts (in a
# shell pipeline the reader may close after the table was written).
python3 -c 'import os, sys; r, w = os.pipe(); os.close(r); os.dup2(w, 1); os.execv(sys.argv[1], sys.argv[1:])' \
  "$memsweep" run --modes host --min-exp 5 --max-exp 6 --reps 2 --quiet --out "$tmp/pipe" 2>"$tmp/out"
echo $? >"$tmp/rc"
# A reader that stopped reading is a quiet success, as for cat | head (the
# files are written all the same).
check "a closed pipe is a quiet success (rc $(cat "$tmp/rc"))" sh -c "[ $(cat "$tmp/rc") = 0 ] && [ ! -s '$tmp/out' ] && [ -s '$tmp/pipe-samples.csv' ]"
check "a closed pipe still leaves the files" test -s "$tmp/pipe-samples.csv"

# "-" is standard input (show -) and standard output (show --out -); a
# prefix names files, so run --out - is refused before the sweep.
"$memsweep" show "$tmp/host-samples.csv" --format json >"$tmp/named.json" 2>/dev/null
"$memsweep" show - --format json --out - <"$tmp/host-samples.csv" >"$tmp/stdin.json" 2>"$tmp/out"
rc=$?
check "show - --out - reads standard input, writes standard output (rc $rc)" sh -c "[ $rc = 0 ] && grep -q '\"schema\":\"memsweep-results\"' '$tmp/stdin.json' && [ ! -e ./- ]"
check "show - says standard input has no sidecar" grep -qF "memsweep show: warning: -: standard input has no sidecar" "$tmp/out"
check "show - lists the cells show FILE lists" sh -c "grep -o '\"cells\":.*' '$tmp/named.json' | sed 's/\"label\":\"[^\"]*\"//' >'$tmp/a'; grep -o '\"cells\":.*' '$tmp/stdin.json' | sed 's/\"label\":\"[^\"]*\"//' >'$tmp/b'; cmp -s '$tmp/a' '$tmp/b'"
printf 'mode,elements\nnot,a,run\n' | "$memsweep" show - >"$tmp/out" 2>&1
rc=$?
check "show - names standard input as - in a refusal (rc $rc)" sh -c "[ $rc = 2 ] && grep -q '^memsweep show: -:' '$tmp/out'"
check "show - leaves no temporary behind" sh -c "! ls -d \"\${TMPDIR:-/tmp}\"/memsweep-stdin-* 2>/dev/null | grep -q ."
(cd "$tmp" && "$memsweep" run --modes host --min-exp 5 --max-exp 6 --reps 2 --quiet --out - >"$tmp/out" 2>&1)
rc=$?
check "run --out - is refused before the sweep (rc $rc)" sh -c "[ $rc = 2 ] && grep -qF 'memsweep run: --out -: a prefix names files (PREFIX-samples.csv' '$tmp/out' && [ ! -e '$tmp/--samples.csv' ]"

# Names of this process's descriptors (/dev/stdout, /dev/fd/N) are written
# through the descriptor, where it stands: appending where it appends, into
# a pipe where it is one; the file behind it is never replaced.
printf 'old line\n' >"$tmp/log"
"$memsweep" show "$tmp/host-samples.csv" --format json --out /dev/stdout >>"$tmp/log" 2>"$tmp/out"
rc=$?
check "--out /dev/stdout >> log appends (rc $rc)" sh -c "[ $rc = 0 ] && [ \"\$(head -1 '$tmp/log')\" = 'old line' ] && grep -q '\"schema\":\"memsweep-results\"' '$tmp/log'"
"$memsweep" show "$tmp/host-samples.csv" --format json --out /dev/stdout 2>"$tmp/out" | cat >"$tmp/piped"
check "--out /dev/stdout | cat gets the JSON" grep -q '"schema":"memsweep-results"' "$tmp/piped"
{ "$memsweep" show "$tmp/host-samples.csv" --format json --out /dev/fd/3 3>&1 >/dev/null 2>"$tmp/out"; } | cat >"$tmp/piped3"
check "--out /dev/fd/3 on a pipe gets the JSON" grep -q '"schema":"memsweep-results"' "$tmp/piped3"
printf 'kept\n' >"$tmp/fd3"
"$memsweep" show "$tmp/host-samples.csv" --format json --out /dev/fd/3 3>>"$tmp/fd3" 2>"$tmp/out"
check "--out /dev/fd/3 3>> file appends" sh -c "[ \"\$(head -1 '$tmp/fd3')\" = kept ] && grep -q memsweep-results '$tmp/fd3'"
# A device as run's prefix gets both files; nothing is created beside it.
rm -f /dev/null-samples.csv /dev/null-summary.csv 2>/dev/null
expect_line 0 "memsweep run: wrote /dev/null and /dev/null" -- run --modes host --min-exp 5 --max-exp 5 --reps 1 --out /dev/null
check "run --out /dev/null creates no /dev/null-samples.csv" test ! -e /dev/null-samples.csv

# An output that is one of the inputs (same device and inode, under any
# name) is refused before anything is written, for every command.
cp "$tmp/host-samples.csv" "$tmp/in-samples.csv"
cp "$tmp/host-summary.csv" "$tmp/in-summary.csv"
cp "$tmp/in-samples.csv" "$tmp/in-copy"
expect_line 2 "memsweep show: --out: $tmp/in-samples.csv: is one of the inputs: not replaced" -- show "$tmp/in-samples.csv" --format csv --out "$tmp/in-samples.csv"
expect_line 2 "memsweep show: --out: $tmp/in-summary.csv: is one of the inputs: not replaced" -- show "$tmp/in-samples.csv" --format csv --out "$tmp/in-summary.csv"
"$memsweep" show "$tmp/in-samples.csv" --format json --out /dev/stdout >>"$tmp/in-samples.csv" 2>"$tmp/out"
rc=$?
check "--out /dev/stdout >> the input is refused (rc $rc)" sh -c "[ $rc = 2 ] && grep -qxF 'memsweep show: --out: /dev/stdout: is one of the inputs: not replaced' '$tmp/out'"
ln -s in-samples.csv "$tmp/alias.png"
ln -s in-samples.csv "$tmp/alias.pdf"
expect_line 2 "memsweep plot: --out: $tmp/alias.png: is one of the inputs: not replaced" -- plot "$tmp/in-samples.csv" --view bandwidth --out "$tmp/alias.png"
expect_line 2 "memsweep report: --out: $tmp/alias.pdf: is one of the inputs: not replaced" -- report "$tmp/host-samples.csv" "$tmp/in-samples.csv" --out "$tmp/alias.pdf"
check "the input is byte for byte as it was" cmp -s "$tmp/in-samples.csv" "$tmp/in-copy"

# Every command's standard output must arrive: help and dry runs too (fleet's
# asks a stand-in sinfo for the nodes).
mkdir -p "$tmp/fake-slurm"
printf '#!/bin/sh\necho "n1 gpu:1"\n' >"$tmp/fake-slurm/sinfo"
chmod +x "$tmp/fake-slurm/sinfo"
if [ -w /dev/full ]; then
  for c in "plot --help" "report --help" "calibrate --help" "lesson --help" "fleet --help" \
    "fleet-node --help" "multi --help" "peer --help" "fleet-report --help" "lesson LIST" \
    "fleet --dir $tmp/full-fleet --dry-run -- --modes host" "fleet-report $tmp/fleet-full"; do
    mkdir -p "$tmp/fleet-full"
    cp "$tmp/host-samples.csv" "$tmp/fleet-full/n-samples.csv"
    PATH="$tmp/fake-slurm:$PATH" $memsweep $c >/dev/full 2>"$tmp/out"
    rc=$?
    check "$c > /dev/full fails (rc $rc)" sh -c "[ $rc = 4 ] && grep -qxF 'memsweep ${c%% *}: standard output: No space left on device' '$tmp/out'"
  done
fi
expect_line 0 "Usage: memsweep fleet-node [OPTIONS] [-- RUN OPTIONS]" -- fleet-node --help
"$memsweep" multi --help >"$tmp/out" 2>&1
check "multi --help: its own usage only" sh -c "grep -q 'memsweep multi ' '$tmp/out' && ! grep -q 'memsweep peer\|memsweep fleet' '$tmp/out'"
"$memsweep" peer --help >"$tmp/out" 2>&1
check "peer --help: its own usage only" sh -c "grep -q 'memsweep peer ' '$tmp/out' && ! grep -q 'memsweep multi\|memsweep fleet' '$tmp/out'"

# Numbers are decimal, whole where whole, and within range.
expect_line 2 "memsweep run: --ci-target: '0x10' is not a number in digits, with a '.' for a fraction (1000, 2.5; no exponent)" -- run --ci-target 0x10
expect_line 2 "memsweep run: --cell-budget: 'inf' is not a number in digits, with a '.' for a fraction (1000, 2.5; no exponent)" -- run --cell-budget inf
expect_line 2 "memsweep run: --reps: ' 5' is not a whole number" -- run --reps " 5"
expect_line 2 "memsweep lesson: --sizes: '10:20x' is not MIN:MAX or MIN:MAX:STEP: whole size exponents from 0 to 28, MIN at most MAX, STEP 1 or more" -- lesson reuse --sizes 10:20x
expect_line 2 "memsweep lesson: --sizes: '10:20:2:extra' is not MIN:MAX or MIN:MAX:STEP: whole size exponents from 0 to 28, MIN at most MAX, STEP 1 or more" -- lesson reuse --sizes 10:20:2:extra
expect_line 2 "memsweep lesson: --sizes: '99999999999:20' is not MIN:MAX or MIN:MAX:STEP: whole size exponents from 0 to 28, MIN at most MAX, STEP 1 or more" -- lesson reuse --sizes 99999999999:20
expect_line 2 "memsweep fleet-report: --threshold: '0x10' is not a number in digits, with a '.' for a fraction (1000, 2.5; no exponent)" -- fleet-report --threshold 0x10 "$tmp"
expect_line 2 "memsweep plot: --size: ' 800x600' is not WxH with 16..16384 each" -- plot "$tmp/host-samples.csv" --view bandwidth --size " 800x600" --out "$tmp/x.png"
# plot: several files in the order given; the timeline's cell and repetition.
ref=$2/reference
"$memsweep" plot "$ref/h100-default-samples.csv.gz" "$ref/h200-default-samples.csv.gz" --view bandwidth --out "$tmp/two.svg" >"$tmp/out" 2>&1
check "plot takes two files, the first named first" sh -c "grep -o 'H[12]00[^<]*sweep' '$tmp/two.svg' | head -1 | grep -q '^H100'"
"$memsweep" plot "$ref/h200-default-samples.csv.gz" "$ref/h100-default-samples.csv.gz" --view bandwidth --out "$tmp/two.svg" >"$tmp/out" 2>&1
check "plot keeps the command line's order" sh -c "grep -o 'H[12]00[^<]*sweep' '$tmp/two.svg' | head -1 | grep -q '^H200'"
"$memsweep" plot "$ref/h100-default-samples.csv.gz" --view timeline --out "$tmp/tl.svg" >"$tmp/out" 2>&1
check "plot timeline by default: pinned, largest size, repetition 2, the run named" grep -q '>Pinned at 4 MiB per vector, repetition 2 · H100' "$tmp/tl.svg"
# The timeline opens on the data movement, as in the app (a few hundred µs
# from 0); --all-phases on the whole repetition (milliseconds).
check "plot timeline opens on the data movement" sh -c "grep -q '>0 µs<' '$tmp/tl.svg' && grep -q '>250 µs<' '$tmp/tl.svg' && ! grep -q '>2 ms<' '$tmp/tl.svg'"
"$memsweep" plot "$ref/h100-default-samples.csv.gz" --view timeline --all-phases --out "$tmp/tl.svg" >"$tmp/out" 2>&1
check "plot timeline --all-phases: the whole repetition" sh -c "grep -q '>0 ms<' '$tmp/tl.svg' && grep -q '>2 ms<' '$tmp/tl.svg'"
"$memsweep" plot "$ref/h100-lesson-issue-order-samples.csv.gz" --view timeline --variant queue=single/order=depth/K=16 --out "$tmp/tl.svg" >"$tmp/out" 2>&1
check "plot timeline --variant: the lesson's cell, named" grep -q '>Streams (queue=single/order=depth/K=16) at 16 MiB per vector, repetition 2' "$tmp/tl.svg"
expect 2 "has no streams cell with events of variant 'K=99'" -- plot "$ref/h100-lesson-issue-order-samples.csv.gz" --view timeline --variant K=99 --out "$tmp/x.png"
expect_line 2 "memsweep plot: --mode, --size N, --rep, --variant and --all-phases are for --view timeline" -- plot "$ref/h100-default-samples.csv.gz" --view time --all-phases --out "$tmp/x.png"
for size in 20 1048576; do
  "$memsweep" plot "$ref/h100-default-samples.csv.gz" --view timeline --mode pageable --size $size --rep 3 --out "$tmp/tl.svg" >"$tmp/out" 2>&1
  check "plot timeline --mode pageable --size $size --rep 3" grep -q '>Pageable at 4 MiB per vector, repetition 3 · ' "$tmp/tl.svg"
done
"$memsweep" plot "$ref/h100-default-samples.csv.gz" --view timeline --size 12 --out "$tmp/tl.svg" >"$tmp/out" 2>&1
check "plot timeline --size alone: the default mode at that size" grep -q '>Pinned at 16 KiB per vector, repetition 2' "$tmp/tl.svg"
expect_line 2 "memsweep plot: --mode: 'fast' is not a memory mode (see 'memsweep modes')" -- plot "$ref/h100-default-samples.csv.gz" --view timeline --mode fast --out "$tmp/x.png"
expect_line 2 "memsweep plot: --size: '1000' is not an exponent 0..28 or a power of two number of elements" -- plot "$ref/h100-default-samples.csv.gz" --view timeline --size 1000 --out "$tmp/x.png"
expect_line 2 "memsweep plot: --size: '-3' is not an exponent 0..28 or a power of two number of elements" -- plot "$ref/h100-default-samples.csv.gz" --view timeline --size -3 --out "$tmp/x.png"
expect_line 2 "memsweep plot: h100-default-samples.csv has no pinned cell with events at 2^5" -- plot "$ref/h100-default-samples.csv.gz" --view timeline --size 5 --out "$tmp/x.png"
expect 2 "^memsweep plot: --rep: '0' is not a repetition of the cell (1\\.\\.[0-9]*)$" -- plot "$ref/h100-default-samples.csv.gz" --view timeline --rep 0 --out "$tmp/x.png"
expect 2 "^memsweep plot: --rep: '999' is not a repetition of the cell (1\\.\\.[0-9]*)$" -- plot "$ref/h100-default-samples.csv.gz" --view timeline --rep 999 --out "$tmp/x.png"
expect_line 2 "memsweep plot: --mode, --size N, --rep, --variant and --all-phases are for --view timeline" -- plot "$ref/h100-default-samples.csv.gz" --view time --rep 2 --out "$tmp/x.png"
expect_line 2 "memsweep plot: at least one FILE is needed" -- plot --view time --out "$tmp/x.png"
expect_line 2 "memsweep plot: --pixels: '800' is not WxH with 16..16384 each" -- plot "$ref/h100-default-samples.csv.gz" --view time --pixels 800 --out "$tmp/x.png"
# plot --view lesson: a lesson run's picture, as the app draws it, in each
# format; a run of no lesson, or of a lesson without a picture, refused.
for f in png svg pdf; do
  rm -f "$tmp/lesson.$f"
  "$memsweep" plot "$ref/h100-lesson-concurrent-samples.csv.gz" --view lesson --out "$tmp/lesson.$f" >"$tmp/out" 2>&1
  check "plot --view lesson writes $f" test -s "$tmp/lesson.$f"
done
check "plot --view lesson: a PNG" sh -c "head -c 8 '$tmp/lesson.png' | grep -q PNG"
check "plot --view lesson: a PDF" sh -c "head -c 5 '$tmp/lesson.pdf' | grep -q '%PDF'"
check "plot --view lesson: the picture's title and the takeaway in the SVG" sh -c "grep -q '>Each line: K kernels' '$tmp/lesson.svg' && grep -q '>16 streams: ' '$tmp/lesson.svg'"
expect_line 2 "memsweep plot: $ref/h100-default-samples.csv.gz is not a lesson's own run (a plain sweep); --lesson NAME draws a lesson it answers: pinned-pageable, register-allocate, managed-touch, portable, host-link" -- plot "$ref/h100-default-samples.csv.gz" --view lesson --out "$tmp/x.png"
expect_line 2 "memsweep plot: --lesson is for --view lesson" -- plot "$ref/h100-default-samples.csv.gz" --view time --lesson portable --out "$tmp/x.png"
expect_line 2 "memsweep plot: $ref/h100-lesson-duplex-samples.csv.gz does not answer the reuse lesson; --lesson NAME draws a lesson it answers: duplex" -- plot "$ref/h100-lesson-duplex-samples.csv.gz" --view lesson --lesson reuse --out "$tmp/x.png"
# A lesson the page answers with the reuse chart or with timelines: the same.
for l in reuse duplex; do
  "$memsweep" plot "$ref/h100-lesson-$l-samples.csv.gz" --view lesson --out "$tmp/lesson-$l.svg" >"$tmp/out" 2>&1
  check "plot --view lesson draws the $l lesson's answer" test -s "$tmp/lesson-$l.svg"
done
check "plot --view lesson: the reuse chart's axis" grep -q 'reuse' "$tmp/lesson-reuse.svg"
# The takeaway over the picture in large bold type, as the page shows it:
# the document's first text, larger than the picture's title.
check "plot --view lesson: the takeaway first, bold and larger than the title" sh -c "grep -o '<text[^>]*>[^<]*' '$tmp/lesson.svg' | head -n 2 | tr '\\n' ' ' | grep -q 'font-size=\"2[0-9.]*\" font-weight=\"bold\"[^>]*>16 streams: .*font-size=\"1[0-9.]*\" font-weight=\"bold\"[^>]*>Each line: K kernels'"
# A lesson's run is described by the sizes its cells hold, not by its
# first part's sweep settings (batched: 2^8..2^14, its sweep 2^20..2^22).
"$memsweep" plot "$ref/h100-lesson-batched-samples.csv.gz" --view lesson --out "$tmp/lesson-batched.svg" >"$tmp/out" 2>&1
check "plot --view lesson: the caption gives the lesson's sizes" sh -c "grep -qF '>1 KiB to 64 KiB per vector · ' '$tmp/lesson-batched.svg' && ! grep -qF '2^20..2^22' '$tmp/lesson-batched.svg'"
expect 0 "^settings: at least 6 repetitions .* after 1 warm-up; sizes and streams as the lesson sets them per cell" -- show "$ref/h100-lesson-batched-samples.csv.gz"
expect_line 2 "memsweep plot: --view lesson draws one lesson's run, without --mode, --size N, --rep, --variant or --all-phases" -- plot "$ref/h100-lesson-concurrent-samples.csv.gz" --view lesson --rep 2 --out "$tmp/x.png"
# multi checks where its files go before it measures.
expect_line 2 "memsweep multi: --out: $tmp/missing/m-multi.csv: cannot write: No such file or directory" -- multi --out "$tmp/missing/m"

# A signal stops the sweep in the cell it interrupted, which is not counted.
# Sent once the run catches SIGTERM (a state, not a time), into a cell of
# 100000 repetitions that no machine finishes first: wherever it lands
# (before the cell or inside it), the cell is not counted. A run that kept
# no repetition writes nothing, so that an older run of the prefix stays.
printf 'older\n' >"$tmp/term-summary.csv"
"$memsweep" run --modes host --min-exp 20 --max-exp 20 --reps 100000 --warmup 0 --quiet --out "$tmp/term" >/dev/null 2>"$tmp/out" &
pid=$!
wait_catching "$pid" 4000
kill -s TERM $pid
wait $pid
rc=$?
# Stopped before the first repetition was kept: nothing written, the older
# file kept; after it: the partial cell written.
if grep -qxF 'memsweep run: SIGTERM: stopped before any cell was measured: nothing written' "$tmp/out"; then
  check "SIGTERM before a repetition: exit 1, the older file stays (rc $rc)" sh -c "[ $rc = 1 ] && grep -qxF older '$tmp/term-summary.csv'"
else
  check "SIGTERM: exit 1 with the cells counted (rc $rc)" sh -c "[ $rc = 1 ] && grep -qxF 'memsweep run: SIGTERM: cancelled after 0 of 1 cells; partial results kept' '$tmp/out'"
  check "SIGTERM in the cell: its repetitions are written" sh -c "! grep -qxF older '$tmp/term-summary.csv'"
fi

# Out of host memory without warm-ups: not "in a warm-up run".
if ! ldd "$memsweep" 2>/dev/null | grep -q asan; then
  (ulimit -v 400000; exec "$memsweep" run --modes host --min-exp 26 --max-exp 26 --warmup 0 --reps 1 --quiet --out "$tmp/oom") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check "out of host memory: the message says where (rc $rc)" sh -c "[ $rc = 1 ] && grep -qxF '  host 2^26: failed: malloc: out of host memory before the first repetition' '$tmp/out'"
  # ... and standard error says it too, whatever the table's format.
  check "out of host memory: said on standard error" grep -qxF 'memsweep run: 1 of 1 cells failed (host 2^26: failed: malloc: out of host memory before the first repetition)' "$tmp/err"
fi

# GPU modes without a device (or without CUDA in the build) exit 3.
if ! "$memsweep" info >/dev/null 2>&1; then
  expect 3 "no usable CUDA device" -- run --modes pinned --max-exp 10 --quiet --out "$tmp/x"
  expect 3 "no usable CUDA device" -- info
  # portable --out: the file and its sidecar planned before the devices are
  # looked at; a good name goes on to the device (none here), writing nothing.
  mkdir -p "$tmp/pt" "$tmp/pt/bad-portable-meta.json" "$tmp/pt/bad-peer-meta.json"
  expect_line 2 "memsweep portable: --out: $tmp/pt/bad-portable-meta.json: is a folder" -- portable --out "$tmp/pt/bad"
  expect_line 2 "memsweep peer: --out: $tmp/pt/bad-peer-meta.json: is a folder" -- peer --out "$tmp/pt/bad"
  expect 3 "no usable CUDA device" -- portable --out "$tmp/pt/good"
  check "portable --out: nothing written without a device" test ! -e "$tmp/pt/good-portable.csv"
  # host-link --out the same, and the prefix names two files: not standard output.
  mkdir -p "$tmp/pt/bad-host-link-meta.json"
  expect_line 2 "memsweep host-link: --out: $tmp/pt/bad-host-link-meta.json: is a folder" -- host-link --out "$tmp/pt/bad"
  expect 2 "standard output cannot hold" -- host-link --out -
  expect 3 "no usable CUDA device" -- host-link --out "$tmp/pt/good"
  check "host-link --out: nothing written without a device" test ! -e "$tmp/pt/good-host-link.csv"
fi

# The run-to-run spread: separate runs, a profile, wider intervals after.
old_tmpdir=${TMPDIR-}
expect 2 "memsweep calibrate: --runs: '2' is not a whole number from 3 to 64" -- calibrate --runs 2
expect 2 "belongs to run" -- calibrate --no-profile
expect 2 "unknown mode 'bogus'" -- calibrate --runs 3 --modes bogus --out "$tmp/p.csv"
check "calibrate: a failed run writes no profile" test ! -e "$tmp/p.csv"
# Both option forms; the run options, --out and the profile's folder are
# checked before the first run (no run starts: no TMPDIR folder is made).
mkdir "$tmp/calcheck"
export TMPDIR="$tmp/calcheck"
expect_line 2 "memsweep calibrate: --out: $tmp/missing/p.csv: cannot write: No such file or directory" -- calibrate --runs 3 --modes host --out "$tmp/missing/p.csv"
expect_line 2 "memsweep calibrate: --out: $tmp/missing/p.csv: cannot write: No such file or directory" -- calibrate --runs=3 --modes host --out="$tmp/missing/p.csv"
# --ou is calibrate's own --out by the one abbreviation rule: once.
expect_line 2 "memsweep calibrate: option '--out' is given twice: give it once" -- calibrate --runs 3 --modes host --ou="$tmp/p.csv" --out "$tmp/q.csv"
expect_line 2 "memsweep calibrate: --profile belongs to run, not to calibrate" -- calibrate --profile="$tmp/p.csv"
(unset HOME XDG_DATA_HOME; exec "$memsweep" calibrate --runs 3 --modes host --min-exp 5 --max-exp 5 --reps 1) >"$tmp/out" 2>&1
rc=$?
check "calibrate without HOME fails before running (rc $rc)" sh -c "[ $rc = 2 ] && grep -q 'no folder for the profile' '$tmp/out'"
# The default profile's folder cannot be made (XDG_DATA_HOME is a file):
# said before the first run, not after every run.
printf 'not a folder\n' >"$tmp/xdg-file"
XDG_DATA_HOME="$tmp/xdg-file" "$memsweep" calibrate --runs 3 --modes host --min-exp 5 --max-exp 5 --reps 1 >"$tmp/out" 2>&1
rc=$?
check "calibrate: no folder for the default profile, said before running (rc $rc)" sh -c "[ $rc = 2 ] && grep -qxF 'memsweep calibrate: no folder for the profile: $tmp/xdg-file/memsweep/run-to-run-$(uname -n)-host.csv: Not a directory; give --out' '$tmp/out' && ! grep -q 'run 1 of 3' '$tmp/out'"
# The runs' folder is TMPDIR's: a missing one is named as such, not --out.
TMPDIR="$tmp/missing-tmp" "$memsweep" calibrate --runs 3 --modes host --out "$tmp/p.csv" >"$tmp/out" 2>&1
rc=$?
check "calibrate: a missing TMPDIR is named (rc $rc)" sh -c "[ $rc = 2 ] && grep -qxF 'memsweep calibrate: TMPDIR: $tmp/missing-tmp: no folder for the runs: No such file or directory' '$tmp/out'"
check "calibrate: no run was started by the refusals" sh -c "[ -z \"\$(ls -A '$tmp/calcheck')\" ]"
TMPDIR=$old_tmpdir
mkdir "$tmp/caltmp"
export TMPDIR="$tmp/caltmp"
expect 0 "^  host " -- calibrate --runs=3 --modes host --max-exp 11 --reps 6 --warmup 0 --out="$tmp/p.csv"
TMPDIR=$old_tmpdir
check "calibrate: the profile names the host mode" grep -q "^host,10,[0-9]" "$tmp/p.csv"
check "calibrate: the profile is a plain table" sh -c "head -n 1 '$tmp/p.csv' | grep -qx 'mode,exponent,sd_ln_median' && ! grep -q '^#' '$tmp/p.csv'"
check "calibrate: the profile's sidecar has its runs" grep -q '"run-to-run": "3 runs' "$tmp/p-meta.json"
check "calibrate: its runs are removed" sh -c "[ -z \"\$(ls -A '$tmp/caltmp')\" ]"
expect 0 "95% interval for another run's median" -- run --modes host --max-exp 11 --reps 6 --warmup 0 --quiet --profile "$tmp/p.csv" --out "$tmp/rr"
check "run --profile: the run's metadata keeps the spread" grep -q '^    "run-to-run": "3 runs' "$tmp/rr-meta.json"
expect 0 "95% interval for another run's median" -- show "$tmp/rr-samples.csv"
expect 2 "--profile: .*no-such" -- run --modes host --max-exp 10 --profile "$tmp/no-such.csv" --out "$tmp/x"
expect 2 "not a memsweep run-to-run profile" -- run --modes host --max-exp 10 --profile "$tmp/rr-samples.csv" --out "$tmp/x"
# A profile is an input: run's output may not replace it.
cp "$tmp/p.csv" "$tmp/pp-samples.csv"
cp "$tmp/p-meta.json" "$tmp/pp-meta.json"
expect_line 2 "memsweep run: --out: $tmp/pp-samples.csv: is one of the inputs: not replaced" -- run --modes host --max-exp 11 --reps 6 --warmup 0 --quiet --profile "$tmp/pp-samples.csv" --out "$tmp/pp"

for f in "$2"/reference/*-samples.csv.gz; do
  [ -e "$f" ] || continue
  case $f in
  # A lesson's file shows its own table: one row per cell and variant.
  *lesson-*) expect 0 "^mode  *size  variant" -- show "$f" ;;
  *) expect 0 "End-to-end bandwidth" -- show "$f" ;;
  esac
done

# A cell stopped part-way keeps its statistics (docs/csv.md): show prints
# them, as its JSON does, and says the cell stopped.
"$memsweep" run --modes host --min-exp 5 --max-exp 6 --reps 6 --warmup 0 --quiet --out "$tmp/whole" >/dev/null 2>&1
sed '/^"host",64,/s/,"ok",/,"partial",/; /^"host",64,/s/,"",0,/,"stopped after 6 of 9 repetitions",0,/' \
  "$tmp/whole-samples.csv" >"$tmp/part-samples.csv"
"$memsweep" show "$tmp/part-samples.csv" >"$tmp/out" 2>&1
check "show: a partial cell's median is printed" grep -Eq '^256 B +64 +[0-9]+\.[0-9]+$' "$tmp/out"
check "show: a partial cell's interval is printed" grep -Eq '^256 B +64 +\+-[0-9.]+\*?$' "$tmp/out"
check "show: a partial cell is said to have stopped" grep -qxF "  host 2^6: partial: stopped after 6 of 9 repetitions" "$tmp/out"

# Lessons (docs/lessons.md): the list, and every refusal before measuring.
# LIST: the app's cards with their titles, each with its command.
expect_line 0 "Zero-copy against copies, and data reuse" -- lesson LIST
expect_line 0 "  When does zero-copy stop paying off as the kernel reads its data more often?" -- lesson LIST
expect_line 0 "  memsweep lesson managed-touch" -- lesson LIST
# One name per lesson: the app takes the one the command line does.
expect_line 0 "  memsweep-gtk --lesson managed-touch" -- lesson LIST
expect_line 0 "  memsweep-gtk --lesson pinned-pageable" -- lesson LIST
expect_line 2 "memsweep lesson: 'pinned-pageable' is measured by a plain sweep: memsweep run --modes pageable,pinned" -- lesson pinned-pageable
expect_line 0 "  memsweep run --modes pageable,pinned" -- lesson LIST
expect_line 0 "Portable pinned memory (cudaHostAllocPortable)" -- lesson LIST
"$memsweep" lesson LIST >"$tmp/list" 2>&1
check "lesson LIST names the nine sweep lessons and the probe lessons" \
  [ "$(grep -c '^[^ ]' "$tmp/list")" -ge 10 ]
expect_line 0 "Concurrent kernels" -- lesson LIST
expect_line 0 "  memsweep lesson concurrent" -- lesson LIST
expect_line 0 "Usage: memsweep lesson [OPTIONS] LIST|NAME" -- lesson --help
expect 2 "memsweep lesson: one lesson's NAME, or list, is needed" -- lesson
expect_line 2 "memsweep lesson: unknown lesson 'nope' (see 'memsweep lesson LIST')" -- lesson nope
expect_line 2 "memsweep lesson: --sizes: 'big' is not MIN:MAX or MIN:MAX:STEP: whole size exponents from 0 to 28, MIN at most MAX, STEP 1 or more" -- lesson reuse --sizes big
expect_line 2 "memsweep lesson: --reps: '0' is not a whole number from 1 to 100000" -- lesson duplex --reps 0
expect_line 2 "Try 'memsweep lesson --help'." -- lesson reuse --bogus
expect 2 "K = 8 streams need at least 8 elements" -- lesson issue-order --sizes 2:2
# A lesson's whole-number option takes plain decimal digits, as every
# option does: not 1e3, 0x40, +60, 60.0 or a leading blank.
for v in 1e3 0x40 +60 60.0 " 60"; do
  expect_line 2 "memsweep lesson: option 'kernel-us' of lesson 'concurrent' takes a whole number" -- lesson concurrent --option "kernel-us=$v" --out "$tmp/lz"
done
expect_line 2 "memsweep run: --reps: '+5' is not a whole number" -- run --reps +5 --modes host --out "$tmp/x"
# A name with a control character is shown escaped, as everywhere.
expect_line 2 "memsweep lesson: --out: $tmp/missing/a\\x1b[2J-samples.csv: cannot write: No such file or directory" -- lesson reuse --out "$tmp/missing/a$(printf '\033')[2J"
# A lesson's isolated parts go through TMPDIR: a missing one is said first.
TMPDIR="$tmp/missing-tmp" "$memsweep" lesson reuse --out "$tmp/lz" >"$tmp/out" 2>&1
rc=$?
check "lesson: a missing TMPDIR is said before measuring (rc $rc)" sh -c "[ $rc = 2 ] && grep -qxF 'memsweep lesson: TMPDIR: $tmp/missing-tmp: no folder for the runs: No such file or directory' '$tmp/out'"

# The health and the envelope follow the tables: every reference run reads
# normal; a damaged envelope row is refused with file:line and the rest used.
expect 0 "^  PCIe link under load: gen5 x16 (its maximum); no throttling, clocks steady; correctable errors: not readable; replays: 0 during the run ([0-9]* before)$" -- show "$2/reference/h100-default-samples.csv.gz"
for f in "$2"/reference/h100-default-samples.csv.gz "$2"/reference/h200-default-samples.csv.gz; do
  expect 0 ": 4 normal, 0 low, 0 high of 4 figures in this run" -- show "$f"
done
expect 0 '"verdict":"normal"' -- show "$2/reference/h200-default-samples.csv.gz" --format json
expect 0 '"envelope":{"gpu":"H100"' -- show "$2/reference/h100-default-samples.csv.gz" --format json
{ cat "$2/envelopes.csv"; echo 'H100,gen5 x16,pinned-d2h-4MiB,60,70,GB/s,a second row'; } >"$tmp/env.csv"
n=$(wc -l <"$tmp/env.csv")
expect 0 "env.csv:$n: a second row for H100" -- show "$2/reference/h100-default-samples.csv.gz" --envelopes "$tmp/env.csv"
expect 0 "pinned d2h at 4 MiB [0-9.]* GB/s: normal" -- show "$2/reference/h100-default-samples.csv.gz" --envelopes "$tmp/env.csv"
{ grep -v '^H100,gen5 x16,pinned-h2d-256MiB,' "$2/envelopes.csv"; echo 'H100,gen5 x16,pinned-h2d-256MiB,60,70,GB/s,too high'; } >"$tmp/env-high.csv"
expect 0 "pinned h2d at 256 MiB 53.1 GB/s: low, 11 % below the expected 60.0–70.0 for H100" -- show "$2/reference/h100-large-samples.csv.gz" --envelopes "$tmp/env-high.csv"
# A file named by --envelopes that is none is refused, as any input that
# cannot be read (2), never passed over with a warning.
printf 'mode,elements\n"pinned",1024\n' >"$tmp/foreign.csv"
expect 2 "foreign.csv:1: not an envelope file" -- show "$2/reference/h100-default-samples.csv.gz" --envelopes "$tmp/foreign.csv"
head -1 "$2/envelopes.csv" >"$tmp/none.csv"
MEMSWEEP_ENVELOPES="$tmp/none.csv" "$memsweep" show "$2/reference/h100-default-samples.csv.gz" >"$tmp/out" 2>&1
check "show works without an envelope for the GPU" grep -q "No envelope for this GPU" "$tmp/out"
# A file MEMSWEEP_ENVELOPES names is named by the user as --envelopes is:
# one that cannot be read is refused the same way, by show and report.
export MEMSWEEP_ENVELOPES="$tmp/foreign.csv"
expect 2 "MEMSWEEP_ENVELOPES: .*foreign.csv:1: not an envelope file" -- show "$2/reference/h100-default-samples.csv.gz" --format json
MEMSWEEP_ENVELOPES="$tmp/missing.csv"
expect 2 "MEMSWEEP_ENVELOPES: .*missing.csv: cannot open" -- report "$2/reference/h100-default-samples.csv.gz" --out "$tmp/env-report.html"
unset MEMSWEEP_ENVELOPES
check "report: nothing written for a bad MEMSWEEP_ENVELOPES" test ! -e "$tmp/env-report.html"

# Every whole-number option of every command is read by one strict rule:
# "2x", " 2", "+2" or "abc" is refused with a message naming the option and
# exit 2, never taken as 2 or 0.
ref="$2/reference/h100-default-samples.csv.gz"
for bad in 2x " 2" +2 abc ""; do
  for case in "info --device" "multi --devices" "multi --reps" "multi --min-exp" \
    "multi --max-exp" "multi --step" "multi --warmup" "peer --exp" "portable --reps" \
    "lesson issue-order --reps" "lesson issue-order --min-reps" "lesson issue-order --warmup" "lesson issue-order --device" \
    "lesson issue-order --parts" "__lesson-part issue-order --parts" "calibrate --runs" \
    "run --reps" "run --streams" "fleet --dir $tmp/f --nodes" "fleet --dir $tmp/f --time" \
    "fleet --dir $tmp/f --gpus-per-node" "fleet-node --dir $tmp/f --gpus" \
    "plot $ref --view timeline --out $tmp/x.png --rep" \
    "plot $ref --view timeline --out $tmp/x.png --size" \
    "plot $ref --view bandwidth --out $tmp/x.png --pixels"; do
    opt=${case##* }
    # shellcheck disable=SC2086
    expect 2 "^memsweep.*$opt" -- $case "$bad"
  done
done
check "a bad whole number writes nothing" test ! -e "$tmp/f" -a ! -e "$tmp/x.png"

echo "cli: $fails failed"
[ "$fails" = 0 ]
