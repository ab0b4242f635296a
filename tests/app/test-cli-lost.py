#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/app/test-cli-lost.py: one case for each defect of the round that
lost data on main ed260485 (docs/cli.md, "The output plan"): each case
fails on that commit's memsweep and passes now. Cases 15 on are the
defects a later adversarial pass found on main 8c45a077 (gzipped runs
whose sidecar names older plain names, signals before the stop handlers,
a gzipped input without room in TMPDIR, a run given twice, --profile -);
each fails on that commit's memsweep. Cases 23 on are what the pass on
main e64f749f left open; each fails on main 49447ca0 and passes now.
Cases 32 on are what the pass on main b6ca89cb found; each fails there.
Cases 35 on: a final write that fails for another reason than a full
folder (a pipe at a name, the folder removed); each fails on 8e23d2b7.
Case 43: a name a renamed run's sidecar implies; 44: a prefix that names
a folder; each fails on 473701a4. 45: a folder at a hold's name; fails on
bda372eb.
Cases 38 on: two commands writing one output set at once, and the lesser
defects the same pass found (issue 71); each fails on 915c2c54.
Cases 46 on: measured work still lost in issue 71 (a process folder made
immutable midway, a hold whose lock file was removed, a CPU-time limit);
each fails on c83b1c4d. Cases 51 to 54 (a soft file-size limit, a siblings
check at an export's name, an oversized NAME-meta.json, a stopped run
kept outside a full TMPDIR, a process folder that could not be removed,
measurements deep in a dead command's folder) fail on 3549f874. Case 60
(an output that is a device) fails on d74b3244.

    test-cli-lost.py MEMSWEEP [CASE...]   # or MEMSWEEP=... test-cli-lost.py

Every case runs the CPU baseline (--modes host) at tiny sizes in a fresh
folder of its own (TMPDIR too), so that it needs no GPU. The cases are one
table, CASES, in the order of the defects: a case is a function that
raises AssertionError with what it saw, registered with @case(DEFECT,
TITLE). Add a case under its defect's heading.
"""
import atexit
import contextlib
import glob
import gzip
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MEMSWEEP = None
CASES = []
SKIP = 77
# The smallest sweep: one size of the CPU baseline, three repetitions.
TINY = ["--modes", "host", "--min-exp", "10", "--max-exp", "10", "--reps", "3"]
TINY_SIDE = "--modes host --min-exp 10 --max-exp 10 --reps 3 --rounds 1"


class Skip(Exception):
    pass


def case(defect, title):
    def register(fn):
        CASES.append((defect, title, fn))
        return fn

    return register


def memsweep(*args, cwd, stdin=None, timeout=120, env=None):
    """Runs memsweep in cwd (TMPDIR there too); (exit status, stdout, stderr)."""
    e = dict(os.environ, TMPDIR=cwd, LC_ALL="C", LANGUAGE="")
    e.update(env or {})
    p = subprocess.run([MEMSWEEP, *args], cwd=cwd, env=e, input=stdin, capture_output=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def expect(cond, what, err=""):
    if not cond:
        raise AssertionError(what + ("\n  stderr: " + err.strip() if err else ""))


def snapshot(folder):
    """Every file under folder with its bytes."""
    files = {}
    for root, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(root, n)
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, "rb") as f:
                    files[os.path.relpath(p, folder)] = f.read()
    return files


def a_run(d, prefix):
    rc, _, err = memsweep("run", *TINY, "--out", prefix, "--quiet", cwd=d)
    expect(rc == 0, f"run --out {prefix}: exit {rc}", err)


def refused_with_nothing_written(d, rc, err, before, what):
    expect(rc == 2, f"{what}: exit {rc}, not 2", err)
    after = snapshot(d)
    expect(after == before, f"{what}: files changed: {sorted(set(after) ^ set(before)) or 'bytes'}",
           err)


def strace_or_skip():
    if not shutil.which("strace"):
        raise Skip("strace is not installed")


# ---- 1: run's exports over its own files ----------------------------------
@case(1, "run --out X --export-json X-meta.json is refused before measuring")
def run_export_over_own_sidecar(d):
    a_run(d, "X")
    before = snapshot(d)
    for export in (["--export-json", "X-meta.json"], ["--export-csv", "X-summary.csv"],
                   ["--export-markdown", "./X-samples.csv"]):
        rc, _, err = memsweep("run", *TINY, "--out", "X", *export, cwd=d)
        refused_with_nothing_written(d, rc, err, before, "run --out X " + " ".join(export))
        expect("X-" in err and export[1] in err, "the message names both files", err)


# ---- 2: calibrate's export over the new profile's sidecar ------------------
@case(2, "calibrate --out P.csv --export-csv P-meta.json is refused")
def calibrate_export_over_sidecar(d):
    rc, _, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", "P.csv", "--export-csv",
                          "P-meta.json", cwd=d)
    expect(rc == 2, f"exit {rc}, not 2", err)
    expect(not os.path.exists(os.path.join(d, "P.csv")), "a profile was written", err)
    expect(not os.path.exists(os.path.join(d, "P-meta.json")), "P-meta.json was written", err)


# ---- 3: compare --live's export over the runs it keeps ---------------------
@case(3, "compare --live --out L with an export named as one of L's files is refused")
def live_export_over_kept_runs(d):
    for name in ("L-a-summary.csv", "L-b-meta.json", "L-a-samples.csv"):
        rc, _, err = memsweep("compare", "--live", "--a", TINY_SIDE, "--b", TINY_SIDE,
                              "--budget", "1", "--out", "L", "--export-csv", name, cwd=d)
        expect(rc == 2, f"--export-csv {name}: exit {rc}, not 2", err)
        expect(not glob.glob(os.path.join(d, "L-*")), f"--export-csv {name}: L's files written",
               err)


# ---- 4: any export over another run's sidecar ------------------------------
@case(4, "an export named as another run's sidecar (or a file it names) is refused")
def export_over_other_sidecar(d):
    a_run(d, "Q")
    a_run(d, "R")
    before = snapshot(d)
    for cmd in (["show", "R-samples.csv"], ["compare", "R-samples.csv", "R-samples.csv"],
                ["run", *TINY, "--out", "S"], ["modes"]):
        for export in (["--export-json", "Q-meta.json"], ["--export-csv", "Q-summary.csv"]):
            rc, _, err = memsweep(*cmd, *export, cwd=d)
            refused_with_nothing_written(d, rc, err, before, " ".join(cmd + export))


# ---- 5: (supervisor) calibrate under nohup -----------------------------------
# held by tests/app/test-cli-signals.py, case nohup-calibrate
# ---- 6: (supervisor) one Ctrl+C during run --grade ---------------------------
# held by tests/app/test-cli-signals.py, case grade-ctrl-c

# ---- 7: standard input is read where it flows, never copied ---------------
# The case once was an inode of a deleted copy of standard input in TMPDIR
# taken by a new file; standard input is now read through the one reader
# (ms-input.h), held in memory, and no copy exists to be deleted.
@case(7, "a profile piped in leaves nothing in TMPDIR and its run writes its files")
def deleted_input_inode(d):
    rc, profile, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", "-", cwd=d)
    expect(rc == 0, f"calibrate --out -: exit {rc}", err)
    out = os.path.join(d, "out")
    tmp = os.path.join(d, "tmp")
    os.mkdir(out)
    os.mkdir(tmp)
    e = dict(os.environ, TMPDIR=tmp, LC_ALL="C", LANGUAGE="")
    p = subprocess.run([MEMSWEEP, "run", "--modes", "host", "--min-exp", "5", "--max-exp", "6",
                        "--reps", "3", "--profile", "-", "--out", "T", "--quiet"],
                       cwd=out, env=e, input=profile, capture_output=True, timeout=300)
    err = p.stderr.decode(errors="replace")
    expect(p.returncode == 0, f"run: exit {p.returncode}", err)
    expect(not os.listdir(tmp), f"TMPDIR holds {os.listdir(tmp)}", err)
    with open(os.path.join(out, "T-samples.csv")) as f:
        expect(f.read().startswith("mode,elements"), "T-samples.csv is not the run's samples")


# ---- 8: (supervisor) a second signal leaves a folder and a child -------------
# held by tests/app/test-cli-signals.py, case grade-twice
# ---- 9: (supervisor) show --format json invents settings ---------------------
# held by tests/app/test-cli-signals.py, case sidecar-unknown
# ---- 10: (supervisor) a lesson drawn from its summary ------------------------
# held by tests/app/test-cli-signals.py, case lesson-summary
# ---- 11: (supervisor) compare --figure d2h on modes without d2h ---------------
# held by tests/app/test-cli-signals.py, case figure-d2h
# ---- 12: (supervisor) a write failure reported as "no GPU" -------------------
# held by tests/app/test-cli-signals.py, case write-failure


# ---- 13: compare --live's unchecked input ----------------------------------
@case(13, "compare --live --out '' is refused")
def live_empty_prefix(d):
    rc, _, err = memsweep("compare", "--live", "--a", TINY_SIDE, "--b", TINY_SIDE, "--budget",
                          "1", "--out", "", cwd=d)
    expect(rc == 2, f"exit {rc}, not 2", err)
    expect(not glob.glob(os.path.join(d, "-*")), "files named -a-... were written", err)


@case(13, "--out and --export-* inside a side of compare --live are refused")
def live_side_outputs(d):
    for side in (TINY_SIDE + " --out Z", TINY_SIDE + " --export-json F.json",
                 TINY_SIDE + " --export-csv=F.csv"):
        rc, _, err = memsweep("compare", "--live", "--a", side, "--b", TINY_SIDE, "--budget",
                              "1", cwd=d)
        expect(rc == 2, f"--a '{side}': exit {rc}, not 2", err)
        expect(not glob.glob(os.path.join(d, "Z-*")) and not glob.glob(os.path.join(d, "F.*")),
               f"--a '{side}': the side's outputs were written", err)


@case(13, "sides of compare --live with no cell in common are refused before any process")
def live_no_common_cell(d):
    strace_or_skip()
    other = "--modes host --min-exp 12 --max-exp 12 --reps 3 --rounds 1"
    trace = os.path.join(d, "trace")
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=execve", "-o", trace, MEMSWEEP,
                        "compare", "--live", "--a", TINY_SIDE, "--b", other, "--budget", "1"],
                       cwd=d, env=e, capture_output=True, timeout=300)
    err = p.stderr.decode(errors="replace")
    expect(p.returncode == 2, f"exit {p.returncode}, not 2", err)
    with open(trace) as f:
        starts = [line for line in f if "execve(" in line and "= 0" in line]
    expect(len(starts) == 1, f"{len(starts) - 1} processes were started before the refusal", err)


# ---- 14: the pair check reads a bounded prefix -----------------------------
@case(14, "show X-samples.csv reads a bounded part of a huge summary with no line end")
def pair_check_bounded(d):
    strace_or_skip()
    a_run(d, "X")
    summary = os.path.join(d, "X-summary.csv")
    with open(summary, "wb") as f:
        f.write(b"mode")
        f.truncate(64 << 20)
    trace = os.path.join(d, "trace")
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    p = subprocess.run(["strace", "-qq", "-e", "trace=openat,read,pread64", "-o", trace, MEMSWEEP,
                        "show", "X-samples.csv"], cwd=d, env=e, capture_output=True, timeout=300)
    expect(p.returncode == 0, f"show: exit {p.returncode}", p.stderr.decode(errors="replace"))
    fds, read = set(), 0
    with open(trace) as f:
        for line in f:
            m = re.match(r'openat\(.*"([^"]*)".*= (\d+)$', line.strip())
            if m:
                (fds.add if m.group(1).endswith("X-summary.csv") else fds.discard)(int(m.group(2)))
                continue
            m = re.match(r"p?read(?:64)?\((\d+),.*= (\d+)$", line.strip())
            if m and int(m.group(1)) in fds:
                read += int(m.group(2))
    expect(read <= 1 << 20, f"{read} bytes of the 64 MiB summary were read")


# ---- the later adversarial pass (cases 15 on) --------------------------------
def a_shipped_run(d, prefix):
    """A run as data/reference ships them: its pair gzipped and renamed
    after its sidecar was written, so that the sidecar names older plain
    names (PREFIX-meta.json lists old-PREFIX-samples.csv)."""
    a_run(d, "old-" + prefix)
    for kind in ("samples", "summary"):
        plain = os.path.join(d, f"old-{prefix}-{kind}.csv")
        with open(plain, "rb") as f, gzip.open(os.path.join(d, f"{prefix}-{kind}.csv.gz"),
                                               "wb") as g:
            g.write(f.read())
        os.unlink(plain)
    os.rename(os.path.join(d, f"old-{prefix}-meta.json"), os.path.join(d, f"{prefix}-meta.json"))


def sh(d, script):
    """script under sh -c in d, memsweep as "$0"; (exit status, stderr)."""
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    p = subprocess.run(["sh", "-c", script, MEMSWEEP], cwd=d, env=e, capture_output=True,
                       timeout=120)
    return p.returncode, p.stderr.decode(errors="replace")


@case(15, "an export over a gzipped run whose sidecar names older plain names is refused")
def export_over_shipped_run(d):
    a_run(d, "X")
    a_shipped_run(d, "S")
    os.symlink("S-summary.csv.gz", os.path.join(d, "sg"))
    os.link(os.path.join(d, "S-summary.csv.gz"), os.path.join(d, "hg"))
    before = snapshot(d)
    for export in (["--export-csv", "S-samples.csv.gz"], ["--export-json", "S-summary.csv.gz"],
                   ["--export-markdown", "sg"], ["--export-csv", "hg"]):
        rc, _, err = memsweep("show", "X-samples.csv", *export, cwd=d)
        refused_with_nothing_written(d, rc, err, before, "show X-samples.csv " + " ".join(export))
    rc, _, err = memsweep("run", *TINY, "--out", "Y", "--export-json", "S-samples.csv.gz", cwd=d)
    refused_with_nothing_written(d, rc, err, before, "run --export-json S-samples.csv.gz")
    for script in ('"$0" show X-samples.csv --export-csv /proc/self/fd/5 5<>S-samples.csv.gz',
                   '"$0" show X-samples.csv --export-json /dev/fd/5 5<>hg'):
        rc, err = sh(d, script)
        refused_with_nothing_written(d, rc, err, before, script.replace('"$0"', "memsweep"))


@case(16, "a set written over a gzipped run's sidecar (calibrate --out, run --out) is refused")
def set_over_shipped_run(d):
    a_shipped_run(d, "S")
    before = snapshot(d)
    for args in (["calibrate", "--runs", "3", *TINY, "--out", "S-summary.csv.gz"],
                 ["calibrate", "--runs", "3", *TINY, "--out", "S-samples.csv.gz"],
                 ["run", *TINY, "--out", "S"],
                 ["run", "--grade", "--modes", "host", "--min-exp", "10", "--max-exp", "10",
                  "--out", "S"]):
        rc, _, err = memsweep(*args, cwd=d)
        refused_with_nothing_written(d, rc, err, before, " ".join(args))
        expect("S-" in err and "meta.json" in err, "the message names the run's files", err)


EARLY = (["calibrate", "--runs", "10", "--modes", "host", "--min-exp", "10", "--max-exp", "16",
          "--quiet", "--out", "P.csv"],
         ["compare", "--live", "--a", "--modes host --min-exp 10 --max-exp 15", "--b",
          "--modes host --min-exp 10 --max-exp 15", "--budget", "30", "--quiet", "--out", "L"],
         ["run", "--grade", "--modes", "host", "--min-exp", "10", "--max-exp", "16",
          "--grade-budget", "20", "--quiet", "--out", "A"])


def start(d, args):
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    return subprocess.Popen([MEMSWEEP, *args], cwd=d, env=e, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL))


@case(17, "the first handler SIGTERM gets is the one that stops the command (no 143 window)")
def stop_handler_first(d):
    strace_or_skip()
    quick = (["calibrate", "--runs", "3", *TINY, "--quiet", "--out", "P.csv"],
             ["compare", "--live", "--a", TINY_SIDE, "--b", TINY_SIDE, "--budget", "1", "--quiet"],
             ["run", "--grade", "--modes", "host", "--min-exp", "10", "--max-exp", "10",
              "--grade-budget", "1", "--quiet", "--out", "G"])
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    for args in quick:
        trace = os.path.join(d, "trace")
        p = subprocess.run(["strace", "-qq", "-e", "trace=rt_sigaction", "-o", trace, MEMSWEEP,
                            *args], cwd=d, env=e, capture_output=True, timeout=300)
        err = p.stderr.decode(errors="replace")
        # compare of tiny runs may decide nothing (5): no failure either.
        expect(p.returncode in (0, 5), f"{args[0]}: exit {p.returncode}", err)
        with open(trace) as f:
            handlers = []
            for m in re.finditer(r"rt_sigaction\(SIGTERM, \{sa_handler=(0x[0-9a-f]+)", f.read()):
                if m.group(1) not in handlers:
                    handlers.append(m.group(1))
        os.unlink(trace)
        # A handler before the stop handler (the temporaries' clean-up)
        # would end the command with 143 if SIGTERM came meanwhile.
        expect(len(handlers) == 1, f"{args[0]}: SIGTERM got {len(handlers)} handlers in turn", err)


@case(17, "SIGTERM before memsweep runs (the loader) ends it with nothing written or left")
def sigterm_before_main(d):
    for args in EARLY:
        p = start(d, args)
        p.send_signal(signal.SIGTERM)
        err = p.communicate(timeout=120)[1].decode(errors="replace")
        expect(p.returncode in (1, -signal.SIGTERM), f"{args[0]}: exit {p.returncode}", err)
        expect(not os.listdir(d), f"{args[0]}: left {os.listdir(d)}", err)


@case(18, "a gzipped input is read with no room in TMPDIR: nothing is written there")
def gz_input_no_room(d):
    a_run(d, "X")
    a_shipped_run(d, "S")
    tmp = os.path.join(d, "tmp")
    os.mkdir(tmp)
    e = dict(os.environ, TMPDIR=tmp, LC_ALL="C", LANGUAGE="")
    # Not a byte may be written: a file-size limit of 16 bytes, and TMPDIR
    # read-only.
    limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (16, 16))
    os.chmod(tmp, 0o500)
    try:
        for args in (["show", "S-samples.csv.gz"],
                     ["compare", "S-samples.csv.gz", "X-samples.csv"]):
            p = subprocess.run([MEMSWEEP, *args], cwd=d, env=e, capture_output=True, timeout=120,
                               preexec_fn=limit)
            err = p.stderr.decode(errors="replace")
            # compare: a host run against a GPU run decides nothing (5).
            expect(p.returncode in (0, 1, 5),
                   f"{' '.join(args)} under ulimit -f: exit {p.returncode}, not 0, 1 or 5", err)
            expect("TMPDIR" not in err, "TMPDIR is named, as though it were used", err)
    finally:
        os.chmod(tmp, 0o700)
    expect(not os.listdir(tmp), f"TMPDIR holds {os.listdir(tmp)}")


@case(19, "the same run given twice (compare A A, report, plot) is said, not taken silently")
def same_input_twice(d):
    a_run(d, "A")
    a_run(d, "B")
    os.symlink("A-samples.csv", os.path.join(d, "lnk"))
    for args in (["compare", "A-samples.csv", "A-samples.csv"],
                 ["compare", "A-samples.csv", "./lnk"],
                 ["report", "A-samples.csv", "lnk", "--out", "r.html"],
                 ["plot", "A-samples.csv", "A-samples.csv", "--view", "time", "--out", "o.svg"]):
        rc, _, err = memsweep(*args, cwd=d)
        if "needs a build with" in err:
            continue
        expect(rc == 0 or (rc == 5 and args[0] == "compare"), f"{' '.join(args)}: exit {rc}", err)
        expect("same file" in err, f"{' '.join(args)}: not said", err)
    # Two runs are two runs: nothing said.
    rc, _, err = memsweep("compare", "A-samples.csv", "B-samples.csv", cwd=d)
    expect(rc in (0, 1, 5) and "same file" not in err, "compare A B: said to be one file", err)


@case(20, "--profile - without its sidecar: read, and what it lacks said")
def profile_stdin_message(d):
    # calibrate --out - writes what P.csv holds (issue 83): the table alone,
    # read as this GPU's, of the fewest runs (the widest intervals).
    rc, _, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", "P.csv", "--quiet", cwd=d)
    expect(rc == 0, f"calibrate: exit {rc}", err)
    with open(os.path.join(d, "P.csv"), "rb") as f:
        rc, _, err = memsweep("run", *TINY, "--out", "X", "--profile", "-", stdin=f.read(), cwd=d)
    expect(rc == 0, f"exit {rc}, not 0", err)
    expect("without its sidecar" in err and "runs for 3" in err, "what it lacks not said", err)
    expect("run-to-run spread of - (3 runs" in err, "the profile not used", err)


# ---- the output plan beyond the numbered defects ---------------------------
@case(21, "an export over a run's file with no sidecar (plain, gzipped, renamed) is refused")
def export_over_lone_run_file(d):
    a_run(d, "X")
    a_run(d, "L")
    with open(os.path.join(d, "L-samples.csv"), "rb") as f, \
            gzip.open(os.path.join(d, "C-samples.csv.gz"), "wb") as g:
        g.write(f.read())
    os.rename(os.path.join(d, "L-summary.csv"), os.path.join(d, "kept.csv"))
    os.unlink(os.path.join(d, "L-meta.json"))
    before = snapshot(d)
    for export in (["--export-csv", "C-samples.csv.gz"], ["--export-json", "L-samples.csv"],
                   ["--export-markdown", "kept.csv"]):
        rc, _, err = memsweep("show", "X-samples.csv", *export, cwd=d)
        refused_with_nothing_written(d, rc, err, before, "show X-samples.csv " + " ".join(export))
    # An earlier export of the same name is no run: written again.
    rc, _, err = memsweep("show", "X-samples.csv", "--export-csv", "e.csv", cwd=d)
    expect(rc == 0, f"first export exit {rc}", err)
    rc, _, err = memsweep("show", "X-samples.csv", "--export-csv", "e.csv", cwd=d)
    expect(rc == 0, f"the same export again: exit {rc}", err)


@case(22, "a folder of the user's in TMPDIR named like a dead process folder is kept")
def user_folder_in_tmpdir(d):
    tmp = os.path.join(d, "tmp")
    os.makedirs(tmp)
    mine = os.path.join(tmp, "memsweep-runs-20261126-backup")
    dead = os.path.join(tmp, "memsweep-grade-4000000-abcdef")
    os.makedirs(mine)
    with open(os.path.join(mine, "notes.txt"), "w") as f:
        f.write("keep me\n")
    os.makedirs(dead)
    e = dict(os.environ, TMPDIR=tmp, LC_ALL="C", LANGUAGE="")
    p = subprocess.run([MEMSWEEP, "run", "--grade", "--modes", "host", "--min-exp", "10",
                        "--max-exp", "10", "--grade-budget", "3", "--quiet", "--out", "G"],
                       cwd=d, env=e, capture_output=True, timeout=120)
    err = p.stderr.decode(errors="replace")
    expect(p.returncode == 0, f"exit {p.returncode}", err)
    expect(os.path.exists(os.path.join(mine, "notes.txt")), "the user's folder was removed", err)
    expect(os.path.isdir(dead), "an unmarked folder was removed", err)


# ---- what the pass on e64f749f left open ------------------------------------
@case(23, "a user's file named like a temporary (X-samples.csv.memsweep-backup) is kept")
def user_file_shaped_like_temporary(d):
    a_run(d, "A")
    mine = os.path.join(d, "X-samples.csv.memsweep-backup")
    shutil.copy(os.path.join(d, "A-samples.csv"), mine)
    before = open(mine, "rb").read()
    rc, _, err = memsweep("run", *TINY, "--out", "X", "--quiet", cwd=d)
    expect(rc == 0, f"run --out X: exit {rc}", err)
    expect(os.path.exists(mine) and open(mine, "rb").read() == before,
           "X-samples.csv.memsweep-backup was removed or changed", err)
    expect(not [n for n in os.listdir(d) if ".memsweep-" in n and n != os.path.basename(mine)],
           "a temporary was left: " + " ".join(os.listdir(d)), err)


@case(24, "a sidecar over 1 MiB still protects the files it names")
def large_sidecar_protects(d):
    rc, _, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", "P.csv", "--quiet", cwd=d)
    expect(rc == 0, f"calibrate: exit {rc}", err)
    side = os.path.join(d, "P-meta.json")
    text = open(side).read().rstrip()
    # Whitespace inside the object: the same JSON, 1.1 MB.
    with open(side, "w") as f:
        f.write(text[:-1] + " " * 1100000 + text[-1:] + "\n")
    before = snapshot(d)
    rc, _, err = memsweep("run", *TINY, "--out", "X", "--export-csv", "P.csv", cwd=d)
    refused_with_nothing_written(d, rc, err, before, "run --out X --export-csv P.csv")
    expect("P-meta.json" in err, "the message names the sidecar", err)
    # One rule for reader and plan: the profile is still read with it.
    rc, _, err = memsweep("run", *TINY, "--out", "Y", "--profile", "P.csv", "--quiet", cwd=d)
    expect(rc == 0, f"run --profile P.csv: exit {rc}", err)


@case(25, "an export named by a bind mount of the folder is the run's own new sidecar")
def bind_alias_of_new_sidecar(d):
    if not shutil.which("unshare") or subprocess.run(
            ["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        raise Skip("no user and mount namespaces (unshare -rm)")
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    script = ('mkdir alt && mount --bind . alt && "$0" run ' + " ".join(TINY) +
              ' --quiet --out X --export-json alt/X-meta.json')
    p = subprocess.run(["unshare", "-rm", "sh", "-c", script, MEMSWEEP], cwd=d, env=e,
                       capture_output=True, timeout=120)
    err = p.stderr.decode(errors="replace")
    expect(p.returncode == 2, f"exit {p.returncode}, not 2", err)
    expect(sorted(os.listdir(d)) == ["alt"], "files written: " + " ".join(os.listdir(d)), err)
    expect("X-meta.json" in err and "alt/X-meta.json" in err, "the message names both files",
           err)


@case(26, "a conflict of the output plan exits 2 in every command (docs/cli.md)")
def plan_conflict_exits_2(d):
    a_run(d, "A")
    a_run(d, "B")
    os.symlink("B-meta.json", os.path.join(d, "x.png"))
    before = snapshot(d)
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    for line in ('"$0" show A-samples.csv >> A-samples.csv',
                 '"$0" show A-samples.csv 1<> A-meta.json',
                 '"$0" compare A-samples.csv B-samples.csv >> A-samples.csv',
                 '"$0" compare A-samples.csv B-samples.csv --format csv 1<> A-samples.csv',
                 '"$0" compare A-samples.csv B-samples.csv --plot x.png'):
        p = subprocess.run(["sh", "-c", line, MEMSWEEP], cwd=d, env=e, capture_output=True,
                           timeout=120)
        refused_with_nothing_written(d, p.returncode, p.stderr.decode(errors="replace"), before,
                                     line.replace('"$0"', "memsweep"))


def moved_in_while_running(d, args, pre, names):
    """Runs memsweep args in d; once its process folder is in TMPDIR, moves
    names from pre into d, as another command finishing there would.
    (exit status, stderr)."""
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    # Its stop signals at their defaults, whatever this test inherited
    # (PITFALLS 31).
    p = subprocess.Popen([MEMSWEEP, *args], cwd=d, env=e, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=lambda: [
                             signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT,
                                                                          signal.SIGTERM)])
    # Until its folder is there to see, however long a busy machine takes.
    while not glob.glob(os.path.join(d, "memsweep-*-*")) and p.poll() is None:
        time.sleep(0.005)
    for n in names:
        os.rename(os.path.join(pre, n), os.path.join(d, n))
    err = p.communicate(timeout=120)[1].decode(errors="replace")
    return p.returncode, err


def kept_files(d, err, names):
    kept = glob.glob(os.path.join(d, "memsweep-kept-*"))
    expect(len(kept) == 1, "no folder of kept files: " + " ".join(sorted(os.listdir(d))), err)
    for n in names:
        expect(os.path.getsize(os.path.join(kept[0], n)) > 0, f"{n} not kept", err)
        expect(os.path.join(os.path.basename(kept[0]), n) in err, f"where {n} is kept is not said",
               err)


@case(27, "a command that cannot write its files at the end keeps what it measured")
def final_write_refused_keeps(d):
    pre = os.path.join(d, "pre")
    os.makedirs(pre)
    rc, _, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", "X.csv", "--quiet", cwd=pre)
    expect(rc == 0, f"calibrate: exit {rc}", err)
    a_run(pre, "Y")
    # A profile X.csv appears while run --grade --out X measures: X-meta.json is its.
    rc, err = moved_in_while_running(
        d, ["run", "--grade", "--processes", "6", *TINY, "--quiet", "--out", "X"], pre,
        ["X.csv", "X-meta.json"])
    expect(rc == 4, f"run --grade: exit {rc}, not 4", err)
    kept_files(d, err, ["X-samples.csv", "X-summary.csv"])
    expect(open(os.path.join(d, "X.csv")).read().startswith("mode,exponent"), "X.csv changed", err)
    # A run Y appears while calibrate --out Y.csv measures: Y-meta.json is its.
    e = os.path.join(d, "e")
    os.makedirs(e)
    rc, err = moved_in_while_running(
        e, ["calibrate", "--runs", "4", *TINY, "--quiet", "--out", "Y.csv"], pre,
        ["Y-samples.csv", "Y-summary.csv", "Y-meta.json"])
    expect(rc == 4, f"calibrate: exit {rc}, not 4", err)
    kept_files(e, err, ["Y.csv"])


@case(28, "compare --live that cannot write one side still writes or keeps the other")
def live_one_side_refused(d):
    pre = os.path.join(d, "pre")
    os.makedirs(pre)
    rc, _, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", "Z-a.csv", "--quiet", cwd=pre)
    expect(rc == 0, f"calibrate: exit {rc}", err)
    side = TINY_SIDE
    # A profile Z-a.csv appears while compare --live --out Z measures:
    # Z-a-meta.json is its, so side A cannot be written; side B can.
    rc, err = moved_in_while_running(
        d, ["compare", "--live", "--a", side, "--b", side, "--budget", "6", "--quiet",
            "--out", "Z"], pre, ["Z-a.csv", "Z-a-meta.json"])
    expect(rc == 4, f"compare --live: exit {rc}, not 4", err)
    kept_files(d, err, ["Z-a-samples.csv", "Z-a-summary.csv"])
    expect(os.path.exists(os.path.join(d, "Z-b-samples.csv")), "side B was neither written", err)


REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data",
                         "reference")


def lesson_files(d):
    """The batched lesson's reference run, copied into d: its name stem."""
    stem = "h100-lesson-batched"
    for kind in ("-samples.csv.gz", "-summary.csv.gz", "-meta.json"):
        src = os.path.join(REFERENCE, stem + kind)
        if not os.path.exists(src):
            raise Skip(f"no {src}")
        shutil.copy(src, d)
    if memsweep("report", "--help", cwd=d)[0] != 0:
        raise Skip("memsweep built without Cairo and Pango")
    return stem


@case(29, "a lesson drawn from its summary is refused, naming the gzipped samples beside it")
def lesson_from_summary(d):
    stem = lesson_files(d)
    for args in (["plot", stem + "-summary.csv.gz", "--view", "lesson", "--out", "o.svg"],
                 ["report", stem + "-summary.csv.gz", "--handout", "--out", "h.pdf"]):
        before = snapshot(d)
        rc, _, err = memsweep(*args, cwd=d)
        refused_with_nothing_written(d, rc, err, before, " ".join(args))
        expect(stem + "-samples.csv.gz" in err, "the samples file that answers is not named", err)


@case(30, "a lesson's run from standard input is not called a plain sweep")
def lesson_from_stdin(d):
    stem = lesson_files(d)
    with gzip.open(os.path.join(d, stem + "-samples.csv.gz"), "rb") as f:
        plain = f.read()
    for args in (["plot", "-", "--view", "lesson", "--out", "o.svg"],
                 ["report", "-", "--handout", "--out", "h.pdf"]):
        rc, _, err = memsweep(*args, cwd=d, stdin=plain)
        expect(rc == 2, f"{' '.join(args)}: exit {rc}, not 2", err)
        expect("plain sweep" not in err and "unknown" in err,
               "a run without its sidecar is not said to be of unknown lesson", err)


@case(31, "a process that cannot write even its error messages (ulimit -f 0) is said why")
def child_silenced_said(d):
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))
    for args in (["calibrate", "--runs", "3", *TINY, "--out", "P.csv"],
                 ["run", "--grade", "--processes", "2", *TINY, "--out", "G"],
                 ["compare", "--live", "--a", TINY_SIDE, "--b", TINY_SIDE, "--budget", "4",
                  "--out", "L"]):
        p = subprocess.run([MEMSWEEP, *args], cwd=d, env=e, capture_output=True, timeout=120,
                           preexec_fn=limit)
        err = p.stderr.decode(errors="replace")
        expect(p.returncode == 4, f"{args[0]} under ulimit -f 0: exit {p.returncode}, not 4", err)
        expect("ulimit -f 0" in err, f"{args[0]}: why its process wrote nothing is not said", err)
        # A process lifts a soft limit to keep what it measured (case 51):
        # whatever is left must be what stderr names.
        left = [f for f in os.listdir(d) if f not in err]
        expect(not left, f"{args[0]}: left {left}, not named", err)
        for f in os.listdir(d):
            shutil.rmtree(os.path.join(d, f), ignore_errors=True)


