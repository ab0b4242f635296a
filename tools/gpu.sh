#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/gpu.sh STEP...: everything memsweep does on a GPU machine, in one
# call: the build (build-gpu/, no GUI; libcsv, json-c and GSL from the
# .deb files in .deps/ when the machine has none: apt-get download libcsv3
# libcsv-dev libjson-c5 libjson-c-dev libgsl27 libgslcblas0 libgsl-dev, on
# Debian 12), then
# each STEP in order, logs under $OUT (default ./gpu-out) and one line per
# step in $OUT/summary.log. tools/README.md says what each step does; the
# comment above a step names the settings it reads from the environment.
# Steps: info suite suite-runs self-compare sweep-time bench plain repeat
# large sanitize lessons lesson-checks probe-lessons reference cpus rounds
# configs overhead spread host-func-core alloc-costs copy-rate plain-lessons
# pageable-rounds stores health multi portable-reference fleet fleet-spread scale
# topology start-time host-link siblings multi-reference
# gui gui-lessons no-toolkit json deb pack grade plain-groups suite-times
# process-time cell-budget host-prep grade-profile prep-threads.
# Never allocates more managed memory than the card has free; never changes
# clocks or resets the card.
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
# B: a build made elsewhere for this machine (its programs alone, no
# build.ninja: PREBUILT=1 skips the build), else build-gpu/.
B=${B:-build-gpu}
MS=$B/app/cli/memsweep
# The lessons that sweep sizes (SWEEP in the lesson list); the others are
# probe lessons with their own sizes.
SWEEP_LESSONS=$(sed -n 's/^ *X ([A-Z_]*, \([a-z_]*\), SWEEP,.*/\1/p' \
  "$(dirname "$0")/../engine/ms-lesson-list.h" | tr '_\n' '- ')
# The bandwidth plateau: 16 MiB to 1 GiB per vector.
LARGE_SWEEP=(--min-exp 22 --max-exp 28 --step 2 --reps 5 --warmup 1)
log() { echo "== $*" | tee -a "$OUT/summary.log"; }
# One process of a compare-grade run, with the arguments its parent gives
# it (app/cli/ms-cli-processes.c: --grade's settings, one process).
GRADE_PROCESS=(--grade --processes 1 --grade-target 0 --quiet --no-profile)

build() {
  local lib_opt=() t0
  if [ ! -f /usr/include/csv.h ]; then
    mkdir -p /tmp/csv
    for f in .deps/libcsv*.deb; do dpkg -x "$f" /tmp/csv; done
    lib_opt=(-Dcsv_prefix=/tmp/csv/usr)
  fi
  # Debian 12's json-c (0.16) linked statically, whatever the machine's
  # own libjson-c5 is (Ubuntu 24.04: 0.17, without its headers).
  if [ ! -f /usr/include/json-c/json.h ]; then
    mkdir -p /tmp/json-c
    for f in .deps/libjson-c*.deb; do dpkg -x "$f" /tmp/json-c; done
    lib_opt+=(-Djson_c_prefix=/tmp/json-c/usr)
  fi
  # GSL (the engine's numerics) likewise: Debian 12's 2.7.1, the static
  # libraries of libgsl-dev.
  if [ ! -f /usr/include/gsl/gsl_cdf.h ]; then
    mkdir -p /tmp/gsl
    for f in .deps/libgsl*.deb; do dpkg -x "$f" /tmp/gsl; done
    lib_opt+=(-Dgsl_prefix=/tmp/gsl/usr)
  fi
  export PATH=$PATH:/usr/local/cuda/bin
  t0=$(date +%s)
  if [ ! -f $B/build.ninja ]; then
    meson setup $B -Dgui=disabled -Dbuildtype=release "${lib_opt[@]}" \
      -Dgpu_gencode="${GENCODE:--gencode=arch=compute_90,code=sm_90}" >/tmp/setup.log 2>&1 ||
      { tail -30 /tmp/setup.log; return 1; }
  fi
  ninja -C $B >/tmp/build.log 2>&1 || { tail -40 /tmp/build.log; return 1; }
  log "build took $(( $(date +%s) - t0 )) s; warnings: $(grep -c warning /tmp/build.log)"
  # The managed-touch lesson's counts need libcupti: meson looks in
  # extras/CUPTI and lib64 of the nvcc it uses and of /usr/local/cuda.
  log "$(grep -o 'unified-memory counts (CUPTI) *: *[A-Za-z]*' $B/meson-logs/meson-log.txt | tail -1)"
}

# The device as memsweep sees it.
step_info() { $MS info 2>&1 | tee "$OUT/info.txt"; }

# memsweep with none of the toolkit's libraries in reach: no libcudart or
# libcupti NEEDED, info through the driver alone, and the managed-touch
# lesson's CUPTI counts with CUPTI found by its fallback paths (dlopen).
step_no_toolkit() {
  local d="$OUT/no-toolkit" clean=(env -i PATH=/usr/bin:/bin HOME="$HOME" TMPDIR=/tmp LD_LIBRARY_PATH=)
  mkdir -p "$d"
  readelf -d $MS | grep -E 'NEEDED|RUNPATH' >"$d/dynamic.txt"
  log "no-toolkit: toolkit libraries NEEDED: $(grep -cE 'libcudart|libcupti' "$d/dynamic.txt") (want 0)"
  "${clean[@]}" $MS info >"$d/info.txt" 2>&1
  log "no-toolkit: info rc=$? (want 0): $(head -1 "$d/info.txt")"
  "${clean[@]}" $MS lesson managed-touch --sizes 20:20 --reps 3 --quiet --out "$d/mt" >"$d/mt.txt" 2>&1
  log "no-toolkit: managed-touch rc=$?; um-counts states: $(python3 -c 'import json, sys; print(" ".join(x.split()[3] for x in json.load(open(sys.argv[1]))["metadata"].get("um-counts", [])))' "$d/mt-meta.json" 2>&1) (want counted)"
}

# --format json with a device: info (the device and each mode's support),
# a short sweep, a lesson's run and a calibration, each valid against its
# schema in data/schema/ (tools/json-check.py).
step_json() {
  local d="$OUT/json" sweep=(--modes pageable,pinned --min-exp 20 --max-exp 22 --step 2 --reps 5)
  mkdir -p "$d"
  $MS info --format json >"$d/info.json" 2>"$d/info.err"
  $MS run "${sweep[@]}" --quiet --out "$d/run" --format json >"$d/run.json" 2>"$d/run.err"
  $MS lesson reuse --sizes 20:20 --reps 3 --quiet --out "$d/reuse" --format json \
    >"$d/lesson.json" 2>"$d/lesson.err"
  $MS calibrate --runs 3 --out "$d/profile.csv" --format json "${sweep[@]}" \
    >"$d/calibrate.json" 2>"$d/calibrate.err"
  python3 tools/json-check.py data/schema "$d"/info.json "$d"/run.json "$d"/lesson.json "$d"/calibrate.json >"$d/check.txt" 2>&1
  log "json rc=$?: $(grep -c '^ok' "$d/check.txt") of 4 documents valid; $(grep '^FAIL' "$d/check.txt" | head -2)"
}

# The gpu suite once (meson test --suite gpu).
step_suite() {
  meson test -C $B --suite gpu --print-errorlogs --no-rebuild >"$OUT/suite.txt" 2>&1
  log "gpu suite rc=$?: $(grep -E '^(Ok|Fail|Skipped):' "$OUT/suite.txt" | tr -s ' \n' ' ')"
  cat $B/meson-logs/testlog.txt >"$OUT/suite-testlog.txt" 2>/dev/null
}

# bench/self-compare.sh: calibrate, three default sweeps compared
# pairwise, the plain yardstick beside them, and a 10% change injected into
# a fourth.
step_self_compare() {
  local d="$OUT/self"
  mkdir -p "$d"
  # The between-run spread comes from five processes of its own, so the
  # pairs below are judged by a spread they did not make.
  $MS calibrate --runs "${CALIBRATE_RUNS:-10}" --out "$d/profile.csv" >"$d/calibrate.txt" 2>&1
  log "calibrate rc=$?"
  PLAIN_REPS=${PLAIN_REPS:-like} bench/self-compare.sh $B "$d" 3 default --profile "$d/profile.csv"
  INJECT_LAST=10 bench/self-compare.sh $B "$d" 2 inject --profile "$d/profile.csv"
  log "self-compare: $(grep -c . "$d/default-pairs.txt") lines"
}

