#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-faults.sh MEMSWEEP FAULT_EXPORT INTERPOSER: the fault matrix. For every
# writer (samples CSV, summary CSV, PNG, SVG, PDF; memsweep's JSON, plot and
# PDF and HTML reports) one step of writing fails
# (ENOSPC, EIO, a short write, fsync, close, rename) through an LD_PRELOAD
# interposer; afterwards the old files must be byte-identical, no temporary
# may be left, the message must name the file and the reason, and the exit
# status must say so. Every fault must really fire.
memsweep=$1 export_drawing=$2 interposer=$3
# Under AddressSanitizer its runtime must come first in the preload list.
for program in "$memsweep" "$export_drawing"; do
  asan=$(ldd "$program" 2>/dev/null | awk '/libasan/ { print $3 }')
  [ -n "$asan" ] && interposer=$asan:$3
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 cases=0
ENOSPC=28 EIO=5 EACCES=13 EROFS=30

fail() {
  echo "FAIL: $*"
  sed 's/^/  | /' "$tmp/out"
  fails=$((fails + 1))
}

# The input of the writers that read a run.
"$memsweep" run --modes host --min-exp 10 --max-exp 12 --reps 6 --warmup 0 --quiet \
  --out "$tmp/in" >/dev/null 2>&1 || echo "FAIL: no input run for the report writers"
input=$tmp/in-samples.csv
# The file each writer writes.
file_of() {
  case $1 in
  json) echo r.json ;;
  report-pdf) echo r.pdf ;;
  report-html) echo r.html ;;
  plot) echo plot.svg ;;
  *) echo "chart.$1" ;;
  esac
}

# write_with WRITER DIR [FILE]: writes the writer's file(s) in DIR.
write_with() {
  out=$2/${3:-$(file_of "$1")}
  case $1 in
  samples | summary | meta)
    "$memsweep" run --modes host --min-exp 0 --max-exp 10 --reps 20 --warmup 0 --quiet \
      --out "$2/p" ;;
  json) "$memsweep" show "$input" --format json --out "$out" ;;
  report-pdf | report-html) "$memsweep" report "$input" --out "$out" ;;
  plot) "$memsweep" plot "$input" --view bandwidth --out "$out" ;;
  *) "$export_drawing" "$out" ;;
  esac
}

