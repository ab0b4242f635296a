#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-signals.sh MEMSWEEP [SEED]: the signal matrix. SIGINT, SIGTERM, SIGHUP
# and SIGKILL land at seeded random points of a host-mode run whose output
# files (samples, summary and their sidecar PREFIX-meta.json) already
# exist; afterwards the folder must hold either the old files byte for byte
# or a new, complete set from one run (readable, the sidecar describing
# both), never a half set, and no temporary (after SIGKILL at most
# temporaries, and a half set only when SIGKILL fell between the renames:
# then the sidecar's sizes or the run ids tell every reader).
# A second SIGINT still writes what finished; a third ends memsweep at once.
memsweep=$1 seed=${2:-20261122}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 cases=0 cancelled=0 finished=0 early=0

# Every program this test signals starts with the signals it sends at their
# default: the test inherits its parent's dispositions (nohup or a CI runner
# ignores SIGHUP, a background job starts with SIGINT ignored), which
# memsweep rightly keeps where it has no stop handler (plot, report), so a
# case would test the parent, not memsweep. env resets them in the child
# before exec (coreutils 8.31 and on; Debian 12 has 9.1).
sent=INT,TERM,HUP
sent_mask=4003 # signals 1, 2 and 15 (HUP, INT, TERM) in /proc's masks
if ! env --default-signal=$sent true 2>/dev/null; then
  echo "SKIP: env --default-signal is missing (coreutils before 8.31)"
  exit 77
fi
defaults() { exec env --default-signal=$sent "$@"; }

# ignored_in PID: the sent signals PID ignores, as a mask (0 for none;
# empty when PID has ended); "self": from a status file on stdin.
ignored_in() {
  status=/proc/$1/status
  [ "$1" = self ] && status=/dev/stdin
  while read -r key value _; do
    [ "$key" = SigIgn: ] && echo $((0x$value & 0x$sent_mask)) && return 0
  done <"$status" 2>/dev/null
}
# The reset took: a child started as the cases start theirs (in the
# background, under whatever this test inherited) ignores none of them.
(defaults cat /proc/self/status >"$tmp/probe") &
wait $!
ignored=$(ignored_in self <"$tmp/probe")
[ "$ignored" = 0 ] || { echo "FAIL: the reset left signals ignored (mask $ignored)"; exit 1; }

run() {
  defaults "$memsweep" run --modes host --min-exp 0 --max-exp 14 --reps 20 --warmup 0 --quiet \
    --out "$1/p" >/dev/null 2>"$1/err"
}

# ready PID: waits until PID catches SIGHUP, SIGINT and SIGTERM (bits 1, 2
# and 15 of SigCgt), or has ended. Before main() installs the handlers a
# signal ends any program; how long the loader takes is the machine's
# business (over 200 ms was seen on a loaded 2-core CI machine), so the
# random delays count from this point.
ready() {
  while :; do
    state= mask=
    while read -r key value _; do
      case $key in
      State:) state=$value ;;
      SigCgt:) mask=$value ;;
      esac
    done 2>/dev/null <"/proc/$1/status" || return 0
    case $state in '' | Z | X) return 0 ;; esac
    [ $((0x$mask & 0x$sent_mask)) = $((0x$sent_mask)) ] && return 0
    sleep 0.002
  done
}

fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

