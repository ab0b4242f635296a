#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/app/test-cli-limits.py: measured work under limits and signals,
and the supervisor's children in every state (docs/cli.md, "Stopping").

    test-cli-limits.py MEMSWEEP REFERENCE_DIR [CASE...]

Cases 1-8 are the eight defects found on main da005fba; each fails there
and passes now:

  1 calibrate under ulimit -n 13: descriptors do not grow with the runs
  2 someone else's SIGTERM to one calibration run: said, the next runs go
    on, the profile of the whole runs, exit 1
  3 run --grade under a ulimit -f each process's file fits but the merged
    run does not: its summary kept, its samples in parts cat joins, exit 4
  4 run --grade whose process is stopped (SIGSTOP), then one Ctrl+C: no
    hang, the run written, exit 1
  5 fleet-node -- --compress: its .gz files stamped, exit 0; fleet-report
    counts the node
  6 a summary file's health: its link and clocks unknown, not "no GPU cells"
  7 fleet --nodelist: a name no host has is refused before anything runs
  8 compare --live, a side's --rounds 65: refused naming what was asked

and case 13: a single-process run whose pair exceeds ulimit -f is kept
gzipped (fails on da005fba: nothing kept).

Cases 15 on are the lesser defects a later adversarial pass found on
3a4f0474; each fails there and passes now:

 15 a FIFO nobody reads at an output name: refused before any work
 16 a run stopped before any repetition: nothing written, not an empty pair
 17 standard output on a full disk: exit 4 in every command
 18 compare --plot into a missing folder: the status documented is given
 19 show --envelopes FILE that cannot be read: exit 2
 20 a lesson's run without its sidecar: its lesson said unknown
 21 compare --live --out: each side's pair said written
 22 a pair and standard output both failing: exit 4, not 1

Cases 23 on are what the generated suite's seeds and a fresh adversarial
pass found on 3a4f0474 (each fails there):

 23 --quiet, an export that cannot be written: what was written is said
 24 calibrate with too few finished runs for a spread keeps them, named
 25 SIGTERM to memsweep and to its process (pkill, systemd, Slurm): written
 26 TMPDIR removed while run --grade measures: kept beside --out, said
 27 a run over a hard ulimit -f even gzipped: the summary kept, the
    samples gzipped in parts of the limit's size, which cat joins
 28 fleet-report --openmetrics FILE that cannot be written: exit 4
 29 compare --live without --out, --plot not written: both sides kept
 30 compare --live stopped in side A's first process: A's run written

Case 48: plot and report under a hard ulimit -n 8; 49: compare --live
whose side B cannot write in a full TMPDIR (each fails on d74b3244).

Case 46: run --grade whose process, continued by memsweep after one
Ctrl+C, is stopped again: continued at once, not after 10 s (fails on
22c17719).

Case 31 is a time overrun an adversarial pass found on 9f265593 (it fails
there): compare --live --budget 1 ran its first three pairs, whatever
the budget, without a word of the overrun.

Cases 9 on hold the supervisor's policy for each state a child can be in
and each signal a terminal or a scheduler sends (each fails on da005fba
where it says so): a child stopped by someone else is continued (9);
SIGINT, SIGTERM, SIGHUP and SIGQUIT each stop run --grade and keep what
was measured (10), a second of each ends it at once with no child or
folder left (11); a child started with SIGTERM ignored (a runner that
ignores it) is still told to stop (12).

Every program starts with the stop signals at their defaults (PITFALLS
31) and measures the host baseline (--modes host) in a folder of its own
(TMPDIR too). A signal goes to a child once it catches the stop signals
and says it is at work (MEMSWEEP_TEST_BUSY_DIR), and a child is stopped (SIGSTOP) before someone
else's signal reaches it: no verdict depends on this machine's speed."""
import fcntl
import glob
import gzip
import os
import pty
import re
import resource
import shutil
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time

MEMSWEEP = REFERENCE = None
# Where a measuring process says it is at work: a folder of each case's own.
BUSY = None
CASES = []
STOP = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
TINY = ["--modes", "host", "--min-exp", "10", "--max-exp", "10", "--reps", "3"]
# A third of a second of CPU a process (100000 repetitions of 4-16 B).
SHORT = ["--modes", "host", "--min-exp", "0", "--max-exp", "2", "--warmup", "0", "--reps",
         "100000"]
# Seconds a size, 15 sizes: a process stopped early holds only some of them.
LONG = ["--modes", "host", "--min-exp", "0", "--max-exp", "14", "--warmup", "0", "--reps",
        "100000"]


def case(number, title):
    def register(fn):
        CASES.append((number, title, fn))
        return fn

    return register


def expect(cond, what, err=""):
    if not cond:
        raise AssertionError(what + ("\n  stderr: " + err.strip() if err else ""))


def join_parts(d, err):
    """The samples kept in parts under a hard file-size limit, joined as
    the message says (`cat NAME.part-* > BASE` joins them), into NAME."""
    m = re.search(r"which `cat (\S+)\.part-\* > (\S+)` joins", err)
    expect(m and os.path.basename(m.group(1)) == m.group(2), "no parts named, or not how to join "
           "them", err)
    name = os.path.join(d, m.group(1))
    parts = sorted(glob.glob(glob.escape(name) + ".part-*"))
    expect(parts, "the parts named are not there", err)
    with open(name, "wb") as out:
        for part in parts:
            with open(part, "rb") as f:
                out.write(f.read())
    return name


def preexec(ignore=(), nofile=None, fsize=None, session=False, stack=None, vmem=None, cpu=None,
            nofile_hard=False):
    """The child's stop signals at their defaults (some ignored), limits."""

    def setup():
        for sig in STOP:
            signal.signal(sig, signal.SIG_IGN if sig in ignore else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile if nofile_hard else
                                                        resource.getrlimit(
                                                            resource.RLIMIT_NOFILE)[1]))
        # A hard limit, as a batch system's: a soft one alone memsweep lifts
        # to keep what it measured (test-cli-lost case 51).
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if stack is not None:
            resource.setrlimit(resource.RLIMIT_STACK, stack)
        if vmem is not None:
            resource.setrlimit(resource.RLIMIT_AS, (vmem, vmem))
        if cpu is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        if session:
            os.setsid()

    return setup


def env(d):
    # XDG_DATA_HOME too: calibrate without --out writes the GPU's default
    # profile, which every later run in the user's home would read.
    return dict(os.environ, TMPDIR=d, XDG_DATA_HOME=os.path.join(d, "xdg"), LC_ALL="C",
                LANGUAGE="", MEMSWEEP_TEST_BUSY_DIR=BUSY)


def start(d, args, **how):
    return subprocess.Popen([MEMSWEEP, *args], cwd=d, env=env(d), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, preexec_fn=preexec(**how))


def memsweep(d, *args, timeout=240, **how):
    p = subprocess.run([MEMSWEEP, *args], cwd=d, env=env(d), capture_output=True, text=True,
                       timeout=timeout, preexec_fn=preexec(**how))
    return p.returncode, p.stdout, p.stderr


def finish(proc, timeout=240):
    """Its standard error once it ended; a process that hangs is ended with
    its processes and fails the case."""
    try:
        return proc.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        for c in children(proc.pid):
            os.kill(c, signal.SIGKILL)
        proc.kill()
        proc.communicate()
        raise AssertionError(f"still running after {timeout} s: a hang")


