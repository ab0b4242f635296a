#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test-cli-fleet.sh MEMSWEEP: the fleet commands without Slurm: two nodes
# by hand with fleet-node (host mode), the report, the sbatch command that
# fleet would submit, and the usage errors.
set -u
M=$1
REF=$(dirname "$0")/../../data/reference
W=$(mktemp -d /tmp/memsweep-cli-fleet.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail () { echo "FAIL: $*"; exit 1; }

for n in alpha beta; do
  "$M" fleet-node --dir "$W/out" --node "$n" -- --modes host --min-exp 10 --max-exp 12 \
    --reps 5 --warmup 1 >"$W/$n.txt" 2>&1 || fail "fleet-node $n exited $?: $(cat "$W/$n.txt")"
  # The stamp is in the run's metadata, its sidecar (docs/csv.md).
  grep -q "^    \"node\": \"$n\",\$" "$W/out/$n-meta.json" || fail "no node stamp in $n"
  grep -q "^    \"gpu-pcie-links\": " "$W/out/$n-meta.json" || fail "no link stamp in $n"
done
# Two runs of a few microseconds on a shared machine may differ by more than
# 10%, so the flags of alpha and beta are not asserted (tests/engine/test-fleet.c
# does that on generated files).
# A stamped file still reads as an ordinary samples file.
"$M" show "$W/out/alpha-samples.csv" >/dev/null || fail "show of a stamped file"

"$M" fleet-report "$W/out" >"$W/report.txt" || fail "fleet-report exited $?"
grep -Eq "^fleet: 2 nodes, [0-9]+ flagged, 0 unreadable" "$W/report.txt" || fail "header: $(head -1 "$W/report.txt")"
grep -q "^alpha " "$W/report.txt" && grep -q "^beta " "$W/report.txt" || fail "rows"
# Neither node has a run-to-run profile, memsweep ships none for them and two
# are too few for the fleet's own spread: the spread between processes is
# unknown, so neither can be LOW or HIGH, whatever their rates.
grep -qxF "             spread between processes: unknown (2)" "$W/report.txt" ||
  fail "the spread's source is not named: $(cat "$W/report.txt")"
grep -Eq "^(alpha|beta) .*(LOW|HIGH)" "$W/report.txt" && fail "flagged without a known spread"
grep -Eq "^alpha .* (inside|crosses|no-spread) " "$W/report.txt" || fail "alpha's why: $(cat "$W/report.txt")"

# A damaged profile in a node's file is named on standard error, and the
# node still judged.
mkdir "$W/damaged"
cp "$W/out/alpha-samples.csv" "$W/out/alpha-summary.csv" "$W/damaged/"
sed 's/^    "node": "alpha",$/    "run-to-run": "ten runs",\n    "node": "alpha",/' "$W/out/alpha-meta.json" \
  >"$W/damaged/alpha-meta.json"
grep -q '"run-to-run": "ten runs"' "$W/damaged/alpha-meta.json" || fail "the damage was not planted"
"$M" fleet-report "$W/damaged" >"$W/damaged.txt" 2>"$W/damaged.err" ||
  fail "fleet-report with a damaged profile exited $?: $(cat "$W/damaged.err")"
grep -qxF "memsweep fleet-report: alpha-samples.csv: its run-to-run line cannot be read: its profile is left out" \
  "$W/damaged.err" || fail "the damaged profile is not named: $(cat "$W/damaged.err")"
grep -q "^alpha " "$W/damaged.txt" || fail "the node with a damaged profile is not listed"

# A copy of a node's file (stamped with its name) is not a second node: the
# node's own file is counted once, the copy said and left out.
cp "$W/out/alpha-samples.csv" "$W/out/a-copy-samples.csv"
cp "$W/out/alpha-meta.json" "$W/out/a-copy-meta.json"
cp "$W/out/beta-samples.csv" "$W/out/zz-beta-backup-samples.csv"
cp "$W/out/beta-meta.json" "$W/out/zz-beta-backup-meta.json"
"$M" fleet-report "$W/out" >"$W/report-copies.txt" 2>"$W/copies.err" ||
  fail "fleet-report with copies exited $?"
grep -Eq "^fleet: 2 nodes, " "$W/report-copies.txt" || fail "copies counted: $(head -1 "$W/report-copies.txt")"
[ "$(grep -c "^alpha " "$W/report-copies.txt")" = 1 ] || fail "alpha listed twice"
[ "$(grep -c "^beta " "$W/report-copies.txt")" = 1 ] || fail "beta listed twice"
grep -qxF "memsweep fleet-report: a-copy-samples.csv is another file of node alpha (alpha-samples.csv is counted): left out" \
  "$W/copies.err" || fail "the copy is not said: $(cat "$W/copies.err")"
rm "$W/out/a-copy-samples.csv" "$W/out/zz-beta-backup-samples.csv" "$W/out/a-copy-meta.json" \
  "$W/out/zz-beta-backup-meta.json"

# A node's name comes from its file's stamp: control characters in it are
# shown escaped, never sent to the terminal.
cp "$W/out/beta-samples.csv" "$W/out/evil-samples.csv"
sed 's/^    "node": "beta",$/    "node": "evil\\u001b[2Jnode",/' "$W/out/beta-meta.json" >"$W/out/evil-meta.json"
"$M" fleet-report "$W/out" >"$W/report-esc.txt" 2>&1
grep -q "$(printf '\033')" "$W/report-esc.txt" && fail "fleet-report sent a control character"
grep -qF 'evil\x1b[2Jnode' "$W/report-esc.txt" || fail "the stamped name is not shown escaped"
rm "$W/out/evil-samples.csv" "$W/out/evil-meta.json"

# Many nodes are read on several threads, each file protected from the
# outputs as it is opened: the list of inputs is shared and must hold.
mkdir "$W/many"
for i in $(seq 1 48); do
  cp "$W/out/beta-samples.csv" "$W/many/n$i-samples.csv"
  sed "s/^    \"node\": \"beta\",\$/    \"node\": \"n$i\",/" "$W/out/beta-meta.json" >"$W/many/n$i-meta.json"
done
for round in 1 2 3 4 5; do
  "$M" fleet-report "$W/many" >"$W/many.txt" 2>&1 || fail "fleet-report of 48 nodes exited $?: $(tail -2 "$W/many.txt")"
  grep -Eq "^fleet: 48 nodes, " "$W/many.txt" || fail "48 nodes: $(head -1 "$W/many.txt")"
done

# Names whose file fleet-report would not list are refused before running.
for bad in . .. .hidden a/b; do
  "$M" fleet-node --dir "$W/out" --node "$bad" -- --modes host --min-exp 5 --max-exp 5 \
    --reps 1 >"$W/bad.txt" 2>&1
  [ $? = 2 ] || fail "fleet-node --node '$bad' must exit 2"
  grep -qxF "memsweep fleet-node: bad node name '$bad': a node's name may not contain '/' or start with '.'" \
    "$W/bad.txt" || fail "--node '$bad': $(cat "$W/bad.txt")"
done
[ -e "$W/out/.-samples.csv" ] && fail "fleet-node --node . wrote a file"
# Where the node's file cannot go is said in fleet-node's words (--dir,
# --node), not run's --out.
long=$(printf '%0250d' 0)
"$M" fleet-node --dir "$W/out" --node "$long" -- --modes host >"$W/bad.txt" 2>&1
[ $? = 2 ] || fail "a node name too long must exit 2"
grep -qxF "memsweep fleet-node: --dir, --node: $W/out/$long-samples.csv: cannot write: File name too long" \
  "$W/bad.txt" || fail "too long: $(cat "$W/bad.txt")"
: >"$W/a-file"
"$M" fleet-node --dir "$W/a-file" --node n1 -- --modes host >"$W/bad.txt" 2>&1
[ $? = 2 ] || fail "--dir a file must exit 2"
grep -qxF "memsweep fleet-node: --dir, --node: $W/a-file/n1-samples.csv: cannot write: Not a directory" \
  "$W/bad.txt" || fail "--dir a file: $(cat "$W/bad.txt")"

# An unreadable file is listed, and --fail-on-outliers then exits 1.
echo "garbage" >"$W/out/gamma-samples.csv"
"$M" fleet-report --fail-on-outliers "$W/out" >"$W/report2.txt"
[ $? = 1 ] || fail "--fail-on-outliers with an unreadable file must exit 1"
grep -q "^gamma .*UNREADABLE" "$W/report2.txt" || fail "gamma not listed as unreadable"
# Without --fail-on-outliers too: a report that left out a file is not the
# fleet's (1), and the file is named on stderr with its reason.
"$M" fleet-report --outliers --threshold 99 "$W/out" >"$W/report3.txt" 2>"$W/report3.err"
[ $? = 1 ] || fail "--outliers with an unreadable file must exit 1"
grep -q "gamma-samples.csv:1: missing column 'mode'.*left out of the report" "$W/report3.err" ||
  fail "gamma not named on stderr: $(cat "$W/report3.err")"
grep -q "^alpha " "$W/report3.txt" && fail "--outliers lists an ordinary node"

# fleet asks Slurm for the nodes and their GPUs (fake sinfo and scontrol
# here) and submits one job per node with its GPUs requested and a time
# limit; fleet-node then measures each GPU.
mkdir "$W/slurm-bin"
cat >"$W/slurm-bin/sinfo" <<'FAKE'
#!/bin/sh
case "$*" in
  *"%N %G"*) printf 'g1 gpu:h100:8(S:0-1)\ng1 gpu:h100:8(S:0-1)\ng2 gpu:a:2,gpu:b:2\ncpu1 (null)\ng3 gpu:4\n' ;;
  *) printf 'g1\ng1\ng2\ncpu1\ng3\n' ;;