@case(32, "an ignored SIGCHLD throws away no process that measured")
def sigchld_ignored(d):
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    ignore = lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for args, wrote in ((["run", "--processes", "3", *TINY, "--out", "X"], "X-samples.csv"),
                        (["calibrate", "--runs", "3", *TINY, "--out", "P.csv"], "P.csv"),
                        (["compare", "--live", "--a", TINY_SIDE, "--b", TINY_SIDE, "--budget",
                          "4", "--out", "L"], "L-a-samples.csv")):
        p = subprocess.run([MEMSWEEP, *args], cwd=d, env=e, capture_output=True, timeout=120,
                           preexec_fn=ignore)
        err = p.stderr.decode(errors="replace")
        expect(p.returncode == 0 or (p.returncode == 5 and args[0] == "compare"),
               f"{args[0]} with SIGCHLD ignored: exit {p.returncode}, not 0", err)
        expect(os.path.exists(os.path.join(d, wrote)), f"{args[0]}: {wrote} not written", err)


@case(33, "a run whose file starts with a note or a blank line is not replaced by an export")
def run_after_comments_kept(d):
    rc, _, err = memsweep("run", *TINY, "--quiet", "--out", "A", cwd=d)
    expect(rc == 0, f"run: exit {rc}", err)
    with open(os.path.join(d, "A-samples.csv"), "rb") as f:
        samples = f.read()
    forms = {"noted.csv": b"# note: baseline before the BIOS update\n" + samples,
             "inline.csv": b"# memsweep-version: 0.0.9\n# date: 2026-01-01T00:00:00Z\n" + samples,
             "blank.csv": b"\n" + samples}
    for name, text in forms.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(text)
        rc, _, err = memsweep("show", name, cwd=d)
        expect(rc == 0, f"show {name}: the reader does not take it for a run", err)
        for export in ("--export-csv", "--export-json"):
            rc, _, err = memsweep("show", "A-samples.csv", export, name, cwd=d)
            expect(rc == 2, f"show A {export} {name}: exit {rc}, not 2", err)
            with open(os.path.join(d, name), "rb") as f:
                expect(f.read() == text, f"{name} changed by {export}", err)