def status(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return {}


def state(pid):
    return status(pid).get("State", "Z")[0]


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def caught(pid, sigs):
    mask = int(status(pid).get("SigCgt", "0"), 16)
    return all(mask & (1 << (s - 1)) for s in sigs)


def pending(pid, sig):
    st = status(pid)
    bit = 1 << (sig - 1)
    return bool((int(st.get("ShdPnd", "0"), 16) | int(st.get("SigPnd", "0"), 16)) & bit)


def wait_until(test, proc):
    while not test():
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    return True


def nth_busy_child(proc, n, sigs=(signal.SIGINT,)):
    """The nth child proc starts (from 1) once it says it is at work (the
    file BUSY/PID a measuring process makes once its first cell is
    measured, MEMSWEEP_TEST_BUSY_DIR) and catches sigs; None when proc
    ended first. No count of ticks: a busy machine only makes this wait
    longer (PITFALLS 45)."""
    seen, found = [], []

    def ready():
        for c in children(proc.pid):
            if c not in seen:
                seen.append(c)
        if len(seen) >= n and os.path.exists(os.path.join(BUSY, str(seen[n - 1]))) and \
                caught(seen[n - 1], sigs):
            found.append(seen[n - 1])
            return True
        return False

    return found[0] if wait_until(ready, proc) else None


def stop_child(proc, child):
    """SIGSTOP to child; whether it stopped (False: it ended first)."""
    os.kill(child, signal.SIGSTOP)
    wait_until(lambda: state(child) in "TtZX", proc)
    return state(child) in "Tt"


def left_in(d):
    return [n for n in os.listdir(d) if n.startswith("memsweep-")]


# ---- 1-8: the defects ---------------------------------------------------------
@case(1, "calibrate --runs 8 under ulimit -n 13 writes its profile")
def calibrate_few_descriptors(d):
    rc, _, err = memsweep(d, "calibrate", "--runs", "8", *TINY, "--out", "P.csv", "--quiet",
                          nofile=13)
    expect(rc == 0, f"exit {rc}, not 0", err)
    expect(os.path.getsize(os.path.join(d, "P.csv")) > 0, "no profile", err)
    expect(not left_in(d), f"left {left_in(d)}", err)


@case(2, "someone else's SIGTERM to one calibration run of 4: said, the others go on, exit 1")
def calibrate_run_terminated(d):
    proc = start(d, ["calibrate", "--runs", "4", "--out", "P.csv", "--quiet", *SHORT])
    # Run 2, or the next when one ended before it could be stopped.
    for n in (2, 3, 4):
        child = nth_busy_child(proc, n)
        expect(child is not None, f"calibrate ended before its run {n}")
        if stop_child(proc, child):
            os.kill(child, signal.SIGTERM)
            os.kill(child, signal.SIGCONT)
            break
    err = finish(proc)
    expect(proc.returncode == 1, f"exit {proc.returncode}, not 1", err)
    expect(f"run {n} of 4" in err and "not counted" in err, "the run's end is not said", err)
    expect(os.path.exists(os.path.join(d, "P.csv")), "no profile from the three whole runs", err)
    expect("3 finished runs" in err, "what the profile is measured from is not said", err)


@case(3, "run --grade: the merged run over ulimit -f kept, its samples in parts cat joins, exit 4")
def grade_file_limit(d):
    # A process's samples file: about 3.8 KB; the twelve merged: about 45
    # KB, 6.7 KB gzipped (the form a kept run tries next).
    rc, _, err = memsweep(d, "run", "--grade", "--processes", "12", "--rounds", "2", "--modes",
                          "host", "--min-exp", "10", "--max-exp", "12", "--reps", "3", "--out",
                          "G", "--quiet", fsize=5120)
    expect(rc == 4, f"exit {rc}, not 4", err)
    # The merged run fits nowhere whole: its summary is kept, its samples
    # in parts that cat joins into the run of all twelve processes.
    joined = join_parts(d, err)
    show = subprocess.run([MEMSWEEP, "show", joined], capture_output=True, text=True)
    expect(show.returncode == 0 and "72 repetitions per cell" in show.stdout,
           "the joined parts do not read back as the merged run", show.stderr + show.stdout[:300])


@case(4, "run --grade with its process stopped (SIGSTOP), then one Ctrl+C: no hang, exit 1")
def grade_stopped_then_ctrl_c(d):
    proc = start(d, ["run", "--processes", "3", "--rounds", "1", "--out", "g", *LONG],
                 session=True)
    child = nth_busy_child(proc, 1)
    expect(child is not None, "run --grade ended before its first process was busy")
    stop_child(proc, child)
    os.killpg(proc.pid, signal.SIGINT)
    err = finish(proc, timeout=120)
    expect(proc.returncode == 1, f"exit {proc.returncode}, not 1", err)
    expect(os.path.exists(os.path.join(d, "g-samples.csv")), "what was measured not written", err)
    expect(not left_in(d), f"left {left_in(d)}", err)


@case(46, "run --grade: its process stopped again after one Ctrl+C reached it: continued at once")
def grade_stopped_again_after_ctrl_c(d):
    # Told to stop, the process must run to its end: one stopped again
    # (someone's SIGSTOP that took effect after memsweep continued it) was
    # left for the 10 s of a stop by someone else. Fails on 22c17719.
    for _ in range(5):
        proc = start(d, ["run", "--processes", "3", "--rounds", "1", "--out", "g", *LONG],
                     session=True)
        child = nth_busy_child(proc, 1)
        expect(child is not None, "run --grade ended before its first process was busy")
        stop_child(proc, child)
        os.killpg(proc.pid, signal.SIGINT)
        # Continued by memsweep with the stop passed on: stopped again.
        wait_until(lambda: state(child) not in "Tt", proc)
        again = stop_child(proc, child)
        t0 = time.monotonic()
        err = finish(proc, timeout=120)
        if again:
            break
        shutil.rmtree(d, ignore_errors=True)
        os.mkdir(d)
    expect(again, "the process ended before it could be stopped again, five times")
    took = time.monotonic() - t0
    expect(took < 8, f"ended {took:.1f} s after the second stop: not continued at once", err)
    expect(proc.returncode == 1, f"exit {proc.returncode}, not 1", err)
    expect(not left_in(d), f"left {left_in(d)}", err)


@case(5, "fleet-node -- --compress: exit 0, .gz files stamped; fleet-report counts the node")
def fleet_node_compress(d):
    rc, _, err = memsweep(d, "fleet-node", "--dir", "F", "--node", "n1", "--", *TINY,
                          "--compress")
    expect(rc == 0, f"fleet-node: exit {rc}, not 0", err)
    expect(sorted(os.listdir(os.path.join(d, "F"))) ==
           ["n1-meta.json", "n1-samples.csv.gz", "n1-summary.csv.gz"],
           f"files: {os.listdir(os.path.join(d, 'F'))}", err)
    with open(os.path.join(d, "F", "n1-meta.json")) as f:
        expect('"node": "n1"' in f.read(), "the sidecar holds no stamp", err)
    rc, _, err = memsweep(d, "fleet-node", "--dir", "F", "--node", "n2", "--", *TINY)
    expect(rc == 0, f"fleet-node n2: exit {rc}", err)
    rc, out, err = memsweep(d, "fleet-report", "F")
    expect(rc == 0, f"fleet-report: exit {rc}, not 0", err)
    expect("2 nodes" in out and "\nn1 " in out and "\nn2 " in out,
           "a node left out: " + out, err)
    # What cannot be counted is said, not passed over.
    os.unlink(os.path.join(d, "F", "n2-samples.csv"))
    os.mkdir(os.path.join(d, "F", "memsweep-kept-x"))
    rc, out, err = memsweep(d, "fleet-report", "F")
    expect("n2-summary.csv has no samples file" in err and "memsweep-kept-x holds a run" in err,
           "a node's files left out without a word", err)


@case(6, "a summary file's health: link and clocks unknown, not 'no GPU cells'")
def summary_health_unknown(d):
    stem = "h100-default"
    for kind in ("-samples.csv.gz", "-summary.csv.gz", "-meta.json"):
        shutil.copy(os.path.join(REFERENCE, stem + kind), d)
    rc, out, err = memsweep(d, "show", stem + "-summary.csv.gz")
    health = out.split("Health\n", 1)[-1].split("\n", 1)[0]
    expect(rc == 0, f"show: exit {rc}", err)
    expect("no GPU cells" not in health and "unknown" in health, "summary: " + health)
    rc, out, err = memsweep(d, "show", stem + "-samples.csv.gz")
    health = out.split("Health\n", 1)[-1].split("\n", 1)[0]
    expect("gen5 x16" in health, "samples: " + health)


@case(7, "fleet --nodelist with a name no host has is refused, naming it, nothing made")
def fleet_nodelist_checked(d):
    for bad in ("a/b", "../up", "n$(id)", "n%j", "a,,b", "-x", "gpu[1-2", "n 1", "\u00e9"):
        rc, _, err = memsweep(d, "fleet", "--dir", "F", "--nodelist", bad, "--dry-run")
        expect(rc == 2, f"--nodelist {bad!r}: exit {rc}, not 2", err)
        expect("--nodelist" in err, f"--nodelist {bad!r}: not named", err)
        expect(not os.path.exists(os.path.join(d, "F")), f"--nodelist {bad!r}: F made", err)
    rc, out, err = memsweep(d, "fleet", "--dir", "F", "--nodelist", "gpu[001-002],n-2.x",
                            "--dry-run")
    expect(rc == 0 and "--nodelist=n-2.x" in out, f"good names: exit {rc}", err)


@case(8, "compare --live, a side's --rounds 65: refused naming --rounds 65, no '4 x 65'")
def live_rounds_named(d):
    side = " ".join(TINY)
    rc, _, err = memsweep(d, "compare", "--live", "--a", side + " --rounds 65", "--b", side,
                          "--budget", "1")
    expect(rc == 2, f"exit {rc}, not 2", err)
    expect("--rounds 65" in err and "--a" in err and "4 x 65" not in err,
           "the message does not name what was asked", err)
    expect(not left_in(d), f"left {left_in(d)}", err)


# ---- 9 on: the supervisor ------------------------------------------------------
@case(9, "a process stopped by someone else is continued: run --grade ends, exit 0")
def grade_child_stopped_continued(d):
    proc = start(d, ["run", "--processes", "2", "--rounds", "1", "--out", "g", *SHORT])
    child = nth_busy_child(proc, 1)
    expect(child is not None, "run --grade ended before its first process was busy")
    stopped = stop_child(proc, child)
    err = finish(proc, timeout=120)
    expect(proc.returncode == 0, f"exit {proc.returncode}, not 0", err)
    expect(not stopped or "continued" in err, "the stop is not said", err)
    expect(os.path.exists(os.path.join(d, "g-samples.csv")), "the run not written", err)


def grade_signalled(d, sig, twice):
    proc = start(d, ["run", "--processes", "3", "--rounds", "1", "--out", "g", *LONG])
    child = nth_busy_child(proc, 1, sigs=STOP)
    expect(child is not None, "run --grade ended before its first process was busy")
    expect(wait_until(lambda: caught(proc.pid, STOP), proc), "memsweep ended")
    proc.send_signal(sig)
    if twice:
        wait_until(lambda: not pending(proc.pid, sig), proc)
        proc.send_signal(sig)
    err = finish(proc, timeout=120)
    name = signal.Signals(sig).name
    expect(proc.returncode == 1, f"{name}: exit {proc.returncode}, not 1", err)
    expect(state(child) in "ZX", f"{name}: its process is still running", err)
    expect(not left_in(d), f"{name}: left {left_in(d)}", err)
    expect(twice or name in err, f"{name}: the signal is not named", err)
    expect(twice or os.path.exists(os.path.join(d, "g-samples.csv")),
           f"{name}: what the process measured is not written", err)


@case(10, "SIGINT, SIGTERM, SIGHUP, SIGQUIT to run --grade: stopped, kept, exit 1")
def grade_each_signal(d):
    for sig in STOP:
        sub = tempfile.mkdtemp(dir=d)
        grade_signalled(sub, sig, False)


@case(11, "a second SIGINT, SIGTERM, SIGHUP or SIGQUIT: no process or folder left, exit 1")
def grade_each_signal_twice(d):
    for sig in STOP:
        sub = tempfile.mkdtemp(dir=d)
        grade_signalled(sub, sig, True)


@case(12, "memsweep started with SIGTERM ignored: a Ctrl+C still stops its process")
def child_ignoring_sigterm(d):
    proc = start(d, ["run", "--processes", "2", "--rounds", "1", "--out", "g", *LONG],
                 ignore=(signal.SIGTERM,))
    child = nth_busy_child(proc, 1)
    expect(child is not None, "run --grade ended before its first process was busy")
    proc.send_signal(signal.SIGINT)
    err = finish(proc, timeout=300)
    expect(proc.returncode == 1, f"exit {proc.returncode}, not 1", err)
    # Told with a signal it ignores, the process would measure all 15 sizes.
    with open(os.path.join(d, "g-samples.csv")) as f:
        sizes = {line.split(",")[1] for line in f if line.startswith('"host",')}
    expect(0 < len(sizes) < 15, f"{len(sizes)} sizes measured: the process was not stopped", err)


@case(13, "run whose pair exceeds ulimit -f: kept gzipped in a folder named, exit 4")
def run_file_limit_gzipped(d):
    # About 7 KB plain, 1.3 KB gzipped.
    rc, _, err = memsweep(d, "run", "--rounds", "2", "--modes", "host", "--min-exp", "10",
                          "--max-exp", "12", "--reps", "3", "--out", "R", "--quiet", fsize=4096)
    expect(rc == 4, f"exit {rc}, not 4", err)
    kept = glob.glob(os.path.join(d, "memsweep-kept-*", "R-samples.csv.gz"))
    expect(len(kept) == 1 and os.path.basename(os.path.dirname(kept[0])) in err,
           f"no kept run named: {os.listdir(d)}", err)
    show = subprocess.run([MEMSWEEP, "show", kept[0]], capture_output=True, text=True)
    expect(show.returncode == 0, "the kept run does not read back", show.stderr)


@case(14, "run --grade whose process cannot write its files: the files it kept stay, named")
def grade_child_kept(d):
    # Each process's pair is over 6 blocks: each keeps it gzipped, in its
    # TMPDIR, which is the command's process folder.
    rc, _, err = memsweep(d, "run", "--grade", "--grade-target", "0", "--processes", "2",
                          "--rounds", "2", "--modes", "host", "--min-exp", "8", "--max-exp",
                          "12", "--reps", "3", "--out", "x", fsize=3072)
    expect(rc == 4, f"exit {rc}, not 4", err)
    kept = glob.glob(os.path.join(d, "memsweep-grade-*", "memsweep-kept-*", "p*-samples.csv*"))
    expect(kept and all(os.path.dirname(k) in err for k in kept),
           f"the kept files said on stderr are gone: {os.listdir(d)}", err)


# ---- 15 on: the lesser defects of a later pass ---------------------------------
@case(15, "a FIFO nobody reads at an output name: refused before any work (2), named")
def fifo_refused_before_work(d):
    for name, args in (("X-samples.csv", ["run", *TINY, "--out", "X"]),
                       ("P.csv", ["calibrate", "--runs", "3", *TINY, "--out", "P.csv"]),
                       ("e.json", ["run", *TINY, "--out", "Y", "--export-json", "e.json"]),
                       ("m.json", ["modes", "--export-json", "m.json"])):
        os.mkfifo(os.path.join(d, name))
        before = sorted(os.listdir(d))
        rc, _, err = memsweep(d, *args, timeout=60)
        expect(rc == 2, f"{args[0]}, {name} a FIFO: exit {rc}, not 2", err)
        expect(f"{name}: is a pipe (FIFO) that nothing reads" in err,
               f"{args[0]}: {name} not named as a pipe", err)
        expect(sorted(os.listdir(d)) == before, f"{args[0]}: work done or kept: {os.listdir(d)}",
               err)
    # One that is read (its read end open before memsweep starts) gets the file.
    fifo = os.path.join(d, "read.json")
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        rc, _, err = memsweep(d, "modes", "--export-json", "read.json", timeout=60)
        got = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    expect(rc == 0 and got.startswith(b'{"schema":"memsweep-modes"'),
           f"a FIFO that is read: exit {rc}, got {got[:40]!r}", err)


@case(16, "run stopped before any repetition, no earlier run: nothing written, said, exit 1")
def stopped_before_any_repetition(d):
    # A size of seconds: the signal comes as soon as the run catches it.
    proc = start(d, ["run", "--modes", "host", "--min-exp", "20", "--max-exp", "20", "--warmup",
                     "0", "--reps", "100000", "--out", "E"])
    expect(wait_until(lambda: caught(proc.pid, STOP), proc), "memsweep ended")
    proc.send_signal(signal.SIGINT)
    err = finish(proc, timeout=120)
    expect(proc.returncode == 1, f"exit {proc.returncode}, not 1", err)
    samples = os.path.join(d, "E-samples.csv")
    if os.path.exists(samples):
        # Written only where a repetition was kept first: then a run.
        with open(samples) as f:
            expect(any(line.startswith('"host",') for line in f),
                   "an empty pair written, as if it were a run", err)
        return
    expect("stopped before any cell was measured: nothing written" in err, "not said", err)
    expect(not [n for n in os.listdir(d) if n.startswith("E-")],
           f"an empty pair written: {os.listdir(d)}", err)


def full_stdout(d, *args):
    with open("/dev/full", "w") as full:
        p = subprocess.run([MEMSWEEP, *args], cwd=d, env=env(d), stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120, preexec_fn=preexec())
    return p.returncode, p.stderr


@case(17, "standard output on a full disk: exit 4 in every command, plot and report included")
def full_stdout_one_status(d):
    if not os.access("/dev/full", os.W_OK):
        return
    a = os.path.join(REFERENCE, "h100-default-samples.csv.gz")
    b = os.path.join(REFERENCE, "h200-default-samples.csv.gz")
    for args in (["plot", a, "--view", "bandwidth", "--out", "-", "--format", "svg"],
                 ["report", a, "--out", "-", "--format", "html"], ["show", a], ["modes"],
                 ["compare", a, b], ["run", *TINY, "--out", "R"], ["show", "--help"],
                 ["run", "--help"]):
        rc, err = full_stdout(d, *args)
        expect(rc == 4, f"{args[0]} > /dev/full: exit {rc}, not 4", err)
        # The reason, even where the write that failed was a flush long
        # before the check (a help text, compare's table).
        expect(("standard output" in err or "/dev/stdout" in err) and
               "No space left on device" in err, f"{args[0]}: not said, or not why", err)


def documented_plot_refusal():
    """The status docs/cli.md gives compare --plot into a missing folder."""
    docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                        "cli.md")
    with open(docs) as f:
        text = " ".join(f.read().split())
    marker = "a `--plot` whose folder is missing is refused with "
    expect(marker in text, "docs/cli.md no longer says what a missing --plot folder gives")
    return int(text.split(marker, 1)[1][0])


