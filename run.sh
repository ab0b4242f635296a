#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ./run.sh [ARGS]: installs what is missing, builds, and starts memsweep.
# With a display it opens the app (memsweep-gtk ARGS); without one, or with
# "cli" as first argument, it runs the command line (memsweep ARGS, default
# "run": the default sweep).
set -e
cd "$(dirname "$0")"
sh tools/deps.sh build
sh tools/configure.sh build >/dev/null
ninja -C build >/dev/null
if [ "${1:-}" = cli ] || { [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; } || [ ! -x build/app/gtk/memsweep-gtk ]; then
  [ "${1:-}" = cli ] && shift
  [ $# -gt 0 ] || set -- run
  exec build/app/cli/memsweep "$@"
fi
# Uninstalled: the settings schema and the reference runs come from the
# build and source trees.
export GSETTINGS_SCHEMA_DIR="$PWD/build/data${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR}"
export MEMSWEEP_REFERENCE_DIR="${MEMSWEEP_REFERENCE_DIR:-$PWD/data/reference}"
exec build/app/gtk/memsweep-gtk "$@"
