#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu.sh STEP...: everything memsweep does on a GPU machine, in one
# call: the build (build-gpu/, no GUI; libcsv from the .deb files in .deps/
# when the machine has none: apt-get download libcsv3 libcsv-dev), then
# each STEP in order, logs under $OUT (default ./gpu-out) and one line per
# step in $OUT/summary.log. Steps:
#   info          the device as memsweep sees it
#   suite         the gpu suite (meson test --suite gpu)
#   self-compare  bench/self-compare.sh: calibrate, three default sweeps
#                 compared pairwise, the plain yardstick beside them, and a
#                 10% change injected into a fourth
#   sweep-time    the default sweep's whole-process time, five times
#   plain         bench-plain: memsweep's cells against a plain program
#   lessons       every lesson through the command line, as reference runs,
#                 then the gpu suite's lesson checks over them
#   cpus          where the spread between processes comes from: the four
#                 link modes' sweep with the measuring thread held to each
#                 CPU in turn (taskset), twice, forward and backward
# Never allocates more managed memory than the card has free; never changes
# clocks or resets the card.
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
B=build-gpu
MS=$B/app/cli/memsweep
log() { echo "== $*" | tee -a "$OUT/summary.log"; }

build() {
  local csv_opt=() t0
  if [ ! -f /usr/include/csv.h ]; then
    mkdir -p /tmp/csv
    for f in .deps/libcsv*.deb; do dpkg -x "$f" /tmp/csv; done
    csv_opt=(-Dcsv_prefix=/tmp/csv/usr)
  fi
  export PATH=$PATH:/usr/local/cuda/bin
  t0=$(date +%s)
  if [ ! -f $B/build.ninja ]; then
    meson setup $B -Dgui=disabled -Dbuildtype=release "${csv_opt[@]}" \
      -Dgpu_gencode="${GENCODE:--gencode=arch=compute_90,code=sm_90}" >/tmp/setup.log 2>&1 ||
      { tail -30 /tmp/setup.log; return 1; }
  fi
  ninja -C $B >/tmp/build.log 2>&1 || { tail -40 /tmp/build.log; return 1; }
  log "build took $(( $(date +%s) - t0 )) s"
}

step_info() { $MS info 2>&1 | tee "$OUT/info.txt"; }

step_suite() {
  meson test -C $B --suite gpu --print-errorlogs --no-rebuild >"$OUT/suite.txt" 2>&1
  log "gpu suite rc=$?: $(grep -E '^(Ok|Fail|Skipped):' "$OUT/suite.txt" | tr -s ' \n' ' ')"
  cat $B/meson-logs/testlog.txt >"$OUT/suite-testlog.txt" 2>/dev/null
}

step_self_compare() {
  local d="$OUT/self"
  mkdir -p "$d"
  # The between-run spread comes from five processes of its own, so the
  # pairs below are judged by a spread they did not make.
  $MS calibrate --runs ${CALIBRATE_RUNS:-10} --out "$d/profile.csv" >"$d/calibrate.txt" 2>&1
  log "calibrate rc=$?"
  PLAIN_REPS=${PLAIN_REPS:-31} bench/self-compare.sh $B "$d" 3 default --profile "$d/profile.csv"
  INJECT_LAST=10 bench/self-compare.sh $B "$d" 2 inject --profile "$d/profile.csv"
  log "self-compare: $(grep -c . "$d/default-pairs.txt") lines"
}

step_sweep_time() {
  $B/bench/bench-memsweep 3 --sweep-only >"$OUT/bench-memsweep.txt" 2>&1
  log "bench-memsweep: $(grep -E 'median|PASS|FAIL' "$OUT/bench-memsweep.txt" | tr '\n' ' ')"
  /usr/bin/time -f "%e s wall" -o "$OUT/info-time.txt" $MS info >/dev/null 2>&1
  log "memsweep info (CUDA start and the device query): $(cat "$OUT/info-time.txt")"
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%e s wall, %M KiB" $MS run --quiet --out /tmp/time-$i >/dev/null 2>>"$OUT/sweep-time.txt"
  done
  log "default sweep whole process: $(tail -5 "$OUT/sweep-time.txt" | cut -d' ' -f1 | tr '\n' ' ')"
}

step_plain() { $B/bench/bench-plain 5 31 2>&1 | tee "$OUT/plain.txt" | tail -4; }