# one WRITER OP NTH ERRNO REASON
one() {
  writer=$1 op=$2 nth=$3 code=$4 reason=$5
  cases=$((cases + 1))
  dir=$tmp/$writer-$op-$nth-$code
  mkdir "$dir"
  case $writer in
  samples | summary | meta)
    # The run's three files: the CSV pair and its sidecar (the metadata).
    printf 'old samples\n' >"$dir/p-samples.csv"
    printf 'old summary\n' >"$dir/p-summary.csv"
    printf 'old meta\n' >"$dir/p-meta.json"
    match=p-$writer.csv
    [ "$writer" = meta ] && match=p-meta.json
    target=$dir/$match want_rc=4 ;;
  *)
    match=$(file_of "$writer")
    printf 'old chart\n' >"$dir/$match"
    # memsweep's own writers exit 4 when a file is not written
    # (docs/cli.md); the drawing library's test program exits 1.
    want_rc=4
    case $writer in png | svg | pdf) want_rc=1 ;; esac
    target=$dir/$match ;;
  esac
  cp -p "$dir"/* "$tmp/" 2>/dev/null
  ls "$dir" >"$tmp/before"
  MS_FAULT_OP=$op MS_FAULT_NTH=$nth MS_FAULT_ERRNO=$code MS_FAULT_MATCH=$match \
    MS_FAULT_FIRED=$tmp/fired LD_PRELOAD=$interposer write_with "$writer" "$dir" \
    >"$tmp/out" 2>&1
  rc=$?
  what="$writer: $op #$nth errno $code"
  if [ ! -e "$tmp/fired" ]; then
    fail "$what: the fault never fired"
    return
  fi
  rm -f "$tmp/fired"
  [ "$rc" = "$want_rc" ] || fail "$what: exit status $rc, want $want_rc"
  grep -qF -- "$target: " "$tmp/out" || fail "$what: the message does not name $target"
  grep -qF -- "$reason" "$tmp/out" || fail "$what: the message does not say '$reason'"
  for f in $(cat "$tmp/before"); do
    cmp -s "$dir/$f" "$tmp/$f" || fail "$what: $f changed"
  done
  # A run that cannot be written is kept, whole, in a folder of its own
  # (docs/cli.md), and the message says where.
  named=$(sed -n 's|.*what was measured is kept in \(.*\)/p-samples.csv and .*|\1|p' "$tmp/out")
  # Where no folder takes the samples (the fault follows their name), the
  # summary alone is kept, and said so.
  for kept in "$dir"/memsweep-kept-* $named; do
    [ -d "$kept" ] || continue
    files="p-samples.csv p-summary.csv p-meta.json"
    said="what was measured is kept in $kept/p-samples.csv"
    if grep -qF -- "only the summary (each cell's statistics), kept in $kept/p-summary.csv" \
      "$tmp/out"; then
      files="p-summary.csv p-meta.json" said="kept in $kept/p-summary.csv"
    fi
    for f in $files; do
      [ -s "$kept/$f" ] || fail "$what: $f not in $kept"
    done
    grep -qF -- "$said" "$tmp/out" || fail "$what: where the run is kept is not said"
    rm -rf "$kept"
  done
  ls "$dir" | cmp -s - "$tmp/before" || { ls "$dir" >"$tmp/out"; fail "$what: files left over"; }
}

# plot and report exist where memsweep was built with Cairo and Pango.
drawing_writers=""
"$memsweep" report --help >/dev/null 2>&1 && drawing_writers="plot report-pdf report-html"
for writer in samples summary meta png svg pdf json $drawing_writers; do
  one "$writer" write 1 $ENOSPC "No space left on device"
  one "$writer" write 1 $EIO "Input/output error"
  # The summary, the sidecar, the JSON, an SVG and the HTML page go out in a
  # single write.
  case $writer in summary | meta | json | svg | plot | report-html) ;; *)
    one "$writer" write 2 $EIO "Input/output error" ;;
  esac
  one "$writer" short 1 0 "No space left on device"
  one "$writer" fsync 1 $EIO "Input/output error"
  one "$writer" close 1 $EIO "Input/output error"
  one "$writer" rename 1 $EACCES "Permission denied"
  one "$writer" rename 1 $EROFS "Read-only file system"
done

# Without a fault every writer replaces its file and leaves nothing else.
for writer in samples png svg pdf json $drawing_writers; do
  dir=$tmp/ok-$writer
  mkdir "$dir"
  write_with "$writer" "$dir" >"$tmp/out" 2>&1 || fail "$writer without a fault"
  n=$(ls -A "$dir" | wc -l)
  want=1
  [ "$writer" = samples ] && want=3
  [ "$n" = "$want" ] || { ls -A "$dir" >"$tmp/out"; fail "$writer without a fault: $n files"; }
done

# A full device (written in place, through a link with the file's name) and a
# read-only target, for memsweep's own writers.
for writer in json $drawing_writers; do
  dir=$tmp/full-$writer
  mkdir "$dir"
  name=$(file_of "$writer")
  ln -s /dev/full "$dir/$name"
  write_with "$writer" "$dir" >"$tmp/out" 2>&1
  rc=$?
  [ "$rc" = 4 ] || fail "$writer onto /dev/full: exit status $rc, want 4"
  grep -qF "No space left on device" "$tmp/out" || fail "$writer onto /dev/full: no reason"
  rm "$dir/$name"
  printf 'mine\n' >"$dir/$name"
  chmod 444 "$dir/$name"
  write_with "$writer" "$dir" >"$tmp/out" 2>&1 && fail "$writer: a read-only file was replaced"
  grep -qF "$dir/$name: is read-only: not replaced" "$tmp/out" || fail "$writer: read-only message"
  [ "$(cat "$dir/$name")" = mine ] || fail "$writer: the read-only file changed"
  [ "$(ls -A "$dir")" = "$name" ] || { ls -A "$dir" >"$tmp/out"; fail "$writer: files left over"; }
done

# The policy for charts as for CSV: links followed, devices written in place,
# read-only files refused.
dir=$tmp/policy
mkdir "$dir" "$dir/real"
printf 'old\n' >"$dir/real/c.pdf"
ln -s real/c.pdf "$dir/link.pdf"
"$export_drawing" "$dir/link.pdf" >"$tmp/out" 2>&1 || fail "export through a link"
[ -L "$dir/link.pdf" ] && head -c 4 "$dir/real/c.pdf" | grep -q '%PDF' || fail "the link was not followed"
ln -s /dev/null "$dir/null.png"
"$export_drawing" "$dir/null.png" >"$tmp/out" 2>&1 || fail "export to a character device"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
printf 'mine\n' >"$dir/ro.svg"
chmod 444 "$dir/ro.svg"
"$export_drawing" "$dir/ro.svg" >"$tmp/out" 2>&1 && fail "a read-only chart was replaced"
grep -qxF "fault-export: $dir/ro.svg: is read-only: not replaced" "$tmp/out" || fail "read-only message"
[ "$(cat "$dir/ro.svg")" = mine ] && [ "$(stat -c %a "$dir/ro.svg")" = 444 ] || fail "read-only chart changed"
ls "$dir" | cmp -s - /dev/stdin <<EOF2 || { ls "$dir" >"$tmp/out"; fail "policy: files left over"; }
link.pdf
null.png
real
ro.svg
EOF2

# Two writers of one prefix: A pauses between the renames of its pair (after
# its samples, before its summary) while B tries the same prefix; each
# step waits for a state (a marker file), never for a time. The pair left
# must be one writer's: show finds one run id in both files.
# wait_for FILE PID: until FILE exists, or PID has ended (bounded).
wait_for() {
  i=0
  while [ ! -e "$1" ] && kill -0 "$2" 2>/dev/null && [ $i -lt 6000 ]; do
    sleep 0.01
    i=$((i + 1))
  done
}
dir=$tmp/two-writers
mkdir "$dir"
two_run() {
  "$memsweep" run --modes host --min-exp 5 --max-exp 6 --reps 3 --warmup 0 --quiet --out "$dir/P"
}
LD_PRELOAD=$interposer MS_FAULT_OP=pause MS_FAULT_MATCH="P-samples.csv.memsweep-" \
  MS_FAULT_FIRED="$dir/a-paused" MS_FAULT_GO="$dir/go" two_run >/dev/null 2>"$tmp/out-a" &
a=$!
wait_for "$dir/a-paused" $a
LD_PRELOAD=$interposer MS_FAULT_LOCKING="$dir/b-locking" two_run >/dev/null 2>"$tmp/out-b" &
b=$!
wait_for "$dir/b-locking" $b
touch "$dir/go"
wait $a
rc_a=$?
wait $b
rc_b=$?
"$memsweep" show "$dir/P-samples.csv" >/dev/null 2>"$tmp/out"
cat "$tmp/out-a" "$tmp/out-b" >>"$tmp/out"
cases=$((cases + 1))
# B is refused before any work while A holds the prefix (docs/cli.md,
# "One command a file at a time"): exit 2, the other process named. Were
# the hold not possible here (a file system without locks), B waits for
# A's pair and writes its own after it: exit 0.
if [ ! -e "$dir/a-paused" ] || [ $rc_a != 0 ] || grep -q "not from the same run" "$tmp/out" ||
  { [ $rc_b != 0 ] && ! { [ $rc_b = 2 ] && grep -q "another memsweep" "$tmp/out-b"; }; }; then
  fail "two writers of one prefix: rc $rc_a and $rc_b, a mixed pair or a failed writer"
  sed 's/^/  | /' "$tmp/out"
fi
[ "$(ls -A "$dir" | grep -c memsweep-)" = 0 ] || { ls -A "$dir" >"$tmp/out"; fail "two writers: temporaries left"; }

echo "faults: $cases cases, $fails failed"
[ "$fails" = 0 ]
