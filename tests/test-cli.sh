#!/bin/sh
# test-cli.sh MEMSWEEP DATA_DIR: the command line as a user meets it,
# including bad input. Needs no GPU.
memsweep=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

expect() { # expect RC PATTERN -- ARGS...: exit status and a line of output
  want_rc=$1 pattern=$2
  shift 3
  "$memsweep" "$@" >"$tmp/out" 2>&1
  rc=$?
  if [ "$rc" != "$want_rc" ] || ! grep -q -- "$pattern" "$tmp/out"; then
    echo "FAIL: memsweep $* -> rc $rc (want $want_rc), output:"
    sed 's/^/  | /' "$tmp/out"
    echo "  wanted: $pattern"
    fails=$((fails + 1))
  else
    echo "ok   memsweep $*"
  fi
}

expect 2 "Usage: memsweep COMMAND" --
expect 0 "Usage: memsweep COMMAND" -- --help
expect 0 "memsweep 0" -- --version
expect 2 "unknown command 'frobnicate'" -- frobnicate
expect 0 "managed-prefetch  cudaMallocManaged with cudaMemPrefetchAsync" -- modes
expect 2 "unknown mode 'bogus'" -- run --modes bogus
expect 2 "maximum exponent 29 is out of bounds: use 0..28" -- run --max-exp 29
expect 2 "empty size range: minimum exponent 12 is larger than maximum exponent 11" -- run --min-exp 12 --max-exp 11
expect 2 "repetitions must be at least 1 (got 0)" -- run --reps 0
expect 2 "stream count K must be at least 1 (got 0)" -- run --streams 0
expect 2 "--reps: 'ten' is not a whole number" -- run --reps ten
expect 2 "--order: 'sideways' is neither depth nor breadth" -- run --order sideways
expect 2 "--reps sets a fixed count, --ci-target belongs to the adaptive rule" -- run --reps 5 --ci-target 1
expect 2 "--ci-target: 'lots' is not a number" -- run --ci-target lots
expect 2 "confidence interval target must be more than 0% and at most 100% of the median (got 0%)" -- run --ci-target 0
expect 2 "time budget per cell must be more than 0 ms" -- run --cell-budget 0
expect 2 "minimum repetitions must be at least 1 (got 0)" -- run --min-reps 0
expect 2 "device index must be 0 or more (got -1)" -- run --device -1
expect 2 "unexpected argument 'extra'" -- run extra
expect 2 "show needs exactly one FILE" -- show
expect 2 "cannot open: No such file or directory" -- show "$tmp/nothing.csv"
printf 'not,a,memsweep,file\n1,2,3,4\n' >"$tmp/bad.csv"
expect 2 "bad.csv:1: missing column 'mode'" -- show "$tmp/bad.csv"

# The CPU baseline runs anywhere, and what it writes reads back.
expect 0 "End-to-end time" -- run --modes host --min-exp 8 --max-exp 10 --reps 3 --warmup 1 --quiet --out "$tmp/host"
expect 0 "host " -- show "$tmp/host-samples.csv"
[ -s "$tmp/host-summary.csv" ] || { echo "FAIL: no summary written"; fails=$((fails + 1)); }
grep -q "^# reps-rule: fixed" "$tmp/host-summary.csv" &&
  grep -q "e2e_ci_low_us,e2e_ci_high_us" "$tmp/host-summary.csv" &&
  grep -q "fit_latency_us,fit_gbps,fit_r2,fit_residual,fit_describes_data,message" "$tmp/host-summary.csv" ||
  { echo "FAIL: summary lacks the rule, interval or fit columns"; fails=$((fails + 1)); }
expect 0 "at least 6 repetitions until the median's 95% interval is within +-5%" -- run --modes host --min-exp 8 --max-exp 9 --min-reps 6 --ci-target 5 --cell-budget 50 --warmup 0 --quiet --out "$tmp/adaptive"

# GPU modes without a device (or without CUDA in the build) exit 3.
if ! "$memsweep" info >/dev/null 2>&1; then
  expect 3 "no usable CUDA device" -- run --modes pinned --max-exp 10 --quiet --out "$tmp/x"
  expect 3 "no usable CUDA device" -- info
fi

for f in "$2"/reference/*-samples.csv; do
  [ -e "$f" ] || continue
  expect 0 "End-to-end bandwidth" -- show "$f"
done

echo "cli: $fails failed"
[ "$fails" = 0 ]
