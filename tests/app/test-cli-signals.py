#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-signals.py MEMSWEEP REFERENCE_DIR: the supervisor's policy
(engine/run/ms-supervisor.h) and what a command says of runs it cannot
describe, a case per defect of issue 57 that it owns:

  nohup-calibrate   a hangup ignored at start stays ignored by calibrate (5)
  grade-ctrl-c      one Ctrl+C in run --grade keeps the process measured (6)
  grade-twice       a second signal leaves no child and no folder (8)
  sidecar-unknown   settings and device no sidecar records are null (9)
  lesson-summary    a lesson drawn from a summary names its samples file (10)
  figure-d2h        compare --figure d2h leaves out modes without d2h (11)
  write-failure     a process that cannot write: exit 4, not 3 (12)

and what the last attempt learned: a process SIGKILLed by someone else
costs compare --live and calibrate only that process

  live-outside-kill       both sides' finished processes kept and judged
  grade-child-stopped     a process stopped by someone else: kept, said, exit 1
  calibrate-outside-kill  the profile from the runs that finished

and round eleven's: a third stop while a process measures

  processes-thrice        the process keeps its grace: written, said, exit 1

Every program starts with SIGINT, SIGTERM and SIGHUP at their defaults
(PITFALLS 31: a CI runner may ignore SIGHUP, which memsweep rightly keeps),
measures the host baseline (--modes host) at tiny sizes, and is signalled
only once it has caught the stop signals and says it is at work (a file
it makes, MEMSWEEP_TEST_BUSY_DIR), so that no verdict depends on how fast
or how busy this machine is."""
import atexit
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MEMSWEEP, REFERENCE = sys.argv[1], sys.argv[2]
# Where each measuring process says it is at work (at_work), for every
# process this script starts; removed at the end.
BUSY = tempfile.mkdtemp(prefix="ms-signals-busy-")
os.environ["MEMSWEEP_TEST_BUSY_DIR"] = BUSY
atexit.register(shutil.rmtree, BUSY, True)
STOP = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
HOST = ["--modes", "host", "--min-exp", "0", "--max-exp", "14", "--warmup", "0"]
failures = []


def fail(case, why):
    failures.append(case)
    print(f"FAIL: {case}: {why}")


def defaults(ignore=(), fsize=None, session=False):
    """The child's signals at their defaults (some ignored, as nohup does)."""

    def setup():
        for sig in STOP:
            signal.signal(sig, signal.SIG_IGN if sig in ignore else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if session:
            os.setsid()

    return setup


def start(args, tmp, **how):
    env = dict(os.environ, TMPDIR=tmp, LC_ALL="C", LANGUAGE="C")
    return subprocess.Popen([MEMSWEEP] + args, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, preexec_fn=defaults(**how))


def status(pid):
    """/proc/PID/status as a dict; {} once it has ended."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return {}


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def alive(pid):
    return status(pid).get("State", "Z")[0] not in "ZX"


def caught(pid, sigs):
    mask = int(status(pid).get("SigCgt", "0"), 16)
    return all(mask & (1 << (s - 1)) for s in sigs)


def pending(pid, sig):
    """Whether sig waits to be delivered to pid (two of one signal sent
    at once are one: the second is sent once the first has landed)."""
    st = status(pid)
    bit = 1 << (sig - 1)
    return bool((int(st.get("ShdPnd", "0"), 16) | int(st.get("SigPnd", "0"), 16)) & bit)


def wait_until(test, proc):
    """Polls test() until it holds; False when proc ended first."""
    while not test():
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    return True


def at_work(pid):
    """Whether pid said it is at work: a measuring process makes
    BUSY/PID once its first cell is measured (MEMSWEEP_TEST_BUSY_DIR), so
    that no case guesses by ticks of CPU time (PITFALLS 45)."""
    return os.path.exists(os.path.join(BUSY, str(pid)))


def busy_child(proc):
    """The process's child once it catches the stop signals and says it is
    at work: its PID, or None when proc ended first."""
    found = []

    def ready():
        for c in children(proc.pid):
            if caught(c, STOP) and at_work(c):
                found.append(c)
                return True
        return False

    return found[0] if wait_until(ready, proc) else None


def nohup_calibrate(tmp):
    """A hangup to calibrate under nohup: ignored; the profile is written."""
    proc = start(["calibrate", "--runs", "3", "--out", "p.csv", "--quiet", "--reps", "3"] + HOST,
                 tmp, ignore=(signal.SIGHUP,))
    if wait_until(lambda: caught(proc.pid, (signal.SIGINT, signal.SIGTERM)), proc):
        proc.send_signal(signal.SIGHUP)
    err = proc.communicate()[1]
    if proc.returncode != 0 or not os.path.exists(os.path.join(tmp, "p.csv")):
        fail("nohup-calibrate", f"exit {proc.returncode}, profile written: "
             f"{os.path.exists(os.path.join(tmp, 'p.csv'))}: {err.strip()}")


def grade(tmp, reps="100000"):
    return start(["run", "--processes", "3", "--rounds", "1", "--reps", reps, "--out", "g"] + HOST,
                 tmp, session=True)


def grade_ctrl_c(tmp):
    """Ctrl+C (SIGINT to the terminal's group) in the first process."""
    proc = grade(tmp)
    child = busy_child(proc)
    if child:
        os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate()[1]
    show = subprocess.run([MEMSWEEP, "show", os.path.join(tmp, "g-samples.csv")],
                          capture_output=True, text=True)
    if not child:
        fail("grade-ctrl-c", f"ended before it could be stopped (exit {proc.returncode}): {err}")
    elif proc.returncode != 1 or show.returncode != 0 or "SIGINT" not in err:
        fail("grade-ctrl-c", f"exit {proc.returncode}, show exit {show.returncode}: "
             f"{err.strip()} {show.stderr.strip()}")


def grade_twice(tmp):
    """Two signals: the child ends, is reaped, and its folder is gone."""
    proc = grade(tmp)
    child = busy_child(proc)
    if child:
        proc.send_signal(signal.SIGTERM)
        wait_until(lambda: not pending(proc.pid, signal.SIGTERM), proc)
        proc.send_signal(signal.SIGTERM)
    err = proc.communicate()[1]
    left = [n for n in os.listdir(tmp) if n.startswith("memsweep-")]
    if not child:
        fail("grade-twice", f"ended before it could be stopped (exit {proc.returncode}): {err}")
    elif alive(child) or left or proc.returncode != 1:
        fail("grade-twice", f"exit {proc.returncode}, child alive: {alive(child)}, "
             f"left in TMPDIR: {left}: {err.strip()}")
        if alive(child):
            os.kill(child, signal.SIGKILL)


def sidecar_unknown(tmp):
    """show --format json of a run whose sidecar is gone."""
    run = subprocess.run([MEMSWEEP, "run", "--reps", "3", "--quiet", "--out", "s"] + HOST,
                         cwd=tmp, capture_output=True, text=True)
    os.unlink(os.path.join(tmp, "s-meta.json"))
    show = subprocess.run([MEMSWEEP, "show", "s-samples.csv", "--format", "json"], cwd=tmp,
                          capture_output=True, text=True)
    try:
        doc = json.loads(show.stdout)
    except ValueError:
        doc = {}
    if run.returncode != 0 or doc.get("settings", "absent") is not None or \
            doc.get("device", "absent") is not None or not doc.get("metadata_unknown"):
        fail("sidecar-unknown", f"settings {doc.get('settings', 'absent')}, device "
             f"{doc.get('device', 'absent')}, metadata_unknown {doc.get('metadata_unknown')}")


def lesson_summary(tmp):
    """plot --view lesson of a lesson's summary is refused (exit 2, no
    picture), naming the samples file that would answer."""
    # The shipped summary is gzipped: its copy keeps the plain name, which
    # the reader does not need (it reads the content).
    for name, shipped in (("reuse-meta.json", "reuse-meta.json"),
                          ("reuse-summary.csv", "reuse-summary.csv.gz")):
        shutil.copy(os.path.join(REFERENCE, "h100-lesson-" + shipped), os.path.join(tmp, name))
    plot = subprocess.run([MEMSWEEP, "plot", "reuse-summary.csv", "--view", "lesson", "--out",
                           "l.svg"], cwd=tmp, capture_output=True, text=True)
    if plot.returncode == 77 or "needs a build" in plot.stderr:
        print("note: lesson-summary: plot is not built here")
        return
    if plot.returncode != 2 or os.path.exists(os.path.join(tmp, "l.svg")) or \
            "reuse-samples.csv" not in plot.stderr or "has no zero-copy" in plot.stderr:
        fail("lesson-summary", f"exit {plot.returncode}, not refused naming "
             f"reuse-samples.csv: {plot.stderr.strip()}")


def figure_d2h(tmp):
    """compare --figure d2h: zero-copy has no d2h copy; no verdict for it."""
    ref = os.path.join(REFERENCE, "h100-default-1-samples.csv.gz")
    other = os.path.join(REFERENCE, "h100-default-2-samples.csv.gz")
    cmp = subprocess.run([MEMSWEEP, "compare", ref, other, "--figure", "d2h", "--format", "json"],
                         capture_output=True, text=True)
    try:
        modes = {c["mode"] for c in json.loads(cmp.stdout)["cells"]}
    except (ValueError, KeyError):
        modes = {"unreadable"}
    if "zero-copy" in modes or "unreadable" in modes or "zero-copy" not in cmp.stderr:
        fail("figure-d2h", f"exit {cmp.returncode}, modes {sorted(modes)}: {cmp.stderr.strip()}")
    # --live measures none of them: the host baseline has no d2h either.
    live = start(["compare", "--live", "--a", "--modes host --min-exp 0 --max-exp 2", "--b",
                  "--modes host --min-exp 0 --max-exp 2", "--figure", "d2h"], tmp)
    err = live.communicate()[1]
    if live.returncode != 2 or "d2h" not in err:
        fail("figure-d2h", f"--live of modes without d2h: exit {live.returncode}: {err.strip()}")


def write_failure(tmp):
    """ulimit -f: the processes cannot write their files; exit 4, said."""
    proc = start(["run", "--processes", "2", "--reps", "50", "--out", "w"] + HOST, tmp,
                 fsize=4096)
    err = proc.communicate()[1]
    if proc.returncode != 4 or "CPU baseline" in err or "TMPDIR" not in err:
        fail("write-failure", f"exit {proc.returncode}: {err.strip()}")
    # What fits the limit (a process's summary) is kept, in a folder it
    # names: that one may stay; the check after every case sees the rest.
    for name in os.listdir(tmp):
        if name.startswith("memsweep-") and name in err:
            shutil.rmtree(os.path.join(tmp, name))
    # A TMPDIR that is not there: refused before any process starts.
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "gone"), LC_ALL="C")
    live = subprocess.run([MEMSWEEP, "compare", "--live", "--a", "--modes host", "--b",
                           "--modes host"], cwd=tmp, env=env, capture_output=True, text=True,
                          preexec_fn=defaults())
    if live.returncode != 2 or "TMPDIR" not in live.stderr:
        fail("write-failure", f"compare --live without TMPDIR: exit {live.returncode}: "
             f"{live.stderr.strip()}")


