#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-gui.sh [BUNDLE]: on a GPU machine without GTK, starts the
# bundled Xvfb and memsweep-gtk --run (the saved/default settings: the
# default sweep), waits for the sweep, and saves screenshots (xwd) of the
# bandwidth and timeline views to $OUT.
b=$(cd "${1:-.gtk}" && pwd)
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
. "$(dirname "$0")/gpu-gui-env.sh"
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
