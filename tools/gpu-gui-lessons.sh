#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-gui-lessons.sh [BUNDLE] [LESSON...]: on a GPU machine without
# GTK, every lesson card's Run as a user starts it: the bundled
# memsweep-gtk --lesson NAME --run (tools/bundle-gui.sh), one launch per
# card, the card's children being this machine's build-gpu/app/cli/memsweep.
# Waits for the probe's "lesson NAME: done|failed" line, saves a
# screenshot of the card ($OUT/lesson-NAME.xwd.gz) and the app's output
# ($OUT/lesson-NAME.log); prints one line per card and exits 1 if any failed.
b=$(cd "${1:-.gtk}" && pwd)
[ $# -gt 0 ] && shift
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
# The probe is built only with -Dprofiling=true (tools/configure.sh sets it).
if ! grep -q -a -F MEMSWEEP_PROBE "$b/bin/memsweep-gtk"; then
  echo "gpu-gui-lessons.sh: $b/bin/memsweep-gtk has no profiling hooks: build it with -Dprofiling=true" >&2
  exit 1
fi
SCREEN=1600x1000x24
. "$(dirname "$0")/gpu-gui-env.sh"
# The app starts the CLI found next to it first: this machine's own build.
cp build-gpu/app/cli/memsweep "$b/bin/memsweep" 2>/dev/null || export PATH="$PWD/build-gpu/app/cli:$PATH"
export MEMSWEEP_PROBE=1
names=${*:-"pinned-pageable reuse cache-state register-allocate managed-touch issue-order duplex costs portable"}
rc=0
for name in $names; do
  t0=$(date +%s)
  "$b/bin/memsweep-gtk" --lesson "$name" --run >"$OUT/lesson-$name.log" 2>&1 &
  apid=$!
  line=""
  while [ $(( $(date +%s) - t0 )) -lt "${LIMIT:-300}" ] && kill -0 $apid 2>/dev/null; do
    line=$(grep -m1 "^lesson $name: " "$OUT/lesson-$name.log")
    [ -n "$line" ] && break
    sleep 1
  done
  sleep 2 # the caption and the chart are drawn after the probe line
  "$b/bin/xwd" -root -silent | gzip >"$OUT/lesson-$name.xwd.gz"
  kill $apid 2>/dev/null
  wait $apid 2>/dev/null
  case "$line" in
    "lesson $name: done"*) echo "$line ($(( $(date +%s) - t0 )) s)" ;;
    *) echo "lesson $name: NO RESULT after $(( $(date +%s) - t0 )) s: ${line:-$(tail -n 3 "$OUT/lesson-$name.log")}"; rc=1 ;;
  esac
done
kill $xpid 2>/dev/null
exit $rc