@case(18, "compare --plot into a missing folder: the status run --out gives, as documented")
def plot_folder_missing(d):
    a = os.path.join(REFERENCE, "h100-default-samples.csv.gz")
    rc, out, err = memsweep(d, "compare", a, a, "--plot", "nodir/x.png")
    run_rc, _, run_err = memsweep(d, "run", *TINY, "--out", "nodir/x")
    expect(rc == run_rc == 2, f"compare --plot: exit {rc}, run --out: {run_rc}, not 2",
           err + run_err)
    expect(not out and "--plot: nodir/x.png" in err, "not refused before the table", err)
    expect(documented_plot_refusal() == rc,
           f"docs/cli.md says {documented_plot_refusal()}, compare gives {rc}")


@case(19, "show --envelopes FILE that cannot be read: exit 2, named, nothing shown")
def envelopes_missing(d):
    a = os.path.join(REFERENCE, "h100-default-samples.csv.gz")
    rc, out, err = memsweep(d, "show", a, "--envelopes", "nothere.csv")
    expect(rc == 2, f"exit {rc}, not 2", err)
    expect("--envelopes: nothere.csv" in err and not out, "not refused, or not named", err)


@case(20, "a lesson's run without its sidecar: its lesson said unknown, its cells shown")
def lesson_without_sidecar(d):
    stem = "h100-lesson-batched-samples.csv.gz"
    shutil.copy(os.path.join(REFERENCE, stem), os.path.join(d, "alone-samples.csv.gz"))
    rc, out, err = memsweep(d, "show", "alone-samples.csv.gz")
    with gzip.open(os.path.join(REFERENCE, stem)) as f:
        p = subprocess.run([MEMSWEEP, "show", "-"], cwd=d, env=env(d), input=f.read(),
                           capture_output=True, timeout=60)
    for what, rc, out, err in (("copied alone", rc, out, err),
                               ("from -", p.returncode, p.stdout.decode(), p.stderr.decode())):
        expect(rc == 0, f"{what}: exit {rc}", err)
        expect("which lesson measured it is unknown" in err, f"{what}: lesson not said unknown",
               err)
        expect("n=256/call=each" in out and "n=256/call=batch/order=api" in out,
               f"{what}: its cells not shown", out[:600])


