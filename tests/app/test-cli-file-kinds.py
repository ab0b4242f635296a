#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-file-kinds.py MEMSWEEP DATA: every kind of file memsweep writes
(engine/files/ms-file-kinds.c), given to show, compare, plot and report
as a plain file, gzipped, and through standard input, plain and gzipped:
each command opens it (a run) or says which command reads it (any other
kind), never "missing column". Then the defects of one way in and out:
an export never replaces measurements of any kind, sidecar or none, nor
is the gzip twin of the command's own output, nor a file another run's
sidecar names; a gzipped input and standard input are read with no room
in TMPDIR; and a comparison that could decide nothing does not exit 0."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

MEMSWEEP, DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
REF = os.path.join(DATA, "reference")
fails = 0


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else "\n  | " +
                                                   detail.strip().replace("\n", "\n  | ")))
    fails += not ok


def run(args, cwd, stdin=None, env=None):
    e = dict(os.environ, LC_ALL="C", LANGUAGE="", **(env or {}))
    p = subprocess.run([MEMSWEEP, *args], cwd=cwd, input=stdin, capture_output=True, env=e,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def plain_copy(src, dst):
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rb") as f, open(dst, "wb") as g:
        g.write(f.read())


def make_kinds(d):
    """Every kind, plain, with its name: {kind: (path, is_run)}."""
    kinds = {}
    for kind, src in (("samples", "h100-default-1-samples.csv.gz"),
                      ("summary", "h100-default-1-summary.csv.gz"),
                      ("peer", "h200x2-peer.csv.gz"),
                      ("portable", "h200x2-portable.csv.gz")):
        kinds[kind] = os.path.join(d, f"k-{kind}.csv")
        plain_copy(os.path.join(REF, src), kinds[kind])
    kinds["multi"] = os.path.join(d, "k-multi.csv")
    plain_copy(os.path.join(os.path.dirname(DATA), "tests", "data", "old-format", "x-multi.csv"),
               kinds["multi"])
    kinds["host-link"] = os.path.join(d, "k-host-link.csv")
    plain_copy(os.path.join(os.path.dirname(DATA), "tests", "data", "host-link",
                            "h200x4-host-link.csv"), kinds["host-link"])
    kinds["profile"] = os.path.join(d, "k-profile.csv")
    plain_copy(os.path.join(DATA, "profiles", "h100.csv"), kinds["profile"])
    kinds["envelopes"] = os.path.join(d, "k-envelopes.csv")
    plain_copy(os.path.join(DATA, "envelopes.csv"), kinds["envelopes"])
    kinds["siblings-json"] = os.path.join(d, "k-siblings.json")
    plain_copy(os.path.join(REF, "h200x4-siblings.json"), kinds["siblings-json"])
    kinds["sidecar"] = os.path.join(d, "k-sidecar.json")
    plain_copy(os.path.join(REF, "h100-default-1-meta.json"), kinds["sidecar"])
    other = os.path.join(REF, "h100-default-2-samples.csv.gz")
    for kind, args in (("results-json", ["show", kinds["samples"], "--format", "json"]),
                       ("compare-json", ["compare", kinds["samples"], other, "--format", "json"]),
                       ("results-table", ["show", kinds["samples"], "--format", "csv"]),
                       ("verdicts", ["compare", kinds["samples"], other, "--format", "csv"])):
        rc, out, err = run(args, d)
        kinds[kind] = os.path.join(d, f"k-{kind}.json")
        with open(kinds[kind], "wb") as f:
            f.write(out)
    return kinds


RUNS = ("samples", "summary")


def each_form(path):
    """(label, argument, stdin bytes) for the plain file, its .gz, and both through '-'."""
    with open(path, "rb") as f:
        plain = f.read()
    gz = path + ".gz"
    with gzip.open(gz, "wb") as f:
        f.write(plain)
    return (("plain", path, None), ("gz", gz, None), ("stdin", "-", plain),
            ("stdin-gz", "-", gzip.compress(plain)))


def commands(arg, other, d):
    yield "show", ["show", arg]
    yield "compare", ["compare", arg, other]
    yield "plot", ["plot", arg, "--view", "time", "--out", os.path.join(d, "o.svg")]
    yield "report", ["report", arg, "--out", os.path.join(d, "o.html")]


def every_kind_every_way(d):
    kinds = make_kinds(d)
    other = os.path.join(REF, "h100-default-2-samples.csv.gz")
    for kind, path in kinds.items():
        for form, arg, stdin in each_form(path):
            for name, args in commands(arg, other, d):
                rc, _, err = run(args, d, stdin=stdin)
                if kind in RUNS:
                    # compare: 0, 1 (a difference) or 5 (nothing decided).
                    ok = rc in ((0, 1, 5) if name == "compare" else (0,))
                else:
                    ok = rc == 2 and "not a run: it is read by" in err and "missing column" not in err
                check(f"{name} {kind} ({form}): exit {rc}", ok, err[-400:])


def exports_keep_measurements(d):
    """Defect 1: no export or --out replaces measurements without a sidecar."""
    run_file = os.path.join(REF, "h100-default-1-samples.csv.gz")
    rc, prof, err = run(["calibrate", "--runs", "3", "--modes", "host", "--min-exp", "8",
                         "--max-exp", "8", "--reps", "3", "--out", "-"], d)
    # Its table alone, as in the file --out P.csv writes (issue 83).
    check("calibrate --out - writes a profile",
          rc == 0 and prof.startswith(b"mode,exponent,sd_ln_median\n"), err)
    victims = {"prof.csv": prof}
    for kind, src in (("peer", "h200x2-peer.csv.gz"), ("portable", "h200x2-portable.csv.gz")):
        with gzip.open(os.path.join(REF, src), "rb") as f:
            body = f.read()
        victims[f"{kind}.csv"] = body
        victims[f"{kind}2.csv.gz"] = gzip.compress(body)
    with open(os.path.join(os.path.dirname(DATA), "tests", "data", "host-link",
                           "h200x4-host-link.csv"), "rb") as f:
        victims["host-link.csv"] = f.read()
    # A document is known by its parsed contents, wherever its members lie:
    # a check re-laid with sorted keys and a long run_options puts "schema"
    # past any head a byte window would read.
    with open(os.path.join(REF, "h200x4-siblings.json"), encoding="utf-8") as f:
        sib = json.load(f)
    sib["run_options"] = "--modes host " * 20000
    late = json.dumps(sib, sort_keys=True, indent=2).encode()
    assert late.index(b'"schema"') > 4 << 16
    victims["siblings-late.json"] = late
    victims["siblings-late2.json.gz"] = gzip.compress(late)
    for name, body in victims.items():
        target = os.path.join(d, name)
        for args in (["show", run_file, "--export-csv", target],
                     ["show", run_file, "--export-json", target],
                     ["show", run_file, "--format", "csv", "--out", target]):
            with open(target, "wb") as f:
                f.write(body)
            rc, _, err = run(args, d)
            with open(target, "rb") as f:
                kept = f.read() == body
            check(f"{' '.join(args[2:-1])} over {name}: refused, kept", rc == 2 and kept, err)


def no_gzip_twin(d):
    """Defect 2: an export is not the gzip twin of the command's own output."""
    rc, _, err = run(["run", "--modes", "host", "--min-exp", "8", "--max-exp", "8", "--reps", "3",
                      "--quiet", "--out", "X", "--export-csv", "X-summary.csv.gz"], d)
    check("run --out X --export-csv X-summary.csv.gz is refused before work",
          rc == 2 and not os.path.exists(os.path.join(d, "X-samples.csv")) and
          not os.path.exists(os.path.join(d, "X-summary.csv.gz")), err)


def not_named_by_another_sidecar(d):
    """Defect 3: a new file another run's sidecar names is not made: here a
    sidecar naming its samples by another stem, as memsweep wrote it before
    the run was renamed (lesson-x-samples.csv for h100-lesson-x-*)."""
    with open(os.path.join(REF, "h100-default-1-meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    meta["files"]["samples"]["name"] = "default-1-samples.csv"
    with open(os.path.join(d, "h100-default-1-meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    rc, _, err = run(["show", os.path.join(REF, "h100-default-2-samples.csv.gz"), "--export-csv",
                      "default-1-samples.csv"], d)
    check("show --export-csv default-1-samples.csv beside h100-default-1-meta.json is refused",
          rc == 2 and not os.path.exists(os.path.join(d, "default-1-samples.csv")), err)


def nothing_in_tmpdir(d):
    """Defects 4 and 5: a .gz and standard input are read with no TMPDIR at
    all (a folder that does not exist: root may write in any that does),
    and leave nothing in one that exists."""
    tmp = os.path.join(d, "tmp")
    os.mkdir(tmp)
    gz = os.path.join(REF, "h100-default-1-samples.csv.gz")
    with open(gz, "rb") as f:
        packed = f.read()
    for where in (os.path.join(d, "none"), tmp):
        for label, args, stdin in (("show F.gz", ["show", gz], None),
                                   ("show - < F.gz", ["show", "-"], packed),
                                   ("show - < F", ["show", "-"], gzip.decompress(packed)),
                                   ("compare - B", ["compare", "-", gz], packed)):
            rc, _, err = run(args, d, stdin=stdin, env={"TMPDIR": where})
            check(f"{label} with TMPDIR {os.path.basename(where)}: exit {rc}",
                  rc in (0, 1, 5) and "TMPDIR" not in err, err)
    check("nothing was written in TMPDIR", not os.listdir(tmp))


def undecided_is_not_same(d):
    """Defect 6: compare of a run read from '-' cannot pass as 'the same'."""
    a = os.path.join(REF, "h100-grade-1-samples.csv.gz")
    b = os.path.join(REF, "h100-grade-inject20-samples.csv.gz")
    rc, _, err = run(["compare", a, b], d)
    check(f"compare of the files finds the 20% change: exit {rc}", rc == 1, err)
    with open(a, "rb") as f:
        packed = f.read()
    rc, _, err = run(["compare", "-", b], d, stdin=packed)
    check(f"compare - B: exit {rc}, not 0, and stderr says why", rc in (1, 5) and
          "A: -:" in err and "unknown" in err, err)
    lonely = os.path.join(d, "lonely-samples.csv.gz")
    shutil.copy(a, lonely)
    rc, _, err = run(["compare", lonely, b], d)
    check(f"compare of a copy without its sidecar: exit {rc}, not 0", rc in (1, 5) and
          "lonely-meta.json" in err, err)


TINY = ["--modes", "host", "--min-exp", "8", "--max-exp", "8", "--reps", "3", "--quiet"]


def sidecars_guarded(d):
    """A sidecar name that holds a link, a damaged or oversized sidecar, or
    a cut .gz run beside it is not written over (each lost another set's
    metadata, or a run, with exit 0)."""
    other = os.path.join(d, "other")
    os.mkdir(other)
    rc, _, err = run(["run", *TINY, "--out", os.path.join(other, "y")], d)
    with open(os.path.join(other, "y-meta.json"), "rb") as f:
        before = f.read()
    os.symlink(os.path.join(other, "y-meta.json"), os.path.join(d, "x-meta.json"))
    for args in (["run", *TINY, "--out", "x"], ["calibrate", "--runs", "3", *TINY[:-1],
                                                "--out", "x.csv"]):
        rc, _, err = run(args, d)
        with open(os.path.join(other, "y-meta.json"), "rb") as f:
            kept = f.read() == before
        check(f"{args[0]} with its sidecar name a link to another run's: refused, kept",
              rc == 2 and kept, err)
    os.unlink(os.path.join(d, "x-meta.json"))
    shutil.copy(os.path.join(DATA, "profiles", "h100.csv"), os.path.join(d, "p.csv"))
    with open(os.path.join(DATA, "profiles", "h100-meta.json"), "rb") as f:
        damaged = f.read()[:200]
    with open(os.path.join(d, "p-meta.json"), "wb") as f:
        f.write(damaged)
    rc, _, err = run(["run", *TINY, "--out", "p"], d)
    with open(os.path.join(d, "p-meta.json"), "rb") as f:
        kept = f.read() == damaged
    check("run --out p beside a damaged sidecar of another set: refused, kept", rc == 2 and kept,
          err)
    cut = os.path.join(d, "cut.csv.gz")
    with open(os.path.join(REF, "h100-default-samples.csv.gz"), "rb") as f:
        head = f.read(5000)
    with open(cut, "wb") as f:
        f.write(head)
    rc, _, err = run(["show", os.path.join(REF, "h100-default-1-samples.csv.gz"), "--export-csv",
                      cut], d)
    with open(cut, "rb") as f:
        kept = f.read() == head
    check("an export over a gzipped run cut short: refused, kept", rc == 2 and kept, err)


def main():
    for test in (every_kind_every_way, exports_keep_measurements, no_gzip_twin,
                 not_named_by_another_sidecar, nothing_in_tmpdir, undecided_is_not_same,
                 sidecars_guarded):
        d = tempfile.mkdtemp(prefix="memsweep-kinds-")
        try:
            test(d)
        finally:
            shutil.rmtree(d, ignore_errors=True)
    print(f"file-kinds: {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
