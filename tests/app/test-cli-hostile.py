#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/app/test-cli-hostile.py: command lines a hostile user would type,
generated from the command line's own option table (`memsweep __options`),
on the CPU baseline alone.

    test-cli-hostile.py MEMSWEEP [--seed N] [--cases N] [--case I] [--jobs N] [--table F]

Each case is one command (run, show, compare, compare --live, calibrate,
plot, report, modes, info, lesson LIST) with random options from the
table: outputs, exports, plots and inputs named after one another and
after the files of other runs in its folder (their pairs, sidecars,
profiles, a gzipped run whose sidecar names its plain name, one shipped
as data/reference ships them, gzipped and renamed with its sidecar
naming older plain names, symbolic links, a dangling one, hard links,
descriptor 3 appended or opened for writing in place and named
/dev/fd/3 or /proc/self/fd/3, the same files through a symbolic link to
the folder, a profile whose sidecar is over 1 MiB, a file of the user's
named like a temporary), bad values, and, at random moments, a signal
(SIGINT, SIGTERM or SIGHUP), two, or a hangup that nohup ignores. Some
cases run beside a second writer of their prefix (run --out X, calibrate
--out X.csv) started at the same moment. Each case runs in a fresh copy of the folder, with a
TMPDIR, HOME and XDG_DATA_HOME of its own, in a session of its own, and
must leave:

- every file that existed unchanged, unless it is one of the command's
  declared outputs (its --out and what that names, its exports, its
  --plot), and no new file but those;
- TMPDIR empty;
- no process of its session alive;
- an exit status of docs/cli.md (0-4), or death by the signal sent where
  the command does not stop on signals or got two; a hangup ignored at
  start never ends it; a refusal of the output plan exits 2 (a final
  write refused after the work exits 4 and says where what it measured
  is kept).