# check DIR SIGNAL RC: the pair is old or new and whole.
check() {
  dir=$1 sig=$2 rc=$3 what="$2 case $cases (exit $3)"
  if cmp -s "$dir/p-samples.csv" "$tmp/old-samples.csv" &&
    cmp -s "$dir/p-summary.csv" "$tmp/old-summary.csv" &&
    cmp -s "$dir/p-meta.json" "$tmp/old-meta.json"; then
    :
  elif "$memsweep" show "$dir/p-samples.csv" >/dev/null 2>"$dir/show" && [ ! -s "$dir/show" ]; then
    # Quiet: the sidecar describes both files (their sizes), one run id.
    grep -q '"run-id": "[0-9a-f]\{16\}"' "$dir/p-meta.json" || fail "$what: no run id"
  elif [ "$sig" = KILL ] && grep -q -e "are not from the same run" -e "describes another run" \
    "$dir/show"; then
    # SIGKILL between the two renames (microseconds) cannot be undone; the
    # run ids show it to every reader.
    echo "note: $what: SIGKILL between the renames, the mixed pair was detected"
  else
    fail "$what: neither the old pair nor a whole new one"
    sed 's/^/  | /' "$dir/show" "$dir/err"
  fi
  left=$(ls "$dir" | grep -v -x -e p-samples.csv -e p-summary.csv -e p-meta.json -e err -e show)
  if [ -n "$left" ] && [ "$sig" != KILL ]; then
    fail "$what: left behind: $left"
  fi
  case $rc in
  0) finished=$((finished + 1)) ;;
  1) cancelled=$((cancelled + 1))
     [ "$sig" = KILL ] || grep -q "SIG$sig" "$dir/err" || fail "$what: no word of SIG$sig"
     ;;
  *) early=$((early + 1)) ;;
  esac
  case "$sig:$rc" in
  KILL:137 | KILL:0) ;;
  KILL:*) fail "$what: SIGKILL but exit $rc" ;;
  *:0 | *:1) ;;
  # Ended by the signal itself: only a second SIGINT may do that, since
  # every signal here is sent after memsweep has caught them (see ready).
  INT:130) [ "${4:-}" = second ] || fail "$what: ended by SIGINT" ;;
  *) fail "$what: exit $rc" ;;
  esac
}

(run "$tmp") && cp "$tmp/p-samples.csv" "$tmp/old-samples.csv" && cp "$tmp/p-summary.csv" "$tmp/old-summary.csv" &&
  cp "$tmp/p-meta.json" "$tmp/old-meta.json" ||
  { echo "FAIL: the first run"; exit 1; }
start=$(date +%s.%N)
(run "$tmp")
duration=$(echo "$start $(date +%s.%N)" | awk '{ print $2 - $1 }')

# 60 points per signal, spread over 1.1 run times so that some land after it.
# The signals take turns, so that a slow machine that runs out of the time
# budget (60 s) still tests each of them as often.
awk -v seed="$seed" -v d="$duration" 'BEGIN { srand(seed); split("INT TERM HUP KILL", s, " ");
  for (i = 0; i < 240; i++) printf "%s %.4f\n", s[i % 4 + 1], rand() * d * 1.1 }' >"$tmp/points"
budget_end=$(($(date +%s) + 60))
while read -r sig delay; do
  if [ "$(date +%s)" -ge "$budget_end" ] && [ $((cases % 4)) = 0 ]; then
    echo "note: the 60 s budget ended the matrix after $cases cases"
    break
  fi
  cases=$((cases + 1))
  dir=$tmp/c$cases
  mkdir "$dir"
  cp "$tmp/old-samples.csv" "$dir/p-samples.csv"
  cp "$tmp/old-summary.csv" "$dir/p-summary.csv"
  cp "$tmp/old-meta.json" "$dir/p-meta.json"
  run "$dir" &
  pid=$!
  ready "$pid"
  sleep "$delay"
  kill -s "$sig" "$pid" 2>/dev/null
  # (the shell's "Killed" notices are not ours)
  { wait "$pid"; } 2>/dev/null
  check "$dir" "$sig" $? "$delay"
  rm -rf "$dir"
done <"$tmp/points"