@case(34, "the envelope file read from standard input is not replaced through standard output")
def envelopes_stdin_kept(d):
    rc, _, err = memsweep("run", *TINY, "--quiet", "--out", "A", cwd=d)
    expect(rc == 0, f"run: exit {rc}", err)
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data",
                       "envelopes.csv")
    env = os.path.join(d, "env.csv")
    shutil.copyfile(src, env)
    with open(env, "rb") as f:
        before = f.read()
    for mode in ("r+b", "ab"):
        with open(env, "rb") as fin, open(env, mode) as fout:
            p = subprocess.run([MEMSWEEP, "show", "A-samples.csv", "--envelopes", "-", "--format",
                                "json"], cwd=d, stdin=fin, stdout=fout, stderr=subprocess.PIPE,
                               env=dict(os.environ, TMPDIR=d, LC_ALL="C"), timeout=60)
        err = p.stderr.decode(errors="replace")
        expect(p.returncode == 2, f"stdout {mode} onto the envelopes read: exit {p.returncode}",
               err)
        with open(env, "rb") as f:
            expect(f.read() == before, f"the envelope file changed ({mode})", err)


def read_bytes(pid):
    """What process pid has read so far (/proc/PID/io's rchar); 0 when gone."""
    try:
        with open(f"/proc/{pid}/io") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("rchar:"))
    except (OSError, StopIteration):
        return 0


