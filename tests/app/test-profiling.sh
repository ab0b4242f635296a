#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-profiling.sh APP true|false: the app's profiling hooks (the probe's
# and the start-up milestones' variables, /proc/self/stat) are in
# memsweep-gtk exactly when it was built with -Dprofiling=true, so the
# default build ships none of them.
app=$1
want=$2
rc=0
for s in MEMSWEEP_PROBE MEMSWEEP_PROBE_QUIT_MS MEMSWEEP_PROBE_DWELL_MS MEMSWEEP_QUIT_AFTER_LESSON \
  MEMSWEEP_FIRST_FRAME /proc/self/stat "probe: first-frame-unix-us"; do
  # A path is matched as a whole string (NUL-delimited): the CUDA runtime
  # linked into a CUDA build holds "/proc/self/status", which contains it.
  case $s in
    /*) whole="-z -x" ;;
    *) whole="" ;;
  esac
  # shellcheck disable=SC2086
  if grep -q -a $whole -F "$s" "$app"; then found=true; else found=false; fi
  if [ "$found" != "$want" ]; then
    echo "FAIL: '$s' in $app: $found, expected $want (profiling=$want)"
    rc=1
  fi
done
[ $rc = 0 ] && echo "ok: profiling hooks present: $want"
exit $rc