# A signal sent the moment memsweep shows SIGINT, SIGTERM and SIGHUP as
# caught stops the run, never ends it: the handlers that show first must be
# the stop handlers. (They were not: main caught those signals first with
# handlers that end the program, and run replaced them only after its
# options; a signal in between ended memsweep with 128 + signal, in 7 of
# 251 cases on a busy 2-core machine.) The interposer holds memsweep right
# after main's handlers, where a busy machine may stop it, so that a signal
# sent at once lands there every time.
if [ -n "${MS_SLOW_HANDLERS:-}" ]; then
  for sig in TERM HUP INT TERM HUP INT; do
    cases=$((cases + 1))
    dir=$tmp/window$cases
    mkdir "$dir"
    cp "$tmp/old-samples.csv" "$dir/p-samples.csv"
    cp "$tmp/old-summary.csv" "$dir/p-summary.csv"
    cp "$tmp/old-meta.json" "$dir/p-meta.json"
    (defaults env LD_PRELOAD="$MS_SLOW_HANDLERS" MS_SLOW_SIGNAL=14 MS_SLOW_MS=300 "$memsweep" \
      run --modes host --min-exp 0 --max-exp 14 --reps 20 --warmup 0 --quiet --out "$dir/p" \
      >/dev/null 2>"$dir/err") &
    pid=$!
    ready "$pid"
    kill -s "$sig" "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    rc=$?
    [ "$rc" = 1 ] || fail "SIG$sig as soon as caught: exit $rc, want 1 (stopped)"
    check "$dir" "$sig" "$rc"
    rm -rf "$dir"
  done
fi

# A second SIGINT (a scheduler often stops a job twice within
# milliseconds) still writes what finished, given as long as a supervisor
# gives its children (2 s); a third ends the program at once, without
# temporaries. The first lands inside a 2^26 repetition (about a second on
# the host), which the sweep would finish before stopping. (At 2^24 the
# first could end the run within 20 ms on a fast host, before the second
# was sent.) Each step waits for a state, never a time: the first once the
# cell's buffers are in memory (the repetitions have begun), the next once
# the one before has been delivered (two pending SIGINTs would be one).
# wait_rss PID KB: until PID's resident memory reaches KB, or it has ended.
wait_rss() {
  while :; do
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
    [ -z "$rss" ] || [ "$rss" -ge "$2" ] && return 0
    sleep 0.002
  done
}
# wait_delivered PID: until no SIGINT is pending for PID, or it has ended.
wait_delivered() {
  while :; do
    pending=$(awk '/^(SigPnd|ShdPnd):/ { printf "%s ", $2 }' "/proc/$1/status" 2>/dev/null)
    [ -z "$pending" ] && return 0
    stuck=0
    for p in $pending; do
      [ $((0x$p & 0x2)) = 0 ] || stuck=1
    done
    [ $stuck = 0 ] && return 0
    sleep 0.001
  done
}
# interrupt PID N: SIGINT N times, each once the one before was delivered
# and while PID runs; how many were sent.
interrupt() {
  sent_n=0
  while [ $sent_n -lt "$2" ]; do
    state=$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
    { [ -n "$state" ] && [ "$state" != Z ] && kill -s INT "$1" 2>/dev/null; } || break
    sent_n=$((sent_n + 1))
    wait_delivered "$1"
  done
  echo $sent_n
}
seconds_tested=0 thirds_tested=0
for i in 1 2 3 4 5 6; do
  cases=$((cases + 1))
  dir=$tmp/twice$i
  mkdir "$dir"
  cp "$tmp/old-samples.csv" "$dir/p-samples.csv"
  cp "$tmp/old-summary.csv" "$dir/p-summary.csv"
  cp "$tmp/old-meta.json" "$dir/p-meta.json"
  (defaults "$memsweep" run --modes host --min-exp 26 --max-exp 26 --reps 5 --warmup 0 --quiet \
    --out "$dir/p" >/dev/null 2>"$dir/err") &
  pid=$!
  ready "$pid"
  # Three vectors of 2^26 floats: 768 MiB once they are written.
  wait_rss "$pid" 700000
  # Cases 1-3 send two, 4-6 three. The first SIGINT may already have
  # ended the run (it stops within the repetition and writes quickly):
  # then there is no second one to test.
  want=2
  [ $i -gt 3 ] && want=3
  t0=$(date +%s.%N)
  n=$(interrupt "$pid" $want)
  t1=$(date +%s.%N)
  wait "$pid"
  rc=$?
  waited=$(echo "$t1 $(date +%s.%N)" | awk '{ print $2 - $1 }')
  if [ "$n" -lt 2 ]; then
    [ "$rc" = 1 ] || fail "SIGINT before the second: exit $rc, want 1"
    check "$dir" INT "$rc"
    continue
  fi
  if [ "$n" = 2 ]; then
    # Written (exit 1), or ended 2 s after the second if the repetition
    # and the write took longer on a loaded machine.
    seconds_tested=$((seconds_tested + 1))
    grep -q "second stop signal" "$dir/err" || fail "second SIGINT: not said: $(cat "$dir/err")"
    took=$(echo "$t0 $(date +%s.%N)" | awk '{ print $2 - $1 }')
    case $rc in
    1) ;;
    130)
      grep -q "ended at once" "$dir/err" || fail "second SIGINT: ended, not said"
      awk -v w="$waited" 'BEGIN { exit !(w >= 1.9) }' ||
        fail "second SIGINT: ended after $waited s, within the 2 s it has to write"
      ;;
    *) fail "second SIGINT: exit $rc, want 1 (written) or 130 (the grace ran out)" ;;
    esac
    awk -v w="$took" 'BEGIN { exit !(w < 6) }' || fail "second SIGINT: took $took s to end"
    check "$dir" INT "$rc" second
    continue
  fi
  # The third: ended at once, unless the write was done before it landed.
  thirds_tested=$((thirds_tested + 1))
  case $rc in
  1) ;;
  130) grep -q "ended at once" "$dir/err" || fail "third SIGINT: ended, not said" ;;
  *) fail "third SIGINT: exit $rc, want 130 (ended at once)" ;;
  esac
  awk -v w="$waited" 'BEGIN { exit !(w < 1) }' || fail "third SIGINT: took $waited s to end"
  check "$dir" INT "$rc" second
