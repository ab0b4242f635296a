#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-gui.sh [BUNDLE]: on a GPU machine without GTK, starts the
# bundled Xvfb and memsweep-gtk --run (the saved/default settings: the
# default sweep), waits for the sweep, and saves screenshots (xwd) of the
# bandwidth and timeline views to $OUT.
b=$(cd "${1:-.gtk}" && pwd)
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$b/lib" FONTCONFIG_FILE="$b/fonts.conf" GSETTINGS_SCHEMA_DIR="$b/schemas"
export GSETTINGS_BACKEND=memory GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none
export MEMSWEEP_REFERENCE_DIR="$PWD/data/reference" MEMSWEEP_FIRST_FRAME=1
# Xvfb runs xkbcomp from its built-in path; a bare machine has none.
[ -x /usr/bin/xkbcomp ] || cp "$b/bin/xkbcomp" /usr/bin/xkbcomp
"$b/bin/Xvfb" :7 -screen 0 1400x900x24 -xkbdir "$b/xkb" -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
xpid=$!
sleep 2
export DISPLAY=:7
"$b/bin/memsweep-gtk" --run >"$OUT/app.log" 2>&1 &
apid=$!
sleep "${EARLY:-2}"
"$b/bin/xwd" -root -silent >"$OUT/early.xwd"
sleep "${WAIT:-12}"
"$b/bin/xwd" -root -silent >"$OUT/bandwidth.xwd"
kill $apid $xpid 2>/dev/null
wait 2>/dev/null
cat "$OUT/app.log"; tail -n 5 "$OUT/xvfb.log"
ls -la "$OUT"