# bench/grade-compare.sh: two compare-grade runs, one with a 20% and one
# with a 10% change injected, two quick sweeps, the verdicts between them
# (docs/compare.md); the table's lines in summary.log. GRADE_ARGS: more
# run options for every run.
# shellcheck disable=SC2086
step_grade() {
  local d="$OUT/grade"
  bench/grade-compare.sh $B "$d" ${GRADE_ARGS:-} >/dev/null 2>&1
  log "grade rc=$?"
  sed 's/^/== grade: /' "$d/table.txt" | tee -a "$OUT/summary.log"
  ls -la "$d"/*-samples.csv >>"$OUT/summary.log"
}

# bench/plain-groups.sh: the plain yardstick in 2 x PLAIN_PROCESSES
# processes (default 12) of PLAIN_GROUP_REPS repetitions a cell (15),
# split as two separate runs and as turns, with each mode's spread between
# processes: what the machine lets a comparison decide without memsweep.
step_plain_groups() {
  local d="$OUT/plain-groups"
  bench/plain-groups.sh $B "$d" "${PLAIN_PROCESSES:-12}" "${PLAIN_GROUP_REPS:-15}" >/dev/null 2>&1
  log "plain-groups rc=$?: $(cat "$d/plain-walls.txt")"
  sed 's/^/== plain-groups: /' "$d/plain-groups.txt" | tee -a "$OUT/summary.log"
}

# The gpu suite SUITE_TIMES times in a row (default 10), a line each;
# SUITE_TEST names one of its tests (gpu, gpu-lessons, gpu-multi) to repeat
# that one alone.
step_suite_times() {
  for i in $(seq 1 "${SUITE_TIMES:-10}"); do
    meson test -C $B --suite gpu --print-errorlogs --no-rebuild ${SUITE_TEST:+"$SUITE_TEST"} \
      >"$OUT/suite-$i.txt" 2>&1
    log "gpu suite $i rc=$?: $(grep -E '^(Ok|Fail|Skipped):' "$OUT/suite-$i.txt" | tr -s ' \n' ' ')"
  done
}

# The default sweep's time after CUDA starts (bench-memsweep), and as a
# whole process, five times.
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

# Where whole processes' time goes: bench-memsweep --processes (ROUNDS,
# 5, of the default sweep and of one compare-grade process, interleaved,
# each with its time ledger from exec to exit), then the default sweep
# after CUDA's start (bench-memsweep --sweep-only, three times).
step_process_time() {
  $B/bench/bench-memsweep "${ROUNDS:-5}" --processes "$MS" >"$OUT/process-time.txt" 2>&1
  log "process-time: $(grep -E '^(default sweep|grade process),' "$OUT/process-time.txt" | tr '\n' ' ')"
  $B/bench/bench-memsweep 3 --sweep-only >"$OUT/bench-memsweep.txt" 2>&1
  log "bench-memsweep: $(grep -E 'round|median' "$OUT/bench-memsweep.txt" | grep -v 'cells stopped' | tr '\n' ' ')"
}

# The default sweep at cell budgets of 12, 8, 6 and 4 ms, interleaved,
# ROUNDS (5) processes each, with the time ledger's totals; then
# bench-memsweep's default sweep. tools/cell-budget-table.py sums budget.txt.
step_cell_budget() {
  local r b s0 rc d="$OUT/cell-budget"
  mkdir -p "$d"
  for r in $(seq 1 "${ROUNDS:-5}"); do
    for b in 12 8 6 4; do
      s0=$(date +%s%N)
      MEMSWEEP_TIME_LEDGER=1 $MS run --quiet --cell-budget $b --out "$d/b$b-r$r" >/dev/null \
        2>"$d/b$b-r$r-ledger.txt"
      rc=$?
      echo "budget $b round $r: rc=$rc whole $(( ($(date +%s%N) - s0) / 1000000 )) ms;" \
        "$(grep -E 'since the sweep|query device ' "$d/b$b-r$r-ledger.txt" | tr -s ' ' | tr '\n' ';')" \
        >>"$OUT/budget.txt"
    done
  done
  $B/bench/bench-memsweep 5 --sweep-only >"$OUT/bench-memsweep.txt" 2>&1
  log "cell budgets: $(python3 tools/cell-budget-table.py "$OUT/budget.txt" | tr '\n' ' ')"
}

# The default sweep with --host-prep every and once (issue 59), N (5)
# processes each way, interleaved (the first way alternating), each with
# the time ledger's totals and a line per cell; tools/host-prep-compare.py
# compares the two ways' cells against each way's spread between
# processes. Small text under host-prep/ (the samples files are dropped),
# packed as host-prep.tar.gz beside it.
step_host_prep() {
  local r w ways s0 rc d="$OUT/host-prep"
  mkdir -p "$d"
  : >"$d/times.txt"
  for r in $(seq 1 "${N:-5}"); do
    ways="every once"
    [ $((r % 2)) = 0 ] && ways="once every"
    for w in $ways; do
      s0=$(date +%s%N)
      MEMSWEEP_TIME_LEDGER=cells $MS run --quiet --no-profile --host-prep $w --out "$d/$w-r$r" \
        >/dev/null 2>"$d/$w-r$r-ledger.txt"
      rc=$?
      echo "way=$w round=$r rc=$rc whole_ms=$(( ($(date +%s%N) - s0) / 1000000 ))" >>"$d/times.txt"
      rm -f "$d/$w-r$r-samples.csv"
    done
  done
  python3 tools/host-prep-compare.py "$d" >"$d/compare.txt" 2>&1
  tar -C "$OUT" -czf "$OUT/host-prep.tar.gz" host-prep
  log "host-prep: $(grep -E '^(every|once|once -) ' "$d/compare.txt" | cut -c1-150 | tr '\n' ' ')"
  log "host-prep: $(grep "^## cells" "$d/compare.txt" | tr "\n" " ")"
}

# Where a compare-grade process's time goes (issue 59): N (3) processes
# run as a grade run's parent runs them (ms-cli-processes.c's arguments),
# each whole and with the time ledger, the last with a line per cell; then
# a grade run of GRADE_BUDGET s (30) whole, for the parent's share.
step_grade_profile() {
  local i s0 d="$OUT/grade-profile" ledger=1
  mkdir -p "$d"
  for i in $(seq 1 "${N:-3}"); do
    [ "$i" = "${N:-3}" ] && ledger=cells
    s0=$(date +%s%N)
    MEMSWEEP_TIME_LEDGER=$ledger $MS run "${GRADE_PROCESS[@]}" --out "$d/p$i" >/dev/null \
      2>"$d/ledger-$i.txt"
    echo "process $i: rc=$? whole $(( ($(date +%s%N) - s0) / 1000000 )) ms" >>"$d/walls.txt"
    rm -f "$d/p$i-samples.csv"
  done
  s0=$(date +%s%N)
  $MS run --grade --grade-budget "${GRADE_BUDGET:-30}" --out "$d/grade" >"$d/grade.txt" 2>&1
  echo "grade run: rc=$? whole $(( ($(date +%s%N) - s0) / 1000000 )) ms," \
    "$(grep -o '"processes": [0-9]*' "$d/grade-meta.json")" >>"$d/walls.txt"
  rm -f "$d/grade-samples.csv"
  python3 tools/ledger-table.py "$d/ledger-${N:-3}.txt" >"$d/table.txt" 2>&1
  log "grade-profile: $(tr '\n' ';' <"$d/walls.txt")"
  log "grade-profile: $(grep -E 'since the sweep|query device |cells \(backend|prepare' "$d/ledger-1.txt" | tr -s ' ' | tr '\n' ';')"
}

# Whether the fill's helper threads change a figure, and what they save
# (issue 59): bench-host-data's table, compare --live with the helpers (A)
# against the measuring thread alone (B: MEMSWEEP_EXPERIMENT
# one-thread-prep), both sides taking turns, judged at 10% and at 5%;
# then bench-memsweep's default sweep and one compare-grade process each
# way, interleaved, twice (walls.txt).
step_prep_threads() {
  local d="$OUT/prep-threads" r way x s0
  mkdir -p "$d"
  $B/bench/bench-host-data 31 >"$d/host-data.txt" 2>&1
  $MS compare --live --b-experiment one-thread-prep --out "$d/live" >"$d/live.txt" 2>&1
  echo "rc=$?" >>"$d/live.txt"
  $MS compare "$d/live-a-samples.csv" "$d/live-b-samples.csv" --threshold 5 >"$d/live-5.txt" 2>&1
  rm -f "$d"/*-samples.csv
  for r in 1 2; do
    for way in helpers one-thread-prep; do
      x=
      [ $way = one-thread-prep ] && x=one-thread-prep
      MEMSWEEP_EXPERIMENT=$x $B/bench/bench-memsweep 3 --sweep-only >"$d/bench-$way-$r.txt" 2>&1
      s0=$(date +%s%N)
      MEMSWEEP_EXPERIMENT=$x $MS run "${GRADE_PROCESS[@]}" --out "/tmp/prep-$way-$r" >/dev/null 2>&1
      echo "grade process $way $r: rc=$? whole $(( ($(date +%s%N) - s0) / 1000000 )) ms" >>"$d/walls.txt"
      echo "bench $way $r: $(grep 'median' "$d/bench-$way-$r.txt")" >>"$d/walls.txt"
    done
  done
  log "prep-threads: $(grep -E '^2\^(16|18|20) +(rule|1 )' "$d/host-data.txt" | tr -s ' ' | tr '\n' ';')"
  log "prep-threads live: $(grep -iE 'SAME within|AMBIGUOUS:|SLOWER|FASTER' "$d/live.txt" | head -12 | tr -s ' ' | tr '\n' ';')"
  log "prep-threads: $(tr -s ' ' <"$d/walls.txt" | tr '\n' ';')"
}

# bench-plain: memsweep's cells against a plain program. PLAIN_ARGS: its
# rounds and repetitions (5 31; empty, its own 7 51).
# shellcheck disable=SC2086
step_plain() { $B/bench/bench-plain ${PLAIN_ARGS-5 31} 2>&1 | tee "$OUT/plain.txt" | tail -4; }

# Every lesson through the command line, as reference runs, then the gpu
# suite's lesson checks over them.
step_lessons() {
  local d="$OUT/lessons" name args t0
  mkdir -p "$d"
  # The sweep lessons at sweep_lesson_args' sizes and repetitions; the
  # probe lessons with their own defaults.
  for name in $($MS lesson LIST | sed -n 's/^  memsweep lesson //p'); do
    case " $SWEEP_LESSONS " in
      *" $name "*) args=$(sweep_lesson_args "$name") ;;
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

# The reuse, cache-state and issue-order lessons beside minimal programs
# doing the same work (bench/plain-*.cu), tables with ratios from
# tools/plain-lessons.py in plain-lessons/tables.txt and the summary:
# writes only at 16 MiB in R kernels and in one kernel, pageable end to
# end at 2^16..2^22 in each state the inputs may be left in (and from
# pinned and write-combined memory at 2^20 and 2^22), issue order
# at 4 MiB and K = 16 with memsweep's habits switched on one at a time
# (alone, then all but one, against all but the order of cells).
# PLAIN_REPS: the lessons' repetitions (9).
step_plain_lessons() {
  local d="$OUT/plain-lessons" t0 name sizes sw all one
  mkdir -p "$d"
  t0=$(date +%s)
  for name in reuse cache-state issue-order; do
    case $name in
      reuse) sizes=22:22 ;;
      cache-state) sizes=16:22:2 ;;
      *) sizes=20:20 ;;
    esac
    timeout 120 $MS lesson "$name" --sizes $sizes --reps "${PLAIN_REPS:-9}" --quiet \
      --out "$d/$name" >"$d/$name.txt" 2>&1
    log "lesson $name rc=$?, $(( $(date +%s) - t0 )) s in"
  done
  $B/bench/plain-writes 16 9 >"$d/plain-writes.txt" 2>&1
  log "plain-writes rc=$?"
  $B/bench/plain-pageable 15 16 22 >"$d/plain-pageable.txt" 2>&1
  log "plain-pageable rc=$?"
  $B/bench/plain-pageable --host pinned 15 20 22 >"$d/plain-pinned.txt" 2>&1
  log "plain-pageable --host pinned rc=$?"
  $B/bench/plain-pageable --host wc 15 20 22 >"$d/plain-wc.txt" 2>&1
  log "plain-pageable --host wc rc=$?"
  # --memsweep is all of these and --sequence (memsweep's order of cells).
  all=(--rewrite=streamed --poison --verify --events --nonblocking --cells --warm=100 --pin)
  {
    for q in 1 default; do
      [ $q = 1 ] && export CUDA_DEVICE_MAX_CONNECTIONS=1 || unset CUDA_DEVICE_MAX_CONNECTIONS
      $B/bench/plain-issue-order --name plain
      $B/bench/plain-issue-order --memsweep --name memsweep-like
      [ $q = 1 ] || continue
      # shellcheck disable=SC2046
      $B/bench/plain-issue-order $(printf '%s\n' "${all[@]}" | tr = ' ') --name all-but-sequence
      $B/bench/plain-issue-order --sequence --name only-sequence
      for one in "${all[@]}"; do
        sw=${one#--}
        # shellcheck disable=SC2046
        $B/bench/plain-issue-order $(echo "$one" | tr = ' ') --name "only-${sw%%=*}"
        # shellcheck disable=SC2046
        $B/bench/plain-issue-order $(printf '%s\n' "${all[@]}" | grep -vx -- "$one" | tr = ' ') \
          --name "all-but-${sw%%=*}"
      done
    done
    unset CUDA_DEVICE_MAX_CONNECTIONS
  } >"$d/plain-issue-order.txt" 2>&1
  log "plain-issue-order: $(grep -c '^variant=' "$d/plain-issue-order.txt") variants"
  python3 tools/plain-lessons.py "$d" >"$d/tables.txt" 2>&1
  tee -a "$OUT/summary.log" <"$d/tables.txt"
  log "plain-lessons took $(( $(date +%s) - t0 )) s"
}

# Pageable end to end, memsweep's cache-state lesson (inputs streamed,
# ordinary, kept) beside bench/plain-pageable.cu's states, ROUNDS (4)
# times in processes of their own taking turns, to tell the state's effect
# from the spread between processes: pageable-rounds/round-R/tables.txt,
# and the table of every round (tools/pageable-rounds.py).
step_pageable_rounds() {
  local d="$OUT/pageable-rounds" r
  for r in $(seq 1 "${ROUNDS:-4}"); do
    mkdir -p "$d/round-$r"
    timeout 120 $MS lesson cache-state --sizes 16:22:2 --reps 9 --quiet \
      --out "$d/round-$r/cache-state" >"$d/round-$r/cache-state.txt" 2>&1
    log "pageable round $r: lesson cache-state rc=$?"
    $B/bench/plain-pageable 9 16 22 >"$d/round-$r/plain-pageable.txt" 2>&1
    log "pageable round $r: plain-pageable rc=$?"
  done
  python3 tools/pageable-rounds.py "$d" | tee "$d/table.txt" >>"$OUT/summary.log"
}

# Ordinary stores before a pinned copy: bench/plain-pageable's states from
# pinned memory with the copies in timed plainly and gated (queued behind a
# kernel, so that the GPU's event pair holds the copies alone and not the
# host's calls), and gated from write-combined memory, ROUNDS (3) times in
# processes of their own taking turns: stores/{pinned,wc}-{plain,gated}-
# round-R.txt, and lscpu for the caches' sizes.
step_stores() {
  local d="$OUT/stores" r run
  mkdir -p "$d"
  lscpu >"$d/lscpu.txt" 2>&1
  for r in $(seq 1 "${ROUNDS:-3}"); do
    for run in pinned-plain pinned-gated wc-gated; do
      # shellcheck disable=SC2046
      $B/bench/plain-pageable --host "${run%-*}" $([ "${run#*-}" = gated ] && echo --gated) \
        15 20 22 >"$d/$run-round-$r.txt" 2>&1
      log "stores round $r: $run rc=$?"
    done
  done
  grep -h 'state=\(streamed\|ordinary\|ordinary+flush\) ' "$d"/*.txt | tee -a "$OUT/summary.log"
}

# Where the spread between processes comes from: the four link modes'
# sweep with the measuring thread held to each CPU in turn (taskset),
# twice, forward and backward.
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
  log "cpus: $(find "$d" -maxdepth 1 -name '*-summary.csv' | wc -l) runs"
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
  log "rounds: $(find "$d" -maxdepth 1 -name '*-samples.csv' | wc -l) runs"
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


# The gpu suite SUITE_RUNS times in a row (default 3): the managed counts
# must be whole every time. The first run's key figures go to the summary
# and its plain-against-instrumented lines to overhead.log.
step_suite_runs() {
  local i rc
  for i in $(seq 1 "${SUITE_RUNS:-3}"); do
    meson test -C $B --suite gpu --print-errorlogs --no-rebuild >"$OUT/gpu-suite-$i.log" 2>&1
    rc=$?
    cp $B/meson-logs/testlog.txt "$OUT/gpu-testlog-$i.txt"
    log "gpu suite run $i: rc=$rc"
    grep -E "^ *[0-9]+/[0-9]+ " "$OUT/gpu-suite-$i.log" | tee -a "$OUT/summary.log"
    grep -E "FAIL|managed 16 MiB counted|counts unknown" "$OUT/gpu-testlog-$i.txt" | head -6 |
      tee -a "$OUT/summary.log"
  done
  suite_figures "$OUT/gpu-testlog-1.txt"
}

# Plain against instrumented repetitions, every cell (test-gpu), and the
# issue-order lesson's ratios with and without per-step timers
# (test-gpu-lessons), from one suite's test log.
suite_figures() {
  grep -E "^(2\^10 kernel|2\^10 device|2\^20 [a-z-]+ +copy|warm-up|GPU state)" "$1" |
    tee -a "$OUT/summary.log"
  grep -E "^[a-z-]+ +2\^[0-9]+ +plain |^issue order one queue" "$1" >"$OUT/overhead.log"
  log "instrumentation overhead: $(wc -l <"$OUT/overhead.log") lines in overhead.log"
}

# bench-memsweep in full: memsweep's cells against plain loops in the same
# process, one PASS or FAIL line per comparison.
step_bench() {
  $B/bench/bench-memsweep 3 >"$OUT/bench.log" 2>&1
  log "bench-memsweep rc=$?"
  grep -E "^(PASS|FAIL):" "$OUT/bench.log" | tee -a "$OUT/summary.log"
}

# The default sweep as whole processes: one with its peak memory, three
# one after the other for repeatability, one of three rounds for the
# within-run variance beside the between-run one.
step_repeat() {
  repeat_default
  repeat_three
  repeat_rounds
}

repeat_default() {
  /usr/bin/time -v $MS run --quiet --out "$OUT/default" >"$OUT/default-table.txt" \
    2>"$OUT/default-stderr.txt"
  log "memsweep run rc=$?"
  grep -E "Elapsed|Maximum resident" "$OUT/default-stderr.txt" | tee -a "$OUT/summary.log"
}

# tools/repeatability.py compares the three summaries; the max/min of each
# cell against the repeatability targets goes to repeatability-targets.txt.
repeat_three() {
  local i s0 rc
  for i in 1 2 3; do
    s0=$(date +%s%N)
    $MS run --quiet --out "$OUT/repeat-$i" >"$OUT/repeat-$i-table.txt" 2>"$OUT/repeat-$i-stderr.txt"
    rc=$?
    log "repeat $i: rc=$rc, process wall $(( ($(date +%s%N) - s0) / 1000000 )) ms (CUDA init and warm-up included)"
  done
  python3 tools/repeatability.py "$OUT"/repeat-{1,2,3}-summary.csv 2>&1 |
    tee "$OUT/repeatability.txt" | tee -a "$OUT/summary.log"
  python3 tools/repeatability-targets.py "$OUT"/repeat-{1,2,3}-summary.csv \
    >"$OUT/repeatability-targets.txt" 2>&1
  tail -n 25 "$OUT/repeatability-targets.txt" | tee -a "$OUT/summary.log"
  grep -h '"gpu-warmup"\|"measuring-cpu"\|"gpu-near-cpus"' "$OUT"/repeat-1-meta.json |
    tee -a "$OUT/summary.log"
}

repeat_rounds() {
  local s0
  s0=$(date +%s%N)
  $MS run --rounds 3 --quiet --out "$OUT/rounds3" >"$OUT/rounds3-table.txt" 2>&1
  log "rounds 3: rc=$?, process wall $(( ($(date +%s%N) - s0) / 1000000 )) ms"
  python3 tools/repeatability.py --rounds "$OUT/rounds3-samples.csv" 2>&1 | tee -a "$OUT/summary.log"
}

# The large sweep (LARGE_SWEEP). Its samples hold every figure, so the
# summary file is dropped: a device call brings back few files.
step_large() {
  $MS run "${LARGE_SWEEP[@]}" --quiet --out "$OUT/large" >"$OUT/large-table.txt" \
    2>"$OUT/large-stderr.txt"
  log "large sweep rc=$? $(tail -n 1 "$OUT/large-stderr.txt")"
  rm -f "$OUT/large-summary.csv"
}

# compute-sanitizer: memcheck over test-gpu; racecheck (shared-memory
# hazards, about 100 times slower) over a short sweep of every mode.
step_sanitize() {
  timeout 400 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
    $B/tests/gpu/test-gpu >"$OUT/sanitizer-memcheck.log" 2>&1
  log "compute-sanitizer memcheck rc=$? ($(grep -E 'ERROR SUMMARY|LEAK SUMMARY' \
    "$OUT/sanitizer-memcheck.log" | tr '\n' ' '))"
  timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 \
    $MS run --min-exp 10 --max-exp 16 --step 6 --reps 2 --warmup 1 --quiet \
    --out /tmp/racecheck >"$OUT/sanitizer-racecheck.log" 2>&1
  log "compute-sanitizer racecheck rc=$? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' \
    "$OUT/sanitizer-racecheck.log" | tr '\n' ' '))"
}

lesson_names() { $MS lesson LIST | sed -n 's/^  memsweep lesson \([a-z-]*\)$/\1/p'; }

probe_lesson_names() {
  local name
  for name in $(lesson_names); do
    case " $SWEEP_LESSONS " in *" $name "*) ;; *) echo "$name" ;; esac
  done
}

# Every lesson (or those LESSONS names) at 4 and 16 MiB per vector, 5
# repetitions (three vectors of 16 MiB stay far below any GPU's free
# memory), then the gpu suite's lesson checks over those very runs; what
# each lesson concludes goes to lesson-checks/lessons.log.
step_lesson_checks() {
  local d="$OUT/lesson-checks" name rc=0 t0 crc
  mkdir -p "$d"
  t0=$(date +%s)
  for name in ${LESSONS:-$(lesson_names)}; do
    lesson_check_run "$d" "$name" || rc=1
  done
  log "lessons took $(( $(date +%s) - t0 )) s"
  MS_LESSONS_DIR=$d $B/tests/gpu/test-gpu-lessons $MS >>"$d/lessons.log" 2>&1
  crc=$?
  if [ "$crc" = 0 ] && [ "$rc" = 0 ]; then log "PASS: lessons"; else
    log "FAIL: lessons (runs rc=$rc, checks rc=$crc)"; fi
}

# A sweep lesson's sizes and repetitions: 4 and 16 MiB per vector, far
# below any GPU's free memory, 5 repetitions; cache-state 11, since its
# slide's verdicts need 6 a side (ms_caption_judge): at 5 its pageable
# copies read "too noisy to say" at every size.
sweep_lesson_args() { # NAME
  case $1 in
    cache-state) echo "--sizes 20:22:2 --reps 11" ;;
    *) echo "--sizes 20:22:2 --reps 5" ;;
  esac
}

lesson_check_run() { # DIR NAME
  local t0 lrc
  t0=$(date +%s)
  # shellcheck disable=SC2046
  $MS lesson "$2" $(sweep_lesson_args "$2") --quiet --out "$1/lesson-$2" \
    >"$1/lesson-$2.txt" 2>>"$1/lessons.log"
  lrc=$?
  log "lesson $2: rc=$lrc, $(( $(date +%s) - t0 )) s"
  {
    echo "== lesson $2: rc=$lrc"
    grep -E '^(At |Both |queue=|Pinned |The |After )' "$1/lesson-$2.txt"
    # managed-touch: each cell's line with its unified-memory counts under it.
    grep -B1 -E '^ +(counted repetition|unified memory not counted)' "$1/lesson-$2.txt"
  } >>"$1/lessons.log"
  return $lrc
}

# Every probe lesson with its own defaults (LESSONS names some instead),
# each with its table and caption in probe/lesson-NAME.log and its wall
# time in the summary; with REFERENCE set, each that ran is also a
# reference run.
step_probe_lessons() {
  local d="$OUT/probe" names name t0 rc
  mkdir -p "$d"
  names=$(probe_lesson_names | tr '\n' ' ')
  # LESSONS: the probe lessons among those it names (a sweep lesson's run
  # is the lesson-checks step's).
  [ -z "${LESSONS:-}" ] || names=$(for name in $LESSONS; do
    case " $names " in *" $name "*) echo "$name" ;; esac; done | tr '\n' ' ')
  log "probe lessons: $names"
  for name in $names; do
    t0=$(date +%s%N)
    timeout 300 $MS lesson "$name" --out "$d/lesson-$name" >"$d/lesson-$name.log" 2>&1
    rc=$?
    log "$name: exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms"
    [ $rc != 0 ] || as_reference "$d/lesson-$name" "lesson-$name"
  done
}

# as_reference RUN NAME: RUN-{samples,summary}.csv copied to
# reference/REFERENCE-NAME-*.csv, the names data/reference/ gives them
# (REFERENCE: h100 or h200); nothing without REFERENCE.
as_reference() {
  local k
  [ -n "${REFERENCE:-}" ] || return 0
  mkdir -p "$OUT/reference"
  for k in samples summary; do
    [ -f "$1-$k.csv" ] && cp "$1-$k.csv" "$OUT/reference/$REFERENCE-$2-$k.csv"
  done
  [ -f "$1-meta.json" ] && cp "$1-meta.json" "$OUT/reference/$REFERENCE-$2-meta.json"
  return 0
}

# data/reference/'s runs under reference/, named REFERENCE-* (h100 or
# h200): every probe lesson with its defaults, the sweep lessons of a
# lesson-checks step before it, the default sweep (its Health and
# Envelope through `memsweep show`) and, with LARGE=1, the large sweep.
step_reference() {
  local name
  [ -n "${REFERENCE:-}" ] || { log "reference: REFERENCE=h100|h200 names the runs"; return 1; }
  step_probe_lessons
  for name in $SWEEP_LESSONS; do
    as_reference "$OUT/lesson-checks/lesson-$name" "lesson-$name"
  done
  reference_sweep default
  [ "${LARGE:-0}" != 1 ] || reference_sweep large "${LARGE_SWEEP[@]}"
}

reference_sweep() { # NAME [OPTION...]
  local name=$1 s0
  shift
  mkdir -p "$OUT/reference"
  s0=$(date +%s%N)
  $MS run --quiet "$@" --out "$OUT/reference/$REFERENCE-$name" >"$OUT/reference-$name-table.txt" 2>&1
  log "$name sweep rc=$? in $(( ($(date +%s%N) - s0) / 1000000 )) ms"
  $MS show "$OUT/reference/$REFERENCE-$name-samples.csv" >"$OUT/reference-$name-show.txt" 2>&1
}

# The run-to-run spread's candidate causes, one MEMSWEEP_EXPERIMENT switch
# at a time (HACKING.md): for each, three default sweeps as separate
# processes, the max/min of each cell's median against the targets
# (tools/repeatability-targets.py) and the sweep's time after CUDA starts
# (bench-memsweep --sweep-only). The baseline runs again at the end to show
# drift, and the host-only mode three times for the host's own noise.
# About 4 minutes; the tables in spread/spread.txt.
SPREAD_CONFIGS=(
  "baseline="
  "thp=thp"
  "cpu-fixed=cpu-fixed"
  "buffers-per-size=buffers-per-size"
  "copy-warm=copy-warm"
  "order-mode=order=mode"
  "order-shuffle=order=shuffle"
  "all-but-order=thp,cpu-fixed,buffers-per-size,copy-warm"
  "baseline-again="
)

spread_say() { echo "$*" | tee -a "$OUT/spread/spread.txt"; }

step_spread() {
  local c
  mkdir -p "$OUT/spread"
  : >"$OUT/spread/spread.txt"
  : >"$OUT/spread/held.txt"
  spread_say "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,temperature.gpu \
    --format=csv,noheader 2>&1); THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"
  spread_say "# nproc $(nproc); $(lscpu 2>/dev/null | grep -E '^NUMA node\(s\)' | tr -s ' ')"
  for c in "${SPREAD_CONFIGS[@]}"; do
    spread_config "${c%%=*}" "${c#*=}"
  done
  spread_host
  spread_say ""
  spread_say "## summary: cells within the targets (of the judged GPU cells), default sweep wall time"
  tee -a "$OUT/spread/spread.txt" <"$OUT/spread/held.txt"
  log "spread: $(wc -l <"$OUT/spread/held.txt") settings in spread/spread.txt"
}

spread_config() { # NAME SWITCHES
  local dir="$OUT/spread/$1" sweep held
  mkdir -p "$dir"
  spread_say ""
  spread_say "## $1: MEMSWEEP_EXPERIMENT='$2'"
  spread_runs "$dir" "$2"
  spread_say "$(grep -h '"measuring-cpu"\|"measuring-node"\|"experiment-switches"' \
    "$dir"/run1-meta.json | tr '\n' ' ')"
  python3 tools/repeatability-targets.py "$dir"/run{1,2,3}-summary.csv 2>&1 |
    grep -v "^# max/min" | tee -a "$OUT/spread/spread.txt" >"$dir/targets.txt"
  sweep=$(MEMSWEEP_EXPERIMENT=$2 $B/bench/bench-memsweep 1 --sweep-only 2>&1 |
    sed -n 's/^default sweep wall time: median \([0-9.]*\) s.*/\1 s/p')
  spread_say "default sweep wall time after CUDA initialisation: ${sweep:-unknown}"
  held=$(grep -o 'targets: [0-9]* of [0-9]*' "$dir/targets.txt")
  printf '%-18s %-22s %s\n' "$1" "${held#targets: }" "${sweep:-?}" >>"$OUT/spread/held.txt"
}

