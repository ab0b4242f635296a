# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu-build.sh: sourced by the GPU scripts (gpu-run.sh, gpu-multi.sh,
# gpu-lessons.sh, gpu-acceptance.sh and the others; tools/gpu.sh has its own).
# Builds build-gpu without the GUI, with libcsv from the .deb files in .deps/
# (apt-get download libcsv3 libcsv-dev) when the machine has no libcsv-dev,
# and logs how long it took through the caller's log function.
ms_gpu_build () {
  local csv_opt=() t0
  if [ ! -f /usr/include/csv.h ]; then
    mkdir -p /tmp/csv
    for f in .deps/libcsv*.deb; do dpkg -x "$f" /tmp/csv; done
    csv_opt=(-Dcsv_prefix=/tmp/csv/usr)
  fi
  export PATH=$PATH:/usr/local/cuda/bin
  t0=$(date +%s)
  if [ ! -f build-gpu/build.ninja ]; then
    meson setup build-gpu -Dgui=disabled -Dbuildtype=release "${csv_opt[@]}" \
      -Dgpu_gencode="${GENCODE:--gencode=arch=compute_90,code=sm_90}" >/tmp/setup.log 2>&1 ||
      { tail -30 /tmp/setup.log; return 1; }
  fi
  ninja -C build-gpu >/tmp/build.log 2>&1 || { tail -40 /tmp/build.log; return 1; }
  log "build took $(( $(date +%s) - t0 )) s; warnings: $(grep -c warning /tmp/build.log)"
  # The managed-touch lesson's counts need libcupti: meson looks in
  # extras/CUPTI and lib64 of the nvcc it uses and of /usr/local/cuda.
  log "$(grep -o 'unified-memory counts (CUPTI) *: *[A-Za-z]*' build-gpu/meson-logs/meson-log.txt |
    tail -1)"
}

# The start every one-call GPU script shares: $OUT made, a log function
# that appends to $OUT/summary.log, the date and the GPU logged, then the
# build. The caller exits when it fails.
ms_gpu_start () {
  OUT=${OUT:-$PWD/gpu-out}
  mkdir -p "$OUT"
  log() { echo "== $*" | tee -a "$OUT/summary.log"; }
  log "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.free --format=csv,noheader 2>&1)"
  ms_gpu_build
}
