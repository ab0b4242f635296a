#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/configure.sh BUILDDIR [MESON-OPTION...]: sets up (or refreshes) a
# meson build dir (with the options given, -Dgui=disabled say),
# finding nvcc in /usr/local/cuda when it is not on PATH. A development
# build: the app's profiling hooks are on (-Dprofiling=true), for the tests
# and benchmarks that read them; an installed build leaves them out.
set -e
dir=${1:-build}
[ $# -gt 0 ] && shift
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  PATH=$PATH:/usr/local/cuda/bin
  export PATH
fi
# The kernels for this machine's GPUs alone (their compute capabilities,
# from nvidia-smi), or for sm_90 (the H100 and H200 the project measures)
# where none is present, when nvcc only proves they build: each further
# architecture is another device compile of every .cu file, about 40% of
# nvcc's time here. An installed build (meson's default, debian/rules)
# keeps sm_75, sm_80 and sm_90 with PTX.
caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | sort -u)
gencode=
for cap in ${caps:-90}; do
  case $cap in
    *[!0-9]* | "") continue ;;
  esac
  gencode="$gencode -gencode=arch=compute_$cap,code=sm_$cap"
done
gencode=${gencode# }
[ -n "$gencode" ] || gencode=-gencode=arch=compute_90,code=sm_90
# LLD links where it is installed: the hundred test programs each link the
# static libraries and CUDA's runtime, 0.95 s a link with ld against 0.25-0.32
# s with LLD here. nvcc links what holds kernels, and passes it to its host
# compiler.
linker=
if command -v ld.lld >/dev/null 2>&1; then
  linker="-Dc_link_args=-fuse-ld=lld -Dcuda_link_args=-Xcompiler=-fuse-ld=lld"
fi
again=
[ -f "$dir/build.ninja" ] && again=--reconfigure
# shellcheck disable=SC2086
meson setup $again -Dprofiling=true "-Dgpu_gencode=$gencode" $linker "$@" "$dir" >/dev/null
meson configure "$dir" | grep -E "^  (cuda|gui|profiling|gpu_gencode) " || true