esac
FAKE
printf '#!/bin/sh\n[ "$1 $2" = "show hostnames" ] && printf "g2\\ncpu1\\n"\n' >"$W/slurm-bin/scontrol"
chmod +x "$W/slurm-bin/sinfo" "$W/slurm-bin/scontrol"
PATH="$W/slurm-bin:$PATH" "$M" fleet --dir "$W/fleet" --nodes 3 --partition gpu --dry-run -- --modes pinned \
  >"$W/dry.txt" || fail "fleet --dry-run exited $?"
[ "$(wc -l <"$W/dry.txt")" = 3 ] || fail "one job per node of the first 3: $(cat "$W/dry.txt")"
# Each line is a command a shell runs as printed: an sbatch that prints
# its arguments, one a line, gets the ones fleet would pass.
mkdir "$W/echo-bin"
printf '#!/bin/sh\nfor a; do printf "%%s\\n" "$a"; done\n' >"$W/echo-bin/sbatch"
chmod +x "$W/echo-bin/sbatch"
as_run () { PATH="$W/echo-bin:$PATH" bash -c "$(sed -n "$1p" "$2")"; }
grep -q "^sbatch --parsable .*--nodes=1 .*--nodelist=g1 --time=30 --partition=gpu --gres=gpu:8 '--wrap=srun " \
  "$W/dry.txt" || fail "dry run g1: $(cat "$W/dry.txt")"
