#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/configure.sh BUILDDIR: sets up (or refreshes) a meson build dir,
# finding nvcc in /usr/local/cuda when it is not on PATH. A development
# build: the app's profiling hooks are on (-Dprofiling=true), for the tests
# and benchmarks that read them; an installed build leaves them out.
set -e
dir=${1:-build}
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  PATH=$PATH:/usr/local/cuda/bin
  export PATH
fi
if [ -f "$dir/build.ninja" ]; then
  meson setup --reconfigure -Dprofiling=true "$dir" >/dev/null
else
  meson setup -Dprofiling=true "$dir" >/dev/null
fi
meson configure "$dir" | grep -E "^  (cuda|gui|profiling) " || true