@case(21, "compare --live --out: each side's pair said written, as every writer says")
def live_says_wrote(d):
    side = " ".join(TINY)
    rc, _, err = memsweep(d, "compare", "--live", "--a", side, "--b", side, "--budget", "1",
                          "--out", "L")
    expect(rc in (0, 1, 5), f"exit {rc}", err)
    for s in "ab":
        expect(f"wrote L-{s}-samples.csv and L-{s}-summary.csv" in err, f"side {s} not said",
               err)
    rc, _, err = memsweep(d, "compare", "--live", "--a", side, "--b", side, "--budget", "1",
                          "--out", "Q", "--quiet")
    expect("wrote" not in err, "--quiet still says what was written", err)


@case(22, "run whose pair and standard output both fail: exit 4, the pair kept and named")
def pair_and_stdout_fail(d):
    if not os.access("/dev/full", os.W_OK):
        return
    os.symlink("/dev/full", os.path.join(d, "x-samples.csv"))
    rc, err = full_stdout(d, "run", *TINY, "--out", "x")
    expect(rc == 4, f"exit {rc}, not 4", err)
    kept = glob.glob(os.path.join(d, "memsweep-kept-*", "x-samples.csv"))
    expect(len(kept) == 1 and os.path.basename(os.path.dirname(kept[0])) in err,
           f"not kept, or not named: {os.listdir(d)}", err)