as_run 1 "$W/dry.txt" | grep -qx -- "--wrap=srun .*'fleet-node' '--dir' '.*/fleet' '--node' 'g1' '--gpus' '8' '--' '--modes' 'pinned'" ||
  fail "dry run g1 as a shell reads it: $(as_run 1 "$W/dry.txt")"
[ -e "$W/fleet" ] && fail "fleet --dry-run made its --dir"
grep -q -- "--nodelist=g2 .*--gres=gpu:4 " "$W/dry.txt" || fail "g2 has 4 GPUs of two types: $(cat "$W/dry.txt")"
grep "nodelist=cpu1 " "$W/dry.txt" | grep -q -- "--gres" && fail "a node without GPUs gets a GPU request"
as_run "$(grep -n -- "--nodelist=cpu1 " "$W/dry.txt" | cut -d: -f1)" "$W/dry.txt" |
  grep -q "'--node' 'cpu1' '--gpus' 'all'" || fail "cpu1: $(cat "$W/dry.txt")"
grep -q "nodelist=g3" "$W/dry.txt" && fail "--nodes 3 submitted a fourth node"
PATH="$W/slurm-bin:$PATH" "$M" fleet --dir "$W/fleet" --nodelist 'g2,cpu1' --gpus-per-node 1 --time 5 \
  --dry-run -- --modes pinned >"$W/dry.txt" || fail "fleet --nodelist --dry-run exited $?"
[ "$(wc -l <"$W/dry.txt")" = 2 ] && grep -q -- "--nodelist=g2 --time=5 --gres=gpu:1 " "$W/dry.txt" &&
  grep -q -- "--nodelist=cpu1 --time=5 --gres=gpu:1 " "$W/dry.txt" || fail "--nodelist, --gpus-per-node: $(cat "$W/dry.txt")"
"$M" fleet --dir "$W/fleet" --gpus-per-node x --dry-run >/dev/null 2>&1; [ $? = 2 ] || fail "--gpus-per-node x must exit 2"
# Without a Slurm that answers, --dry-run still prints the plan: the nodes
# as named, or --nodes placeholders, their GPUs unknown.
mkdir "$W/no-slurm"
printf '#!/bin/sh
exit 1
' >"$W/no-slurm/sinfo"
chmod +x "$W/no-slurm/sinfo"
PATH="$W/no-slurm:$PATH" "$M" fleet --dir "$W/fleet" --nodes 2 --dry-run -- --modes host \
  >"$W/dry.txt" 2>"$W/dry.err" || fail "fleet --dry-run without Slurm exited $?: $(cat "$W/dry.err")"
