#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-slurm.sh MEMSWEEP: the fleet path end to end under a real Slurm.
#
# Starts munge, slurmctld and three slurmd (nodes n1..n3, all on this
# machine, each on its own port) from Debian's slurm-wlm and munge packages,
# installing them with apt when missing and running as root. Each node
# declares two GPUs (a GRES count: there are none here), so `memsweep fleet`
# with the host mode (no GPU needed) must request them, submit one job per
# node and write one file per GPU; then a node that is down must not block
# the others and is reported as never reporting; fleet-report writes
# OpenMetrics; a profile written on a node carries the host's name. Exits
# 77 (skip) with the reason where Slurm cannot start here.
set -u
MEMSWEEP=$1
skip () { echo "SKIP: $*"; exit 77; }
fail () { echo "FAIL: $*"; exit 1; }

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || skip "slurmctld or munged missing and not root to install them"
  command -v apt-get >/dev/null 2>&1 || skip "slurmctld or munged missing and no apt-get"
  echo "installing slurm-wlm and munge with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    slurm-wlm munge >/dev/null 2>&1 ||
    skip "apt-get install slurm-wlm munge failed (offline?)"
fi
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs as this user"

W=$(mktemp -d /tmp/memsweep-slurm.XXXXXX)
PIDS=""
cleanup () {
  for p in $PIDS; do kill "$p" 2>/dev/null; done
  sleep 1
  for p in $PIDS; do kill -9 "$p" 2>/dev/null; done
  [ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT INT TERM
show_logs () { for f in "$W"/*.log; do echo "--- $f"; tail -n 15 "$f"; done; }

# Free ports from the kernel's ephemeral range, unlikely to clash.
BASE=$(( 20000 + $$ % 20000 ))
CTLD_PORT=$BASE

mkdir -p "$W/state" "$W/out"
dd if=/dev/urandom of="$W/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$W/munge.key"
chmod 755 "$W"
munged --foreground --force --key-file="$W/munge.key" --socket="$W/munge.sock" \
  --pid-file="$W/munged.pid" --log-file="$W/munged.log" --seed-file="$W/munge.seed" \
  2>>"$W/munged.log" &
PIDS="$PIDS $!"

cat > "$W/slurm.conf" <<CONF
ClusterName=memsweeptest
SlurmctldHost=localhost
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge.sock
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool-%n
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd-%n.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
GresTypes=gpu
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=60
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((BASE + 1)) CPUs=1 Gres=gpu:2 State=UNKNOWN
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((BASE + 2)) CPUs=1 Gres=gpu:2 State=UNKNOWN
NodeName=n3 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((BASE + 3)) CPUs=1 Gres=gpu:2 State=UNKNOWN
PartitionName=fleet Nodes=n[1-3] Default=YES MaxTime=INFINITE State=UP
CONF
# Slurm counts a GPU only with a device file: two plain files stand for them.
mkdir -p "$W/dev" && : >"$W/dev/gpu0" && : >"$W/dev/gpu1"
printf 'AutoDetect=off\nName=gpu File=%s/dev/gpu[0-1]\n' "$W" >"$W/gres.conf"
export SLURM_CONF="$W/slurm.conf"

i=0
while [ ! -S "$W/munge.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$W/munge.sock" ] || { show_logs; skip "munged did not start"; }

slurmctld -D -i -f "$SLURM_CONF" >"$W/slurmctld.out.log" 2>&1 &
PIDS="$PIDS $!"
for n in n1 n2 n3; do
  slurmd -D -N "$n" -f "$SLURM_CONF" >"$W/slurmd-$n.out.log" 2>&1 &
  PIDS="$PIDS $!"
done

# Up when sinfo lists the three nodes idle.
i=0
while [ $i -lt 60 ]; do
  idle=$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)
  [ "$idle" -ge 3 ] && break
  sleep 0.5
  i=$((i + 1))
done
if [ "${idle:-0}" -lt 3 ]; then
  sinfo -N 2>&1
  show_logs
  skip "Slurm did not bring up three idle nodes in 30 s (see the logs above)"
fi
echo "slurm up: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
[ -n "${SLURM_BRINGUP_ONLY:-}" ] && exit 0

# The fleet path: one job per node through sbatch and srun, each node's two
# GPUs requested and measured one by one (the host mode needs no GPU), then
# the report.
"$MEMSWEEP" fleet --dir "$W/out" --nodes 3 --partition fleet --time 5 -- \
  --modes host --min-exp 10 --max-exp 14 --reps 6 --warmup 1 >"$W/fleet.txt" 2>&1
rc=$?
cat "$W/fleet.txt"
[ $rc = 0 ] || { show_logs; fail "memsweep fleet exited $rc"; }
[ "$(wc -l <"$W/out/fleet-expected.txt")" = 3 ] || fail "expected: $(cat "$W/out/fleet-expected.txt")"
jobs=""
while read -r node gpus job; do
  [ "$gpus" = 2 ] || fail "$node: $gpus GPUs expected, not 2"
  scontrol show job "$job" >"$W/job.txt" 2>&1 || fail "no job $job for $node"
  grep -q "NodeList=$node\$\|NodeList=$node " "$W/job.txt" || fail "job $job did not run on $node: $(cat "$W/job.txt")"
  grep -Eq "gres[/:]gpu[:=]2" "$W/job.txt" || fail "job $job requested no 2 GPUs: $(cat "$W/job.txt")"
  grep -q "TimeLimit=00:05:00" "$W/job.txt" || fail "job $job has no 5-minute limit"
  case " $jobs " in *" $job "*) fail "one job for two nodes" ;; esac
  jobs="$jobs $job"
done <"$W/out/fleet-expected.txt"
for n in n1 n2 n3; do
  for g in 0 1; do
    f="$W/out/$n-gpu$g-samples.csv" meta="$W/out/$n-gpu$g-meta.json"
    [ -s "$f" ] || fail "no $f"
    # The stamp, in the run's metadata (its sidecar): node and GPU.
    grep -q "^    \"node\": \"$n\",\$" "$meta" && grep -q "^    \"gpu\": \"$g\",\?\$" "$meta" ||
      fail "$meta is not stamped $n GPU $g"
  done
done
"$MEMSWEEP" fleet-report --openmetrics "$W/fleet.prom" "$W/out" >"$W/report.txt" 2>&1 ||
  fail "fleet-report exited $?"
cat "$W/report.txt"
grep -q "^fleet: 3 nodes, .*; 6 entries, one per GPU" "$W/report.txt" || fail "the report does not count 3 nodes of 2 GPUs"
for n in n1 n2 n3; do
  grep -q "^$n/gpu0 " "$W/report.txt" && grep -q "^$n/gpu1 " "$W/report.txt" || fail "the report has no rows for $n's GPUs"
done
[ "$(grep -c '^memsweep_fleet_reported{.*} 1$' "$W/fleet.prom")" = 6 ] || fail "OpenMetrics: $(cat "$W/fleet.prom")"
[ "$(tail -n 1 "$W/fleet.prom")" = "# EOF" ] || fail "OpenMetrics does not end with # EOF"

# A node that is down: the other two report, fleet gives up on it without
# waiting out its deadline, and the report names its GPUs as never reported.
scontrol update nodename=n3 state=down reason=memsweep-test || fail "cannot set n3 down"
start=$(date +%s)
"$MEMSWEEP" fleet --dir "$W/down" --nodelist 'n[1-3]' --partition fleet --time 5 --wait-max 4 -- \
  --modes host --min-exp 10 --max-exp 12 --reps 6 --warmup 1 >"$W/down.txt" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
cat "$W/down.txt"
[ $rc = 1 ] || fail "fleet with a node down exited $rc, not 1"
[ "$took" -lt 120 ] || fail "fleet waited ${took}s for a node that is down"
[ -s "$W/down/n1-gpu0-samples.csv" ] && [ -s "$W/down/n2-gpu1-samples.csv" ] || fail "the nodes up did not report"
grep -q "^n3/gpu0 .*NEVER REPORTED" "$W/down.txt" && grep -q "^n3/gpu1 .*NEVER REPORTED" "$W/down.txt" ||
  fail "n3 not reported as missing"
grep -q "never reported: n3/gpu0 n3/gpu1" "$W/down.txt" || fail "the missing GPUs are not named"
scontrol update nodename=n3 state=resume >/dev/null 2>&1

# A profile written on a node is keyed by its host and bus id ("host" with
# no GPU), not shared with an identical node through a shared home.
XDG_DATA_HOME="$W/xdg" srun -p fleet -w n1 -t 5 "$MEMSWEEP" calibrate --runs 3 --modes host \
  --max-exp 11 --reps 6 --warmup 0 >"$W/cal.txt" 2>&1 || fail "calibrate on n1: $(tail -3 "$W/cal.txt")"
[ -s "$W/xdg/memsweep/run-to-run-$(uname -n)-host.csv" ] ||
  fail "no host-keyed profile: $(ls "$W/xdg/memsweep" 2>&1)"
echo "PASS: 3 nodes of 2 GPUs swept through Slurm one job each, a node down given up, OpenMetrics, host-keyed profile"
