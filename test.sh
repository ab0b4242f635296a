#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ./test.sh: installs what is missing, builds, runs every test suite that
# this machine can run (the gpu suite skips without a GPU) and ends with a
# line "N passed, N failed".
cd "$(dirname "$0")" || exit 1
sh tools/deps.sh test || exit 1
sh tools/configure.sh build >/dev/null || exit 1
ninja -C build >/dev/null || { ninja -C build; exit 1; }
# GUI tests need a display and a session bus: run them under Xvfb and
# dbus-run-session; keep the user's settings out of it. -noreset: Xvfb
# otherwise resets whenever its last client leaves, and a test connecting
# during that reset fails with "cannot open display".
export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
# One test more than there are cores: several tests mostly wait (on the
# disk's syncs, a child's signal, a timeout, the X server; test-fleet used
# 5 s of CPU in 30, toast-queue 1 in 10, fleet-slurm 0.5 in 9.5), and the
# spare test fills a core meanwhile. MESON_TESTTHREADS set by the caller
# wins.
MESON_TESTTHREADS=${MESON_TESTTHREADS:-$(($(nproc) + 1))}
export MESON_TESTTHREADS
if command -v xvfb-run >/dev/null 2>&1 && command -v dbus-run-session >/dev/null 2>&1; then
  xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" dbus-run-session -- meson test -C build --print-errorlogs "$@"
else
  meson test -C build --print-errorlogs "$@"
fi
rc=$?
python3 - build/meson-logs/testlog.json <<'PY' || echo "0 passed, 1 failed"
import json, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    r = json.loads(line).get("result")
    if r in ("OK", "EXPECTEDFAIL"): passed += 1
    elif r == "SKIP": skipped += 1
    else: failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $rc
