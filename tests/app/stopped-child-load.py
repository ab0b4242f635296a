#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/app/stopped-child-load.py: run --grade whose measuring process is
stopped (SIGSTOP), then one SIGINT to memsweep: it must end within the
bound, on a machine whose cores are all busy. Run by hand, not by the suite:

    stopped-child-load.py MEMSWEEP [--tries 50] [--busy 2] [--bound 10]
                          [--when WHEN+HOW,...]

--busy N starts N busy loops for the whole check (one per core loads a
machine as a shared CI host is). Each try picks its moment in turn:

  waited   the SIGINT once the process is seen stopped (state T)
  at-once  the SIGINT right after the SIGSTOP, before it took effect
  early    the process stopped as soon as it exists (before its handlers)
  handlers as the hostile suite does: once the process catches SIGINT, a
           random 0-0.15 s, SIGSTOP, a random 0.05-0.4 s, then SIGINT
  again    waited, and the process stopped again once memsweep continued
           it (before this round: continued only 10 s later)

each with +count (run --processes 3) or +grade (run --grade).

It prints each try that fails and a line of counts; exit 1 on a failure.
cli-limits case 4 holds the same case once in the suite."""
import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

LONG = ["--modes", "host", "--min-exp", "0", "--max-exp", "14", "--warmup", "0", "--reps",
        "100000"]


# How the run is asked for: a count of processes, or a target width
# (later processes measure the modes still wide).
GRADE = {"count": ["--processes", "3", "--rounds", "1"], "grade": ["--grade"]}


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def status(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return {}


def caught_int(pid):
    return int(status(pid).get("SigCgt", "0"), 16) & (1 << (signal.SIGINT - 1))


def busy(pid):
    """Caught SIGINT and spent some CPU time: at work."""
    st = status(pid)
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return False
    return int(st.get("SigCgt", "0"), 16) & (1 << (signal.SIGINT - 1)) and ticks >= 5


def defaults():
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def one_try(memsweep, when, bound):
    """None when it ended within bound after the SIGINT, else why not."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="",
                   XDG_DATA_HOME=os.path.join(d, "xdg"))
        proc = subprocess.Popen([memsweep, "run", *GRADE[when.split("+")[-1]], "--out", "g",
                                 *LONG], cwd=d, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, preexec_fn=defaults)
        child = None
        while proc.poll() is None and child is None:
            kids = children(proc.pid)
            if kids and (when.startswith("early") or busy(kids[0]) or
                         (when.startswith("handlers") and caught_int(kids[0]))):
                child = kids[0]
            else:
                time.sleep(0.002)
        if child is None:
            proc.communicate()
            return "skipped"
        if when.startswith("handlers"):
            time.sleep(random.uniform(0, 0.15))
        try:
            os.kill(child, signal.SIGSTOP)
        except ProcessLookupError:
            pass
        if when.startswith(("waited", "again")):
            while proc.poll() is None and status(child).get("State", "Z")[0] not in "TtZX":
                time.sleep(0.002)
        if when.startswith("handlers"):
            time.sleep(random.uniform(0.05, 0.4))
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        if when.startswith("again"):
            # Continued by memsweep with the stop passed on: stopped again.
            while proc.poll() is None and status(child).get("State", "Z")[0] in "Tt":
                time.sleep(0.001)
            try:
                os.kill(child, signal.SIGSTOP)
            except ProcessLookupError:
                pass
        try:
            err = proc.communicate(timeout=bound)[1].decode(errors="replace")
        except subprocess.TimeoutExpired:
            state = {c: status(c).get("State", "?") for c in [proc.pid] + children(proc.pid)}
            for c in children(proc.pid):
                os.kill(c, signal.SIGKILL)
            proc.kill()
            err = proc.communicate()[1].decode(errors="replace")
            return f"still running {bound} s after the SIGINT ({state}): {err.strip()[-400:]}"
        took = time.monotonic() - sent
        if proc.returncode != 1:
            return f"exit {proc.returncode}, not 1 ({took:.1f} s): {err.strip()[-400:]}"
        left = [n for n in os.listdir(d) if n.startswith("memsweep-")]
        if left:
            return f"left {left}"
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("memsweep")
    ap.add_argument("--tries", type=int, default=50)
    ap.add_argument("--busy", type=int, default=2)
    ap.add_argument("--bound", type=float, default=10.0)
    ap.add_argument("--when", default="waited+count,at-once+count,early+count,handlers+count,again+count,"
                    "waited+grade,at-once+grade,handlers+grade,again+grade")
    a = ap.parse_args()
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(a.busy)]
    whens = a.when.split(",")
    passed = skipped = 0
    try:
        for i in range(a.tries):
            when = whens[i % len(whens)]
            t0 = time.monotonic()
            why = one_try(a.memsweep, when, a.bound)
            if why == "skipped":
                skipped += 1
            elif why:
                print(f"FAIL try {i + 1} ({when}): {why}", flush=True)
            else:
                passed += 1
                print(f"ok   try {i + 1} ({when}): {time.monotonic() - t0:.1f} s", flush=True)
    finally:
        for p in loops:
            p.kill()
            p.wait()
    load = os.getloadavg()[0]
    print(f"{passed} of {a.tries - skipped} ended within {a.bound:g} s ({skipped} skipped: ended "
          f"before a process was caught); {a.busy} busy loops, load {load:.1f} on "
          f"{os.cpu_count()} cores")
    return 0 if passed == a.tries - skipped else 1


if __name__ == "__main__":
    sys.exit(main())
