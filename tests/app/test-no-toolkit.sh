#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-no-toolkit.sh MEMSWEEP SAMPLES: memsweep needs no CUDA toolkit
# library at load time. The CUDA runtime is linked in and CUPTI is loaded
# when a lesson counts with it, so nothing of the toolkit is NEEDED and no
# path into it is built in; show runs with an empty environment, and a GPU
# command says what is missing (exit 3) instead of failing to load.
memsweep=$1 samples=$2
. "$(dirname "$0")/../fixtures/ms-check.sh"

command -v readelf >/dev/null || { echo "skip: no readelf"; exit 77; }
readelf -d "$memsweep" >"$tmp/dynamic"
check "no CUDA runtime is NEEDED" sh -c "! grep NEEDED '$tmp/dynamic' | grep -q libcudart"
check "no CUPTI is NEEDED" sh -c "! grep NEEDED '$tmp/dynamic' | grep -q libcupti"
check "no path into the toolkit is built in" \
  sh -c "! grep -E 'RUNPATH|RPATH' '$tmp/dynamic' | grep -q cuda"

# Nothing of the caller's: no library path, no CUDA_HOME, no PATH to nvcc.
env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$memsweep" show "$samples" >"$tmp/show" 2>&1
check "show runs without the toolkit's libraries" test $? -eq 0
check "show prints the run's tables" grep -q 'End-to-end time' "$tmp/show"
# On this machine a GPU may or may not be there; without one the command
# must name what is missing, not die in the loader.
env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$memsweep" info >"$tmp/info" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
  check "info without a device exits 3" test "$rc" -eq 3
  check "info says why there is no device" grep -q 'no usable CUDA device: ' "$tmp/info"
  check "info is not a loader's error" sh -c "! grep -q 'error while loading shared' '$tmp/info'"
fi

[ "$fails" -eq 0 ] || { cat "$tmp/show" "$tmp/info"; echo "$fails check(s) failed"; exit 1; }
