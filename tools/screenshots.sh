#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/screenshots.sh [BUILD]: retakes docs/screenshots/ from the built app
# under Xvfb and openbox (1400x900), driven by keyboard: every view light and
# dark with the bundled H100 reference run, presentation mode, and the H100
# and H200 runs compared. Needs xvfb, openbox, xdotool and imagemagick.
set -e
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
out=$src/docs/screenshots
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=$src/$build/data NO_AT_BRIDGE=1
export MEMSWEEP_REFERENCE_DIR=$src/data/reference MEMSWEEP_LOCALEDIR=$src/$build/po
export GSK_RENDERER=cairo LANG=C.UTF-8 DISPLAY=:93
Xvfb :93 -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
sleep 1
openbox >/dev/null 2>&1 &
wm=$!
trap 'kill $wm $xvfb 2>/dev/null' EXIT

# shoot SCHEME NAME:KEYS... [-- FILES]: one app, one screenshot per NAME after
# its keys (comma-separated xdotool keys).
shoot () {
  scheme=$1
  shift
  shots=""
  while [ $# -gt 0 ] && [ "$1" != -- ]; do shots="$shots $1"; shift; done
  [ "${1:-}" = -- ] && shift
  ADW_DEBUG_COLOR_SCHEME=$scheme dbus-run-session -- "$src/$build/app/gtk/memsweep-gtk" "$@" \
    >/dev/null 2>&1 &
  app=$!
  sleep 6
  xdotool search --sync --name memsweep windowsize 1400 900 windowmove 0 0 windowactivate
  sleep 1
  for s in $shots; do
    for k in $(echo "${s#*:}" | tr ',' ' '); do xdotool key "$k"; sleep 0.7; done
    sleep 1
    import -window root "$out/${s%%:*}.png"
  done
  # dbus-run-session does not pass the signal on: end the app itself.
  pkill -f "^$src/$build/app/gtk/memsweep-gtk" 2>/dev/null || true
  wait $app 2>/dev/null || true
}

h100=$src/data/reference/h100-default-samples.csv
h200=$src/data/reference/h200-default-samples.csv
shoot prefer-light bandwidth-light:alt+1 time-light:alt+2 timeline-light:alt+3 \
  breakdown-light:alt+4 table-light:alt+5 -- "$h100"
shoot prefer-dark bandwidth-dark:alt+1 time-dark:alt+2 timeline-dark:alt+3 \
  breakdown-dark:alt+4 table-dark:alt+5 -- "$h100"
shoot prefer-light bandwidth-presentation:F11,alt+1 timeline-presentation:alt+3 -- "$h100"
shoot prefer-light compare-h100-h200:alt+1 -- "$h100" "$h200"
echo "screenshots: $(ls "$out" | wc -l) files in $out"