spread_runs() { # DIR SWITCHES
  local i s0 rc walls=""
  for i in 1 2 3; do
    s0=$(date +%s%N)
    MEMSWEEP_EXPERIMENT=$2 $MS run --quiet --no-profile --out "$1/run$i" \
      >"$1/run$i-table.txt" 2>"$1/run$i-stderr.txt"
    rc=$?
    walls="$walls $(( ($(date +%s%N) - s0) / 1000000 ))"
    [ $rc = 0 ] || spread_say "run $i rc=$rc: $(tail -2 "$1/run$i-stderr.txt")"
  done
  spread_say "process wall times (ms, CUDA init and warm-up included):$walls"
}

spread_host() {
  local i d="$OUT/spread"
  spread_say ""
  spread_say "## host-only mode, three runs (the host's own noise; not judged)"
  for i in 1 2 3; do
    $MS run --quiet --no-profile --modes host --out "$d/host$i" >/dev/null 2>&1 ||
      spread_say "host run $i failed"
  done
  python3 tools/repeatability-targets.py "$d"/host{1,2,3}-summary.csv 2>&1 |
    grep -v "^# max/min\|^targets" | tee -a "$d/spread.txt"
}

# Whether pinning the measuring thread to one core bends the host-function
# lesson: bench/plain-host-func.cu in five pinnings, interleaved twice,
# then the lesson through the command line twice.
step_host_func_core() {
  local d="$OUT/host-func-core" how i
  mkdir -p "$d"
  nvcc -O2 -o "$d/plain-host-func" bench/plain-host-func.cu >"$d/nvcc.log" 2>&1
  log "nvcc rc=$?"
  for _ in 1 2; do # interleaved twice
    for how in free pin-before pin-ctx pin-after pin-unpin; do
      "$d/plain-host-func" "$how" 30 >>"$d/plain.log" 2>&1
    done
  done
  cat "$d/plain.log" >>"$OUT/summary.log"
  rm -f "$d/plain-host-func"
  for i in 1 2; do
    $MS lesson host-func --quiet --out "$d/lesson-$i" >"$d/lesson-$i.txt" 2>&1
    log "lesson host-func $i rc=$?"
    $MS show "$d/lesson-$i-samples.csv" 2>&1 | head -40 >>"$OUT/summary.log"
  done
}