done
[ "$seconds_tested" -gt 0 ] || fail "second SIGINT: the first ended every run before the second was sent"
[ "$thirds_tested" -gt 0 ] || fail "third SIGINT: the run ended before every third was sent"

# plot and report have no sweep to stop: a signal while they write ends
# them as it would any program, but never leaves their temporary behind;
# one that SIGKILL left is removed by the next write to the same target.
# A large PNG and a report take long enough to be caught mid-write.
temporary_in() { ls "$1" | grep -e '\.memsweep-......$'; }
# wait_temporary DIR PID: until the writer's temporary exists (10 s at most).
wait_temporary() {
  i=0
  while [ $i -lt 2000 ] && ! temporary_in "$1" >/dev/null && kill -0 "$2" 2>/dev/null; do
    sleep 0.005
    i=$((i + 1))
  done
  temporary_in "$1" >/dev/null
}
# stopped_mid_write DIR PID: stops PID (SIGSTOP) and says whether it stopped
# with its temporary still there: a report's lasts about 100 ms, and one
# that ended between the look and the signal would exit 0 and fail.
stopped_mid_write() {
  kill -s STOP "$2" 2>/dev/null
  while :; do
    state=$(awk '/^State:/ { print $2 }' "/proc/$2/status" 2>/dev/null)
    case $state in T | t) temporary_in "$1" >/dev/null; return ;; '' | Z | X) return 1 ;; esac
    sleep 0.002
  done
}
writer() { # writer plot|report DIR
  case $1 in
  plot) defaults "$memsweep" plot "$tmp/old-samples.csv" --view bandwidth --size 12000x12000 \
    --out "$2/c.png" >/dev/null 2>"$2/err" ;;
  report) defaults "$memsweep" report "$tmp/old-samples.csv" "$tmp/old-samples.csv" \
    "$tmp/old-samples.csv" "$tmp/old-samples.csv" "$tmp/old-samples.csv" \
    "$tmp/old-samples.csv" --out "$2/c.pdf" >/dev/null 2>"$2/err" ;;
  esac
}
for w in plot report; do
  for sig in INT TERM HUP KILL; do
    cases=$((cases + 1))
    dir=$tmp/$w-$sig
    mkdir "$dir"
    target=c.png
    [ $w = report ] && target=c.pdf
    printf 'old\n' >"$dir/$target"
    writer $w "$dir" &
    pid=$!
    if ! wait_temporary "$dir" $pid || ! stopped_mid_write "$dir" $pid; then
      echo "note: $w ended before SIG$sig could land mid-write"
      kill -s CONT $pid 2>/dev/null
      { wait "$pid"; } 2>/dev/null
      continue
    fi
    # memsweep itself (its temporary exists): it ignores none of them.
    ignored=$(ignored_in "$pid")
    [ "${ignored:-0}" = 0 ] || fail "$w: started with signals ignored (mask $ignored)"
    kill -s "$sig" "$pid"
    kill -s CONT "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    rc=$?
    [ "$rc" -gt 128 ] || fail "$w, SIG$sig mid-write: exit $rc, want ended by the signal"
    [ "$(cat "$dir/$target")" = old ] || fail "$w, SIG$sig mid-write: the old file changed"
    left=$(temporary_in "$dir")
    if [ "$sig" != KILL ]; then
      [ -z "$left" ] || fail "$w, SIG$sig mid-write: left behind: $left"
      continue
    fi
    # The next write to the target takes the killed writer's temporary away.
    [ -n "$left" ] || fail "$w, SIGKILL: no temporary to clean up (the case tests nothing)"
    case $w in
    plot) "$memsweep" plot "$tmp/old-samples.csv" --view bandwidth --size 64x64 \
      --out "$dir/c.png" >/dev/null 2>"$dir/err" ;;
    report) "$memsweep" report "$tmp/old-samples.csv" --out "$dir/c.pdf" >/dev/null 2>"$dir/err" ;;
    esac
    rc=$?
    left=$(temporary_in "$dir")
    [ "$rc" = 0 ] && [ -z "$left" ] || fail "$w after SIGKILL: exit $rc, left behind: $left"
  done
