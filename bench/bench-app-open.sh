#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-app-open.sh: how long memsweep-gtk takes to show its first frame and
# to open files, and the longest main-loop stall meanwhile, as medians over
# several launches (MEMSWEEP_PROBE, see ui/ms-profiling.h; the app built with
# -Dprofiling=true, as tools/configure.sh does). Run under Xvfb:
#   xvfb-run -a -s "-screen 0 1600x1000x24" dbus-run-session -- \
#     bench/bench-app-open.sh [build-dir] [runs]
# The 10^7-row file is made once in $BENCH_DIR (default /tmp/memsweep-bench)
# by repeating the reference run's rows with increasing repetition numbers.
set -eu
build=${1:-build}
runs=${2:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
app=${APP:-$build/app/gtk/memsweep-gtk}
ref="$src/data/reference"
dir=${BENCH_DIR:-/tmp/memsweep-bench}
mkdir -p "$dir"
# The probe is built only with -Dprofiling=true (tools/configure.sh sets it).
if ! grep -q -a -F MEMSWEEP_PROBE "$app"; then
  echo "bench-app-open.sh: $app has no profiling hooks: build it with -Dprofiling=true" >&2
  exit 1
fi
export GSETTINGS_BACKEND=memory MEMSWEEP_PROBE=1 MEMSWEEP_PROBE_QUIT_MS=${QUIT_MS:-500}
# Each view stays a second, so that work it finishes in idle time (the
# table's rows) counts as its own.
export MEMSWEEP_FIRST_FRAME=1 MEMSWEEP_PROBE_DWELL_MS=${DWELL_MS:-1000}
export MEMSWEEP_REFERENCE_DIR="$ref" NO_AT_BRIDGE=1 GTK_A11Y=none
export GSETTINGS_SCHEMA_DIR=${GSETTINGS_SCHEMA_DIR:-$src/build/data}

big="$dir/big-samples.csv"
if [ ! -s "$big" ]; then
  # Header once, then whole copies of the data rows (at least 10^7 rows);
  # copy k shifts a cell's reps by k times its repetition count, so the
  # reps stay contiguous and no two rows collide.
  awk -F, -v OFS=, -v want=10000000 '
    /^#/ || /^mode,/ { if (FNR == NR) print; next }
    {
      rows[n++] = $0
      if ($5 !~ /_copy"?$/ && $4 + 1 > reps[$1 "," $2]) reps[$1 "," $2] = $4 + 1
    }
    END {
      for (k = 0; out < want; k++)
        for (i = 0; i < n; i++) {
          split (rows[i], f, ",")
          # Steady-state copy bursts are numbered apart (0..79): once.
          if (k > 0 && f[5] ~ /_copy"?$/) continue
          f[4] += k * reps[f[1] "," f[2]]
          line = f[1]
          for (j = 2; j <= 17; j++) line = line "," f[j]
          print line; out++
        }
    }' <(gzip -dc "$ref/h100-default-samples.csv.gz") > "$big.tmp"
  mv "$big.tmp" "$big"
fi

eight=""
for i in 1 2 3 4 5 6 7 8; do
  gzip -dc "$ref/h100-default-samples.csv.gz" > "$dir/copy$i-samples.csv"
  # Distinct dates so that the window keeps them as eight runs.
  sed -i "s/^# date: .*/# date: 2026-01-0${i}T00:00:00Z/" "$dir/copy$i-samples.csv"
  eight="$eight $dir/copy$i-samples.csv"
done

median () { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int ((NR + 1) / 2)]; else print "-" }'; }

# One launch: prints "first-frame-ms (from the launch) built-ms mapped-ms
# (the window, after main()) first-cpu-ms (the main thread's CPU time at the
# first frame) open-to-drawn-ms (the last file's) longest-stall-ms
# longest-work-ms (the stall less the frames drawn in it) work-cpu-ms (the
# same in main-thread CPU time, which the machine's load does not stretch)
# views-ms (the slowest of the views shown in turn after the files)
# view-cpu-ms (the longest block while a view was shown, CPU time: the
# slowest view's)
# open-work-ms open-cpu-ms (longest work until the last file was drawn)
# blk-cpu open-blk (the longest block of any kind, frames included, in CPU
# time: in all, and until the last file was drawn)".
field () { printf '%s\n' "$log" | sed -n "s/^$1/p" | head -1; }
one () {
  start=$(date +%s%N)
  log=$("$app" "$@" 2>&1 >/dev/null) || true
  ff=$(field 'probe: first-frame-unix-us=/')
  built=$(field 'memsweep-gtk: window built \([0-9.]*\) ms.*/\1')
  mapped=$(field 'memsweep-gtk: window mapped \([0-9.]*\) ms.*/\1')
  ffcpu=$(field 'memsweep-gtk: first frame drawn.*CPU \([0-9.]*\) ms/\1')
  otd=$(printf '%s\n' "$log" | sed -n 's/^probe: open-to-drawn-ms=\([0-9.]*\).*/\1/p' | sort -n | tail -1)
  stall=$(field 'probe: summary.*longest-stall-ms=\([0-9.]*\).*/\1')
  work=$(field 'probe: summary.*longest-work-ms=\([0-9.]*\).*/\1')
  wcpu=$(field 'probe: summary.*longest-work-cpu-ms=\([0-9.]*\).*/\1')
  owork=$(field 'probe: summary.*opening-work-ms=\([0-9.]*\).*/\1')
  ocpu=$(field 'probe: summary.*opening-work-cpu-ms=\([0-9.]*\).*/\1')
  bcpu=$(field 'probe: summary.*longest-block-cpu-ms=\([0-9.]*\).*/\1')
  obcpu=$(field 'probe: summary.*opening-block-cpu-ms=\([0-9.]*\).*/\1')
  views=$(printf '%s\n' "$log" | sed -n 's/^probe: view-drawn-ms=\([0-9.]*\).*/\1/p' | sort -n | tail -1)
  vcpu=$(printf '%s\n' "$log" | sed -n 's/^probe: view-work.*work-cpu-ms=\([0-9.]*\).*/\1/p' | sort -n | tail -1)
  frame=$(field 'probe: summary.*longest-frame-ms=\([0-9.]*\) longest-frame-cpu-ms=\([0-9.]*\) longest-frame=\([^ ]*\).*/\1 \2 \3')
  echo "${frame:-- - -}" >> "$dir/frames.txt"
  printf '%s\n' "$log" | grep '^probe: open-failed' >&2 || true
  echo "$(( (ff * 1000 - start) / 1000000 )) ${built:--} ${mapped:--} ${ffcpu:--} ${otd:--}" \
       "${stall:--} ${work:--} ${wcpu:--} ${views:--} ${vcpu:--} ${owork:--} ${ocpu:--}" \
       "${bcpu:--} ${obcpu:--}"
}

case_row () {
  name=$1; n=$2; shift 2
  : > "$dir/case.txt"
  : > "$dir/frames.txt"
  i=0
  while [ $i -lt "$n" ]; do one "$@" >> "$dir/case.txt"; i=$((i + 1)); done
  printf '%-9s' "$name"
  for col in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
    printf ' %8s' "$(cut -d' ' -f$col "$dir/case.txt" | grep -v -- - | median)"
  done
  echo
  # The worst frame: its median length, and what it drew most often.
  fms=$(cut -d' ' -f1 "$dir/frames.txt" | grep -v -- - | median)
  fcpu=$(cut -d' ' -f2 "$dir/frames.txt" | grep -v -- - | median)
  what=$(cut -d' ' -f3 "$dir/frames.txt" | sort | uniq -c | sort -rn | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
  frames="$frames$(printf '%-9s %8s %8s  %s' "$name" "$fms" "$fcpu" "$what")
"
}

echo "medians over $runs launches of $app ($(git -C "$build/.." rev-parse --short HEAD 2>/dev/null))," \
     "renderer ${GSK_RENDERER:-default}; times in ms; cpu: the main thread's CPU time"
printf '%-9s' case
for h in first built mapped 1st-cpu open stall work work-cpu views view-cpu open-wrk open-cpu \
  blk-cpu open-blk; do
  printf ' %8s' "$h"
done
echo
frames=""
case_row "no files" "$runs"
case_row "1 file" "$runs" "$ref/h100-default-samples.csv.gz"
case_row "8 files" "$runs" $eight
case_row "1e7 rows" "${BIG_RUNS:-3}" "$big"
# The longest frame (GTK drawing, not the app's work; from the first frame's
# end): median ms, main-thread CPU ms, and what it drew in each launch.
echo "worst frame: median ms, its main-thread cpu ms; what it drew (files-opened: the frame that"
echo "first drew the files; view-shown-NAME: a view's first frame; view-later-NAME: a later one)"
printf '%s' "$frames"