[ "$(wc -l <"$W/dry.txt")" = 2 ] && as_run 1 "$W/dry.txt" | grep -q -- "^--wrap=.*'--node' 'NODE1' '--gpus' 'all'" &&
  grep -q -- "--nodelist=NODE2 " "$W/dry.txt" || fail "dry run without Slurm: $(cat "$W/dry.txt")"
grep -q "Slurm does not answer here" "$W/dry.err" || fail "dry run without Slurm not said: $(cat "$W/dry.err")"
PATH="$W/no-slurm:$PATH" "$M" fleet --dir "$W/fleet" --nodelist 'g2,cpu1' --dry-run -- --modes host \
  >"$W/dry.txt" 2>/dev/null && [ "$(wc -l <"$W/dry.txt")" = 2 ] && grep -q -- "--nodelist=cpu1 " "$W/dry.txt" ||
  fail "--nodelist dry run without Slurm: $(cat "$W/dry.txt")"

# Every GPU measured (no GPU here: the host mode twice stands for two),
# each file named by node and GPU and read as its own entry; the entries
# fleet expected and never got are named, and exit 1 with
# --fail-on-outliers.
for n in p q; do
  "$M" fleet-node --dir "$W/gpus" --node $n --gpus 2 -- --modes host --min-exp 10 --max-exp 12 \
    --reps 6 --warmup 1 >"$W/gpus.txt" 2>&1 || fail "fleet-node --gpus 2: $(tail -3 "$W/gpus.txt")"
  for g in 0 1; do
    # The stamp is in the sidecar: the GPU's index there too.
    grep -q "^    \"gpu\": \"$g\",\?\$" "$W/gpus/$n-gpu$g-meta.json" || fail "no GPU stamp in $n-gpu$g"
  done
done
rm "$W/gpus/q-gpu1-samples.csv"
printf 'p 2 101\nq 2 102\nr 0 -\n' >"$W/gpus/fleet-expected.txt"
"$M" fleet-report --openmetrics "$W/gpus.prom" "$W/gpus" >"$W/gpus.txt" 2>"$W/gpus.err" ||
  fail "fleet-report of GPUs exited $?"
grep -Eq "^fleet: 3 nodes, .*; 5 entries, one per GPU; 2 never reported" "$W/gpus.txt" || fail "GPUs header: $(head -1 "$W/gpus.txt")"
for e in p/gpu0 p/gpu1 q/gpu0; do
  grep -q "^$e " "$W/gpus.txt" || fail "no row $e: $(cat "$W/gpus.txt")"
done
grep -q "^q/gpu1 .*NEVER REPORTED" "$W/gpus.txt" && grep -q "^r .*NEVER REPORTED" "$W/gpus.txt" ||
  fail "missing entries: $(cat "$W/gpus.txt")"
grep -qxF "memsweep fleet-report: 2 expected entries never reported: q/gpu1 r" "$W/gpus.err" ||
  fail "missing on stderr: $(cat "$W/gpus.err")"
"$M" fleet-report --fail-on-outliers --threshold 99 "$W/gpus" >/dev/null 2>&1
[ $? = 1 ] || fail "--fail-on-outliers with entries never reported must exit 1"
[ "$(tail -n 1 "$W/gpus.prom")" = "# EOF" ] || fail "OpenMetrics without # EOF"
grep -q '^memsweep_fleet_bytes_per_second{node="p",gpu="1",bus_id="",figure="host"} [0-9]' "$W/gpus.prom" &&
  grep -qxF 'memsweep_fleet_reported{node="q",gpu="1",bus_id=""} 0' "$W/gpus.prom" &&
  grep -qxF 'memsweep_fleet_reported{node="r",gpu="",bus_id=""} 0' "$W/gpus.prom" &&
  grep -qxF '# TYPE memsweep_fleet_flag gauge' "$W/gpus.prom" || fail "OpenMetrics: $(cat "$W/gpus.prom")"
