#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ./test.sh: installs what is missing, builds, runs every test suite that
# this machine can run (the gpu suite skips without a GPU) and ends with a
# line "N passed, N failed".
cd "$(dirname "$0")" || exit 1
sh tools/deps.sh test-system || exit 1
# The data-tool test's Python packages download beside the build (minutes
# on a fresh clone, little of it CPU); the tests wait for them.
pydeps_log=$(mktemp) || exit 1
sh tools/deps.sh python 2>"$pydeps_log" &
pydeps=$!
built=true
sh tools/configure.sh build >/dev/null && ninja -C build >/dev/null || built=false
wait $pydeps
cat "$pydeps_log" >&2
rm -f "$pydeps_log"
$built || { ninja -C build; exit 1; }
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
# (ninja has built everything above: the test runs below rebuild nothing,
# as two at once must not run ninja in one folder.)
run_tests() { # run_tests ARGS...: meson test under a display and a session bus
  if command -v xvfb-run >/dev/null 2>&1 && command -v dbus-run-session >/dev/null 2>&1; then
    xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" dbus-run-session -- \
      meson test -C build --no-rebuild --print-errorlogs "$@"
  else
    meson test -C build --no-rebuild --print-errorlogs "$@"
  fi
}
logs=build/meson-logs
rm -f "$logs/package-testlog.json"
if [ $# -eq 0 ]; then
  # The package suite beside the others, not after them: its build of the
  # .debs (minutes when its cache misses) fills the core that waits while
  # the tests that must run alone run, first (tests/meson.build). It needs
  # no display; its report follows the others'.
  meson test -C build --no-rebuild --print-errorlogs --suite package \
    --logbase package-testlog >"$logs/package-test.out" 2>&1 &
  package=$!
  run_tests --no-suite package
  rc=$?
  wait $package || rc=1
  cat "$logs/package-test.out"
else
  run_tests "$@"
  rc=$?
fi
python3 - "$logs/testlog.json" "$logs/package-testlog.json" <<'PY' || echo "0 passed, 1 failed"
import json, os, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    if not os.path.exists(path):
        continue
    for line in open(path):
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"): passed += 1
        elif r == "SKIP": skipped += 1
        else: failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $rc