# The allocation costs of the register-allocate, pin-payoff and costs
# lessons against bench/plain-alloc-costs.cu doing the same calls, on one
# GPU, side by side with ratios (tools/alloc-table.py): registering anew
# against allocating once at 4 MiB, both pageable kinds, cudaMallocHost and
# the host pool at 64 KiB to 4 MiB, cudaMalloc and the device pool at
# 64 KiB to 256 MiB, two 500 us kernels with cudaMalloc, cudaFree,
# cudaMallocAsync or cudaFreeAsync between them, with one and the default
# hardware queues. ALLOC_ROUNDS (3) rounds in new processes, taking turns
# which side goes first: how far each side moves between its own
# processes is what a difference between them is judged by.
alloc_lessons() {
  # register-allocate is a plain sweep of its two modes (memsweep lesson
  # LIST says so); alloc-table.py works out its crossing as the caption does.
  timeout 120 $MS run --modes registered,pinned --min-exp 20 --max-exp 20 --reps 10 --quiet \
    --out "$1/lesson-register-allocate" >"$1/lesson-register-allocate.txt" 2>&1
  log "register-allocate sweep rc=$?"
  # Its second part (memory held pinned) is not what this step compares.
  timeout 150 $MS lesson pin-payoff --option max-exp=20 --option held-max-pct=1 \
    --out "$1/lesson-pin-payoff" >"$1/lesson-pin-payoff.txt" 2>&1
  log "lesson pin-payoff rc=$?"
  timeout 120 $MS lesson costs --sizes 14:26:2 --reps 5 --quiet --out "$1/lesson-costs" \
    >"$1/lesson-costs.txt" 2>&1
  log "lesson costs rc=$?"
  timeout 150 $MS lesson implicit-sync --out "$1/lesson-implicit-sync" \
    >"$1/lesson-implicit-sync.txt" 2>&1
  log "lesson implicit-sync rc=$?"
}

