#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/suite-time.sh COMMIT...: how long ./test.sh takes on a fresh clone
# of each COMMIT, one after the other, as issue 58 counts it: apt
# excluded (tools/deps.sh finds everything installed; Python's tools are
# linked from this checkout's .deps), the package test's build of the
# .debs from scratch (a package cache of its own, with the clean Debian
# roots copied from the user's cache so that no root is bootstrapped or
# installed: that is apt's work), as CI runs it: ./test.sh alone.
# Prints a block per commit: load before and after, the seconds of the
# whole, of what came before the first test (the build) and of the tests, the result line and the longest tests; with
# SUITE_TIME_LOGS=DIR, the test logs are kept in DIR/COMMIT. With
# SUITE_TIME_FRESH=1 the package cache starts empty, the clean roots
# included, as on a fresh machine (issue 71 counts it so: debootstrap
# and the desktop's packages installed into the root are the package
# test's own apt).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${MEMSWEEP_PACKAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memsweep-package-test}
work=$(mktemp -d "${TMPDIR:-/tmp}/memsweep-suite-time-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.0f", $2 - $1 }'; }
report() { # report T0 T1 TESTLOG...: where the time went, the counts, the longest tests and those that failed
  t0=$1 t1=$2
  shift 2
  cat "$@" | python3 -c '
import json, sys
t0, t1 = float(sys.argv[1]), float(sys.argv[2])
rows = sorted((json.loads(l) for l in sys.stdin), key=lambda r: -r["duration"])
first = min(r["starttime"] for r in rows)
last = max(r["starttime"] + r["duration"] for r in rows)
# Before the first test: the tools check, meson setup and the build.
print("before the first test %.0f s, the tests %.0f s, after the last %.0f s"
      % (first - t0, last - first, t1 - last))
results = [r["result"] for r in rows]
passed = sum(r in ("OK", "EXPECTEDFAIL") for r in results)
skipped = results.count("SKIP")
print("%d passed, %d failed, %d skipped" % (passed, len(rows) - passed - skipped, skipped))
print("longest:", ", ".join("%s %.0f s" % (r["name"], r["duration"]) for r in rows[:6]))
bad = [r for r in rows if r["result"] not in ("OK", "SKIP", "EXPECTEDFAIL")]
print("not passed:", ", ".join("%s (%s)" % (r["name"], r["result"]) for r in bad) or "none")' "$t0" "$t1"
}
for commit in "$@"; do
  rm -rf "$work/tree" "$work/cache"
  git clone -q "$here" "$work/tree" && git -C "$work/tree" checkout -q "$commit" || exit 1
  [ -d "$here/.deps" ] && ln -s "$(readlink -f "$here/.deps")" "$work/tree/.deps"
  mkdir -p "$work/cache"
  [ "${SUITE_TIME_FRESH:-0}" = 1 ] ||
    for f in "$cache"/*-minbase* "$cache/apt-archives"; do
      [ -e "$f" ] && cp -a "$f" "$work/cache/"
    done
  echo "== $(git -C "$work/tree" log --oneline -1 | cut -c1-72)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S) UTC"
  cd "$work/tree" || exit 1
  t0=$(now)
  MEMSWEEP_PACKAGE_CACHE=$work/cache sh ./test.sh >"$work/test.log" 2>&1
  rc=$?
  t1=$(now)
  cd "$here" || exit 1
  echo "./test.sh $(secs "$t0" "$t1") s (rc $rc)"
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S) UTC"
  report "$t0" "$t1" "$work"/tree/build/meson-logs/*testlog.json
  # The meson logs stay for a look (the tree does not).
  [ -z "${SUITE_TIME_LOGS:-}" ] || { mkdir -p "$SUITE_TIME_LOGS/$commit" &&
    cp "$work"/tree/build/meson-logs/*testlog.json "$work/test.log" "$SUITE_TIME_LOGS/$commit/"; }
done