@case(23, "--quiet, an export that cannot be written: what was written is said, exit 4")
def quiet_export_fails(d):
    # The measurements landed; exit 4 alone would leave the user unsure.
    rc, _, err = memsweep(d, "calibrate", "--runs", "3", "--quiet", "--export-json", "/dev/full",
                          *SHORT)
    expect(rc == 4, f"calibrate: exit {rc}, not 4", err)
    expect(re.search(r"wrote \S*run-to-run-", err), "calibrate: the profile written is not said", err)
    rc, _, err = memsweep(d, "run", "--quiet", "--out", "r", "--export-csv", "/dev/full", *SHORT)
    expect(rc == 4, f"run: exit {rc}, not 4", err)
    expect("wrote r-samples.csv" in err and "wrote r-summary.csv" in err,
           "run: the pair written is not said", err)


@case(24, "calibrate whose run 3 of 3 someone kills: the 2 finished runs are kept, named")
def calibrate_too_few_kept(d):
    # Too few for a spread, but each is a whole run (the OOM killer, say).
    proc = start(d, ["calibrate", "--runs", "3", "--out", "P.csv", "--quiet", *SHORT])
    child = nth_busy_child(proc, 3)
    expect(child is not None, "calibrate ended before its run 3")
    if stop_child(proc, child):
        os.kill(child, signal.SIGKILL)
    err = finish(proc)
    expect(proc.returncode == 1, f"exit {proc.returncode}, not 1", err)
    m = re.search(r"are kept in (\S+)", err)
    expect(m and len(glob.glob(os.path.join(m.group(1), "*-samples.csv*"))) == 2,
           f"the 2 finished runs are not kept where said: {os.listdir(d)}", err)


@case(25, "SIGTERM to memsweep, then to its process (pkill, systemd, Slurm): the work is written")
def term_to_every_process(d):
    # The process gets its supervisor's stop and the same from outside:
    # one stop, not a second that ends it before it writes.
    for command in (["run", "--processes", "2", "--rounds", "1", "--out", "X", *LONG],
                    ["fleet-node", "--dir", "fl", "--node", "n1", "--", *LONG]):
        sub = tempfile.mkdtemp(dir=d)
        proc = start(sub, command)
        child = nth_busy_child(proc, 1, sigs=STOP)
        expect(child is not None, f"{command[0]} ended before its process was busy")
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.01)
        try:
            os.kill(child, signal.SIGTERM)
        except ProcessLookupError:
            pass
        err = finish(proc, timeout=120)
        expect(proc.returncode == 1, f"{command[0]}: exit {proc.returncode}, not 1", err)
        written = glob.glob(os.path.join(sub, "X-samples.csv")) + \
            glob.glob(os.path.join(sub, "fl", "n1-samples.csv*"))
        expect(written, f"{command[0]}: what the process measured is not written", err)


@case(26, "TMPDIR removed while run --grade measures: the process's run kept beside --out, said")
def grade_tmpdir_removed(d):
    tmp = os.path.join(d, "tmp")
    os.mkdir(tmp)
    sweep = ["--modes", "host", "--min-exp", "0", "--max-exp", "5", "--warmup", "0", "--reps",
             "100000"]
    proc = subprocess.Popen([MEMSWEEP, "run", "--grade", "--processes", "2", "--rounds", "1",
                             "--out", "X", *sweep], cwd=d, env=dict(env(d), TMPDIR=tmp),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=preexec())
    child = nth_busy_child(proc, 1, sigs=STOP)
    expect(child is not None, "run --grade ended before its process was busy")
    shutil.rmtree(tmp)
    err = finish(proc, timeout=120)
    expect(proc.returncode == 4, f"exit {proc.returncode}, not 4", err)
    kept = glob.glob(os.path.join(d, "memsweep-kept-*", "p0-samples.csv*"))
    expect(kept and os.path.dirname(kept[0]) in err, f"not kept beside --out, or not said: "
           f"{os.listdir(d)}", err)
    expect("nothing was measured" not in err, "said that nothing was measured", err)


@case(27, "a run over a hard ulimit -f even gzipped: the summary kept, the samples in parts, exit 4")
def summary_kept_under_file_limit(d):
    # The samples (megabytes) fit nowhere under 4 KiB; each cell's
    # statistics do, and were thrown away with them.
    sweep = ["--modes", "host", "--min-exp", "0", "--max-exp", "3", "--warmup", "0", "--reps",
             "30000"]
    rc, _, err = memsweep(d, "run", "--out", "X", *sweep, fsize=4096)
    expect(rc == 4, f"exit {rc}, not 4", err)
    m = re.search(r"summary \(each cell's statistics\) is kept in (\S+);", err)
    expect(m and os.path.exists(os.path.join(d, m.group(1))), f"no summary kept: {os.listdir(d)}",
           err)
    show = subprocess.run([MEMSWEEP, "show", os.path.join(d, m.group(1))], capture_output=True,
                          text=True)
    expect(show.returncode == 0, "the kept summary does not read back", show.stderr)
    # The samples too, in parts of at most 4 KiB: joined, the whole run.
    parts = glob.glob(os.path.join(d, "memsweep-kept-*", "X-samples.csv.gz.part-*"))
    expect(parts and max(os.path.getsize(p) for p in parts) <= 4096, "parts over the limit", err)
    joined = join_parts(d, err)
    show = subprocess.run([MEMSWEEP, "show", joined], capture_output=True, text=True)
    expect(show.returncode == 0 and "30000 repetitions per cell" in show.stdout,
           "the joined parts do not read back as the run", show.stderr + show.stdout[:300])
    # Under 2 KiB only its gzipped form fits (3 KB plain, 0.9 KB gzipped).
    sweep[5] = "6"
    rc, _, err = memsweep(d, "run", "--out", "Y", *sweep, fsize=2048)
    m = re.search(r"summary \(each cell's statistics\) is kept in (\S+\.gz);", err)
    expect(rc == 4 and m and os.path.exists(os.path.join(d, m.group(1))),
           f"exit {rc}; no gzipped summary kept: {os.listdir(d)}", err)


@case(28, "fleet-report --openmetrics FILE that cannot be written: exit 4, as every command")
def openmetrics_not_written(d):
    rc, _, err = memsweep(d, "fleet-node", "--dir", "fl", "--node", "a", "--", *TINY)
    expect(rc == 0, f"fleet-node: exit {rc}", err)
    os.symlink("/dev/full", os.path.join(d, "om.txt"))
    rc, _, err = memsweep(d, "fleet-report", "fl", "--openmetrics", "om.txt")
    expect(rc == 4, f"exit {rc}, not 4", err)


@case(29, "compare --live without --out whose --plot cannot be written keeps both sides, named")
def live_plot_fails_kept(d):
    # Measured here and asked to be written nowhere but the picture.
    side = "--modes host --min-exp 10 --max-exp 10 --reps 3 --rounds 1"
    os.symlink("/dev/full", os.path.join(d, "p.svg"))
    rc, _, err = memsweep(d, "compare", "--live", "--a", side, "--b", side, "--budget", "30",
                          "--plot", "p.svg")
    expect(rc == 4, f"exit {rc}, not 4", err)
    for s in "ab":
        kept = glob.glob(os.path.join(d, "memsweep-kept-*", f"live-{s}-samples.csv"))
        expect(kept and os.path.relpath(kept[0], d) in err.replace("./", ""),
               f"side {s} not kept, or not named: {os.listdir(d)}", err)