alloc_plain() {
  {
    "$2" register 20 10
    "$2" pin-payoff 14 20 6
    "$2" device-pool 14 26 5
    "$2" device-pool-steps 14 26 5
    "$2" device-pool-steps 14 26 5 40
    CUDA_DEVICE_MAX_CONNECTIONS=1 "$2" implicit-sync 500 1024 9
    env -u CUDA_DEVICE_MAX_CONNECTIONS "$2" implicit-sync 500 1024 9
  } >"$1/plain.txt" 2>&1
  log "plain-alloc-costs rc=$?"
}

step_alloc_costs() {
  local d="$OUT/alloc-costs" t0 i r
  mkdir -p "$d"
  t0=$(date +%s)
  nvcc -O2 -o /tmp/plain-alloc-costs bench/plain-alloc-costs.cu >"$d/nvcc.log" 2>&1
  log "nvcc plain-alloc-costs rc=$?"
  for i in $(seq 1 "${ALLOC_ROUNDS:-3}"); do
    r="$d/round-$i"
    mkdir -p "$r"
    if [ $((i % 2)) = 1 ]; then
      alloc_lessons "$r"; alloc_plain "$r" /tmp/plain-alloc-costs
    else
      alloc_plain "$r" /tmp/plain-alloc-costs; alloc_lessons "$r"
    fi
  done
  python3 tools/alloc-table.py "$d" >"$d/table.txt"
  grep -vE "^(device-pool|implicit-sync|pin-payoff|register) +[0-9]+ " "$d/table.txt" |
    tee -a "$OUT/summary.log"
  log "alloc-costs took $(( $(date +%s) - t0 )) s"
}

# Pinned copies at 4 and 256 MiB: memsweep's steady-state copy rate
# (h2d_copy_gbps, d2h_copy_gbps) against bench/plain-copy-rate.cu (copies
# queued behind a latch kernel, nvbandwidth's method, and without it),
# ROUNDS (3) times each in processes of their own, taking turns;
# tools/copy-rate-table.py prints the ratios.
step_copy_rate() {
  local d="$OUT/copy-rate" r
  mkdir -p "$d"
  for r in $(seq 1 "${ROUNDS:-3}"); do
    $B/bench/plain-copy-rate 9 20 26 >"$d/plain-$r.txt" 2>&1
    log "plain-copy-rate $r rc=$?"
    timeout 120 $MS run --modes pinned --min-exp 20 --max-exp 26 --step 6 --no-profile --quiet \
      --out "$d/memsweep-$r" >"$d/memsweep-$r.txt" 2>&1
    log "copy-rate sweep $r rc=$?"
  done
  python3 tools/copy-rate-table.py "$d" | tee "$d/table.txt" >>"$OUT/summary.log"
}

# The link's health: the gpu suite (the link under load in every cell
# equals the device's maximum), whether the kernel exposes AER counters,
# and a default and a 256 MiB pinned and pageable sweep, each with its
# Health and Envelope paragraphs (every figure should read normal).
step_health() {
  local d="$OUT/health"
  mkdir -p "$d"
  log "$(nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current,pcie.link.gen.max,pcie.link.width.max \
    --format=csv 2>&1 | tr '\n' ' ')"
  log "AER: $(for f in /sys/bus/pci/devices/*/aer_dev_correctable; do [ -r "$f" ] && echo "$f"; done |
    head -3 | tr '\n' ' ')"
  meson test -C $B --suite gpu --print-errorlogs --no-rebuild >"$d/gpu-suite.log" 2>&1
  log "gpu suite rc=$?"
  cp $B/meson-logs/testlog.txt "$d/gpu-testlog.txt" 2>/dev/null
  grep -E "^ *[0-9]+/[0-9]+ |PCIe link under load|link under load at|FAIL" "$d/gpu-testlog.txt" |
    tee -a "$OUT/summary.log"
  health_sweep "$d/default" "default sweep"
  grep '"pcie' "$d/default-meta.json" | tee -a "$OUT/summary.log"
  health_sweep "$d/large" "256 MiB sweep" --modes pinned,pageable --min-exp 26 --max-exp 26
}

health_sweep() { # PREFIX TITLE [OPTION...]
  local prefix=$1 title=$2
  shift 2
  $MS run --quiet "$@" --out "$prefix" >/dev/null 2>"$prefix-stderr.txt"
  log "$title rc=$?"
  $MS show "$prefix-samples.csv" | sed -n '/^Health/,$p' | tee -a "$OUT/summary.log"
}

