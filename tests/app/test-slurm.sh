#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-slurm.sh MEMSWEEP: the fleet path end to end under a real Slurm.
#
# Starts munge, slurmctld and three slurmd (nodes n1..n3, all on this
# machine, each on its own port) from Debian's slurm-wlm and munge packages,
# installing them with apt when missing and running as root; runs
# `memsweep fleet` with the host mode (no GPU needed) on the three nodes and
# reads the results back with `memsweep fleet-report`. Exits 77 (skip) with
# the reason where Slurm cannot start here.
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
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=60
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((BASE + 1)) CPUs=1 State=UNKNOWN
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((BASE + 2)) CPUs=1 State=UNKNOWN
NodeName=n3 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((BASE + 3)) CPUs=1 State=UNKNOWN
PartitionName=fleet Nodes=n[1-3] Default=YES MaxTime=INFINITE State=UP
CONF
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

# The fleet path: one sweep per node through sbatch and srun, then the
# report. The host mode needs no GPU.
"$MEMSWEEP" fleet --dir "$W/out" --nodes 3 --partition fleet --time 5 -- \
  --modes host --min-exp 10 --max-exp 14 --reps 5 --warmup 1 >"$W/fleet.txt" 2>&1
rc=$?
cat "$W/fleet.txt"
[ $rc = 0 ] || { show_logs; fail "memsweep fleet exited $rc"; }
for n in n1 n2 n3; do
  f="$W/out/$n-samples.csv"
  [ -s "$f" ] || fail "no $f"
  # The node's stamp, in the run's metadata (its sidecar).
  grep -q "^    \"node\": \"$n\",\$" "$W/out/$n-meta.json" || fail "$W/out/$n-meta.json has no node $n"
done
"$MEMSWEEP" fleet-report "$W/out" >"$W/report.txt" 2>&1 || fail "fleet-report exited $?"
cat "$W/report.txt"
grep -q "^fleet: 3 nodes" "$W/report.txt" || fail "the report does not count 3 nodes"
for n in n1 n2 n3; do
  grep -q "^$n " "$W/report.txt" || fail "the report has no row for $n"
done
echo "PASS: 3 nodes swept through Slurm and reported"
