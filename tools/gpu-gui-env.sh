# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-gui-env.sh: sourced by gpu-gui.sh and gpu-gui-lessons.sh. With
# b set to a bundle made by tools/bundle-gui.sh, points the environment at
# it and starts its Xvfb on :7 (pid in xpid, log in $OUT/xvfb.log).
export LD_LIBRARY_PATH="$b/lib" FONTCONFIG_FILE="$b/fonts.conf" GSETTINGS_SCHEMA_DIR="$b/schemas"
export GSETTINGS_BACKEND=memory GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none
export MEMSWEEP_REFERENCE_DIR="$PWD/data/reference" MEMSWEEP_FIRST_FRAME=1
# Xvfb runs xkbcomp from its built-in path; a bare machine has none.
[ -x /usr/bin/xkbcomp ] || cp "$b/bin/xkbcomp" /usr/bin/xkbcomp
"$b/bin/Xvfb" :7 -screen 0 ${SCREEN:-1400x900x24} -xkbdir "$b/xkb" -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
xpid=$!
sleep 2
export DISPLAY=:7