# The portable lesson's shipped run, on a host with two or more GPUs:
# memsweep portable on every GPU (copies of 2^26 elements, 256 MiB, median
# of 11, as the peer matrix's), written with its sidecar, the table
# gzipped: reference/NAMExN-portable.csv.gz and NAMExN-portable-meta.json,
# the names data/reference/ ships (NAME: REFERENCE, else h100 or h200 from
# the first GPU's name; N the GPUs); the table as printed in
# portable-reference.txt.
step_portable_reference() {
  local d="$OUT/reference" tmp=/tmp/portable-reference n name rc
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  name=${REFERENCE:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
    grep -oiE 'h[0-9]{3}' | head -1 | tr 'A-Z' 'a-z')}
  [ "$n" -ge 2 ] || { log "portable-reference: $n GPU(s); it needs two or more"; return 1; }
  [ -n "$name" ] || { log "portable-reference: REFERENCE=h100|h200 names the run"; return 1; }
  name="${name}x$n"
  rm -rf "$tmp" && mkdir -p "$tmp" "$d" || return 1
  $MS portable --devices all --exp 26 --reps 11 --out "$tmp/$name" >"$OUT/portable-reference.txt" 2>&1
  rc=$?
  log "portable-reference: memsweep portable rc=$rc on $n GPUs"
  cat "$OUT/portable-reference.txt"
  [ $rc = 0 ] && [ -f "$tmp/$name-portable.csv" ] || return 1
  gzip -9n "$tmp/$name-portable.csv" || return 1
  cp "$tmp/$name-portable.csv.gz" "$tmp/$name-portable-meta.json" "$d/" || return 1
  log "portable-reference: reference/$name-portable.csv.gz and $name-portable-meta.json"
}

# Every multi-GPU experiment, on a host with two or more GPUs: the gpu
# suite (with gpu-multi), bench-multi (memsweep against plain loops in the
# same process), then the multi, peer and portable reports; multi/'s
# multi-gpuN-samples.csv and gpus-peer.csv open in the app.
step_multi() {
  local d="$OUT/multi" status=0 rc
  mkdir -p "$d"
  nvidia-smi --query-gpu=index,name,serial,driver_version,pcie.link.gen.current,pcie.link.width.current \
    --format=csv,noheader 2>&1 | tee -a "$OUT/summary.log"
  nvidia-smi topo -m >"$d/nvidia-smi-topo.txt" 2>&1
  meson test -C $B --suite gpu --print-errorlogs --no-rebuild >"$d/gpu-suite.log" 2>&1
  rc=$?
  log "gpu suite (gpu and gpu-multi) rc=$rc"
  [ $rc = 0 ] || status=1
  cp $B/meson-logs/testlog.txt "$d/gpu-testlog.txt" 2>/dev/null
  grep -E "^(device|[0-9]+ devices|multi|peer|portable|FAIL|SKIP|PASSED|FAILED)" "$d/gpu-testlog.txt" | head -60
  timeout 500 $B/bench/bench-multi >"$d/bench-multi.log" 2>&1
  rc=$?
  log "bench-multi rc=$rc"
  [ $rc = 0 ] || status=1
  multi_reports "$d"
  grep -hE "^(PASS|FAIL|SKIP)" "$d/bench-multi.log" "$d/gpu-testlog.txt" | tee -a "$OUT/summary.log"
  log "multi status=$status"
  return $status
}