def nth_busy_child(proc, n):
    """The nth child proc starts (counting from 1), once it catches the stop
    signals and says it is at work; None when proc ended first."""
    seen, found = [], []

    def ready():
        for c in children(proc.pid):
            if c not in seen:
                seen.append(c)
        if len(seen) >= n and caught(seen[n - 1], STOP) and at_work(seen[n - 1]):
            found.append(seen[n - 1])
            return True
        return False

    return found[0] if wait_until(ready, proc) else None


def signal_busy(proc, n, sig, later=False):
    """Sends sig to the nth busy child (see nth_busy_child), stopped first
    with SIGSTOP: a child that ends between the check and the signal would
    otherwise exit 0 and pass for one that ignored it. One that ended before
    it stopped is passed over for the next when later is true. The child's
    PID, or None when proc ended first."""
    while True:
        child = nth_busy_child(proc, n)
        if not child:
            return None
        os.kill(child, signal.SIGSTOP)
        if not wait_until(lambda: status(child).get("State", "Z")[0] in "TtZX", proc):
            return None
        if status(child).get("State", "Z")[0] in "Tt":
            os.kill(child, sig)
            try:
                os.kill(child, signal.SIGCONT)
            except ProcessLookupError:
                pass  # SIGKILL ends even a stopped child, and its parent may reap it first
            return child
        if not later:
            return None
        n += 1