@case(30, "compare --live stopped in side A's first process: what A measured is written")
def live_stopped_in_first_side(d):
    side = " ".join(LONG)
    proc = start(d, ["compare", "--live", "--a", side, "--b", side, "--budget", "60", "--out",
                     "lv"])
    child = nth_busy_child(proc, 1, sigs=STOP)
    expect(child is not None, "compare --live ended before its first process was busy")
    proc.send_signal(signal.SIGTERM)
    err = finish(proc, timeout=120)
    expect(proc.returncode == 1, f"exit {proc.returncode}, not 1", err)
    expect(os.path.exists(os.path.join(d, "lv-a-samples.csv")) and "wrote lv-a-samples.csv" in err,
           f"side A's run not written, or not said: {os.listdir(d)}", err)


@case(31, "compare --live whose first three pairs overrun --budget: said, with a budget that holds them")
def live_budget_overrun(d):
    # Six processes of a third of a second each: over a budget of 1 s, as
    # no verdict comes from fewer than three a side.
    side = " ".join(SHORT + ["--rounds", "1"])
    t0 = time.monotonic()
    rc, _, err = memsweep(d, "compare", "--live", "--a", side, "--b", side, "--budget", "1",
                          "--out", "lv")
    took = time.monotonic() - t0
    expect(rc in (0, 1, 5), f"exit {rc}: not a comparison's status", err)
    m = re.search(r"measured for ([0-9.]+) s, ([0-9.]+) s over --budget 1: a side needs 3 "
                  r"processes before any verdict.*\(--budget ([0-9]+) or more holds them\)", err)
    expect(m, "the overrun not said, or not why", err)
    spent, over, least = float(m.group(1)), float(m.group(2)), int(m.group(3))
    expect(spent <= took and abs(spent - 1 - over) < 0.11 and least >= spent,
           f"measured {spent} s, over {over} s, least budget {least} s: not what took {took:.1f} s",
           err)


@case(32, "run --processes under a hard 1 KiB file-size limit: each process's samples kept in parts, not 'nothing measured'")
def processes_kept_in_parts(d):
    # No process's run fits whole anywhere, nor its summary: each keeps its
    # samples in parts of 1 KiB, says where, and the command must not then
    # say that nothing was measured.
    sweep = SHORT[:-1] + ["3000"]  # some 30 parts, not a thousand
    rc, _, err = memsweep(d, "run", "--processes", "2", *sweep, "--out", "X", fsize=1024)
    expect(rc == 4, f"exit {rc}, not 4", err)
    expect("gzipped parts" in err and "is lost" not in err, "the parts not said", err)
    expect("nothing was measured" not in err, "said that nothing was measured after the keep", err)
    joined = join_parts(d, err)
    show = subprocess.run([MEMSWEEP, "show", joined], capture_output=True, text=True)
    expect(show.returncode == 0, "a process's joined parts do not read back", show.stderr)
    side = " ".join(sweep)
    rc, _, err = memsweep(d, "compare", "--live", "--a", side, "--b", side, fsize=1024)
    expect(rc == 4 and "neither side measured anything" not in err,
           f"compare --live: exit {rc}, or 'neither side measured anything' after the keep", err)


@case(44, "a hard file-size limit of 40 bytes: more parts than any folder takes, the loss said once")
def processes_lost_said_once(d):
    # Even in parts the samples fit nowhere (over 9999 parts): lost, and
    # said, and never 'nothing was measured' after it. (The process's own
    # words, in a log file under the same limit, are cut at 40 bytes.)
    rc, _, err = memsweep(d, "run", "--processes", "2", *SHORT, "--out", "X", fsize=40)
    expect(rc == 4, f"exit {rc}, not 4", err)
    expect("could not be written or kept" in err, "the loss not said", err)
    rc, _, err = memsweep(d, "run", *SHORT, "--out", "Y", fsize=40)
    expect(rc == 4 and "what was measured is lost" in err, f"run: exit {rc}, the loss not said",
           err)
    # A limit of 0 takes no part at all (the count of parts divided by it).
    rc, _, err = memsweep(d, "run", *TINY, "--out", "Z", fsize=0)
    expect(rc == 4, f"ulimit -f 0: exit {rc}, not 4", err)
    expect("nothing was measured" not in err, "said that nothing was measured after the loss", err)
    expect(not glob.glob(os.path.join(d, "**", "*.part-*"), recursive=True),
           "parts left of a stream that was not kept", err)


@case(33, "a small ulimit -s: raised where the hard limit allows, else refused before any work")
def small_stack(d):
    # A run's option checks reach about 200 KiB deep: under 128 KiB it
    # died of SIGSEGV on its way to measuring.
    rc, _, err = memsweep(d, "run", "--processes", "2", *SHORT, "--out", "X",
                          stack=(128 << 10, resource.RLIM_INFINITY))
    expect(rc == 0 and os.path.exists(os.path.join(d, "X-samples.csv")),
           f"soft 128 KiB: exit {rc}: {os.listdir(d)}", err)
    rc, _, err = memsweep(d, "run", *SHORT, "--out", "Y", stack=(128 << 10, 128 << 10))
    expect(rc == 1 and "ulimit -s" in err and not glob.glob(os.path.join(d, "Y*")),
           f"hard 128 KiB: exit {rc}: {os.listdir(d)}", err)


@case(34, "plot and report under a small ulimit -v: refused naming it, not aborted in the fonts")
def small_address_space(d):
    run = os.path.join(REFERENCE, "h100-default-samples.csv.gz")
    for cmd, out in (("report", "r.html"), ("plot", "p.png")):
        args = [cmd, run, "--out", out] + (["--view", "bandwidth"] if cmd == "plot" else [])
        rc, _, err = memsweep(d, *args, vmem=100 << 20)
        expect(rc == 1 and "ulimit -v" in err and not os.path.exists(os.path.join(d, out)),
               f"{cmd} under 100 MiB: exit {rc}", err)


@case(35, "report under ulimit -n 8 ends (fonts half loaded); no font at all: refused, nothing drawn")
def report_without_fonts(d):
    # Under the limit fontconfig could not read its configuration, text
    # measured nonsense, and the report spun for ever placing a label down
    # a plot a million pixels tall.
    runs = []
    for i in range(6):
        runs.append(os.path.join(d, f"c{i}-samples.csv"))
        with gzip.open(os.path.join(REFERENCE, "h100-default-samples.csv.gz"), "rb") as src, \
                open(runs[-1], "wb") as dst:
            shutil.copyfileobj(src, dst)
    rc, _, err = memsweep(d, "report", *runs, "--out", "r.html", nofile=8, timeout=60)
    expect(rc in (0, 1), f"report under ulimit -n 8: exit {rc}", err)
    conf = os.path.join(d, "fonts.conf")
    with open(conf, "w") as f:
        f.write(f'<?xml version="1.0"?>\n<fontconfig><dir>{d}/none</dir>'
                f'<cachedir>{d}</cachedir></fontconfig>\n')
    p = subprocess.run([MEMSWEEP, "plot", runs[0], "--view", "bandwidth", "--out", "p.png"],
                       cwd=d, env={**env(d), "FONTCONFIG_FILE": conf}, capture_output=True,
                       text=True, timeout=60)
    expect(p.returncode == 1 and "no font could be loaded" in p.stderr and
           not os.path.exists(os.path.join(d, "p.png")), f"plot without fonts: exit {p.returncode}",
           p.stderr)