The seed is printed first: `--seed N` replays the same command lines
(`--case I` one of them). The cases run several at a time; each one's
command line depends only on the seed and its number.
"""
import argparse
import gzip
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

TINY = ["--modes", "host", "--min-exp", "10", "--max-exp", "10", "--reps", "3"]
TINY_SIDE = "--modes host --min-exp 10 --max-exp 10 --reps 3 --rounds 1"
# docs/cli.md's exit statuses: 0 success, 1 a runtime failure (or a
# difference, for compare), 2 bad usage or input, 3 no usable GPU, 4 a
# file not written. A command with statuses of its own gets a line here.
DEFAULT_EXITS = {0, 1, 2, 3, 4}
# compare: 5 when no cell could be decided (docs/compare.md).
EXITS = {"compare": DEFAULT_EXITS | {5}}
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# The commands, how often each is drawn, and its operands.
COMMANDS = (("run", 28), ("show", 20), ("compare", 12), ("live", 2), ("calibrate", 3),
            ("plot", 6), ("report", 3), ("modes", 10), ("info", 4), ("lesson", 2))
# Options left alone: they would make a case slow (a long budget), or wait
# for what no test gives (a terminal).
LEFT_ALONE = {"budget", "live", "help"}
INPUTS = ("R1-samples.csv", "R1-summary.csv", "R2-samples.csv", "R2-summary.csv", "link-R1",
          "hard-R2.csv", "R1-meta.json", "P.csv", "missing.csv", "dangling", "-",
          "R3-samples.csv.gz", "R3-summary.csv", "R4-samples.csv.gz", "link-R4")
OUTPUTS = ("X", "X-meta.json", "X-summary.csv", "X-samples.csv", "R1", "R1-meta.json",
           "R1-summary.csv", "R2-samples.csv", "R2-meta.json", "P.csv", "P-meta.json", "P",
           "link-R1", "dangling", "hard-R2.csv", "out.json", "out.csv", "out.md", "out.svg",
           "out.png", "out.html", "out.pdf", "L", "L-a-summary.csv", "L-b-meta.json", "-",
           "/dev/stdout", "/dev/fd/1", "/dev/fd/3", "/dev/null", "", "no-folder/x.json", ".",
           "R3", "R3-samples.csv", "R3-samples.csv.gz", "R3-meta.json", "R4", "R4-samples.csv.gz",
           "R4-summary.csv.gz", "R4-meta.json", "link-R4", "hard-R4", "/proc/self/fd/3",
           # The folder again through a symbolic link to it (as a bind mount
           # would give it): the same files by another path.
           "alias/X", "alias/X-meta.json", "alias/R1-meta.json", "alias/P.csv",
           "alias/R1-samples.csv.memsweep-backup")
# Where standard output, or descriptor 3, is appended (`>> F`, `3>> F`) or
# opened for reading and writing (`3<> F`): another run's files, a link or
# hard link to one, or a new file (the one declared).
APPENDED = ("R1-meta.json", "R2-summary.csv", "P-meta.json", "link-R1", "R3-meta.json",
            "R4-samples.csv.gz", "R4-meta.json", "hard-R4", "appended.txt")
# The runs of the folder, each a set of files that must change together or
# not at all (R3's samples were gzipped since its sidecar was written; R4
# is as data/reference ships runs: both files gzipped and renamed, its
# sidecar naming their older plain names), and hard links to them.
RUN_SETS = (("R1-samples.csv", "R1-summary.csv", "R1-meta.json"),
            ("R2-samples.csv", "R2-summary.csv", "R2-meta.json", "hard-R2.csv"),
            ("R3-samples.csv.gz", "R3-summary.csv", "R3-meta.json"), ("P.csv", "P-meta.json"),
            ("R4-samples.csv.gz", "R4-summary.csv.gz", "R4-meta.json", "hard-R4"))
# A file of the user's named like a temporary of R1-samples.csv: never
# removed (only a temporary with memsweep's mark is).
USER_TEMPORARY = "R1-samples.csv.memsweep-backup"
# Messages of a refusal by the output plan: exit 2 before any work, or 4
# with what was measured kept when it comes at the final write.
PLAN_REFUSALS = ("choose another name", "is one of the inputs", "holds one document",
                 "is not among the files this command said")
KEPT = "what was measured is kept in"
# Files of the user's named like temporaries of the commonest outputs.
USER_TEMPORARIES = (USER_TEMPORARY, "X-samples.csv.memsweep-backup")


def partner_of(rng, case):
    """A second writer of the case's prefix (the stem of its --out, else X),
    started with it: its command line and its files."""
    outs = [v for o, v in case.outputs if o == "out" and v and "/" not in v and v != "-"]
    stem = outs[0] if outs else "X"
    stem = stem[:-4] if stem.endswith(".csv") else stem
    if rng.random() < 0.5:
        return (["run", *TINY, "--out", stem, "--quiet"],
                (stem + "-samples.csv", stem + "-summary.csv", stem + "-meta.json"))
    # A profile named like a run's file has that run's sidecar name, as
    # every reader pairs them (calibrate --out X-summary.csv: X-meta.json).
    side = stem[:-len("-summary")] if stem.endswith(("-summary", "-samples")) else stem
    return (["calibrate", "--runs", "3", *TINY, "--out", stem + ".csv", "--quiet"],
            (stem + ".csv", side + "-meta.json"))
# The names of descriptor 3 (`/dev/fd/3`, `/proc/self/fd/3`).
FD3 = ("/dev/fd/3", "/proc/self/fd/3")
NUMBERS = ("0", "1", "2", "3", "-1", "2x", " 2", "+2", "0x10", "abc", "", "99999999999")
TEXTS = ("host", "pinned", "x", "", "R=4", TINY_SIDE + " --out Z", TINY_SIDE + " --export-json F",
         "--modes host --min-exp 12 --max-exp 12 --reps 3 --rounds 1", "64x64", "bogus")
VIEWS = ("bandwidth", "time", "h2d", "breakdown", "timeline", "lesson")


def options_table(memsweep, path=None):
    """memsweep __options, or that of another binary saved in path (to try
    an older memsweep, whose table may lack the kinds, with today's)."""
    if path:
        with open(path, "rb") as f:
            out = f.read()
    else:
        out = subprocess.run([memsweep, "__options"], capture_output=True, check=True).stdout
    return {c["name"]: c for c in json.loads(out)["commands"]}


def sidecar_of(path):
    for suffix in ("-samples.csv", "-summary.csv", ".csv"):
        if path.endswith(suffix):
            return path[: -len(suffix)] + "-meta.json"
    return path + "-meta.json"


class Case:
    """One generated command line and what it declares it writes."""

    def __init__(self, rng, table, name):
        self.rng, self.table, self.name = rng, table, name
        self.command = "compare" if name == "live" else name
        self.args = [self.command]
        self.outputs = []   # (option, value) of every output named
        self.named = []     # names given so far, for the next ones to be named after
        self.stdin = None
        # Standard output appended to a file of the folder, or none.
        self.appended = rng.choice(APPENDED) if rng.random() < 0.15 else None
        self.fd3 = rng.choice(APPENDED)  # where /dev/fd/3 leads when it is named
        self.fd3_rw = rng.random() < 0.5  # opened `3<>` (written where it stands), not `3>>`

    def pick_output(self):
        r = self.rng
        if self.named and r.random() < 0.4:
            base = r.choice(self.named)
            return base + r.choice(("-meta.json", "-summary.csv", "-samples.csv", "-a-samples.csv",
                                    "")) if not base.endswith(".csv") else sidecar_of(base)
        return r.choice(OUTPUTS)

    def pick_input(self):
        name = self.rng.choice(INPUTS)
        if name == "-":
            self.stdin = "R2-samples.csv"
        return name

    def value(self, option):
        kind, r = option.get("kind", "text"), self.rng
        if kind in ("output", "prefix"):
            v = self.pick_output()
            self.outputs.append((option["name"], v))
            self.named.append(v)
            return v
        if kind == "input":
            return self.pick_input()
        if kind == "choice":
            words = (option["value"] or "").split("|") + ["bogus"]
            return r.choice(words)
        if kind == "number":
            return r.choice(NUMBERS)
        return r.choice(option.get("choices") or TEXTS) if r.random() < 0.7 else r.choice(TEXTS)

    def add_option(self, option):
        flag = "--" + option["name"]
        if option.get("kind", "flag") == "flag" or option["value"] is None:
            self.args.append(flag)
            return
        v = self.value(option)
        self.args += [flag + "=" + v] if self.rng.random() < 0.2 else [flag, v]

    def operands(self):
        r = self.rng
        if self.name == "run":
            self.args += TINY + (["--processes", "2"] if r.random() < 0.1 else [])
        elif self.name == "show":
            self.args.append(self.pick_input())
        elif self.name == "compare":
            self.args += [self.pick_input(), self.pick_input()]
        elif self.name == "live":
            self.args += ["--live", "--a", TINY_SIDE, "--b", TINY_SIDE, "--budget", "1"]
        elif self.name == "calibrate":
            self.args += ["--runs", "3"] + TINY
        elif self.name in ("plot", "report"):
            self.args.append(self.pick_input())
            out = r.choice(("out.svg", "out.png", "out.html", "out.pdf")) if r.random() < 0.5 \
                else self.pick_output()
            self.outputs.append(("out", out))
            self.args += ["--out", out]
            if self.name == "plot":
                self.args += ["--view", r.choice(VIEWS)]
            elif out in ("-", "/dev/stdout"):
                self.args += ["--format", "html"]
        elif self.name == "lesson":
            self.args.append("LIST")

    def build(self):
        self.operands()
        options = [o for o in self.table[self.command]["options"] if o["name"] not in LEFT_ALONE]
        for _ in range(self.rng.choice((0, 1, 1, 2, 2, 3))):
            if options:
                self.add_option(self.rng.choice(options))
        return self

    def compressed(self, name):
        """name as the command writes it: with --compress, a CSV file's
        name gets .gz (docs/cli.md, "Output")."""
        if "--compress" in self.args and name.endswith(".csv"):
            return name + ".gz"
        return name

    def set_written(self, option, v):
        """The files --out v names where the command writes a set (a run's
        pair and sidecar, a profile and its sidecar), else None."""
        gz = self.compressed
        if option == "out" and self.name == "run":
            return [gz(v + "-samples.csv"), gz(v + "-summary.csv"), v + "-meta.json"]
        if option == "out" and self.name == "live":
            return [f"{v}-{s}-{k}" if k == "meta.json" else gz(f"{v}-{s}-{k}")
                    for s in "ab" for k in ("samples.csv", "summary.csv", "meta.json")]
        if option == "out" and self.name == "calibrate":
            # Any name, .csv or not, gets .gz from calibrate --compress.
            written = v + ".gz" if "--compress" in self.args and not v.endswith(".gz") and \
                v not in ("-", "/dev/stdout", "/dev/fd/1", *FD3) else v
            return [written, sidecar_of(written.removesuffix(".gz"))]
        return None

    def declared(self, folder):
        """The files this command line may change, as real paths: what it
        names as outputs, except another run's files; a set it writes may
        replace a run of the folder only whole (run --out R1)."""
        real = lambda n: os.path.realpath(os.path.join(folder, n))
        runs = [{real(n) for n in names} for names in RUN_SETS]
        others = set().union(*runs)
        names = set()
        outs = [(o, v) for o, v in self.outputs if v]
        if self.name == "run" and not any(o == "out" for o, _ in outs):
            outs.append(("out", "memsweep"))
        for option, v in outs:
            written = self.set_written(option, v)
            if written is not None:
                w = {real(n) for n in written}
                names |= {n for n in w if all(n not in r or r <= w for r in runs)}
            elif v in FD3 and self.fd3 == "appended.txt":
                names.add(real(self.fd3))
            elif v not in ("/dev/stdout", "/dev/fd/1", "-", *FD3):
                if real(v) not in others:
                    names.add(real(v))
                # --compress: a CSV export (or show's CSV --out) under v.gz,
                # a new name even where v is another run's.
                if "--compress" in self.args and real(v + ".gz") not in others:
                    names.add(real(v + ".gz"))
        # Standard output or descriptor 3 appended to a file: only a new one
        # is the command's to write (another run's file never is).
        fd3_named = any(v in FD3 for _, v in outs)
        if self.appended == "appended.txt" or (fd3_named and self.fd3 == "appended.txt"):
            names.add(real("appended.txt"))
        return names


def make_template(memsweep, top):
    """A folder holding two runs, a profile and links to them."""
    folder = os.path.join(top, "template")
    os.mkdir(folder)
    env = dict(os.environ, TMPDIR=top, LC_ALL="C", LANGUAGE="")
    for prefix in ("R1", "R2"):
        subprocess.run([memsweep, "run", *TINY, "--out", prefix, "--quiet"], cwd=folder, env=env,
                       check=True, stdout=subprocess.DEVNULL)
    subprocess.run([memsweep, "calibrate", "--runs", "3", *TINY, "--out", "P.csv", "--quiet"],
                   cwd=folder, env=env, check=True, stdout=subprocess.DEVNULL)
    # A run whose samples were gzipped since: its sidecar names the plain
    # name, as shipped sidecars do.
    subprocess.run([memsweep, "run", *TINY, "--out", "R3", "--quiet"], cwd=folder, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    gzip_file(folder, "R3-samples.csv", "R3-samples.csv.gz")
    # A run as data/reference ships them: its pair gzipped and renamed
    # after its sidecar was written, which names the older plain names.
    subprocess.run([memsweep, "run", *TINY, "--out", "old-R4", "--quiet"], cwd=folder, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    for kind in ("samples", "summary"):
        gzip_file(folder, f"old-R4-{kind}.csv", f"R4-{kind}.csv.gz")
    os.rename(os.path.join(folder, "old-R4-meta.json"), os.path.join(folder, "R4-meta.json"))
    for name in USER_TEMPORARIES:
        shutil.copy(os.path.join(folder, "R1-samples.csv"), os.path.join(folder, name))
    return folder


def pad_sidecar(folder):
    """The profile's sidecar padded past 1 MiB (the same JSON): still read,
    so P.csv is still the profile's."""
    side = os.path.join(folder, "P-meta.json")
    with open(side) as f:
        text = f.read().rstrip()
    with open(side, "w") as f:
        f.write(text[:-1] + " " * (1100 * 1024) + text[-1:] + "\n")


def gzip_file(folder, plain, gz):
    with open(os.path.join(folder, plain), "rb") as f, \
            gzip.open(os.path.join(folder, gz), "wb") as g:
        g.write(f.read())
    os.unlink(os.path.join(folder, plain))


def copy_template(template, folder):
    shutil.copytree(template, folder, symlinks=True)
    os.symlink("R1-samples.csv", os.path.join(folder, "link-R1"))
    os.symlink("nothing-here.csv", os.path.join(folder, "dangling"))
    os.link(os.path.join(folder, "R2-summary.csv"), os.path.join(folder, "hard-R2.csv"))
    os.symlink("R4-summary.csv.gz", os.path.join(folder, "link-R4"))
    os.link(os.path.join(folder, "R4-samples.csv.gz"), os.path.join(folder, "hard-R4"))
    os.symlink(".", os.path.join(folder, "alias"))


def snapshot(folder):
    files = {}
    for root, dirs, names in os.walk(folder):
        for n in names + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            p = os.path.join(root, n)
            if os.path.islink(p):
                files[p] = ("link", os.readlink(p))
            else:
                with open(p, "rb") as f:
                    files[p] = ("file", f.read())
    return files


def session_processes(sid):
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(pid))
    return found


def handlers_installed(pid):
    """Whether the process catches (or ignores) every signal sent yet:
    before that, a signal meets the loader, not memsweep (no program can
    guard it). All three: they are installed one after another, and a
    process preempted between SIGINT's and SIGHUP's would die of SIGHUP."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return True
    mask = int(fields["SigCgt"], 16) | int(fields["SigIgn"], 16)
    return all(mask & (1 << (s - 1)) for s in SIGNALS)


def send_signals(p, rng, plan):
    """plan: None, 'once', 'twice' or 'nohup'; the signals sent."""
    sent = []
    if plan is None:
        return sent
    # Every command installs them first thing in main (or ends): no
    # deadline, which a loader slower than it on a loaded machine met.
    while p.poll() is None and not handlers_installed(p.pid):
        time.sleep(0.001)
    time.sleep(rng.uniform(0, 0.08))
    for k in range(2 if plan == "twice" else 1):
        sig = signal.SIGHUP if plan == "nohup" else rng.choice(SIGNALS)
        if p.poll() is not None:
            break
        try:
            p.send_signal(sig)
            sent.append(sig)
        except ProcessLookupError:
            break
        time.sleep(rng.uniform(0, 0.04))
    return sent


def dispositions(plan, fd3):
    """In the child before exec: the signals sent at their defaults, whatever
    this test inherited (a CI runner may ignore SIGHUP), and SIGHUP ignored
    as nohup does for the 'nohup' plan; descriptor 3 where it leads."""
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_DFL)
    if plan == "nohup":
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if fd3 is not None:
        os.dup2(fd3, 3)


def rows(content):
    """Data rows of a CSV file's bytes: lines past the header, comments aside."""
    lines = [l for l in content.splitlines() if l.strip() and not l.startswith(b"#")]
    return max(0, len(lines) - 1)


def run_case(memsweep, table, template, top, seed, index):
    rng = random.Random(seed * 1000003 + index)
    name = rng.choices([c for c, _ in COMMANDS], [w for _, w in COMMANDS])[0]
    case = Case(rng, table, name).build()
    draw = rng.random()
    plan = None if draw < 0.7 else "once" if draw < 0.85 else "twice" if draw < 0.95 else "nohup"
    partner = partner_of(rng, case) if name in ("run", "calibrate") and rng.random() < 0.15 \
        else None
    root = os.path.join(top, f"case-{index}")
    folder, tmp, home = (os.path.join(root, n) for n in ("files", "tmp", "home"))
    copy_template(template, folder)
    if rng.random() < 0.1:
        pad_sidecar(folder)
    os.mkdir(tmp)
    os.mkdir(home)
    before = snapshot(folder)
    env = dict(os.environ, TMPDIR=tmp, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"),
               LC_ALL="C", LANGUAGE="")
    env.pop("MEMSWEEP_ENVELOPES", None)
    stdin = open(os.path.join(folder, case.stdin), "rb") if case.stdin else subprocess.DEVNULL
    stdout = open(os.path.join(folder, case.appended), "ab") if case.appended \
        else subprocess.DEVNULL
    fd3 = os.open(os.path.join(folder, case.fd3), os.O_CREAT | (
        os.O_RDWR if case.fd3_rw else os.O_WRONLY | os.O_APPEND)) \
        if any(v in FD3 for _, v in case.outputs) else None
    # The second writer, in a session of its own, sharing folder and TMPDIR.
    q = subprocess.Popen([memsweep, *partner[0]], cwd=folder, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True) if partner else None
    p = subprocess.Popen([memsweep, *case.args], cwd=folder, env=env, stdin=stdin,
                         stdout=stdout, stderr=subprocess.PIPE, start_new_session=True,
                         # (Python's own descriptors are not inherited: only
                         # the 3 that dispositions makes reaches memsweep.)
                         close_fds=fd3 is None,
                         preexec_fn=lambda: dispositions(plan, fd3))
    for f in (stdin, stdout):
        if f is not subprocess.DEVNULL:
            f.close()
    if fd3 is not None:
        os.close(fd3)
    sent = send_signals(p, rng, plan)
    try:
        _, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        err = b"(killed after 120 s) " + err
    err = err.decode(errors="replace")
    partner_err, extra = "", set()
    if q:
        try:
            partner_err = q.communicate(timeout=120)[1].decode(errors="replace")
        except subprocess.TimeoutExpired:
            os.killpg(q.pid, signal.SIGKILL)
            partner_err = "(killed after 120 s) " + q.communicate()[1].decode(errors="replace")
        extra = {os.path.realpath(os.path.join(folder, n)) for n in partner[1]}
    problems = check(case, p.returncode, sent, plan, folder, before, tmp, p.pid, err,
                     extra, KEPT in err + partner_err)
    if q:
        problems += [f"beside: {x}" for x in survivors_of(q.pid)]
        problems += ["beside: " + x for x in status_problems(q.returncode, partner_err, [])]
        if q.returncode not in DEFAULT_EXITS:
            problems.append(f"beside: exit status {q.returncode}")
    line = "memsweep " + " ".join(shlex.quote(a) for a in case.args)
    if case.appended:
        line += " >> " + case.appended
    if fd3 is not None:
        line += (" 3<> " if case.fd3_rw else " 3>> ") + case.fd3
    if sent:
        line += "   # signals: " + " ".join(signal.Signals(s).name for s in sent) + \
                (" (SIGHUP ignored at start)" if plan == "nohup" else "")
    if q:
        line += "   # beside: memsweep " + " ".join(partner[0]) + f" (exit {q.returncode}; " + \
                partner_err.strip().replace("\n", " | ")[:400] + ")"
    shutil.rmtree(root, ignore_errors=True)
    return index, line, p.returncode, problems, err


def survivors_of(sid):
    """Processes of the session sid still alive (a second later), killed."""
    try:
        os.killpg(sid, 0)  # the command's process group: one call while all is well
        survivors = session_processes(sid)
    except ProcessLookupError:
        survivors = []
    if survivors:
        time.sleep(1)
        survivors = session_processes(sid)
        for pid in survivors:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    return [f"processes of the command still alive: {survivors}"] if survivors else []


def status_problems(rc, err, sent):
    """A refusal of the output plan exits 2 before any work; refused at the
    final write (a second writer came first) it exits 4 and keeps what was
    measured, saying where."""
    if rc < 0 or sent or not any(r in err for r in PLAN_REFUSALS):
        return []
    if KEPT in err:
        return [] if rc == 4 else [f"what was measured is kept, yet exit {rc}, not 4"]
    if rc == 4:
        return ["a final write refused, and what was measured not kept"]
    return [] if rc == 2 else [f"a refusal of the output plan exits {rc}, not 2"]


def check(case, rc, sent, plan, folder, before, tmp, sid, err="", extra=(), kept=False):
    problems = survivors_of(sid)
    # What a command could not write, kept in TMPDIR (no room beside its
    # target) and said, is not left behind.
    left = [n for n in os.listdir(tmp) if not (kept and n.startswith("memsweep-kept-"))]
    if left:
        problems.append(f"left in TMPDIR: {left}")
    declared = case.declared(folder) | set(extra)
    after = snapshot(folder)
    for path in sorted(set(before) | set(after)):
        if before.get(path) == after.get(path):
            continue
        # What a command could not write at its names, kept and said.
        if kept and path not in before and \
                os.path.relpath(path, folder).startswith("memsweep-kept-"):
            continue
        if os.path.realpath(path) not in declared:
            what = "removed" if path not in after else "new" if path not in before else "changed"
            problems.append(f"{os.path.relpath(path, folder)} {what}, not a declared output")
        elif (path.endswith(".csv") and path in after and before.get(path, ("", b""))[0] == "file"
              and after[path][0] == "file" and rows(before[path][1]) and not rows(after[path][1])):
            # A declared output may be replaced, but not a run by an empty one.
            problems.append(f"{os.path.relpath(path, folder)}: its rows replaced by none")
    allowed = EXITS.get(case.command, DEFAULT_EXITS)
    # The command stops on signals, or an option given makes it (--live).
    stops = case.table[case.command].get("stops_on_signals", False) or any(
        o.get("stops_on_signals") and "--" + o["name"] in case.args
        for o in case.table[case.command]["options"])
    if rc < 0:
        sig = -rc
        if sig not in sent or (plan == "nohup" and sig == signal.SIGHUP):
            problems.append(f"ended by signal {signal.Signals(sig).name}")
        elif stops and len(sent) < 2:
            problems.append(f"{case.command} stops on signals, yet one ended it")
    elif rc not in allowed and not (sent and rc - 128 in sent):
        problems.append(f"exit status {rc}, not one of {sorted(allowed)}")
    return problems + status_problems(rc, err, sent)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("memsweep", nargs="?", default=os.environ.get("MEMSWEEP"))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--case", type=int, default=None)
    ap.add_argument("--table", help="the option table from this file, not MEMSWEEP __options")
    ap.add_argument("--jobs", type=int, default=max(4, 2 * (os.cpu_count() or 1)))
    a = ap.parse_args()
    if not a.memsweep or not os.access(a.memsweep, os.X_OK):
        ap.error("give the memsweep binary (or MEMSWEEP=...)")
    memsweep = os.path.abspath(a.memsweep)
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 31)
    print(f"seed {seed} (replay: test-cli-hostile.py MEMSWEEP --seed {seed})", flush=True)
    table = options_table(memsweep, a.table)
    indices = [a.case] if a.case is not None else range(a.cases)
    start = time.monotonic()
    top = tempfile.mkdtemp(prefix="memsweep-hostile-")
    failures = []
    try:
        template = make_template(memsweep, top)
        with ThreadPoolExecutor(a.jobs) as pool:
            for index, line, rc, problems, err in pool.map(
                    lambda i: run_case(memsweep, table, template, top, seed, i), indices):
                if problems or a.case is not None:
                    print(f"case {index}: {line}\n  exit {rc}\n  " + "\n  ".join(problems) +
                          "\n  stderr: " + err.strip().replace("\n", "\n          ")[:2000])
                if problems:
                    failures.append(index)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    took = time.monotonic() - start
    print(f"{len(indices)} cases in {took:.1f} s, {len(failures)} failed"
          + (f" (cases {failures[:20]}: --seed {seed} --case I replays one)" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