cp "$W/gpus/p-gpu0-samples.csv" "$W/p-gpu0-before"
"$M" fleet-report --openmetrics "$W/gpus/p-gpu0-samples.csv" "$W/gpus" >/dev/null 2>"$W/om.err"
[ $? = 2 ] || fail "--openmetrics over an input must be refused before the work"
grep -q "^memsweep\( fleet-report\)\?: --openmetrics" "$W/om.err" || fail "over an input: $(cat "$W/om.err")"
cmp -s "$W/gpus/p-gpu0-samples.csv" "$W/p-gpu0-before" || fail "--openmetrics wrote over an input"
# A picture's or a table's name is no OpenMetrics file's: refused before
# the work, the file as it was.
for name in pic.png table.csv doc.json; do
  echo keep >"$W/$name"
  "$M" fleet-report --openmetrics "$W/$name" "$W/gpus" >/dev/null 2>"$W/om.err"
  [ $? = 2 ] && grep -q "^memsweep fleet-report: --openmetrics .*$name: the name says" "$W/om.err" &&
    [ "$(cat "$W/$name")" = keep ] || fail "--openmetrics $name: $(cat "$W/om.err")"
done
# The same entries as JSON and CSV: node, GPU and bus id (unknown here) from
# the sidecar, the entries never reported marked.
"$M" fleet-report --format json "$W/gpus" >"$W/gpus.json" 2>/dev/null
python3 - "$W/gpus.json" <<'PY' || fail "fleet-report JSON of GPUs: $(cat "$W/gpus.json")"
import json, sys
d = json.load(open(sys.argv[1]))
got = [(n["node"], n["gpu"], n["bus_id"], n["missing"]) for n in d["nodes"]]
assert d["n_missing"] == 2, d["n_missing"]
assert got == [("p", "0", None, False), ("p", "1", None, False), ("q", "0", None, False),
               ("q", "1", None, True), ("r", None, None, True)], got
PY
"$M" fleet-report --format csv "$W/gpus" 2>/dev/null | cut -d, -f1-3,7 >"$W/gpus.csv"
# Text quoted, as in every CSV memsweep writes (docs/csv.md); empty: absent.
printf 'node,gpu,bus_id,missing\n"p","0",,"false"\n"p","1",,"false"\n"q","0",,"false"\n"q","1",,"true"\n"r",,,"true"\n' |
  cmp -s - "$W/gpus.csv" || fail "fleet-report CSV of GPUs: $(cat "$W/gpus.csv")"
# No node's link is known on the CPU: its columns, empty in every row, left out.
"$M" fleet-report --format csv "$W/gpus" 2>/dev/null | head -n 1 | grep -q "link_gen" &&
  fail "fleet-report CSV: link columns without any link"
"$M" fleet-node --dir "$W/gpus" --node s --gpus 2 -- --modes host --device 1 >"$W/o.txt" 2>&1
[ $? = 2 ] || fail "fleet-node --gpus 2 -- --device must exit 2: $(cat "$W/o.txt")"

# A folder where no node's results can be read is bad input, not a report.
mkdir "$W/bad"
echo "garbage" >"$W/bad/delta-samples.csv"
"$M" fleet-report "$W/bad" >/dev/null 2>"$W/bad.err"
[ $? = 2 ] || fail "fleet-report with only unreadable files must exit 2"
grep -q "no node's results could be read" "$W/bad.err" || fail "message: $(cat "$W/bad.err")"

# The stamped file keeps the mode the user's umask gives (others in a
# shared fleet folder read it), as the summary does.
[ "$(stat -c %a "$W/out/alpha-summary.csv")" = "$(stat -c %a "$W/out/alpha-samples.csv")" ] ||
  fail "stamped samples mode $(stat -c %a "$W/out/alpha-samples.csv"), summary $(stat -c %a "$W/out/alpha-summary.csv")"
(umask 022 && "$M" fleet-node --dir "$W/mode" --node m -- --modes host --min-exp 5 --max-exp 5 \
  --reps 1 >/dev/null 2>&1) || fail "fleet-node for the mode"
[ "$(stat -c %a "$W/mode/m-samples.csv")" = 644 ] ||
  fail "umask 022: the stamped samples file is $(stat -c %a "$W/mode/m-samples.csv"), not 644"

# Run options fleet-node sets itself are refused, and a samples file an
# earlier sweep left is never stamped again as this one's.
cp "$W/out/alpha-samples.csv" "$W/alpha-before"
cp "$W/out/alpha-meta.json" "$W/alpha-meta-before"
"$M" fleet-node --dir "$W/out" --node alpha -- --out "$W/elsewhere" >"$W/o.txt" 2>&1
[ $? = 2 ] || fail "fleet-node -- --out must exit 2: $(cat "$W/o.txt")"
grep -qxF "memsweep fleet-node: --out is set by fleet-node itself, not a run option" "$W/o.txt" ||
  fail "fleet-node -- --out: $(cat "$W/o.txt")"