@case(36, "ulimit -t N (soft and hard alike): the SIGXCPU comes first, and what was measured is written")
def cpu_limit_soft_equals_hard(d):
    # At the hard limit the kernel sends SIGKILL, at the tick of the
    # SIGXCPU that would have stopped the sweep: nothing was written.
    sweep = ["--modes", "host", "--min-exp", "10", "--max-exp", "22", "--reps", "400"]
    rc, _, err = memsweep(d, "run", *sweep, "--out", "r", cpu=3, timeout=120)
    expect(rc == 1 and "SIGXCPU" in err and os.path.exists(os.path.join(d, "r-samples.csv")),
           f"exit {rc}: {os.listdir(d)}", err)


@case(37, "a third stop in run --grade's final write: ended at once, its processes' folder named")
def third_stop_in_final_write(d):
    # Caught writing the merged run (its temporary file beside g-samples.csv):
    # the processes' files stayed in TMPDIR, named by no one until the next
    # command. Tried until the signals land in the write (a fast machine
    # may finish it first; then the run is written, which is no loss).
    sweep = ["--modes", "host", "--min-exp", "0", "--max-exp", "10", "--reps", "8000", "--grade",
             "--processes", "4", "--rounds", "1"]
    for attempt in range(4):
        out = os.path.join(d, f"g{attempt}")
        p = start(d, ["run", *sweep, "--out", out])
        t0 = time.monotonic()
        while p.poll() is None and time.monotonic() - t0 < 120:
            if [f for f in glob.glob(out + "-*.memsweep-??????") if not f.endswith("lock")]:
                for _ in range(3):
                    os.kill(p.pid, signal.SIGTERM)
                    time.sleep(0.02)
                break
            time.sleep(0.0005)
        err = finish(p)
        if p.returncode == -signal.SIGTERM:
            m = re.search(r"what its processes measured is left in (\S+)", err)
            expect(m and glob.glob(os.path.join(m.group(1), "p*-samples.csv")),
                   "the processes' folder not named, or empty", err)
            return
        expect(os.path.exists(out + "-samples.csv"), f"exit {p.returncode}, nothing written", err)
    print("    (the final write ended before the third signal in every attempt)")


@case(38, "an append-only output folder: the run kept and named, and each file of memsweep's left there said")
def append_only_folder(d):
    out = os.path.join(d, "o")
    os.mkdir(out)
    if subprocess.run(["chattr", "+a", out], capture_output=True).returncode != 0:
        print("    (chattr +a not available here: skipped)")
        return
    try:
        rc, _, err = memsweep(d, "run", *SHORT, "--out", "o/r")
        left = [f for f in os.listdir(out) if ".memsweep-" in f]
    finally:
        subprocess.run(["chattr", "-a", out])
    expect(rc == 4 and "kept in" in err, f"exit {rc}", err)
    unsaid = [f for f in left if f not in err]
    expect(not unsaid, f"left there unsaid: {unsaid}", err)


@case(39, "a process frozen by the cgroup freezer, then two stops: no longer waited for, the rest written")
def frozen_process(d):
    # SIGKILL does not end a frozen process until it thaws: memsweep
    # waited on it for ever.
    group = f"/sys/fs/cgroup/freezer/memsweep-test-{os.getpid()}"
    try:
        os.mkdir(group)
    except OSError:
        print("    (no cgroup v1 freezer here: skipped)")
        return
    try:
        p = start(d, ["run", "--modes", "host", "--min-exp", "10", "--max-exp", "20", "--reps",
                      "40", "--grade", "--grade-target", "0", "--processes", "12", "--rounds", "4",
                      "--out", "g"])
        expect(nth_busy_child(p, 1, sigs=()), "run --grade ended before its process was at work")
        for c in children(p.pid):
            with open(f"{group}/tasks", "w") as f:
                f.write(str(c))
        with open(f"{group}/freezer.state", "w") as f:
            f.write("FROZEN")
        t0 = time.monotonic()
        os.kill(p.pid, signal.SIGTERM)
        time.sleep(0.1)
        os.kill(p.pid, signal.SIGTERM)
        err = finish(p, timeout=20)
        took = time.monotonic() - t0
    finally:
        with open(f"{group}/freezer.state", "w") as f:
            f.write("THAWED")
        time.sleep(0.3)
        os.rmdir(group)
    expect(p.returncode == 1 and took < 10 and "no longer waited for" in err,
           f"exit {p.returncode} after {took:.1f} s", err)


@case(40, "fleet-node at a terminal under stty tostop: its process is not stopped by its own output")
def fleet_node_tostop(d):
    # Its process, in a process group of its own, wrote its table to the
    # terminal: each write stopped it again (SIGTTOU), for ever.
    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] |= termios.TOSTOP
    termios.tcsetattr(slave, termios.TCSANOW, attrs)

    def own_terminal():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    p = subprocess.Popen([MEMSWEEP, "fleet-node", "--dir", "fl", "--node", "a", "--", *SHORT],
                         cwd=d, env=env(d), stdin=slave, stdout=slave, stderr=slave,
                         preexec_fn=own_terminal)
    t0 = time.monotonic()
    while p.poll() is None and time.monotonic() - t0 < 30:
        if select.select([master], [], [], 0.2)[0]:
            try:
                os.read(master, 65536)
            except OSError:
                break
    rc = p.poll()
    if rc is None:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    os.close(master)
    os.close(slave)
    expect(rc == 0 and os.path.exists(os.path.join(d, "fl", "a-samples.csv")),
           f"exit {rc} after {time.monotonic() - t0:.0f} s", "")


@case(41, "fleet-node whose --dir is moved away midway and another folder given its name: that run untouched")
def fleet_dir_swapped(d):
    # Its process, which takes no holds of its own, wrote into the folder
    # now at the name, over the run there.
    rc, _, err = memsweep(d, "fleet-node", "--dir", "o.user", "--node", "n1", "--quiet", "--",
                          *SHORT)
    expect(rc == 0, f"the user's run: exit {rc}", err)
    before = {f: open(os.path.join(d, "o.user", f), "rb").read()
              for f in os.listdir(os.path.join(d, "o.user"))}
    os.mkdir(os.path.join(d, "o"))
    p = start(d, ["fleet-node", "--dir", "o", "--node", "n1", "--", "--modes", "host",
                  "--min-exp", "10", "--max-exp", "21", "--reps", "400"])
    expect(nth_busy_child(p, 1, sigs=()), "fleet-node ended before its process was at work")
    os.rename(os.path.join(d, "o"), os.path.join(d, "o.mine"))
    os.rename(os.path.join(d, "o.user"), os.path.join(d, "o"))
    err = finish(p)
    after = {f: open(os.path.join(d, "o", f), "rb").read() for f in before}
    expect(after == before, "the run in the folder put at the name was replaced", err)
    m = re.search(r"kept in (\S+-samples\.csv)", err)
    expect(p.returncode == 4 and m and os.path.exists(os.path.join(d, m.group(1))),
           f"exit {p.returncode}: what was measured not kept, or not named", err)


@case(42, "run whose descriptor limit is lowered midway (prlimit): what it measured kept and named")
def descriptors_lowered_midway(d):
    # Its three holds kept their descriptors, and no folder could take the
    # run: "what was measured is lost".
    p = start(d, ["run", "--modes", "host", "--min-exp", "10", "--max-exp", "21", "--reps", "400",
                  "--out", "r"])
    expect(wait_until(lambda: os.path.exists(os.path.join(BUSY, str(p.pid))), p),
           "run ended before it was at work")
    hard = resource.prlimit(p.pid, resource.RLIMIT_NOFILE)[1]
    resource.prlimit(p.pid, resource.RLIMIT_NOFILE, (5, hard))
    err = finish(p)
    m = re.search(r"kept in (\S+-samples\.csv)", err)
    expect(p.returncode == 4 and m and os.path.exists(os.path.join(d, m.group(1))),
           f"exit {p.returncode}: not kept, or not named", err)