@case(37, "a signal while standard input is read leaves no copy of it in TMPDIR")
def stdin_copy_cleaned(d):
    rc, _, err = memsweep("run", *TINY, "--quiet", "--out", "A", cwd=d)
    expect(rc == 0, f"run: exit {rc}", err)
    tmp = os.path.join(d, "tmp")
    os.mkdir(tmp)
    with open(os.path.join(d, "A-samples.csv"), "rb") as f:
        text = f.read()
    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
        # Each signal at its default, whatever this test inherited (a CI
        # runner may ignore SIGHUP: PITFALLS 31), so that it ends show.
        p = subprocess.Popen([MEMSWEEP, "show", "-"], cwd=d, stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=dict(os.environ, TMPDIR=tmp, LC_ALL="C"),
                             preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
        p.stdin.write(text)
        p.stdin.flush()
        # Standard input is being held (in memory or in an unlinked file in
        # TMPDIR, never by a name there), the input still open: the signal
        # comes once memsweep has read what was written.
        while read_bytes(p.pid) < len(text) and p.poll() is None:
            time.sleep(0.02)
        p.send_signal(sig)
        p.stdin.close()
        p.wait(timeout=60)
        err = p.stderr.read().decode(errors="replace")
        expect(not os.listdir(tmp), f"after {sig.name}: {os.listdir(tmp)} left in TMPDIR", err)


@case(0, "standard output by any name holds one document")
def stdout_one_document(d):
    a_run(d, "X")
    for args in (["--export-json", "-", "--export-csv", "/dev/stdout"],
                 ["--export-csv", "/dev/fd/1", "--export-json", "-"],
                 ["--format", "json", "--out", "-", "--export-csv", "-"]):
        rc, out, err = memsweep("show", "X-samples.csv", *args, cwd=d)
        expect(rc == 2 and not out, f"show {' '.join(args)}: exit {rc}, {len(out)} bytes out", err)


@case(0, "standard output appended to another run's sidecar is refused")
def stdout_into_sidecar(d):
    a_run(d, "X")
    a_run(d, "Q")
    before = snapshot(d)
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    for redirect in ('"$0" show X-samples.csv >> Q-meta.json',
                     '"$0" show X-samples.csv --export-json /dev/fd/3 3>> Q-meta.json',
                     '"$0" show X-samples.csv --format json --export-csv /dev/stdout >> Q-meta.json'):
        p = subprocess.run(["sh", "-c", redirect, MEMSWEEP], cwd=d, env=e, capture_output=True,
                           timeout=120)
        refused_with_nothing_written(d, p.returncode, p.stderr.decode(errors="replace"), before,
                                     redirect.replace('"$0"', "memsweep"))


@case(0, "a run stopped before any cell keeps the earlier run of its prefix")
def early_stop_keeps_old_run(d):
    a_run(d, "R")
    before = snapshot(d)
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    p = subprocess.Popen([MEMSWEEP, "run", "--modes", "host", "--min-exp", "20", "--max-exp", "20",
                          "--reps", "100000", "--warmup", "0", "--quiet", "--out", "R"], cwd=d,
                         env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while p.poll() is None:
        with open(f"/proc/{p.pid}/status") as f:
            caught = [l for l in f if l.startswith("SigCgt:")]
        if caught and int(caught[0].split()[1], 16) & (1 << (signal.SIGINT - 1)):
            break
        time.sleep(0.001)
    p.send_signal(signal.SIGINT)
    err = p.communicate(timeout=120)[1].decode(errors="replace")
    expect(p.returncode == 1, f"exit {p.returncode}, not 1", err)
    expect(snapshot(d) == before, "R's files changed", err)


# ---- any failure of the final write keeps the run (found on b6ca89cb) ------

@case(35, "a pipe nobody reads at a run's file name: refused, or the run kept")
def fifo_at_summary_kept(d):
    os.mkfifo(os.path.join(d, "X-summary.csv"))
    rc, _, err = memsweep("run", *TINY, "--out", "X", cwd=d, timeout=60)
    expect(rc in (2, 4), f"exit {rc}, not 2 or 4", err)
    if rc == 4:
        kept_files(d, err, ["X-samples.csv", "X-summary.csv"])


@case(36, "an output folder removed while run --grade measures: the run is kept in TMPDIR")
def folder_removed_kept(d):
    sub = os.path.join(d, "sub")
    os.makedirs(sub)
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    p = subprocess.Popen([MEMSWEEP, "run", "--grade", "--processes", "8", "--modes", "host",
                          "--min-exp", "10", "--max-exp", "12", "--reps", "30", "--quiet",
                          "--out", "sub/X"], cwd=d, env=e, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    # Until its folder is there to see, however long a busy machine takes.
    while not glob.glob(os.path.join(d, "memsweep-*-*")) and p.poll() is None:
        time.sleep(0.005)
    shutil.rmtree(sub)
    err = p.communicate(timeout=120)[1].decode(errors="replace")
    expect(p.returncode == 4, f"exit {p.returncode}, not 4", err)
    kept_files(d, err, ["X-samples.csv", "X-summary.csv"])


# ---- 38: two commands writing one output set at once -----------------------
# Seconds of work at the CPU baseline: still at work when the second starts.
BUSY = ["--modes", "host", "--min-exp", "0", "--max-exp", "14", "--warmup", "0", "--reps",
        "100000"]


# Where each measuring process says it is at work: BUSY_DIR/PID once its
# first cell is measured (MEMSWEEP_TEST_BUSY_DIR), so that no case guesses
# by ticks of CPU time (PITFALLS 45).
BUSY_DIR = tempfile.mkdtemp(prefix="ms-lost-busy-")
os.environ["MEMSWEEP_TEST_BUSY_DIR"] = BUSY_DIR
atexit.register(shutil.rmtree, BUSY_DIR, True)


def at_work(pid):
    return os.path.exists(os.path.join(BUSY_DIR, str(pid)))


def busy_start(d, args):
    """memsweep args at work: its stop signals caught, and it or a process
    it started says it is at work (no lock file looked for: the old code
    has none)."""
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    # Its stop signals at their defaults, whatever this test inherited
    # (PITFALLS 31).
    p = subprocess.Popen([MEMSWEEP, *args], cwd=d, env=e, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=lambda: [
                             signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT,
                                                                          signal.SIGTERM)])
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/status") as f:
                cgt = int(re.search(r"SigCgt:\s*([0-9a-f]+)", f.read()).group(1), 16)
            with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                kids = [int(c) for c in f.read().split()]
        except (OSError, AttributeError):
            cgt, kids = 0, []
        if cgt & (1 << (signal.SIGINT - 1)) and any(map(at_work, [p.pid, *kids])):
            return p
        time.sleep(0.01)
    p.kill()
    raise AssertionError(f"{' '.join(args)}: ended before it was at work")


def busy_stop(p):
    """Ctrl+C: what it measured is written, exit 1 (0 when it finished)."""
    p.send_signal(signal.SIGINT)
    err = p.communicate(timeout=120)[1].decode(errors="replace")
    expect(p.returncode in (0, 1), f"the first command: exit {p.returncode}", err)
    return err


def second_refused(d, first, second, names, what):
    """second, started while first is at work, is refused before any work
    (exit 2) naming the first's PID and one of names; the first's run is
    then written whole and no lock of it is left."""
    p = busy_start(d, first)
    rc, _, err = memsweep(*second, cwd=d)
    err1 = busy_stop(p)
    expect(rc == 2, f"{what}: the second command: exit {rc}, not 2", err)
    expect(str(p.pid) in err and any(n in err for n in names),
           f"{what}: the first command's process {p.pid} and its file are not named", err)
    left = [n for n in os.listdir(d) if n.endswith(".memsweep-lock")]
    expect(not left, f"{what}: lock files left: {left}", err1)
    return err1


@case(38, "two runs with one --out at once: the second refused (2), naming the first")
def two_runs_one_prefix(d):
    second_refused(d, ["run", "--out", "X", "--quiet", *BUSY], ["run", *TINY, "--out", "X"],
                   ["X-samples.csv", "X-summary.csv", "X-meta.json"], "run --out X twice")
    rc, _, err = memsweep("show", "X-samples.csv", cwd=d)
    expect(rc == 0, "the first run cannot be read", err)


@case(38, "two fleet-node --dir F --node a at once: the second refused, the first kept")
def two_fleet_nodes(d):
    err = second_refused(d, ["fleet-node", "--dir", "f", "--node", "a", "--", *BUSY],
                         ["fleet-node", "--dir", "f", "--node", "a", "--", *TINY],
                         ["a-samples.csv", "a-summary.csv", "a-meta.json"], "fleet-node twice")
    expect(os.path.exists(os.path.join(d, "f", "a-samples.csv")),
           f"the first node's run is not written: {os.listdir(os.path.join(d, 'f'))}", err)


@case(38, "calibrate --out P and an export to a file another command is writing: refused")
def calibrate_and_export_at_once(d):
    a_run(d, "R")
    second_refused(d, ["calibrate", "--runs", "3", "--out", "P.csv", "--quiet", *BUSY],
                   ["calibrate", "--runs", "3", "--out", "P.csv", *TINY], ["P.csv", "P-meta.json"],
                   "calibrate --out P.csv twice")
    second_refused(d, ["run", "--out", "Y", "--quiet", *BUSY],
                   ["show", "R-samples.csv", "--export-csv", "Y-samples.csv"], ["Y-samples.csv"],
                   "an export named as the run's file another command is writing")


@case(38, "a lock left by a killed command holds nothing; a user's file at its name is kept")
def stale_lock_taken_over(d):
    p = busy_start(d, ["run", "--out", "X", "--quiet", *BUSY])
    p.kill()
    p.communicate()
    a_run(d, "X")
    left = [n for n in os.listdir(d) if n.endswith(".memsweep-lock")]
    expect(not left, f"after the next run of X, lock files left: {left}")
    with open(os.path.join(d, "Z-samples.csv.memsweep-lock"), "w") as f:
        f.write("my notes\n")
    before = snapshot(d)
    rc, _, err = memsweep("run", *TINY, "--out", "Z", cwd=d)
    refused_with_nothing_written(d, rc, err, before, "run --out Z beside a user's Z-samples.csv.memsweep-lock")


# ---- 39: an export's name says another kind of file ------------------------
@case(39, "an export or --out whose name says another kind (plot.svg) is refused, kept")
def export_named_as_picture(d):
    a_run(d, "R")
    with open(os.path.join(d, "plot.svg"), "w") as f:
        f.write("<svg xmlns='http://www.w3.org/2000/svg'/>\n")
    with open(os.path.join(d, "table.xlsx"), "wb") as f:
        f.write(b"PK\x03\x04")
    before = snapshot(d)
    for args in (["show", "R-samples.csv", "--export-json", "plot.svg"],
                 ["show", "R-samples.csv", "--export-csv", "table.xlsx"],
                 ["show", "R-samples.csv", "--export-markdown", "plot.svg"],
                 ["show", "R-samples.csv", "--out", "plot.svg"],
                 ["show", "R-samples.csv", "--format", "json", "--out", "new.png"],
                 ["run", *TINY, "--out", "X", "--export-json", "plot.svg"],
                 ["calibrate", "--runs", "3", *TINY, "--out", "P.svg"]):
        rc, _, err = memsweep(*args, cwd=d)
        refused_with_nothing_written(d, rc, err, before, " ".join(args))
        expect("svg" in err or "xlsx" in err or "png" in err,
               f"{' '.join(args)}: the name's kind is not said", err)
    for args in (["show", "R-samples.csv", "--export-json", "doc.json.gz"],
                 ["show", "R-samples.csv", "--export-json", "E"],
                 ["show", "R-samples.csv", "--out", "t.txt"]):
        rc, _, err = memsweep(*args, cwd=d)
        expect(rc == 0, f"{' '.join(args)}: exit {rc}, not 0", err)


# ---- 40: messages that said what was not so ---------------------------------
def nth_child_busy(p, n):
    """The nth process p started (from 1), once it says it is at work."""
    seen = []
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                seen += [int(c) for c in f.read().split() if int(c) not in seen]
        except (OSError, ValueError):
            pass
        if len(seen) >= n and at_work(seen[n - 1]):
            return seen[n - 1]
        time.sleep(0.01)
    raise AssertionError(f"no busy process {n} of memsweep")


def killed_child(p, n):
    """Someone else's SIGKILL to p's nth process; p's standard error."""
    child = nth_child_busy(p, n)
    os.kill(child, signal.SIGKILL)
    return p.communicate(timeout=120)[1].decode(errors="replace")


@case(40, "run --grade: a process killed by someone else is 'of at most N', no file 'left'")
def grade_cap_and_no_file(d):
    p = busy_start(d, ["run", "--grade", "--out", "g", *BUSY])
    err = killed_child(p, 1)
    expect(p.returncode == 1, f"exit {p.returncode}, not 1", err)
    expect("process 1 of at most" in err, "the cap is said as a count asked for", err)
    expect("left as it was" not in err and "nothing was measured" in err,
           "a file that was not there is said to be left as it was", err)


@case(40, "fleet-node whose run is killed: the signal named, not 'exited 137'")
def fleet_node_run_killed(d):
    p = busy_start(d, ["fleet-node", "--dir", "f", "--node", "a", "--", *BUSY])
    err = killed_child(p, 1)
    expect("exited 137" not in err and "signal 9" in err, "the signal is not named", err)


# ---- 41: a sidecar unread for want of a descriptor -------------------------
@case(41, "a sidecar that cannot be opened (ulimit -n) fails the read, not 'unknown'")
def sidecar_emfile(d):
    a_run(d, "X")
    met = []
    for n in range(4, 14):
        def low(n=n):
            resource.setrlimit(resource.RLIMIT_NOFILE, (n, resource.getrlimit(
                resource.RLIMIT_NOFILE)[1]))
        p = subprocess.run([MEMSWEEP, "show", "X-samples.csv"], cwd=d, capture_output=True,
                           env=dict(os.environ, LC_ALL="C", LANGUAGE=""), preexec_fn=low)
        err = p.stderr.decode(errors="replace")
        if "X-meta.json" in err and "Too many open files" in err:
            met.append(n)
            expect(p.returncode != 0 and b"device unknown" not in p.stdout,
                   f"ulimit -n {n}: exit {p.returncode}, the run shown as of an unknown device",
                   err)
    expect(met, "no descriptor limit met the sidecar's open")


# ---- 42: a profile named as a run's file -----------------------------------
@case(42, "calibrate --out X-samples.csv (a run's sidecar name) is refused before any run")
def profile_named_as_run(d):
    before = snapshot(d)
    for name in ("X-samples.csv", "X-summary.csv.gz", "sub-samples.csv"):
        rc, _, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", name, cwd=d)
        refused_with_nothing_written(d, rc, err, before, f"calibrate --out {name}")
        expect("-meta.json" in err, f"calibrate --out {name}: the sidecar's name is not said", err)


# ---- 43: a file a renamed run's sidecar would be found for ------------------
@case(43, "an export named STEM-summary.csv beside a renamed run's STEM-meta.json is refused")
def export_beside_renamed_sidecar(d):
    a_shipped_run(d, "R")
    os.unlink(os.path.join(d, "R-summary.csv.gz"))
    before = snapshot(d)
    for name in ("R-summary.csv", "R-summary.csv.gz"):
        rc, _, err = memsweep("show", "R-samples.csv.gz", "--export-csv", name, cwd=d)
        refused_with_nothing_written(d, rc, err, before, f"--export-csv {name}")
        expect("R-meta.json" in err, f"--export-csv {name}: the sidecar not named", err)


# ---- 44: a prefix that names a folder ---------------------------------------
@case(44, "run --out o/ (a folder, no name) is refused, not written as o/-samples.csv")
def prefix_is_a_folder(d):
    os.mkdir(os.path.join(d, "o"))
    before = snapshot(d)
    for args in (["run", *TINY], ["compare", "--live", "--a", TINY_SIDE, "--b", TINY_SIDE]):
        rc, _, err = memsweep(*args, "--out", "o/", cwd=d)
        refused_with_nothing_written(d, rc, err, before, f"{args[0]} --out o/")
        expect("ends in '/'" in err, f"{args[0]} --out o/: the reason not said", err)


# ---- 45: a folder at a hold's name ------------------------------------------
@case(45, "a folder at an output's hold name is refused, not written unlocked")
def folder_at_hold_name(d):
    os.mkdir(os.path.join(d, "x-samples.csv.memsweep-lock"))
    before = snapshot(d)
    rc, _, err = memsweep("run", *TINY, "--out", "x", cwd=d)
    refused_with_nothing_written(d, rc, err, before, "run --out x")
    expect("is not memsweep's" in err, "the reason not said", err)


# ---- 46: a process folder made immutable midway ------------------------------
MED = ["--modes", "host", "--min-exp", "0", "--max-exp", "12", "--warmup", "0", "--reps", "300"]
MED_SIDE = " ".join(MED)


def run_files(folder):
    """The run files under folder (a live comparison's sides included) with their bytes."""
    return {os.path.relpath(p, folder): open(p, "rb").read()
            for p in glob.glob(os.path.join(folder, "**", "*-s*.csv*"), recursive=True)}


@case(46, "a process folder made immutable midway: its measurements outlive the next sweep")
def immutable_process_folder(d):
    if subprocess.run(["chattr", "+i", d], capture_output=True).returncode != 0:
        raise Skip("chattr +i is not available here")
    subprocess.run(["chattr", "-i", d], capture_output=True)
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    for kind, args in (("calibrate", ["calibrate", "--runs", "4", *MED, "--out", "P.csv"]),
                       ("grade", ["run", "--grade", "--processes", "3", *MED, "--out", "G"]),
                       ("live", ["compare", "--live", "--budget", "4", "--a", MED_SIDE, "--b",
                                 MED_SIDE, "--out", "L"])):
        p = subprocess.Popen([MEMSWEEP, *args], cwd=d, env=e, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        first = None
        while p.poll() is None and not first:
            first = glob.glob(f"{d}/memsweep-{kind}-*/run1-samples.csv") + glob.glob(
                f"{d}/memsweep-{kind}-*/p0-samples.csv") + glob.glob(
                f"{d}/memsweep-{kind}-*/a/p0-samples.csv")
            time.sleep(0.02)
        folders = glob.glob(f"{d}/memsweep-{kind}-*")
        expect(first and folders, f"{kind}: no process wrote before the end")
        folder = folders[0]
        frozen = [folder, *glob.glob(folder + "/[ab]")]
        try:
            subprocess.run(["chattr", "+i", *frozen], check=True)
            err = p.communicate(timeout=120)[1].decode(errors="replace")
            left = run_files(folder)
        finally:
            subprocess.run(["chattr", "-i", *frozen], capture_output=True)
        expect(left, f"{kind}: no measurements left in the folder (the case tests nothing)", err)
        if kind == "calibrate":
            expect("is lost" not in err and folder in err,
                   "calibrate: said lost, or the folder holding the runs not named", err)
        # A later command's sweep keeps them.
        a_run_grade = [MEMSWEEP, "run", "--grade", "--processes", "2", *TINY, "--quiet", "--out",
                       "later-" + kind]
        later = subprocess.run(a_run_grade, cwd=d, env=e, capture_output=True, timeout=120)
        later_err = later.stderr.decode(errors="replace")
        kept = [f for f in [folder, *glob.glob(d + "/memsweep-kept-*")]
                if left.items() <= run_files(f).items()]
        expect(kept, f"{kind}: a later sweep removed {sorted(left)}", later_err)


# ---- 47: a hold whose lock file was removed while it was held ---------------
@case(47, "a run whose hold was removed midway replaces nothing: kept, said, exit 4")
def hold_removed_midway(d):
    long = ["--modes", "host", "--min-exp", "0", "--max-exp", "14", "--warmup", "0", "--reps",
            "100000"]
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    first = subprocess.Popen([MEMSWEEP, "run", *long, "--out", "X"], cwd=d, env=e,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Its holds are taken in the order of its plan: the summary's last.
    lock = os.path.join(d, "X-summary.csv.memsweep-lock")
    while first.poll() is None and not os.path.exists(lock):
        time.sleep(0.02)
    time.sleep(0.2)
    for f in glob.glob(os.path.join(d, "*.memsweep-lock")):
        os.unlink(f)
    try:
        a_run(d, "X")  # takes a new hold, and writes X
        second = snapshot(d)
    finally:
        first.send_signal(signal.SIGINT)
        err = first.communicate(timeout=120)[1].decode(errors="replace")
    expect(first.returncode == 4, f"the first run: exit {first.returncode}, not 4", err)
    after = snapshot(d)
    expect(all(after.get(n) == b for n, b in second.items() if n.startswith("X-")),
           "the first run replaced the second's files", err)
    expect("removed or replaced meanwhile" in err, "the reason not said", err)
    kept = glob.glob(os.path.join(d, "memsweep-kept-*", "X-samples.csv"))
    expect(kept and kept[0].split(d + "/")[-1] in err, "the first run not kept, or not named", err)


@case(48, "calibrate --out at a peer matrix's, portable table's or multi-GPU file's name is refused")
def profile_over_other_kinds(top):
    # A sidecar's set is replaced whole by names alone; the kind is the
    # content's: a profile never replaces another command's measurements.
    for stem, name in (("h200x2-peer", "h200x2-peer.csv.gz"),
                       ("h200x2-portable", "h200x2-portable.csv.gz"),
                       ("h200x4-multi", "h200x4-multi.csv.gz"),
                       ("h200x2-peer", "plain-peer.csv")):
        d = tempfile.mkdtemp(dir=top)
        shutil.copy(os.path.join(REFERENCE, stem + ".csv.gz"), os.path.join(d, name))
        if name.endswith(".gz"):
            shutil.copy(os.path.join(REFERENCE, stem + "-meta.json"),
                        os.path.join(d, stem + "-meta.json"))
        else:
            with gzip.open(os.path.join(REFERENCE, stem + ".csv.gz")) as f, \
                    open(os.path.join(d, name), "wb") as out:
                out.write(f.read())
        before = snapshot(d)
        rc, _, err = memsweep("calibrate", "--runs", "3", "--modes", "host", "--min-exp", "8",
                              "--max-exp", "9", "--out", name, cwd=d)
        expect(rc == 2 and "holds measurements" in err,
               f"calibrate --out {name}: exit {rc}, not 2 with the reason", err)
        expect(snapshot(d) == before, f"calibrate --out {name}: a file changed", err)


@case(49, "a file at a hold's name that may not be written is refused or held, never passed over")
def hold_name_immutable(d):
    # An immutable file (or another user's) cannot be opened for writing;
    # passing over it wrote unlocked, and two runs of one name both wrote.
    lock = os.path.join(d, "X-samples.csv.memsweep-lock")
    with open(lock, "w") as f:
        f.write("mine\n")
    if subprocess.run(["chattr", "+i", lock], capture_output=True).returncode != 0:
        raise Skip("chattr +i is not available here")
    try:
        rc, _, err = memsweep("run", "--modes", "host", "--min-exp", "8", "--max-exp", "9",
                              "--out", "X", cwd=d)
        expect(rc == 2 and "is not memsweep's" in err, f"exit {rc}, not 2 with the reason", err)
        expect(not os.path.exists(os.path.join(d, "X-samples.csv")), "the run was written", err)
    finally:
        subprocess.run(["chattr", "-i", lock], capture_output=True)


@case(50, "calibrate whose TMPDIR is removed midway: exit 4, and 'kept in' only where files are")
def calibrate_tmpdir_removed(d):
    tmp = os.path.join(d, "tmp")
    os.mkdir(tmp)
    e = dict(os.environ, TMPDIR=tmp, LC_ALL="C", LANGUAGE="")
    p = subprocess.Popen([MEMSWEEP, "calibrate", "--runs", "6", "--modes", "host", "--min-exp",
                          "10", "--max-exp", "19", "--cell-budget", "40", "--verbose", "--out",
                          "P.csv"], cwd=d, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    said = b""
    while p.poll() is None and b"run 2 of" not in said:
        said += os.read(p.stderr.fileno(), 65536)
    # Removed while calibrate is stopped, most often before run 2 has
    # started: the start meets the folder gone (unstopped, a busy
    # machine's timing decided which way, and that way once ended in
    # exit 1). Either way ends in exit 4.
    stopped = p.poll() is None
    if stopped:
        os.kill(p.pid, signal.SIGSTOP)
    for _ in range(200):
        shutil.rmtree(tmp, ignore_errors=True)
        if not os.path.exists(tmp):
            break
    if stopped:
        os.kill(p.pid, signal.SIGCONT)
    err = (said + p.communicate(timeout=300)[1]).decode(errors="replace")
    expect(p.returncode == 4, f"exit {p.returncode}, not 4", err)
    for where in re.findall(r"kept in (\S+?)(?:[:,;]|\s|$)", err):
        expect(os.path.exists(where), f"'kept in {where}': it is not there", err)


@case(51, "a soft file-size limit no file fits: the run is kept, the limit lifted for it alone")
def soft_file_size_limit(d):
    # ulimit -S -f guards against a runaway file; keeping what was measured
    # beats honouring it. A hard limit cannot be lifted: the samples are
    # kept gzipped (in parts where even that is over it), and said.
    e = dict(os.environ, TMPDIR=d, LC_ALL="C", LANGUAGE="")
    for limit, kept in (("-S -f 1", True), ("-f 1", False)):
        p = subprocess.run(["sh", "-c", f"ulimit {limit}; exec \"$0\" run \"$@\" --out r 2>&1",
                            MEMSWEEP, *TINY], cwd=d, env=e, capture_output=True, timeout=120)
        err = p.stdout.decode(errors="replace")
        expect(p.returncode == 4, f"ulimit {limit}: exit {p.returncode}, not 4", err)
        found = glob.glob(os.path.join(d, "memsweep-kept-*", "r-samples.csv*"))
        if kept:
            expect(found and "raised to its hard limit" in err,
                   f"ulimit {limit}: the run not kept, or the lift not said: {found}", err)
            expect(os.path.getsize(found[0]) > 1024, "the kept samples file is cut", err)
        else:
            found = glob.glob(os.path.join(d, "memsweep-kept-*", "r-samples.csv.gz*"))
            expect(found and "kept in" in err and "lost" not in err,
                   f"ulimit {limit}: the samples not kept, or not said: {found}", err)
        for f in glob.glob(os.path.join(d, "memsweep-kept-*")):
            shutil.rmtree(f)
    # A run of calibrate's that a hard limit of 0 silenced: its loss said.
    p = subprocess.run(["sh", "-c", "ulimit -f 0; exec \"$0\" calibrate --runs 3 \"$@\" "
                        "--out P.csv 2>&1", MEMSWEEP, *TINY], cwd=d, env=e, capture_output=True,
                       timeout=120)
    err = p.stdout.decode(errors="replace")
    expect(p.returncode == 4 and "could not be kept anywhere: lost" in err,
           f"calibrate under ulimit -f 0: exit {p.returncode}, the loss not said", err)


@case(52, "a check of a host's GPUs (siblings JSON) is measurements: no export or --out replaces it")
def siblings_check_kept(d):
    ref = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data",
                       "reference")
    check = os.path.join(d, "h200x4-siblings.json")
    shutil.copy(os.path.join(ref, "h200x4-siblings.json"), check)
    before = open(check, "rb").read()
    for args in (["run", *TINY, "--out", "r", "--export-json", check],
                 ["show", os.path.join(ref, "h100-default-samples.csv.gz"), "--out", check]):
        rc, _, err = memsweep(*args, cwd=d)
        expect(rc == 2, f"{args[0]} onto a siblings check: exit {rc}, not 2", err)
        expect(open(check, "rb").read() == before, f"{args[0]}: the siblings check was replaced",
               err)


@case(53, "a NAME-meta.json over 4 MiB, no sidecar of memsweep's, is never replaced by run --out")
def oversized_sidecar_kept(d):
    big = os.path.join(d, "X-meta.json")
    with open(big, "w") as f:
        f.write("{" + " " * (5 << 20) + "}")
    before = os.path.getsize(big)
    rc, _, err = memsweep("run", *TINY, "--out", "X", cwd=d)
    expect(rc == 2 and os.path.getsize(big) == before,
           f"exit {rc}; X-meta.json {os.path.getsize(big)} bytes, was {before}", err)


@contextlib.contextmanager
def tmpfs(d, name, options):
    """A tmpfs mounted at d/name for the block (skipped where no mount
    is allowed): its path."""
    path = os.path.join(d, name)
    os.mkdir(path)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path],
                      stderr=subprocess.DEVNULL).returncode != 0:
        raise Skip("no tmpfs (not root)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", path])


@case(54, "calibrate stopped while its run is stopped and TMPDIR full: where the run kept itself is said")
def calibrate_partial_kept_elsewhere(d):
    with tmpfs(d, "tmp", "size=4m") as tmp:
        e = dict(os.environ, TMPDIR=tmp, HOME=d, LC_ALL="C", LANGUAGE="")
        p = subprocess.Popen([MEMSWEEP, "calibrate", "--runs", "40", "--modes", "host",
                              "--min-exp", "10", "--max-exp", "22", "--reps", "30", "--out",
                              "p.csv"], cwd=d, env=e, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        said = b""
        while p.poll() is None and b"run 2 of" not in said:
            said += os.read(p.stderr.fileno(), 65536)
        time.sleep(0.3)  # into run 2's cells
        kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True,
                              text=True).stdout.split()
        for k in kids:
            os.kill(int(k), signal.SIGSTOP)
        with open(os.path.join(tmp, "fill"), "wb") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
            except OSError:
                pass
        p.send_signal(signal.SIGTERM)
        err = (said + p.communicate(timeout=60)[1]).decode(errors="replace")
    kept = [k for k in glob.glob(os.path.join(d, "memsweep-kept-*"))
            if glob.glob(os.path.join(k, "run2-samples.csv*"))]
    expect(p.returncode == 1, f"exit {p.returncode}, not 1", err)
    expect(not kept or all(k in err for k in kept), f"run 2 kept in {kept}, not said", err)


@case(55, "a process folder made immutable midway, its runs written: the folder left is named")
def immutable_folder_named(d):
    if subprocess.run(["chattr", "+i", d], capture_output=True).returncode != 0:
        raise Skip("chattr +i is not available here")
    subprocess.run(["chattr", "-i", d], capture_output=True)
    tmp = os.path.join(d, "t")
    os.mkdir(tmp)
    side = "--modes host --min-exp 10 --max-exp 20 --reps 20"
    e = dict(os.environ, TMPDIR=tmp, LC_ALL="C", LANGUAGE="")
    p = subprocess.Popen([MEMSWEEP, "compare", "--live", "--a", side, "--b", side, "--budget",
                          "20", "--out", "L"], cwd=d, env=e, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    folders = []
    for _ in range(200):
        folders = glob.glob(os.path.join(tmp, "memsweep-live-*"))
        if folders or p.poll() is not None:
            break
        time.sleep(0.05)
    try:
        subprocess.run(["chattr", "+i", *folders, tmp], check=True)
        err = p.communicate(timeout=120)[1].decode(errors="replace")
    finally:
        subprocess.run(["chattr", "-R", "-i", tmp], capture_output=True)
    left = [f for f in glob.glob(os.path.join(tmp, "memsweep-*")) if f not in err]
    expect(folders and not left, f"exit {p.returncode}; left in TMPDIR, not named: {left}", err)


@case(56, "a dead command's folder holding measurements deeper down, or of any kind, is kept")
def dead_folder_deep_kept(d):
    ref = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data",
                       "reference")
    tmp = os.path.join(d, "t")
    deep = os.path.join(tmp, "memsweep-grade-999999-AbCdEf")
    other = os.path.join(tmp, "memsweep-grade-999998-AbCdEg")
    os.makedirs(os.path.join(deep, "a", "b"))
    os.makedirs(other)
    for f in (deep, other):
        open(os.path.join(f, ".memsweep-process-folder"), "w").close()
    with gzip.open(os.path.join(ref, "h100-default-samples.csv.gz"), "rb") as src, \
            open(os.path.join(deep, "a", "b", "x-samples.csv"), "wb") as dst:
        shutil.copyfileobj(src, dst)
    shutil.copy(os.path.join(ref, "h200x4-siblings.json"), os.path.join(other, "s.json"))
    e = {"TMPDIR": tmp}
    rc, _, err = memsweep("run", *TINY, "--grade", "--processes", "2", "--out", "g", cwd=d, env=e)
    kept = glob.glob(os.path.join(tmp, "memsweep-kept-*", "a", "b", "x-samples.csv")) + \
        glob.glob(os.path.join(tmp, "memsweep-kept-*", "s.json"))
    expect(rc == 0 and len(kept) == 2, f"exit {rc}; kept {kept}", err)



@case(57, "calibrate whose run cannot start for a TMPDIR out of inodes: exit 4, as a file not written")
def calibrate_no_inodes(d):
    # Room for the command's folder, none for its run's log: nothing was
    # measured, and the cause is an output that could not be made.
    with tmpfs(d, "tmp", "size=4m,nr_inodes=3") as tmp:
        rc, _, err = memsweep("calibrate", "--runs", "3", *TINY, "--out", "p.csv", cwd=d,
                              env={"TMPDIR": tmp})
    expect(rc == 4, f"exit {rc}, not 4", err)
    expect("No space left on device" in err, "the reason not said", err)


@case(58, "fleet-node whose --dir cannot be made: 4 where there is no room, 2 under no folder")
def fleet_dir_not_made(d):
    with tmpfs(d, "out", "size=4m,nr_inodes=1"):
        rc, _, err = memsweep("fleet-node", "--dir", "out/fl", "--node", "n1", "--", *TINY,
                              cwd=d)
    expect(rc == 4 and "No space left on device" in err, f"no inodes: exit {rc}, not 4", err)
    rc, _, err = memsweep("fleet-node", "--dir", "missing/fl", "--node", "n1", "--", *TINY, cwd=d)
    expect(rc == 2, f"a --dir under no folder: exit {rc}, not 2", err)


@case(59, "a run whose rows lie past its notes, in any layout, is known as a run and never replaced")
def run_in_any_layout(d):
    # The class: a kind told from a byte window or from LF alone. Notes
    # past 64 KiB, lines ended by CR alone, thousands of blank lines:
    # show reads each as a run, so no export or profile may replace it.
    with gzip.open(os.path.join(REFERENCE, "h100-default-samples.csv.gz")) as f:
        run = f.read()
    layouts = {
        "long-note-samples.csv": b"# note: " + b"0" * 70000 + b"\n" + run,
        "mac-samples.csv": (b"# note: bench 3\n" + run).replace(b"\n", b"\r"),
        "blank-samples.csv": b"\n" * 20000 + run,
    }
    for name, data in layouts.items():
        # A profile's name (calibrate --out) is not a run's: a copy there.
        profile = name.replace("-samples", "")
        for at in (name, profile):
            with open(os.path.join(d, at), "wb") as out:
                out.write(data)
        rc, _, err = memsweep("show", name, cwd=d)
        expect(rc == 0, f"show {name}: exit {rc}, not read as a run", err)
        before = snapshot(d)
        for cmd in (("modes", "--export-csv", name), ("show", name, "--export-csv", profile),
                    ("calibrate", "--runs", "3", "--modes", "host", "--min-exp", "8",
                     "--max-exp", "9", "--out", profile)):
            rc, _, err = memsweep(*cmd, cwd=d)
            expect(rc == 2 and "holds measurements" in err,
                   f"{' '.join(cmd)}: exit {rc}, not 2 with the reason", err)
            expect(snapshot(d) == before, f"{' '.join(cmd)}: a file changed", err)


@case(60, "an output that is a device (run --out /dev/full): kept in TMPDIR, each file under a name")
def kept_away_from_devices(d):
    # The class: a kept folder made beside an output that is no file of
    # the user's (/dev/memsweep-kept-X), and a pair kept under the one
    # name of the device, so that one of the two was lost.
    for prefix in ("/dev/full", os.path.join(d, "full-link")):
        if prefix != "/dev/full":
            os.symlink("/dev/full", prefix)
        before = set(glob.glob("/dev/memsweep-kept-*"))
        rc, _, err = memsweep("run", *TINY, "--out", prefix, cwd=d)
        made = set(glob.glob("/dev/memsweep-kept-*")) - before
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)
        expect(not made, f"run --out {prefix}: a folder kept in /dev: {sorted(made)}", err)
        m = re.search(r"kept in (\S+-samples\.csv) and (\S+-summary\.csv)", err)
        expect(rc == 4 and m and all(os.path.isfile(f) and f.startswith(d) for f in m.groups()),
               f"run --out {prefix}: exit {rc}, the pair not kept in TMPDIR under two names", err)
        shutil.rmtree(os.path.dirname(m.group(1)))


def main():
    global MEMSWEEP
    args = sys.argv[1:]
    MEMSWEEP = os.path.abspath(args.pop(0) if args else os.environ.get("MEMSWEEP", ""))
    if not os.access(MEMSWEEP, os.X_OK):
        print("usage: test-cli-lost.py MEMSWEEP [DEFECT...] (or MEMSWEEP=...)", file=sys.stderr)
        return 2
    only = {int(a) for a in args}
    failed = passed = skipped = 0
    for defect, title, fn in CASES:
        if only and defect not in only:
            continue
        d = tempfile.mkdtemp(prefix="memsweep-lost-")
        try:
            fn(d)
            print(f"ok     {defect:2d} {title}")
            passed += 1
        except Skip as s:
            print(f"skip   {defect:2d} {title}: {s}")
            skipped += 1
        except (AssertionError, subprocess.TimeoutExpired) as e:
            print(f"FAILED {defect:2d} {title}: {e}")
            failed += 1
        finally:
            shutil.rmtree(d, ignore_errors=True)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else (SKIP if not passed else 0)


if __name__ == "__main__":
    sys.exit(main())