step_lessons() {
  local d="$OUT/lessons" name args t0
  mkdir -p "$d"
  # The sweep lessons at 4 to 16 MiB per vector, 5 repetitions: far below
  # any GPU's free memory; the probe lessons with their own defaults.
  for name in $($MS lesson LIST | sed -n 's/^  memsweep lesson //p'); do
    case " reuse duplex issue-order cache-state managed-touch costs " in
      *" $name "*) args="--sizes 20:22:2 --reps 5" ;;
      *) args="" ;;
    esac
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    timeout 300 $MS lesson "$name" $args --quiet --out "$d/lesson-$name" >"$d/$name.txt" 2>&1
    log "lesson $name rc=$?, $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  done
  MS_LESSONS_DIR=$d $B/tests/gpu/test-gpu-lessons $MS >"$d/checks.txt" 2>&1
  log "lesson checks over these runs rc=$?"
}

step_cpus() {
  local d="$OUT/cpus" n
  mkdir -p "$d"
  n=$(nproc)
  lscpu -e >"$d/lscpu.txt" 2>&1
  cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor >>"$d/lscpu.txt" 2>&1
  ls /sys/devices/system/cpu/cpu0/cpuidle/ >>"$d/lscpu.txt" 2>&1
  for pass in 1 2; do
    for k in $(seq 0 $((n - 1))); do
      [ $pass = 2 ] && k=$((n - 1 - k))
      taskset -c "$k" $MS run --quiet --no-profile --modes pinned,write-combined,zero-copy,device \
        --out "$d/cpu$k-pass$pass" >/dev/null 2>>"$d/stderr.txt"
    done
  done
  log "cpus: $(ls "$d"/*-summary.csv | wc -l) runs"
}

# Whether a cell's figure moves with each new allocation of its buffers:
# many rounds of a few link-bound cells in one process (every round's
# visit allocates anew), three processes.
step_rounds() {
  local d="$OUT/rounds" i
  mkdir -p "$d"
  for i in 1 2 3; do
    $MS run --quiet --no-profile --modes pinned,zero-copy,write-combined,pageable --min-exp 12 \
      --max-exp 20 --step 4 --rounds 8 --out "$d/p$i" >/dev/null 2>>"$d/stderr.txt"
  done
  log "rounds: $(ls "$d"/*-samples.csv | wc -l) runs"
}

# Sweep settings side by side: three processes each, interleaved, every
# cell's median kept (CONFIGS: "name=options;name=options").
step_configs() {
  local d="$OUT/configs" i c name opts
  mkdir -p "$d"
  IFS=';' read -r -a list <<<"${CONFIGS:-default=}"
  for i in 1 2 3; do
    for c in "${list[@]}"; do
      name=${c%%=*} opts=${c#*=}
      # shellcheck disable=SC2086
      /usr/bin/time -f "$name $i %e s" -a -o "$d/walls.txt" $MS run --quiet --no-profile $opts \
        --out "$d/$name-$i" >/dev/null 2>>"$d/stderr.txt"
    done
  done
  log "configs: $(sort "$d/walls.txt" | tr '\n' ' ')"
}

# Where the default sweep's time goes beyond its cells: the NVML calls a
# cell makes, and one small cell visited 60 times in a process.
step_overhead() {
  python3 - >"$OUT/overhead.txt" 2>&1 <<'PY'
import ctypes, time
n = ctypes.CDLL("libnvidia-ml.so.1")
n.nvmlInit_v2()
h = ctypes.c_void_p()
n.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(h))
v, ull = ctypes.c_uint(), ctypes.c_ulonglong()
calls = {
    "clock": lambda: n.nvmlDeviceGetClockInfo(h, 1, ctypes.byref(v)),
    "temperature": lambda: n.nvmlDeviceGetTemperature(h, 0, ctypes.byref(v)),
    "pstate": lambda: n.nvmlDeviceGetPerformanceState(h, ctypes.byref(v)),
    "throttle": lambda: n.nvmlDeviceGetCurrentClocksThrottleReasons(h, ctypes.byref(ull)),
    "link gen": lambda: n.nvmlDeviceGetCurrPcieLinkGeneration(h, ctypes.byref(v)),
    "link width": lambda: n.nvmlDeviceGetCurrPcieLinkWidth(h, ctypes.byref(v)),
}
for name, f in calls.items():
    t = time.perf_counter()
    for _ in range(50):
        f()
    print(f"nvml {name}: {(time.perf_counter() - t) / 50 * 1e6:.1f} us a call")
PY
  for modes in host device pinned; do
    /usr/bin/time -f "$modes x60 visits of 2^10: %e s" -a -o "$OUT/overhead.txt" $MS run --quiet \
      --no-profile --modes $modes --min-exp 10 --max-exp 10 --rounds 60 --out /tmp/ov >/dev/null 2>&1
  done
  log "overhead: $(tr '\n' ';' <"$OUT/overhead.txt")"
}

log "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.free,clocks.sm,temperature.gpu --format=csv,noheader 2>&1)"
build || exit 1
for s in "$@"; do
  "step_${s//-/_}" || log "step $s failed"
done
log "$(date -u +%FT%TZ) done"
