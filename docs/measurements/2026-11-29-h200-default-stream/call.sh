#!/usr/bin/env bash
# one GPU call: CALL names what to run (time meaning grade plain plainab stop suite siblings)
set -u
R=$OUT/r; mkdir -p $R
export PREBUILT=1
unset PARTS
exec > >(tee -a $R/call.log) 2>&1
date -u; nvidia-smi --query-gpu=index,name,driver_version,memory.free,clocks.sm --format=csv,noheader; nproc
N=.carry/new; O=.carry/old
for part in $CALL; do
  echo "== part $part $(date -u +%T)"
  case $part in
  time)
    for r in 1 2; do for v in new old; do
      $N/bench/bench-memsweep 3 --processes .carry/$v/app/cli/memsweep >$R/proc-$v-$r.txt 2>&1
      .carry/$v/bench/bench-memsweep 3 --sweep-only >$R/sweep-$v-$r.txt 2>&1
      echo "$v $r: $(grep -E '^(default sweep|grade process),' $R/proc-$v-$r.txt | cut -c1-200 | tr '\n' ' ') || $(grep median $R/sweep-$v-$r.txt)"
    done; done
    MEMSWEEP_TIME_LEDGER=cells $N/app/cli/memsweep run --quiet --out /tmp/lc >/dev/null 2>$R/ledger-sweep.txt
    MEMSWEEP_TIME_LEDGER=cells $N/app/cli/memsweep run --grade --processes 1 --grade-target 0 --no-profile --quiet --out /tmp/lg >/dev/null 2>$R/ledger-grade.txt
    rm -f /tmp/lc* /tmp/lg* ;;
  meaning)
    mkdir -p $R/meaning
    for v in old new; do
      s0=$(date +%s%N)
      .carry/$v/app/cli/memsweep run --grade --quiet --out $R/meaning/$v >$R/meaning/$v.txt 2>&1
      echo "$v grade rc=$? $(( ($(date +%s%N) - s0) / 1000000 )) ms $(grep -o '"processes": [0-9]*' $R/meaning/$v-meta.json)" | tee -a $R/meaning/walls.txt
    done
    $N/app/cli/memsweep compare $R/meaning/old-samples.csv $R/meaning/new-samples.csv >$R/meaning/compare.txt 2>&1
    echo "compare rc=$?"; grep -E "^  [a-z]" $R/meaning/compare.txt | head -14 ;;
  grade)
    B=$N OUT=$R/grade SEPARATE="${SEPARATE:-grade-1 grade-inject20 grade-2}" LIVE="${LIVE:-same}" LIVE_BUDGET=${LIVE_BUDGET:-60} bash tools/gpu.sh grade ;;
  plain)
    B=$N OUT=$R/plain PLAIN_ARGS="${PLAIN_ARGS:-5 31}" bash tools/gpu.sh plain ;;
  plainab)
    i=0; for v in old new old new; do i=$((i+1))
      B=.carry/$v OUT=$R/plain-$i-$v PLAIN_ARGS="${PLAIN_ARGS:-5 31}" bash tools/gpu.sh plain
    done ;;
  stop)
    # Three stop signals (SIGTERM: a job started with & in a script ignores SIGINT) to a run of several processes, one after another
    # (the third within the measuring process's grace), and to a grade run.
    mkdir -p $R/stop
    for c in "run --processes 8 --reps 30" "run --grade"; do
      k=${c// /_}; k=${k//-/}
      $N/app/cli/memsweep $c --out $R/stop/$k >$R/stop/$k.out 2>&1 & p=$!
      sleep 8; kill -TERM $p; kill -TERM $p; kill -TERM $p
      wait $p; echo "$c: 3 x SIGTERM rc=$?"; tail -n 4 $R/stop/$k.out
      ls $R/stop | grep "^$k" | tr '\n' ' '; echo
    done ;;
  suite)
    $N/tests/gpu/test-gpu >$R/suite-gpu.txt 2>&1; echo "test-gpu rc=$?"; tail -3 $R/suite-gpu.txt
    B=$N OUT=$R/lessons bash tools/gpu.sh lesson-checks ;;
  defstream)
    # The default-stream lesson, three processes one after another; the first is the reference run.
    mkdir -p $R/defstream
    for i in 1 2 3; do
      $N/app/cli/memsweep lesson default-stream --out $R/defstream/run-$i >$R/defstream/run-$i.txt 2>&1
      echo "default-stream run $i rc=$?"; grep -iE "cannot tell|saved|legacy default" $R/defstream/run-$i.txt | cut -c1-300
    done ;;
  siblings)
    B=$N OUT=$R/siblings SIBLINGS_CASES="${SIBLINGS_CASES:-plain 15}" bash tools/gpu.sh siblings ;;
  esac
done
find $R -name '*-samples.csv' -size +1M -exec gzip -9 {} \;
tar -C $OUT -czf $OUT/r.tgz r && rm -rf $R
date -u