done

# nohup: a SIGHUP ignored when memsweep starts stays ignored, so a hangup
# neither stops the sweep nor ends it.
d=$tmp/nohup
mkdir -p "$d"
(exec env --default-signal=INT,TERM --ignore-signal=HUP "$memsweep" run --modes host \
  --min-exp 0 --max-exp 22 --reps 20 --warmup 0 --quiet --out "$d/p" >/dev/null 2>"$d/err") &
pid=$!
# Once memsweep itself (not the subshell before its exec, whose shell may
# catch SIGINT for a moment) catches SIGINT (bit 2 of SigCgt), its
# handlers are in place.
until [ "$(cat /proc/$pid/comm 2>/dev/null)" = memsweep ] &&
  [ $(( 0x$(sed -n 's/^SigCgt:\t*//p' /proc/$pid/status 2>/dev/null || echo 0) & 2 )) != 0 ]; do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -s HUP "$pid" 2>/dev/null || fail "nohup: the run ended before the signal (the case tests nothing)"
{ wait "$pid"; } 2>/dev/null
rc=$?
cases=$((cases + 1))
if [ "$rc" != 0 ] || [ ! -s "$d/p-samples.csv" ] || grep -q "SIGHUP" "$d/err"; then
  fail "nohup: SIGHUP ignored at the start: exit $rc, $(head -c 200 "$d/err")"
fi

echo "signals: $cases cases ($finished finished, $cancelled stopped and saved," \
  "$early ended by the signal; $seconds_tested given a second SIGINT, $thirds_tested a third)," \
  "$fails failed"
[ "$fails" = 0 ]
