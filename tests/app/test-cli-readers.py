#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-readers.py MEMSWEEP: files that hold less, or more, than their
data says are refused or said, never shown as a smaller run (issue 71's
readers):
- a samples or summary file cut inside its header row, or holding its
  header row only, is refused (exit 2, saying which) by show, compare,
  plot and report, plain, gzipped and through standard input;
- data after the end of a gzip stream (garbage, zeros) is refused with
  its byte offset; concatenated gzip members are still read;
- a run-to-run profile cut before its rows (`--profile -`) is refused
  before any work;
- fleet-report names on standard error a node whose sidecar is another
  node's, and each file it could not read, with the reason, and exits 1
  when it left a file out."""
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

MEMSWEEP = os.path.abspath(sys.argv[1])
TINY = ["--modes", "host", "--min-exp", "10", "--max-exp", "11", "--reps", "3"]
fails = 0


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else "\n  | " +
                                                   detail.strip().replace("\n", "\n  | ")))
    fails += not ok


def run(args, cwd, stdin=None):
    env = dict(os.environ, LC_ALL="C", LANGUAGE="")
    p = subprocess.run([MEMSWEEP, *args], cwd=cwd, input=stdin, capture_output=True, env=env,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def refused(what, args, cwd, said, stdin=None):
    rc, _, err = run(args, cwd, stdin)
    check(f"{what}: exit 2 saying '{said}'", rc == 2 and said in err, f"exit {rc}: {err}")


def cut_files(d):
    """{name: (bytes, what it should say)}: each kind cut in its header
    row and holding its header only."""
    with open(os.path.join(d, "r-samples.csv"), "rb") as f:
        samples = f.read()
    with open(os.path.join(d, "r-summary.csv"), "rb") as f:
        summary = f.read()
    cut = "its header row is cut"
    only = "no rows: the file holds its header only"
    return {"cs-samples.csv": (samples[:100], cut),
            "hs-samples.csv": (samples[:samples.index(b"\n") + 1], only),
            "cm-summary.csv": (summary[:100], cut),
            "hm-summary.csv": (summary[:summary.index(b"\n") + 1], only)}


def check_cut(d):
    for name, (data, said) in cut_files(d).items():
        write(os.path.join(d, name), data)
        write(os.path.join(d, name + ".gz"), gzip.compress(data))
        for given, stdin, form in ((name, None, "plain"), (name + ".gz", None, "gzipped"),
                                   ("-", data, name), ("-", gzip.compress(data), name + ".gz")):
            refused(f"show {given} ({form})", ["show", given], d, said, stdin)
        refused(f"compare {name} r-samples.csv", ["compare", name, "r-samples.csv"], d, said)
        refused(f"plot {name}", ["plot", name, "--view", "bandwidth", "--out", "p.png"], d, said)
        refused(f"report {name}.gz", ["report", name + ".gz", "--out", "p.html"], d, said)
    for good in ("r-samples.csv", "r-summary.csv"):
        rc, _, err = run(["show", good], d)
        check(f"show {good} (whole) exit 0", rc == 0, err)


def check_gzip(d):
    with open(os.path.join(d, "r-samples.csv"), "rb") as f:
        plain = f.read()
    packed = gzip.compress(plain)
    at = f"data after the end of the gzip stream at byte {len(packed)}"
    for tail, what in ((b"garbage\n", "garbage"), (b"\0" * 512, "zeros"), (b"\x1f", "one byte")):
        write(os.path.join(d, "g-samples.csv.gz"), packed + tail)
        refused(f"show (trailing {what} after the gzip stream)", ["show", "g-samples.csv.gz"],
                d, at)
        refused(f"show - (trailing {what}, standard input)", ["show", "-"], d, at, packed + tail)
    half = plain.index(b"\n", len(plain) // 2) + 1
    for sub, data in (("one", packed), ("two", gzip.compress(plain[:half]) +
                                        gzip.compress(plain[half:]))):
        os.mkdir(os.path.join(d, sub))
        write(os.path.join(d, sub, "m-samples.csv.gz"), data)
    rc, out, err = run(["show", "m-samples.csv.gz"], os.path.join(d, "two"))
    rc1, out1, _ = run(["show", "m-samples.csv.gz"], os.path.join(d, "one"))
    check("two gzip members read as one file", rc == 0 and out == out1, f"exit {rc}: {err}")


def check_profile(d):
    rc, profile, err = run(["calibrate", "--runs", "3", *TINY, "--out", "-", "--quiet"], d)
    check("calibrate --out - writes a profile", rc == 0 and b"sd_ln_median" in profile, err)
    # Its table alone, as --out P.csv writes it (issue 83): a cut after
    # its header or inside a row is refused.
    header = len(b"mode,exponent,sd_ln_median\n")
    check("calibrate --out - writes its table alone", profile.startswith(b"mode,exponent,"),
          profile[:200])
    for cut, what in ((header, "after its header"), (header + 6, "inside its first row")):
        rc, _, err = run(["run", *TINY, "--out", "x", "--profile", "-"], d, profile[:cut])
        said = "no rows" in err or "its last line is cut" in err
        check(f"run --profile - (a profile cut {what}): exit 2, nothing measured",
              rc == 2 and said and not os.path.exists(os.path.join(d, "x-samples.csv")),
              f"exit {rc}: {err}")
    write(os.path.join(d, "pc.csv"), profile[:header])
    rc, _, err = run(["run", *TINY, "--out", "x", "--profile", "pc.csv"], d)
    check("run --profile pc.csv (a file cut after its header, no sidecar): exit 2",
          rc == 2 and not os.path.exists(os.path.join(d, "x-samples.csv")),
          f"exit {rc}: {err}")
    rc, _, err = run(["run", *TINY, "--out", "x", "--profile", "-"], d, profile[:-3])
    check("run --profile - (a profile cut inside its last row): exit 2",
          rc == 2 and "its last line is cut" in err, f"exit {rc}: {err}")
    rc, _, err = run(["run", *TINY, "--out", "x", "--profile", "-", "--quiet"], d, profile)
    check("run --profile - (the whole profile) exit 0", rc == 0, err)


def check_fleet(d):
    fl = os.path.join(d, "fl")
    for node in ("n1", "n2"):
        rc, _, err = run(["fleet-node", "--dir", fl, "--node", node, "--", *TINY, "--quiet"], d)
        check(f"fleet-node {node}", rc == 0, err)
    rc, _, err = run(["fleet-report", fl], d)
    check("fleet-report of two whole nodes: exit 0, nothing said", rc == 0 and not err.strip(),
          f"exit {rc}: {err}")
    shutil.copy(os.path.join(fl, "n1-meta.json"), os.path.join(fl, "n2-meta.json"))
    rc, _, err = run(["fleet-report", fl], d)
    check("fleet-report warns of n2's sidecar (n1's copied over it)",
          rc == 0 and "warning" in err and "n2-meta.json" in err, f"exit {rc}: {err}")
    with open(os.path.join(fl, "n1-samples.csv"), "rb") as f:
        samples = f.read()
    os.mkfifo(os.path.join(fl, "f-samples.csv"))
    os.mkdir(os.path.join(fl, "dir-samples.csv"))
    # Cut inside a row, just after a field: halving at a byte count fell on
    # a line's end now and then, and left a whole, shorter file.
    write(os.path.join(fl, "cut-samples.csv"),
          samples[:samples.index(b",", len(samples) // 2) + 1])
    write(os.path.join(fl, "cutz-samples.csv.gz"), gzip.compress(samples)[:300])
    rc, out, err = run(["fleet-report", fl], d)
    check("fleet-report with 4 unreadable files: exit 1, 4 counted",
          rc == 1 and b"4 unreadable" in out, f"exit {rc}: {out.decode()[:300]} {err}")
    for name in ("f-samples.csv", "dir-samples.csv", "cut-samples.csv", "cutz-samples.csv.gz"):
        line = next((l for l in err.splitlines() if name in l), "")
        check(f"fleet-report names {name} on stderr with its reason",
              "left out of the report" in line and len(line) > len(name) + 40, err)


def main():
    with tempfile.TemporaryDirectory() as d:
        rc, _, err = run(["run", *TINY, "--out", "r", "--quiet"], d)
        check("a tiny host run", rc == 0, err)
        check_cut(d)
        check_gzip(d)
        check_profile(d)
        check_fleet(d)
    print(f"{fails} failed")
    sys.exit(1 if fails else 0)


main()