"$M" fleet-node --dir "$W/out" --node alpha -- --help >"$W/o.txt" 2>&1
[ $? = 2 ] || fail "fleet-node -- --help must exit 2: $(cat "$W/o.txt")"
cmp -s "$W/out/alpha-samples.csv" "$W/alpha-before" && cmp -s "$W/out/alpha-meta.json" "$W/alpha-meta-before" ||
  fail "an old samples file was stamped again"
"$M" fleet-node --help >"$W/o.txt" 2>&1 || fail "fleet-node --help exited $?"
grep -qxF "Usage: memsweep fleet-node [OPTIONS] [-- RUN OPTIONS]" "$W/o.txt" ||
  fail "fleet-node --help: $(cat "$W/o.txt")"
if ! "$M" info >/dev/null 2>&1; then
  # No GPU: run exits 3 and writes nothing; the old file stays unstamped.
  "$M" fleet-node --dir "$W/out" --node alpha -- --modes pinned --min-exp 5 --max-exp 5 >"$W/o.txt" 2>&1
  rc=$?
  [ $rc = 3 ] && grep -q "wrote no samples file" "$W/o.txt" || fail "failed run: exit $rc: $(cat "$W/o.txt")"
  cmp -s "$W/out/alpha-samples.csv" "$W/alpha-before" && cmp -s "$W/out/alpha-meta.json" "$W/alpha-meta-before" ||
    fail "a failed run's old file was stamped"
fi

# fleet checks the run options and the folder before it submits anything:
# a fake sbatch notes whether it was called.
mkdir "$W/bin"
printf '#!/bin/sh\ntouch "%s/sbatch-called"\n' "$W" >"$W/bin/sbatch"
chmod +x "$W/bin/sbatch"
PATH="$W/bin:$PATH" "$M" fleet --dir "$W/new" -- --modes bogus >"$W/o.txt" 2>&1
[ $? = 2 ] || fail "fleet with bad run options must exit 2: $(cat "$W/o.txt")"
[ ! -e "$W/sbatch-called" ] || fail "fleet called sbatch with bad run options"
PATH="$W/bin:$PATH" "$M" fleet --dir "$W/new" -- --out x >"$W/o.txt" 2>&1
[ $? = 2 ] && [ ! -e "$W/sbatch-called" ] || fail "fleet -- --out: $(cat "$W/o.txt")"
# A folder with an earlier job's nodes would mix them into this report.
PATH="$W/bin:$PATH" "$M" fleet --dir "$W/out" -- --modes host >"$W/o.txt" 2>&1
[ $? = 2 ] || fail "fleet into a folder with results must exit 2: $(cat "$W/o.txt")"
grep -q "already holds results" "$W/o.txt" || fail "non-empty folder: $(cat "$W/o.txt")"
[ ! -e "$W/sbatch-called" ] || fail "fleet called sbatch for a folder with results"

# Whole numbers are whole numbers: a count that is not one (or 0 GPUs per
# node, which would submit a job without a GPU request) is refused with a
# message naming the option, exit 2, before anything is made or submitted.
for bad in "--nodes abc" "--nodes 0" "--nodes -1" "--nodes 2x" "--nodes +2" "--nodes ' 2'" \
  "--nodes ''" "--nodes 99999999999999999999" "--gpus-per-node 0" "--gpus-per-node -1" \
  "--gpus-per-node 2x" "--gpus-per-node ''" "--time 0" "--time 5x" "--time ''" "--wait-max 0"; do
  eval "set -- $bad"
  PATH="$W/bin:$W/slurm-bin:$PATH" "$M" fleet --dir "$W/strict" "$@" -- --modes host >"$W/o.txt" 2>&1
  rc=$?
  [ $rc = 2 ] || fail "fleet $bad: exit $rc, want 2: $(cat "$W/o.txt")"
  grep -q "^memsweep.*$1" "$W/o.txt" || fail "fleet $bad: no message naming $1: $(cat "$W/o.txt")"
  [ ! -e "$W/sbatch-called" ] || fail "fleet $bad submitted a job"
  [ ! -e "$W/strict" ] || fail "fleet $bad made its folder"
done
PATH="$W/bin:$W/slurm-bin:$PATH" "$M" fleet --dir "$W/strict" --nodes 1 --dry-run -- --modes host \
  >"$W/o.txt" 2>&1 || fail "fleet --nodes 1 --dry-run: $(cat "$W/o.txt")"
