#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-epipe.py MEMSWEEP REFERENCE_DIR [--tries N] [--only CMD,...]:
a reader that stops reading is a quiet success for every command
(docs/cli.md, "Output"): `memsweep CMD ... | head -c 10` exits with the
status the command has unpiped and says nothing more on standard error
than unpiped (nothing, but where this machine lacks a GPU or Slurm).

The commands come from the option table (`memsweep __options`), so a new
one is covered or fails here until it has its arguments below. Each is
run with arguments that write to standard output on a machine without a
GPU, and --help for each (which every command writes there); a command
that writes nothing to standard output here (it needs a GPU) is said and
has its --help checked alone. Each try alternates two readers: one that
reads 10 bytes and leaves (head -c 10), one that leaves before the first
byte (the write that meets it is sure to fail, however small the
output). The suite runs 3 tries each; issue 83 asks 100, run by hand."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

QUIET_SWEEP = ["--modes", "host", "--min-exp", "0", "--max-exp", "12", "--reps", "4",
               "--warmup", "0", "--quiet"]


def arguments(ref, tmp):
    """Each command's arguments that write to standard output here."""
    a = os.path.join(ref, "h100-default-samples.csv.gz")
    b = os.path.join(ref, "h200-default-samples.csv.gz")
    fleet = os.path.join(tmp, "fleet")
    return {
        "info": ["info", "--format", "json"],
        "modes": ["modes", "--format", "markdown"],
        "run": ["run", *QUIET_SWEEP, "--format", "csv", "--out", os.path.join(tmp, "r")],
        "show": ["show", a, "--format", "csv"],
        "compare": ["compare", a, b, "--format", "csv"],
        "plot": ["plot", a, "--view", "bandwidth", "--out", "-", "--format", "svg"],
        "report": ["report", a, "--out", "-", "--format", "pdf"],
        # Small sweeps where a GPU is: a machine with one runs them all.
        "multi": ["multi", "--modes", "pinned", "--min-exp", "10", "--max-exp", "10", "--reps",
                  "3", "--format", "csv", "--quiet"],
        "peer": ["peer", "--exp", "10", "--reps", "3", "--format", "csv", "--quiet"],
        "portable": ["portable", "--exp", "10", "--reps", "3", "--format", "csv", "--quiet"],
        "siblings": ["siblings", "--run", "--modes pinned --min-exp 10 --max-exp 10 --reps 3",
                     "--budget", "20", "--format", "csv", "--quiet"],
        "host-link": ["host-link", "--min-exp", "10", "--max-exp", "12", "--quiet"],
        "fleet": ["fleet", "--dir", os.path.join(tmp, "plan"), "--nodes", "2", "--dry-run"],
        "fleet-node": ["fleet-node", "--dir", os.path.join(tmp, "node"), "--node", "n",
                       "--", *QUIET_SWEEP],
        "fleet-report": ["fleet-report", fleet, "--format", "csv"],
        "calibrate": ["calibrate", "--runs", "3", "--out", "-", *QUIET_SWEEP],
        "lesson": ["lesson", "list", "--format", "json"],
    }


def piped(memsweep, args, env, at_once):
    """Runs args with standard output into a pipe whose reader leaves
    after 10 bytes (or at once): (status, standard error)."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([memsweep, *args], stdout=subprocess.PIPE, stderr=err, env=env,
                             stdin=subprocess.DEVNULL, cwd=env["TMPDIR"])
        if not at_once:
            os.read(p.stdout.fileno(), 10)
        p.stdout.close()
        rc = p.wait(timeout=300)
        err.seek(0)
        return rc, err.read().decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("memsweep")
    ap.add_argument("reference")
    ap.add_argument("--tries", type=int, default=3)
    ap.add_argument("--only", default="")
    o = ap.parse_args()
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TMPDIR=tmp, XDG_DATA_HOME=os.path.join(tmp, "xdg"), LC_ALL="C",
                   LANGUAGE="")
        table = json.loads(subprocess.run([o.memsweep, "__options"], capture_output=True,
                                          check=True, env=env).stdout)
        args = arguments(o.reference, tmp)
        for node in ("alpha", "beta"):
            subprocess.run([o.memsweep, "fleet-node", "--dir", os.path.join(tmp, "fleet"),
                            "--node", node, "--", *QUIET_SWEEP], env=env, check=True,
                           stdout=subprocess.DEVNULL)
        for command in table["commands"]:
            name = command["name"]
            if o.only and name not in o.only.split(","):
                continue
            if name not in args:
                print(f"FAIL: {name}: no arguments in this test: add its line to arguments()")
                fails += 1
                continue
            cases = [[name, "--help"]]
            plain = subprocess.run([o.memsweep, *args[name]], capture_output=True, env=env,
                                   cwd=tmp)
            if plain.stdout:
                cases.append(args[name])
            else:
                print(f"note {name}: writes nothing to standard output here (exit "
                      f"{plain.returncode}): --help alone")
            for case in cases:
                help = case[-1] == "--help"
                want = 0 if help else plain.returncode
                # What it says unpiped (no GPU here, Slurm absent), no more.
                said = "" if help else plain.stderr.decode(errors="replace")
                bad = []
                for i in range(o.tries):
                    rc, err = piped(o.memsweep, case, env, at_once=i % 2 == 1)
                    if rc != want or err != said:
                        bad.append(f"try {i + 1}: exit {rc} (unpiped {want}): {err.strip()[:300]}")
                print(("ok   " if not bad else "FAIL: ") +
                      f"{' '.join(case[:3])} | head -c 10: {o.tries - len(bad)} of {o.tries} "
                      f"quiet" + "".join("\n  " + b for b in bad[:3]))
                fails += bool(bad)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