@case(43, "a soft ulimit -f under a hard one too small for the samples: the summary kept under the hard one")
def summary_kept_over_soft_limit(d):
    # The soft limit was raised to the hard one for a kept pair, not for
    # the summary alone: nothing was kept, though the summary fitted.
    def limits():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 4096))
    p = subprocess.run([MEMSWEEP, "run", "--modes", "host", "--min-exp", "10", "--max-exp", "20",
                        "--reps", "200", "--out", "r"], cwd=d, env=env(d), capture_output=True,
                       text=True, timeout=240, preexec_fn=limits)
    m = re.search(r"the summary \(each cell's statistics\) is kept in (\S+);", p.stderr)
    expect(p.returncode == 4 and m and os.path.exists(os.path.join(d, m.group(1))),
           f"exit {p.returncode}: the summary not kept", p.stderr)



@case(47, "run --grade, TMPDIR full, then Ctrl+C: what was kept is said once, never 'nothing written'")
def grade_tmpdir_full_then_ctrl_c(d):
    # The process kept its run in ./memsweep-kept-X, said; then the stop
    # added "stopped before any cell was measured: nothing written".
    tmp = os.path.join(d, "tmp")
    os.mkdir(tmp)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tmp],
                      capture_output=True).returncode != 0:
        print("    (no tmpfs can be mounted here: skipped)")
        return
    try:
        proc = subprocess.Popen([MEMSWEEP, "run", "--grade", "--processes", "2", "--rounds", "1",
                                 "--out", "X", *LONG], cwd=d, env=dict(env(d), TMPDIR=tmp),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=preexec(session=True))
        child = nth_busy_child(proc, 1, sigs=STOP)
        expect(child is not None, "run --grade ended before its process was busy")
        with open(os.path.join(tmp, "fill"), "wb") as f:
            try:
                f.write(b"\0" * (64 << 10))
            except OSError:
                pass
        os.killpg(proc.pid, signal.SIGINT)
        err = finish(proc, timeout=120)
    finally:
        subprocess.run(["umount", tmp], capture_output=True)
    kept = glob.glob(os.path.join(d, "memsweep-kept-*", "p0-samples.csv*"))
    expect(kept and os.path.basename(os.path.dirname(kept[0])) in err, "not kept, or not said",
           err)
    expect("nothing written" not in err and "nothing was measured" not in err,
           "said both that it was kept and that nothing was", err)


@case(48, "plot and report under ulimit -n 8 (soft and hard): one 'memsweep CMD: ' line, exit 1")
def drawing_without_descriptors(d):
    # Fontconfig could open no font: Pango warned, the picture was drawn
    # without text, and plot said nothing and exited 0.
    run = os.path.join(REFERENCE, "h100-default-samples.csv.gz")
    for cmd in (["plot", run, "--view", "bandwidth", "--out", "p.png"],
                ["report", run, "--out", "r.html"]):
        rc, _, err = memsweep(d, *cmd, nofile=8, nofile_hard=True, timeout=60)
        lines = err.splitlines()
        expect((rc == 1 and len(lines) == 1 and lines[0].startswith(f"memsweep {cmd[0]}: ") and
                "ulimit -n" in err and not os.path.exists(os.path.join(d, cmd[-1]))) or
               (rc == 0 and not err), f"{cmd[0]} under ulimit -n 8: exit {rc}", err)


@case(49, "compare --live whose side B cannot write in a full TMPDIR: what B kept is said, not 'measured nothing'")
def live_side_kept_in_full_tmpdir(d):
    # B's first process kept its run beside the command's files and said
    # so; then compare said "side B measured nothing".
    tmp = os.path.join(d, "tmp")
    os.mkdir(tmp)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", tmp],
                      capture_output=True).returncode != 0:
        print("    (no tmpfs can be mounted here: skipped)")
        return
    # Few rows (the first process of A fits in the tmpfs), long sizes (B's
    # is still at work when the tmpfs is filled).
    side = "--modes host --min-exp 10 --max-exp 24 --reps 20 --warmup 0 --rounds 1"
    try:
        proc = subprocess.Popen([MEMSWEEP, "compare", "--live", "--a", side, "--b", side,
                                 "--out", "L"], cwd=d, env=dict(env(d), TMPDIR=tmp),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=preexec(session=True))
        child = nth_busy_child(proc, 2, sigs=STOP)
        expect(child is not None, "compare --live ended before side B's process was busy")
        with open(os.path.join(tmp, "fill"), "wb") as f:
            try:
                f.write(b"\0" * (256 << 10))
            except OSError:
                pass
        err = finish(proc, timeout=180)
    finally:
        subprocess.run(["umount", tmp], capture_output=True)
    kept = glob.glob(os.path.join(d, "memsweep-kept-*", "p0-samples.csv*"))
    expect(kept and os.path.basename(os.path.dirname(kept[0])) in err, "B not kept, or not said",
           err)
    expect("measured nothing" not in err, "said that side B measured nothing", err)


@case(45, "a TMPDIR too long for the processes' names: refused before any work, exit 2")
def tmpdir_too_long(d):
    # About 4,000 characters: the folder is there, but a process's kept
    # file below it would pass PATH_MAX once at work.
    tmp = os.path.join(d, *(["d" * 200] * 19))
    tmp += "/" + "e" * (3974 - len(tmp) - 1)
    os.makedirs(tmp)
    for args in (["run", "--grade", *TINY, "--out", "g"], ["calibrate", "--runs", "3", *TINY,
                 "--out", "p.csv"], ["compare", "--live", "--a", " ".join(TINY), "--b",
                 " ".join(TINY)]):
        p = subprocess.run([MEMSWEEP, *args], cwd=d, env=dict(env(d), TMPDIR=tmp),
                           capture_output=True, text=True, timeout=60)
        expect(p.returncode == 2 and "File name too long" in p.stderr,
               f"{args[0]}: exit {p.returncode}, or the reason not said", p.stderr[-300:])
        expect("process 1" not in p.stderr and "run 1 of" not in p.stderr,
               f"{args[0]}: it began the work before refusing", p.stderr[-300:])

def main():
    global MEMSWEEP, REFERENCE, BUSY
    args = sys.argv[1:]
    if len(args) < 2 or not os.access(args[0], os.X_OK):
        print("usage: test-cli-limits.py MEMSWEEP REFERENCE_DIR [CASE...]", file=sys.stderr)
        return 2
    MEMSWEEP, REFERENCE = os.path.abspath(args[0]), os.path.abspath(args[1])
    only = {int(a) for a in args[2:]}
    failed = passed = 0
    for number, title, fn in CASES:
        if only and number not in only:
            continue
        d = tempfile.mkdtemp(prefix="ms-limits-")
        BUSY = tempfile.mkdtemp(prefix="ms-limits-busy-")
        t0 = time.monotonic()
        try:
            fn(d)
            print(f"ok     {number:2d} {title} ({time.monotonic() - t0:.1f} s)")
            passed += 1
        except (AssertionError, subprocess.TimeoutExpired) as e:
            print(f"FAILED {number:2d} {title}: {e}")
            failed += 1
        finally:
            shutil.rmtree(d, ignore_errors=True)
            shutil.rmtree(BUSY, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