[ "$(grep -c '^sbatch ' "$W/o.txt")" = 1 ] || fail "--nodes 1 is one node: $(cat "$W/o.txt")"
for bad in 0 -1 2x x ''; do
  "$M" fleet-node --dir "$W/strict-node" --node n --gpus "$bad" -- --modes host >"$W/o.txt" 2>&1
  rc=$?
  # (An empty value is refused by the parser, as every option's is.)
  [ $rc = 2 ] && { grep -q "^memsweep fleet-node: --gpus: '$bad' is neither 'all' nor a whole number" "$W/o.txt" ||
    grep -q "^memsweep fleet-node: option '--gpus' needs a value, not an empty one" "$W/o.txt"; } ||
    fail "fleet-node --gpus '$bad': exit $rc: $(cat "$W/o.txt")"
  [ ! -e "$W/strict-node" ] || fail "fleet-node --gpus '$bad' made its folder"
done

# A node's name is data: one that is not UTF-8, or holds a control
# character (a tab, a line break), is refused where it enters, before
# anything is written; one that reached the folder anyway (its file's name,
# the list of expected entries) is escaped in OpenMetrics and JSON, so that
# both files stay valid UTF-8.
for bad in "$(printf 'n\377')" "$(printf 'a\tb')" "$(printf 'a\nb')" "$(printf 'a\302\205b')"; do
  "$M" fleet-node --dir "$W/names" --node "$bad" -- --modes host --min-exp 5 --max-exp 5 \
    --reps 1 >"$W/o.txt" 2>&1
  rc=$?
  [ $rc = 2 ] && grep -q "^memsweep fleet-node: bad node name '.*': a node's name must be UTF-8 text without control characters" \
    "$W/o.txt" || fail "fleet-node --node $(printf '%s' "$bad" | od -c | head -1): exit $rc: $(cat -v "$W/o.txt")"
  [ ! -e "$W/names" ] || fail "fleet-node with a bad name made its folder"
done
mkdir "$W/names"
cp "$W/out/alpha-samples.csv" "$W/out/alpha-summary.csv" "$W/out/alpha-meta.json" "$W/names/"
cp "$W/out/beta-samples.csv" "$W/names/$(printf 'b\377')-samples.csv"
cp "$W/out/beta-summary.csv" "$W/names/$(printf 'b\377')-summary.csv"
printf 'alpha 0 1\nq\377x 0 -\n' >"$W/names/fleet-expected.txt"
"$M" fleet-report --openmetrics "$W/names.prom" --format json "$W/names" >"$W/names.json" 2>/dev/null
python3 - "$W/names.prom" "$W/names.json" <<'PY' || fail "names in OpenMetrics and JSON: $(cat -v "$W/names.prom")"
import json, sys
prom = open(sys.argv[1], "rb").read().decode("utf-8")
assert 'memsweep_fleet_reported{node="b\\\\xff",gpu="",bus_id=""} 1' in prom, prom
assert 'memsweep_fleet_reported{node="q\\\\xffx",gpu="",bus_id=""} 0' in prom, prom
assert prom.endswith("# EOF\n")
names = sorted(n["node"] for n in json.load(open(sys.argv[2], encoding="utf-8"))["nodes"])
assert names == ["alpha", "b\ufffd", "q\ufffdx"], names
PY

# Control characters in what Slurm is given are quoted, never printed raw,
# and the shell gets them back as given; --quiet leaves out the note. A
# node's name is a host name: one with a control character is refused,
# named escaped.
esc=$(printf '\033')
PATH="$W/no-slurm:$PATH" "$M" fleet --dir "$W/fleet" --nodelist "g${esc}[1m1" --dry-run --quiet \
  -- --modes host >"$W/dry.txt" 2>"$W/dry.err"; rc=$?
[ $rc = 2 ] && grep -q "^memsweep fleet: --nodelist 'g.*1m1': " "$W/dry.err" ||
  fail "--nodelist with a control character: exit $rc: $(cat -v "$W/dry.err")"
grep -q "$esc" "$W/dry.err" && fail "a raw control character in the refusal: $(cat -v "$W/dry.err")"
PATH="$W/no-slurm:$PATH" "$M" fleet --dir "$W/fleet" --nodelist "g1" --partition "p${esc}q x" \
  --dry-run --quiet -- --modes host >"$W/dry.txt" 2>"$W/dry.err" || fail "control characters: exit $?"
grep -q "$esc" "$W/dry.txt" && fail "a raw control character in the plan: $(cat -v "$W/dry.txt")"
[ -s "$W/dry.err" ] && fail "--quiet still said: $(cat "$W/dry.err")"
as_run 1 "$W/dry.txt" >"$W/args.txt"
grep -qxF -- "--nodelist=g1" "$W/args.txt" && grep -qxF -- "--partition=p${esc}q x" "$W/args.txt" ||
  fail "control characters as a shell reads them: $(cat -v "$W/args.txt")"
