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
under_display() { # under_display N CMD...: CMD under a display (the first free from :N) and a session bus
  n=$1
  shift
  if command -v xvfb-run >/dev/null 2>&1 && command -v dbus-run-session >/dev/null 2>&1; then
    xvfb-run -n "$n" -a -s "-screen 0 1600x1000x24 -noreset" dbus-run-session -- "$@"
  else
    "$@"
  fi
}
run_tests() { # run_tests ARGS...: meson test under a display and a session bus
  under_display 99 meson test -C build --no-rebuild --print-errorlogs "$@"
}
logs=build/meson-logs
rm -f "$logs/package-testlog.json" "$logs/alone-testlog.json"
if [ $# -eq 0 ]; then
  # The package suite beside the others: its build of the .debs (minutes
  # when its cache misses) needs no display; its report follows the
  # others'.
  meson test -C build --no-rebuild --print-errorlogs --suite package \
    --logbase package-testlog >"$logs/package-test.out" 2>&1 &
  package=$!
  # The tests that must not run beside one another (suite 'alone': real
  # key presses and pointer moves on a display, the signal and limit
  # tests' process trees, a Slurm of this machine, the install) run one
  # at a time beside the rest, on a display of their own: the first free
  # from :199, so that the two xvfb-run never race for one number. Run
  # alone before the rest, as meson runs tests that are not parallel,
  # they left a core idle for two minutes; they need one another's
  # absence, not a quiet machine (a CI machine is never quiet).
  under_display 199 meson test -C build --no-rebuild --print-errorlogs --suite alone \
    --num-processes 1 --logbase alone-testlog >"$logs/alone-test.out" 2>&1 &
  alone=$!
  run_tests --no-suite package --no-suite alone
  rc=$?
  wait $alone || rc=1
  wait $package || rc=1
  cat "$logs/alone-test.out" "$logs/package-test.out"
else
  run_tests "$@"
  rc=$?
fi
python3 - "$logs/testlog.json" "$logs/alone-testlog.json" "$logs/package-testlog.json" <<'PY' || echo "0 passed, 1 failed"
import json, os, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    if not os.path.exists(path):
        continue
    for line in open(path):
        t = json.loads(line)
        r = t.get("result")
        if r in ("OK", "EXPECTEDFAIL"): passed += 1
        elif r == "SKIP": skipped += 1
        else:
            failed += 1
            # Again at the end, where a log cut to its last lines keeps it:
            # each failed test's failures (lines that start FAIL, not ok or
            # case, and the indented lines after them) and its last lines.
            out = ((t.get("stdout") or "") + (t.get("stderr") or "")).splitlines()
            why, keep = [], False
            for o in out[:-5]:
                keep = o.startswith(("FAIL", "not ok", "case ")) or (keep and o[:1] == " ")
                why += [o] if keep else []
            print(f"--- {t.get('name')}: {r}:", *why[:60], *out[-5:], sep="\n")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $rc