def live_outside_kill(tmp):
    """compare --live whose third process (the second pair's first) is
    SIGKILLed by someone else: what both sides finished is kept, written
    and judged, and the kill is said."""
    # A third of a second a process here (100000 repetitions of 4-16 B):
    # the first pair finishes, and the third process is caught busy.
    side = "--modes host --min-exp 0 --max-exp 2 --warmup 0 --reps 100000 --rounds 1"
    proc = start(["compare", "--live", "--a", side, "--b", side, "--out", "l"], tmp)
    child = signal_busy(proc, 3, signal.SIGKILL, later=True)
    err = proc.communicate()[1]
    kept = all(os.path.exists(os.path.join(tmp, f"l-{s}-samples.csv")) for s in "ab")
    if not child:
        fail("live-outside-kill", f"ended before its third process (exit {proc.returncode}): {err}")
    elif proc.returncode != 1 or not kept or "signal 9" not in err:
        fail("live-outside-kill", f"exit {proc.returncode}, both sides kept: {kept}: {err.strip()}")


def grade_child_stopped(tmp):
    """run --grade whose first process is stopped by someone else's SIGTERM:
    what it wrote is kept, the run goes on, says so and exits 1."""
    # Two seconds of CPU a process (sizes 2^0 to 2^10): each is caught
    # once it says it is at work, with sizes still to measure. Both are
    # stopped once busy, so the case takes no longer.
    proc = start(["run", "--processes", "2", "--rounds", "1", "--reps", "100000", "--out", "g",
                  "--modes", "host", "--min-exp", "0", "--max-exp", "10", "--warmup", "0"], tmp)
    child = signal_busy(proc, 1, signal.SIGTERM)
    # The second measures as long: stopped as a user would, once busy.
    second = nth_busy_child(proc, 2)
    if second:
        proc.send_signal(signal.SIGINT)
    err = proc.communicate()[1]
    wrote = os.path.exists(os.path.join(tmp, "g-samples.csv"))
    if not child:
        fail("grade-child-stopped", f"ended before it could be stopped (exit {proc.returncode})")
    elif proc.returncode != 1 or not wrote or "process 1 of 2 exited with status 1" not in err:
        fail("grade-child-stopped", f"exit {proc.returncode}, written: {wrote}: {err.strip()}")