# The fleet's node side without Slurm: fleet-node measures every GPU of
# this machine one after another, one file per GPU named by host and bus
# id, and fleet-report reads them as one entry per GPU, also as OpenMetrics.
step_fleet() {
  local d="$OUT/fleet" host
  host=$(uname -n)
  rm -rf "$d" && mkdir -p "$d"
  $MS fleet-node --dir "$d/out" --node "$host" -- --modes pinned,zero-copy --min-exp 20 \
    --max-exp 24 --step 2 --reps 6 --warmup 1 >"$d/fleet-node.txt" 2>&1
  log "fleet-node rc=$?: $(ls "$d/out" | grep -c samples.csv) samples files: $(ls "$d/out" | tr '\n' ' ')"
  grep -h "^# \(node\|gpu\|gpu-bus-id\|gpu-serials\|gpu-pcie-links\): " "$d"/out/*-samples.csv | sort | uniq -c |
    tee -a "$OUT/summary.log"
  $MS fleet-report --openmetrics "$d/fleet.prom" "$d/out" >"$d/report.txt" 2>&1
  log "fleet-report rc=$?"
  tee -a "$OUT/summary.log" <"$d/report.txt"
  grep -c "^memsweep_fleet_reported{.*} 1$" "$d/fleet.prom" | sed 's/^/OpenMetrics entries reported: /' |
    tee -a "$OUT/summary.log"
}

# Five processes of GPU 0 as five nodes of a fleet, at the fleet step's
# sizes: the report judges them with the shipped profile of the GPU model,
# then (MEMSWEEP_PROFILES_DIR=/nonexistent) with the fleet's own spread over
# the five. One GPU measured five times is no outlier: any LOW or HIGH is a
# false alarm and fails the step. The verdicts and sources are in the log.
step_fleet_spread() {
  local d="$OUT/fleet-spread" status=0 k
  rm -rf "$d" && mkdir -p "$d"
  for k in 1 2 3 4 5; do
    $MS fleet-node --dir "$d/out" --node "p$k" --gpus 1 -- --modes pinned,zero-copy --min-exp 20 \
      --max-exp 24 --step 2 --reps 6 --warmup 1 >"$d/fleet-node-$k.txt" 2>&1 ||
      { log "fleet-node p$k failed: $(tail -2 "$d/fleet-node-$k.txt")"; status=1; }
  done
  for how in shipped fleet; do
    if [ $how = shipped ]; then
      $MS fleet-report --openmetrics "$d/$how.prom" "$d/out" >"$d/$how.txt" 2>&1
    else
      MEMSWEEP_PROFILES_DIR=/nonexistent $MS fleet-report --openmetrics "$d/$how.prom" "$d/out" \
        >"$d/$how.txt" 2>&1
    fi
    log "fleet-report ($how) rc=$?"
    tee -a "$OUT/summary.log" <"$d/$how.txt"
    grep "^memsweep_fleet_verdict{" "$d/$how.prom" | sed 's/^memsweep_fleet_verdict{node="\([^"]*\)".*figure="\([^"]*\)",\(.*\)} 1$/\1 \2 \3/' |
      tee -a "$OUT/summary.log"
    grep -Eq "^p[1-5]/gpu0 .*(LOW|HIGH)" "$d/$how.txt" && { log "fleet-spread ($how): one GPU flagged against itself"; status=1; }
  done
  log "fleet-spread status=$status"
  return $status
}

# The topology against `nvidia-smi topo -m`, pair by pair, GPUs matched by
# PCI address (tools/topo-check.py), read by the peer matrix (2^26, 11
# repetitions; its gpus-peer.csv and sidecar are data/reference/'s peer
# files of this host); then each GPU's bus id from `info --device K` with
# only that GPU started and with every GPU started, which must agree.
step_topology() {
  local d="$OUT/topology" k n a b
  mkdir -p "$d"
  nvidia-smi topo -m >"$d/nvidia-smi-topo.txt" 2>&1
  nvidia-smi --query-gpu=index,pci.bus_id --format=csv,noheader >"$d/bus.csv" 2>&1
  nvidia-smi -q 2>&1 | grep -E "Product Name|Persistence Mode" | sort | uniq -c >"$d/gpus.txt"
  $MS peer --exp 26 --reps 11 --out "$d/gpus" >"$d/peer.txt" 2>&1
  log "peer rc=$?"
  python3 tools/topo-check.py "$d/nvidia-smi-topo.txt" "$d/bus.csv" "$d/peer.txt" >"$d/check.txt" 2>&1
  log "topology rc=$?: $(tail -1 "$d/check.txt"); lines saying 'in doubt': $(grep -c 'in doubt' "$d/peer.txt")"
  n=$(wc -l <"$d/bus.csv")
  for k in $(seq 0 $((n - 1))); do
    a=$($MS info --device "$k" 2>&1 | grep -i "bus" | head -1)
    b=$(MEMSWEEP_ALL_GPUS=1 $MS info --device "$k" 2>&1 | grep -i "bus" | head -1)
    echo "device $k narrowed: $a | all: $b" >>"$d/narrowed.txt"
    [ -n "$a" ] && [ "$a" = "$b" ] || log "device $k: narrowed and all disagree: $a | $b"
  done
  log "narrowed info: $(grep -c . "$d/narrowed.txt") devices checked"
}

# memsweep info and the default sweep as whole processes: only the GPU in
# use started, every GPU started, CUDA shown one GPU; interleaved,
# START_ROUNDS (default 12) rounds of info, a sweep every third
# (tools/start-time.py).
step_start_time() {
  mkdir -p /tmp/start-sweeps
  python3 tools/start-time.py $MS "${START_ROUNDS:-12}" /tmp/start-sweeps >"$OUT/start-time.txt" 2>&1
  log "start-time rc=$?"
  grep -E "median|=" "$OUT/start-time.txt" | tee -a "$OUT/summary.log"
}

# The host link under every GPU at once: memsweep host-link (copies only,
# 2^22..2^28 floats) and bench/plain-host-to-all (nvbandwidth's
# host_to_device, host_to_all and all_to_host copies, 512 MiB = 2^27
# floats) before and after it, their totals compared by
# tools/host-link-check.py (memsweep within 5 % of the plain runs' mean;
# within 10 % of nvbandwidth's HOST_LINK_NVBANDWIDTH="H2A A2H" when set).
# memsweep's run is also a file, the table gzipped, named as
# portable-reference names its run: reference/NAMExN-host-link.csv.gz and
# NAMExN-host-link-meta.json, what data/reference/ ships for the host-link
# lesson.
step_host_link() {
  local d="$OUT/host-link" n name
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  name=${REFERENCE:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
    grep -oiE 'h[0-9]{3}' | head -1 | tr 'A-Z' 'a-z')}x$n
  mkdir -p "$d" "$OUT/reference"
  $B/bench/plain-host-to-all 512 16 7 >"$d/plain-before.txt" 2>&1
  log "plain-host-to-all before rc=$?: $(grep -c SUM "$d/plain-before.txt") totals"
  $MS host-link --min-exp 22 --max-exp 28 --step 1 --out "$d/$name" >"$d/memsweep.txt" 2>&1
  log "host-link rc=$?"
  if [ -f "$d/$name-host-link.csv" ] && gzip -9nf "$d/$name-host-link.csv" &&
    cp "$d/$name-host-link.csv.gz" "$d/$name-host-link-meta.json" "$OUT/reference/"; then
    log "host-link: reference/$name-host-link.csv.gz and $name-host-link-meta.json"
  fi
  $B/bench/plain-host-to-all 512 16 7 >"$d/plain-after.txt" 2>&1
  log "plain-host-to-all after rc=$?: $(grep -c SUM "$d/plain-after.txt") totals"
  # shellcheck disable=SC2086
  python3 tools/host-link-check.py "$d/memsweep.txt" "$d/plain-before.txt,$d/plain-after.txt" \
    ${HOST_LINK_NVBANDWIDTH:-} \
    >"$d/check.txt" 2>&1
  log "host-link check rc=$?"
  tee -a "$OUT/summary.log" <"$d/check.txt"
}

# The sibling check proved (issue 81): SIBLINGS_TRIES (3) rounds of tries,
# each a try of every case of SIBLINGS_CASES ("plain 20 15"): plain
# without any switch, P with MEMSWEEP_EXPERIMENT inject=P on GPU
# SIBLINGS_GPU (1) alone, at
# the command's own budget unless SIBLINGS_BUDGET says, each timed whole
# and with its --verbose lines; tools/siblings-tries.py says whether every
# try without a switch said alike and every try with one named that GPU
# alone, in how many modes and how fast.
step_siblings() {
  local d="$OUT/siblings" k p g=${SIBLINGS_GPU:-1} s0 name
  mkdir -p "$d"
  for k in $(seq "${SIBLINGS_TRIES:-3}"); do
    for p in ${SIBLINGS_CASES:-plain 20 15}; do
      name=plain-$k
      [ "$p" = plain ] || name=slowed$p-$k
      s0=$(date +%s%N)
      $MS siblings ${SIBLINGS_BUDGET:+--budget "$SIBLINGS_BUDGET"} --verbose --format json \
        $([ "$p" = plain ] || echo "--gpu-experiment $g:inject=$p") \
        >"$d/$name.json" 2>"$d/$name.err"
      log "siblings $name rc=$? whole $(( ($(date +%s%N) - s0) / 1000000 )) ms"
    done
  done
  python3 tools/siblings-tries.py "$g" "$d" >"$d/check.txt" 2>&1
  log "siblings check rc=$?"
  tee -a "$OUT/summary.log" <"$d/check.txt"
}

# data/reference/'s runs of a host of N GPUs, named NAMExN as
# portable-reference names them: the peer matrix (peer --exp 26 --reps
# 11), the sweep on every GPU at once (multi --solo: pinned, zero-copy,
# streams, 2^20..2^28 step 2) and the sibling check's JSON, under
# reference/; their tables in four-gpu-reference.txt.
step_multi_reference() {
  local d="$OUT/reference" n name
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  name=${REFERENCE:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
    grep -oiE 'h[0-9]{3}' | head -1 | tr 'A-Z' 'a-z')}x$n
  mkdir -p "$d"
  $MS peer --exp 26 --reps 11 --out "$d/$name" >"$OUT/multi-reference.txt" 2>&1
  log "multi-reference: peer rc=$?"
  $MS multi --solo --modes pinned,zero-copy,streams --min-exp 20 --max-exp 28 --step 2 --reps 5 \
    --warmup 1 --out "$d/$name" >>"$OUT/multi-reference.txt" 2>&1
  log "multi-reference: multi rc=$?"
  $MS siblings --budget "${SIBLINGS_BUDGET:-60}" --export-json "$d/$name-siblings.json" \
    >>"$OUT/multi-reference.txt" 2>&1
  log "multi-reference: siblings rc=$? (1: a GPU differs)"
  for f in "$d/$name"*.csv; do gzip -9n "$f"; done
  ls "$d" | tee -a "$OUT/summary.log"
}

# Each GPU alone then all at once; the device by device matrix with the
# topology, also as a file (gpus-peer.csv and its gpus-peer-meta.json) for
# the app's GPUs page, of which data/reference/'s peer files are copies
# (the older form, metadata inline); the portable memory.
multi_reports() {
  $MS multi --solo --modes pinned,zero-copy,streams --min-exp 20 --max-exp 28 --step 2 --reps 5 \
    --warmup 1 --out "$1/multi" >"$1/multi.txt" 2>&1
  log "memsweep multi rc=$?"
  $MS peer --exp 26 --reps 11 --out "$1/gpus" >"$1/peer.txt" 2>&1
  log "memsweep peer rc=$?"
  $MS portable --exp 26 --reps 11 >"$1/portable.txt" 2>&1
  log "memsweep portable rc=$?"
  cat "$1/multi.txt" "$1/peer.txt" "$1/portable.txt"
  head -12 "$1/gpus-peer.csv" 2>/dev/null
  # The matrix is a plain table; its GPUs and links are in the sidecar.
  head -30 "$1/gpus-peer-meta.json" 2>/dev/null
}

# The app on a GPU machine without GTK comes as a bundle made by
# tools/bundle-gui.sh (BUNDLE, default .gtk), carried as .gtk.tgz and
# unpacked here when the folder is missing. Sets BUNDLE_DIR.
gui_bundle() {
  local dir=${BUNDLE:-.gtk}
  [ -d "$dir" ] || [ ! -f .gtk.tgz ] || tar -xzf .gtk.tgz
  [ -d "$dir" ] || { log "no app bundle in $dir (tools/bundle-gui.sh; carry .gtk.tgz)"; return 1; }
  BUNDLE_DIR=$(cd "$dir" && pwd)
}

# Points the environment at the bundle and starts its Xvfb on :7 (pid in
# xpid, log in $OUT/xvfb.log). Callers run in a subshell, so that the
# bundle's libraries never reach the steps after them.
gui_env() {
  local b=$BUNDLE_DIR
  export LD_LIBRARY_PATH="$b/lib" FONTCONFIG_FILE="$b/fonts.conf" GSETTINGS_SCHEMA_DIR="$b/schemas"
  export GSETTINGS_BACKEND=memory GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none
  export MEMSWEEP_REFERENCE_DIR="$PWD/data/reference" MEMSWEEP_FIRST_FRAME=1
  # Xvfb runs xkbcomp from its built-in path; a bare machine has none.
  [ -x /usr/bin/xkbcomp ] || cp "$b/bin/xkbcomp" /usr/bin/xkbcomp
  "$b/bin/Xvfb" :7 -screen 0 "${SCREEN:-1400x900x24}" -xkbdir "$b/xkb" -nolisten tcp \
    >"$OUT/xvfb.log" 2>&1 &
  xpid=$!
  sleep 2
  export DISPLAY=:7
}

# The app's default sweep (memsweep-gtk --run) under Xvfb, with a
# screenshot (xwd) EARLY seconds in and one WAIT seconds later, when the
# sweep has drawn its bandwidth view.
step_gui() (
  gui_bundle || exit 1
  mkdir -p "$OUT/gui"
  gui_env
  "$BUNDLE_DIR/bin/memsweep-gtk" --run >"$OUT/gui/app.log" 2>&1 &
  apid=$!
  sleep "${EARLY:-2}"
  "$BUNDLE_DIR/bin/xwd" -root -silent >"$OUT/gui/early.xwd"
  sleep "${WAIT:-12}"
  "$BUNDLE_DIR/bin/xwd" -root -silent >"$OUT/gui/bandwidth.xwd"
  kill $apid "$xpid" 2>/dev/null
  wait 2>/dev/null
  log "gui: $(wc -l <"$OUT/gui/app.log") lines of app log; xvfb: $(tail -n 1 "$OUT/xvfb.log")"
)

# Every lesson card's Run as a user starts it (memsweep-gtk --lesson NAME
# --run), one launch per card (LESSONS names some; default every card of
# `memsweep lesson LIST`), its children being this machine's memsweep:
# waits up to LIMIT seconds (300) for the probe's "lesson NAME:" line,
# then keeps a screenshot and the app's output per card.
step_gui_lessons() (
  gui_bundle || exit 1
  # The probe is built only with -Dprofiling=true (tools/configure.sh sets it).
  grep -q -a -F MEMSWEEP_PROBE "$BUNDLE_DIR/bin/memsweep-gtk" ||
    { log "gui-lessons: the bundle's memsweep-gtk has no profiling hooks (-Dprofiling=true)"; exit 1; }
  mkdir -p "$OUT/gui-lessons"
  SCREEN=1600x1000x24 gui_env
  # The app starts the CLI found next to it first: this machine's own build.
  cp $MS "$BUNDLE_DIR/bin/memsweep" 2>/dev/null || export PATH="$PWD/$B/app/cli:$PATH"
  export MEMSWEEP_PROBE=1
  rc=0
  for name in ${LESSONS:-$($MS lesson LIST | sed -n 's/^  memsweep-gtk --lesson //p')}; do
    gui_card "$name" || rc=1
  done
  kill "$xpid" 2>/dev/null
  exit $rc
)

gui_card() { # NAME
  local log_file="$OUT/gui-lessons/lesson-$1.log" t0 apid line=""
  t0=$(date +%s)
  "$BUNDLE_DIR/bin/memsweep-gtk" --lesson "$1" --run >"$log_file" 2>&1 &
  apid=$!
  while [ $(( $(date +%s) - t0 )) -lt "${LIMIT:-300}" ] && kill -0 $apid 2>/dev/null; do
    line=$(grep -s -m1 "^lesson $1: " "$log_file")
    [ -n "$line" ] && break
    sleep 1
  done
  sleep 2 # the caption and the chart are drawn after the probe line
  "$BUNDLE_DIR/bin/xwd" -root -silent | gzip >"$OUT/gui-lessons/lesson-$1.xwd.gz"
  kill $apid 2>/dev/null
  wait $apid 2>/dev/null
  case "$line" in
    "lesson $1: done"*) log "$line ($(( $(date +%s) - t0 )) s)" ;;
    *) log "lesson $1: NO RESULT after $(( $(date +%s) - t0 )) s: ${line:-$(tail -n 3 "$log_file")}"
       return 1 ;;
  esac
}

# The scale benchmarks on the GPU host's own CPUs (16 cores on the lent
# H100), for comparison with the 2-core machine the code is written on.
# PARTS picks (default all): tests (the gpu suite, one process at a time),
# csv (bench-csv, CSV_ROUNDS), ui (the bundle's bench-ui), open (the app's
# open and first-frame times, OPEN_RUNS; the bundle has no GL driver, so
# the app draws with cairo).
step_scale() {
  local part rc=0
  mkdir -p "$OUT/scale"
  log "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  git rev-parse --short HEAD >"$OUT/scale/commit.txt" 2>/dev/null
  for part in ${PARTS:-tests csv ui open}; do
    "scale_$part" || rc=1
  done
  return $rc
}

scale_tests() {
  meson test -C $B --suite gpu --num-processes 1 >"$OUT/scale/gpu-tests.txt" 2>&1
  log "gpu suite: exit $?, $(grep -E '^(Ok|Fail|Skipped):' "$OUT/scale/gpu-tests.txt" | tr -s ' ' | tr '\n' ' ')"
}

scale_csv() {
  local t0
  t0=$(date +%s)
  mkdir -p /tmp/bench-csv
  $B/bench/bench-csv --rounds "${CSV_ROUNDS:-5}" --dir /tmp/bench-csv >"$OUT/scale/bench-csv.txt" 2>&1
  log "bench-csv: exit $?, $(( $(date +%s) - t0 )) s"
}

scale_ui() {
  local t0 b
  gui_bundle || return 1
  b=$BUNDLE_DIR
  t0=$(date +%s)
  LD_LIBRARY_PATH="$b/lib" FONTCONFIG_FILE="$b/fonts.conf" "$b/bin/bench-ui" >"$OUT/scale/bench-ui.txt" 2>&1
  log "bench-ui: exit $?, $(( $(date +%s) - t0 )) s"
}

scale_open() (
  gui_bundle || exit 1
  t0=$(date +%s)
  SCREEN=1600x1000x24 gui_env
  APP="$BUNDLE_DIR/bin/memsweep-gtk" BENCH_DIR=/tmp/bench-open sh bench/bench-app-open.sh build \
    "${OPEN_RUNS:-5}" >"$OUT/scale/app-open.txt" 2>&1
  rc=$?
  log "bench-app-open: exit $rc, $(( $(date +%s) - t0 )) s"
  kill "$xpid" 2>/dev/null
  exit $rc
)

# A device call brings back few files: everything under $OUT but
# summary.log becomes one archive, $OUT/PACK.tar.gz (PACK: gpu-out).
# The Debian package memsweep alone, as a GPU node gets it: built in a
# copy of the tree (debian/, build profile pkg.memsweep.cli: no drawing
# library, no app; libcsv, json-c and GSL linked in from .deps/ as for build
# when their headers are missing), installed with apt from its file alone
# (no network: what it depends on must be on the machine), then info and
# the default sweep run from /usr/bin/memsweep. Logs and the .deb in deb/;
# the package stays installed.
step_deb() {
  local d="$OUT/deb" src=/tmp/memsweep-deb opts=() t0 deb how
  mkdir -p "$d"
  [ -d /tmp/csv ] && opts+=(-Dcsv_prefix=/tmp/csv/usr)
  [ -d /tmp/json-c ] && opts+=(-Djson_c_prefix=/tmp/json-c/usr)
  [ -d /tmp/gsl ] && opts+=(-Dgsl_prefix=/tmp/gsl/usr)
  rm -rf "$src" && mkdir -p "$src/memsweep"
  # The source: what git lists, or without git the tree less its builds.
  if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard |
      tar --null -T - --no-recursion --ignore-failed-read -cf - 2>/dev/null
  else
    tar --exclude=./build --exclude="./$B" --exclude=./.deps --exclude="./${OUT#"$PWD"/}" -cf - .
  fi | tar -xf - -C "$src/memsweep"
  t0=$(date +%s)
  if command -v dh >/dev/null; then
    how="dpkg-buildpackage -Ppkg.memsweep.cli"
    (cd "$src/memsweep" && MEMSWEEP_MESON_OPTIONS="${opts[*]}" \
       DEB_BUILD_OPTIONS="parallel=$(nproc) noautodbgsym" \
       dpkg-buildpackage -us -uc -b -d -Ppkg.memsweep.cli) >"$d/build.log" 2>&1
  else
    how="dpkg-dev's tools (no debhelper here)"
    (cd "$src/memsweep" && deb_without_debhelper "${opts[@]}") >"$d/build.log" 2>&1
  fi || { tail -30 "$d/build.log"; log "deb: the build failed (deb/build.log)"; return 1; }
  deb=$(ls "$src"/memsweep_*.deb | head -1)
  cp "$deb" "$d/"
  log "deb: built $(basename "$deb") with $how in $(( $(date +%s) - t0 )) s, $(du -k "$deb" | cut -f1) KiB; Depends: $(dpkg-deb -f "$deb" Depends); Recommends: $(dpkg-deb -f "$deb" Recommends)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" >"$d/install.log" 2>&1 ||
    { tail -20 "$d/install.log"; log "deb: apt-get install failed (deb/install.log)"; return 1; }
  log "deb: installed $(dpkg-query -W -f '${Package} ${Version}' memsweep); NEEDED: $(readelf -d /usr/bin/memsweep | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  (cd "$d" && env -i PATH=/usr/bin:/bin HOME="$HOME" /usr/bin/memsweep info >info.txt 2>&1)
  log "deb: memsweep info rc=$?: $(head -1 "$d/info.txt")"
  (cd "$d" && env -i PATH=/usr/bin:/bin HOME="$HOME" /usr/bin/time -f "%e s wall" \
     /usr/bin/memsweep run --quiet --out "$d/default" >"$d/default-table.txt" 2>"$d/default-stderr.txt")
  log "deb: default sweep from the package rc=$?, $(tail -1 "$d/default-stderr.txt")"
}

# What dpkg-buildpackage -Ppkg.memsweep.cli makes, where debhelper is
# missing (the lent GPU machines have dpkg-dev but not debhelper, and no
# network to fetch it): debian/rules' meson options for that profile, the
# files debian/memsweep.install names, the program stripped, the man page
# and changelog compressed, and the control file from debian/control with
# dpkg-shlibdeps' Depends and debian/rules' driver recommendation. Release
# flags instead of dpkg-buildflags' hardening ones. In the source copy.
deb_without_debhelper() {
  local p=debian/memsweep major driver f
  # No dpkg-buildflags here: the lent machines' compiler (/opt/gcc) cannot
  # compile with Ubuntu's hardening flags ("cannot compile programs").
  meson setup debian/build --prefix=/usr --buildtype=release -Dcuda=enabled -Dgui=disabled \
    -Ddraw=disabled -Dprofiling=false "$@" || return 1
  ninja -C debian/build $(meson introspect --targets debian/build |
                          python3 debian/installed-targets.py debian/build) || return 1
  meson install -C debian/build --no-rebuild --destdir "$PWD/debian/tmp" || return 1
  while read -r f; do
    # The lent machines have no gettext: no translations are built there.
    [ -e "debian/tmp/$f" ] || { echo "deb: $f was not built here, left out"; continue; }
    mkdir -p "$p/$(dirname "$f")" && cp -a "debian/tmp/$f" "$p/$(dirname "$f")/" || return 1
  done <debian/memsweep.install
  strip --strip-unneeded --remove-section=.comment "$p/usr/bin/memsweep"
  gzip -9n "$p/usr/share/man/man1/memsweep.1"
  mkdir -p "$p/usr/share/doc/memsweep" "$p/DEBIAN"
  cp debian/copyright debian/README.Debian "$p/usr/share/doc/memsweep/"
  gzip -9nc debian/changelog >"$p/usr/share/doc/memsweep/changelog.gz"
  dpkg-shlibdeps -Tdebian/memsweep.substvars "$p/usr/bin/memsweep" || return 1
  major=$(nvcc --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
  driver=$(sed -n "s/^CUDA_DRIVER_$major = //p" debian/rules)
  dpkg-gencontrol -pmemsweep -P"$p" -Tdebian/memsweep.substvars \
    -Vcuda:Recommends="libcuda1${driver:+ (>= $driver)}" || return 1
  (cd "$p" && find usr -type f -exec md5sum {} + >DEBIAN/md5sums)
  dpkg-deb --root-owner-group --build "$p" .. || return 1
}

step_pack() {
  local tgz="/tmp/${PACK:-gpu-out}.tar.gz"
  tar -C "$OUT" -czf "$tgz" --exclude=summary.log . || return 1
  find "$OUT" -mindepth 1 -maxdepth 1 ! -name summary.log -exec rm -rf {} +
  mv "$tgz" "$OUT/"
  log "pack: ${PACK:-gpu-out}.tar.gz, $(du -h "$OUT/${PACK:-gpu-out}.tar.gz" | cut -f1)"
}

# Every step named must exist before the build starts.
for s in "$@"; do
  declare -F "step_${s//-/_}" >/dev/null || { echo "tools/gpu.sh: no step '$s' (tools/README.md)" >&2; exit 2; }
done
log "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,memory.free,clocks.sm,temperature.gpu --format=csv,noheader 2>&1)"
[ -n "${PREBUILT:-}" ] || build || exit 1
for s in "$@"; do
  "step_${s//-/_}" || log "step $s failed"
done
log "$(date -u +%FT%TZ) done"