# A --dir whose parent is missing is the user's to fix (exit 2), with or
# without --dry-run, and nothing is made.
"$M" fleet --dir "$W/missing/fleet" --dry-run >/dev/null 2>"$W/dir.err"; rc=$?
[ $rc = 2 ] && grep -q "does not exist" "$W/dir.err" || fail "--dir under a missing folder: exit $rc: $(cat "$W/dir.err")"
"$M" fleet --dir "$W/missing/fleet" >/dev/null 2>&1; [ $? = 2 ] || fail "--dir under a missing folder must exit 2"
[ -e "$W/missing" ] && fail "a missing --dir parent was made"
"$M" fleet --dir "$W/fleet" --quiet --verbose >/dev/null 2>&1; [ $? = 2 ] || fail "--quiet --verbose must exit 2"
# The run's own --verbose after -- is the node's to ask for: the run
# says each cell, where fleet-node's --quiet for it refused the run.
"$M" fleet-node --dir "$W/verbose" --node v -- --modes host --min-exp 10 --max-exp 11 --reps 3 \
  --verbose >"$W/v.out" 2>"$W/v.err" || fail "fleet-node -- --verbose: exit $?: $(cat "$W/v.err")"
[ -s "$W/verbose/v-samples.csv" ] || fail "fleet-node -- --verbose wrote no samples file"

# An sbatch that answers no job id (a site's wrapper, --parsable lost) is
# said, not waited on as a job.
mkdir "$W/wordy"
printf '#!/bin/sh\ncase "$*" in *"%%N %%G"*) echo "g1 gpu:1" ;; *) echo g1 ;; esac\n' >"$W/wordy/sinfo"
printf '#!/bin/sh\necho "Submitted batch job 42"\n' >"$W/wordy/sbatch"
printf '#!/bin/sh\nexit 0\n' >"$W/wordy/squeue"
chmod +x "$W/wordy/"*
PATH="$W/wordy:$PATH" timeout 60 "$M" fleet --dir "$W/wordy-fleet" -- --modes host >/dev/null \
  2>"$W/wordy.err" && fail "fleet after an sbatch without a job id exited 0"
grep -qF "answered 'Submitted batch job 42', not a job id" "$W/wordy.err" ||
  fail "an sbatch answer that is no job id not said: $(cat "$W/wordy.err")"

# A file of another kind under a summary's name is left out, exit 1, as
# an unreadable file is; a summary alone is said and not counted.
mkdir "$W/strange"
cp "$W/gpus/p-gpu0-samples.csv" "$W/gpus/p-gpu0-summary.csv" "$W/gpus/p-gpu0-meta.json" "$W/strange/"
cp "$REF/h200x2-peer.csv.gz" "$W/strange/n1-summary.csv.gz"
"$M" fleet-report "$W/strange" >/dev/null 2>"$W/strange.err"; rc=$?
[ $rc = 1 ] && grep -qF "n1-summary.csv.gz is a peer matrix, not a run's summary: left out" \
  "$W/strange.err" || fail "a peer matrix as a summary: exit $rc: $(cat "$W/strange.err")"

# A fleet stopped while Slurm does not answer takes its sinfo with it.
mkdir "$W/stalled"
printf '#!/bin/sh\nexec sleep 4241\n' >"$W/stalled/sinfo"
chmod +x "$W/stalled/sinfo"
PATH="$W/stalled:$PATH" setsid "$M" fleet --dir "$W/fleet" -- --modes host >/dev/null 2>&1 &
fleet=$!
for _ in $(seq 50); do pgrep -f "sleep 4241" >/dev/null && break; sleep 0.1; done
kill -TERM $fleet
wait $fleet 2>/dev/null
for _ in $(seq 20); do pgrep -f "sleep 4241" >/dev/null || break; sleep 0.1; done
if pgrep -f "sleep 4241" >/dev/null; then
  pkill -f "sleep 4241"
  fail "a fleet ended by SIGTERM left its stalled sinfo running"
fi

"$M" fleet-report >/dev/null 2>&1; [ $? = 2 ] || fail "fleet-report without DIR must exit 2"
"$M" fleet-report "$W/nothing" >/dev/null 2>&1; [ $? = 2 ] || fail "missing DIR must exit 2"
"$M" fleet --nodes 2 >/dev/null 2>&1; [ $? = 2 ] || fail "fleet without --dir must exit 2"
"$M" fleet-report --threshold 0 "$W/out" >/dev/null 2>&1; [ $? = 2 ] || fail "bad threshold"
echo "PASS"