def calibrate_outside_kill(tmp):
    """calibrate --runs 4 whose fourth run is SIGKILLed by someone else:
    the profile is measured from the three that finished."""
    # A third of a second a run, as in live_outside_kill.
    proc = start(["calibrate", "--runs", "4", "--out", "p.csv", "--quiet", "--modes", "host",
                  "--min-exp", "0", "--max-exp", "2", "--warmup", "0", "--reps", "100000"], tmp)
    child = signal_busy(proc, 4, signal.SIGKILL)
    err = proc.communicate()[1]
    written = os.path.exists(os.path.join(tmp, "p.csv"))
    if not child:
        fail("calibrate-outside-kill", f"ended before its fourth run (exit {proc.returncode})")
    elif proc.returncode != 1 or not written or "signal 9" not in err:
        fail("calibrate-outside-kill", f"exit {proc.returncode}, profile written: {written}: "
             f"{err.strip()}")


def processes_thrice(tmp):
    """Ctrl+C three times while the first process measures: it is left
    its grace, and what it measured is written, said, exit 1 (it was
    SIGKILLed at the third: "stopped before any cell was measured")."""
    # Repetitions of a tenth of a second and more: the process is still
    # within one when the signals come.
    proc = start(["run", "--processes", "3", "--modes", "host", "--min-exp", "22", "--max-exp",
                  "26", "--reps", "30", "--warmup", "0", "--out", "g"], tmp, session=True)
    child = busy_child(proc)
    if child:
        for _ in range(3):
            proc.send_signal(signal.SIGINT)
            wait_until(lambda: not pending(proc.pid, signal.SIGINT), proc)
    err = proc.communicate()[1]
    show = subprocess.run([MEMSWEEP, "show", os.path.join(tmp, "g-samples.csv")],
                          capture_output=True, text=True)
    if not child:
        fail("processes-thrice", f"ended before it could be stopped (exit {proc.returncode}): {err}")
    elif proc.returncode != 1 or show.returncode != 0 or "nothing" in err or "before it" in err:
        fail("processes-thrice", f"exit {proc.returncode}, show exit {show.returncode}: "
             f"{err.strip()} {show.stderr.strip()}")


CASES = [nohup_calibrate, grade_ctrl_c, grade_twice, sidecar_unknown, lesson_summary, figure_d2h,
         write_failure, live_outside_kill, grade_child_stopped, calibrate_outside_kill,
         processes_thrice]

for case in CASES:
    with tempfile.TemporaryDirectory() as tmp:
        case(tmp)
        left = [n for n in os.listdir(tmp) if n.startswith("memsweep-")]
        if left:
            fail(case.__name__, f"left in TMPDIR: {left}")
print(f"{len(CASES)} cases, {len(failures)} failed")
sys.exit(1 if failures else 0)
