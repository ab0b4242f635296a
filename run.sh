#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ./run.sh [ARGS]: installs what is missing, builds, and starts memsweep.
# With a display it opens the app (memsweep-gtk ARGS); without one, or with
# "cli" as first argument, it runs the command line (memsweep ARGS, default
# "run": the default sweep).
# What it is doing goes to standard error, one line per stage, so that the
# command line's own output stays as it is. The first build takes minutes
# on a small machine: on a terminal ninja's one-line progress shows it,
# elsewhere (a log, a pipe) a line at every tenth of the steps, with the
# end of the build's output (build/run.sh.log) when it fails.
set -e
cd "$(dirname "$0")"
say () { echo "run.sh: $*" >&2; }

say "checking the packages memsweep needs"
sh tools/deps.sh build
say "configuring build/"
sh tools/configure.sh build >/dev/null
say "building (the first build takes a few minutes)"
# Meson's regeneration first, into the log: its report is long and only
# worth reading when it fails.
log=build/run.sh.log
failed () {
  say "the build failed (status $1); the end of its output, all of it in $log:"
  tail -n 40 "$log" >&2
  exit "$1"
}
rc=0
ninja -C build build.ninja >"$log" 2>&1 || rc=$?
[ "$rc" = 0 ] || failed "$rc"
: >"$log"
if [ -t 2 ]; then
  ninja -C build >&2
else
  # ninja's status, [done/total], read for the tenths; everything it says
  # goes to the log. Its exit status comes back through a file: a
  # pipeline's is its last command's.
  status=$(mktemp)
  { rc=0; NINJA_STATUS='[%f/%t] ' ninja -C build || rc=$?; echo "$rc" >"$status"; } | awk -v logfile="$log" '
    { print >> logfile }
    /^\[[0-9]+\/[0-9]+\] / {
      split(substr($1, 2, length($1) - 2), n, "/")
      tenth = int(10 * n[1] / n[2])
      if (tenth > shown) { printf "run.sh: built %d of %d steps\n", n[1], n[2] > "/dev/stderr"; shown = tenth }
    }'
  rc=$(cat "$status")
  rm -f "$status"
  [ "$rc" = 0 ] || failed "$rc"
fi
if [ "${1:-}" = cli ] || { [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; } || [ ! -x build/app/gtk/memsweep-gtk ]; then
  [ "${1:-}" = cli ] && shift
  [ $# -gt 0 ] || set -- run
  say "starting memsweep $*"
  exec build/app/cli/memsweep "$@"
fi
# Uninstalled: the settings schema and the reference runs come from the
# build and source trees.
export GSETTINGS_SCHEMA_DIR="$PWD/build/data${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR}"
export MEMSWEEP_REFERENCE_DIR="${MEMSWEEP_REFERENCE_DIR:-$PWD/data/reference}"
say "starting memsweep-gtk"
exec build/app/gtk/memsweep-gtk "$@"
