#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-compress.py MEMSWEEP: CSV files written gzip-compressed
(docs/cli.md, "Output"): with --compress, each CSV file a command names
gets ".gz" and gzip bytes (run's and compare --live's --out files, the
sidecar naming them, calibrate's --out, show's CSV --out, --export-csv),
and so does a name that ends in .gz without it; standard output and JSON
stay plain; every command reads back what it wrote; multi refuses it with
--out; and a plain file and its .gz form are one run to the output plan:
neither is written beside the other of another run (exit 2, nothing
written)."""
import gzip
import json
import os
import subprocess
import sys
import tempfile

memsweep = sys.argv[1]
fails = 0
SWEEP = ["--modes", "host", "--min-exp", "8", "--max-exp", "9", "--reps", "3", "--warmup", "0"]


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + detail))
    fails += not ok


def run(args, env=None, text=True):
    return subprocess.run([memsweep] + args, capture_output=True, text=text,
                          env=dict(os.environ, **(env or {})))


def is_gzip(path):
    with open(path, "rb") as f:
        return f.read(2) == b"\x1f\x8b"


def inflated(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return f.read()


def sha256sum(path, reader="cat"):
    """What `READER PATH | sha256sum` prints as the digest, or None."""
    p = subprocess.run(["sh", "-c", '%s "$1" | sha256sum' % reader, "sh", path],
                       capture_output=True, text=True)
    return p.stdout.split()[0] if p.returncode == 0 and len(p.stdout) >= 64 else None


def written_gzip(path, plain):
    """Whether path holds gzip bytes and plain, its plain form, is absent."""
    return os.path.exists(path) and is_gzip(path) and not os.path.exists(plain)


with tempfile.TemporaryDirectory() as tmp:
    env = {"TMPDIR": tmp, "XDG_DATA_HOME": tmp}
    at = lambda name: os.path.join(tmp, name)  # noqa: E731

    # run --out P --compress: the pair gzipped, its sidecar naming them,
    # the CSV export gzipped, and standard output's CSV plain.
    p = run(["run"] + SWEEP + ["--out", at("packed"), "--compress", "--format", "csv",
                               "--export-csv", at("table.csv")], env=env)
    check("run --compress exits 0", p.returncode == 0, p.stderr[-300:])
    for name in ("packed-samples.csv", "packed-summary.csv", "table.csv"):
        check("run --compress writes %s.gz, gzip, and no %s" % (name, name),
              written_gzip(at(name + ".gz"), at(name)))
    check("run --compress keeps standard output's CSV plain",
          p.stdout.startswith("mode,") and os.path.exists(at("table.csv.gz")) and
          inflated(at("table.csv.gz")) == p.stdout, p.stdout[:100])
    meta = json.load(open(at("packed-meta.json"))) if os.path.exists(at("packed-meta.json")) else {}
    names = [f.get("name") for f in meta.get("files", {}).values()]
    check("the sidecar names the .gz files",
          sorted(names) == ["packed-samples.csv.gz", "packed-summary.csv.gz"], str(names))
    # Each file's digest is the SHA-256 of its plain content, which
    # `zcat F | sha256sum` prints (docs/csv.md).
    check("the sidecar is of format version 3", meta.get("format-version") == 3,
          str(meta.get("format-version")))
    for entry in meta.get("files", {}).values():
        check("%s: its sidecar's sha256 is what zcat | sha256sum prints" % entry.get("name"),
              entry.get("sha256") == sha256sum(at(entry.get("name", "")), "zcat") and
              "fnv1a-64" not in entry, str(entry))
    # A shipped run's sidecar (version 2, naming the .gz files) is read, and
    # a version-1 sidecar's FNV-1a (the measurement logs') is still checked
    # and its metadata read.
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    for what, path in (("a shipped run's sidecar",
                        os.path.join(root, "data", "reference", "h100-default-samples.csv.gz")),
                       ("a measurement log's version-1 sidecar",
                        os.path.join(root, "docs", "measurements",
                                     "2026-11-24-h100-yardsticks", "copy-rate",
                                     "memsweep-1-summary.csv.gz"))):
        q = run(["show", path, "--format", "json"])
        shipped_doc = json.loads(q.stdout) if q.returncode == 0 else {}
        check("%s is read" % what,
              (shipped_doc.get("device") or {}).get("name", "").startswith("NVIDIA H100") and
              "meta.json" not in q.stderr, q.stderr[-300:])
    # Every command reads back what it wrote, the sidecar found, no warning.
    samples = at("packed-samples.csv.gz")
    for cmd in (["show", samples], ["show", at("packed-summary.csv.gz")],
                ["compare", samples, samples], ["plot", samples, "--view", "bandwidth", "--out",
                                                at("p.svg")]):
        q = run(cmd, env=env)
        # compare: a tiny run against itself decides nothing (exit 5).
        check("%s reads the --compress run back" % cmd[0],
              q.returncode in ((0, 5) if cmd[0] == "compare" else (0,)) and "warning" not in q.stderr.lower() and
              "meta.json" not in q.stderr, "exit %d: %s" % (q.returncode, q.stderr[-300:]))
    q = run(["show", samples, "--format", "json"])
    doc = json.loads(q.stdout) if q.returncode == 0 else {}
    check("show finds the --compress run's metadata in its sidecar",
          q.returncode == 0 and (doc.get("settings") or {}).get("modes") ==
          ["host"], q.stderr[-300:])

    # show --out: a CSV gets .gz; with a JSON document --compress would
    # compress nothing, and is refused before any work.
    q = run(["show", samples, "--format", "csv", "--out", at("show.csv"), "--compress"])
    check("show --format csv --out X.csv --compress writes X.csv.gz",
          q.returncode == 0 and written_gzip(at("show.csv.gz"), at("show.csv")) and
          inflated(at("show.csv.gz")) == run(["show", samples, "--format", "csv"]).stdout,
          q.stderr[-300:])
    q = run(["show", samples, "--format", "json", "--out", at("show.json"), "--compress"])
    check("show --format json --out X.json --compress is refused, nothing written",
          q.returncode == 2 and "--compress" in q.stderr and not os.path.exists(at("show.json")),
          q.stderr[-300:])
    # A name ending in .gz is gzip with or without --compress.
    q = run(["show", samples, "--format", "csv", "--export-csv", at("named.csv.gz")])
    check("--export-csv X.csv.gz without --compress writes gzip",
          q.returncode == 0 and os.path.exists(at("named.csv.gz")) and is_gzip(at("named.csv.gz"))
          and inflated(at("named.csv.gz")) == q.stdout, q.stderr[-300:])
    # Standard output stays plain: with no file beside it, --compress
    # would compress nothing.
    q = run(["show", samples, "--export-csv", "-", "--compress"])
    check("--export-csv - --compress alone is refused: nothing to compress",
          q.returncode == 2 and q.stderr.startswith("memsweep show: --compress"), q.stderr[:200])

    # calibrate: --out X.csv gets .gz, and run --profile reads it back;
    # --out - stays plain.
    q = run(["calibrate", "--runs", "3", "--out", at("profile.csv"), "--compress"] + SWEEP,
            env=env)
    check("calibrate --out X.csv --compress writes X.csv.gz",
          q.returncode == 0 and written_gzip(at("profile.csv.gz"), at("profile.csv")),
          q.stderr[-300:])
    q = run(["run"] + SWEEP + ["--profile", at("profile.csv.gz"), "--out", at("profiled")],
            env=env)
    check("run --profile reads the gzipped profile",
          q.returncode == 0 and "run-to-run spread of" in q.stderr and
          "profile.csv.gz" in q.stderr, q.stderr[-300:])
    q = run(["calibrate", "--runs", "3", "--out", "-", "--compress"] + SWEEP, env=env)
    check("calibrate --out - --compress writes the profile plain to standard output",
          q.returncode == 0 and q.stdout.startswith("mode,exponent,sd_ln_median\n"),
          q.stderr[-300:])

    # compare --live --out P --compress: each side's pair gzipped.
    q = run(["compare", "--live", "--a", " ".join(SWEEP), "--b", " ".join(SWEEP), "--out",
             at("live"), "--compress", "--quiet"], env=env)
    check("compare --live --out P --compress writes both sides' pairs gzipped",
          q.returncode in (0, 1, 5) and
          all(written_gzip(at("live-%s-%s.csv.gz" % (side, kind)), at("live-%s-%s.csv" %
                                                                      (side, kind)))
              for side in "ab" for kind in ("samples", "summary")),
          "exit %d: %s" % (q.returncode, q.stderr[-300:]))

    # multi's aggregate names each GPU's file by its plain name.
    q = run(["multi", "--modes", "pinned", "--min-exp", "10", "--max-exp", "10", "--out",
             at("multi"), "--compress"], env=env)
    check("multi --out P --compress is refused before any device",
          q.returncode == 2 and "--compress" in q.stderr and
          not [f for f in os.listdir(tmp) if f.startswith("multi")], q.stderr[-300:])

    # A plain file and its .gz form are one run: neither form is written
    # beside the other of a run the command does not write.
    run(["run"] + SWEEP + ["--out", at("plain")], env=env)
    with open(at("plain-meta.json"), encoding="utf-8") as f:
        plain_files = json.load(f).get("files", {})
    for role in ("samples", "summary"):
        check("a plain %s's sidecar has the sha256 that sha256sum prints" % role,
              plain_files.get(role, {}).get("sha256") ==
              sha256sum(at("plain-%s.csv" % role)), str(plain_files.get(role)))
    os.remove(at("plain-meta.json"))
    before = open(at("plain-samples.csv"), "rb").read()
    q = run(["run"] + SWEEP + ["--out", at("plain"), "--compress"], env=env)
    check("run --compress beside another run's plain pair is refused, nothing written",
          q.returncode == 2 and "plain-samples.csv" in q.stderr and
          not os.path.exists(at("plain-samples.csv.gz")) and
          not os.path.exists(at("plain-meta.json")) and
          open(at("plain-samples.csv"), "rb").read() == before, q.stderr[-300:])
    os.rename(at("packed-meta.json"), at("kept-meta.json"))
    q = run(["run"] + SWEEP + ["--out", at("packed")], env=env)
    # Refused as the .gz pair's other form, or as a name that pair's
    # sidecar records (the plan asks every sidecar beside it first).
    check("run beside another run's .gz pair is refused, nothing written",
          q.returncode == 2 and ("packed-samples.csv.gz" in q.stderr or
                                 "named by " + at("kept-meta.json") in q.stderr) and
          not os.path.exists(at("packed-samples.csv")) and
          not os.path.exists(at("packed-meta.json")), q.stderr[-300:])
    q = run(["show", samples, "--format", "csv", "--out", at("plain-summary.csv.gz")])
    check("an export onto the .gz form of a run's file is refused",
          q.returncode == 2 and not os.path.exists(at("plain-summary.csv.gz")), q.stderr[-300:])
    q = run(["show", samples, "--format", "csv", "--out", at("table.csv")])
    check("an export beside its own earlier gzipped export is written",
          q.returncode == 0 and os.path.exists(at("table.csv")), q.stderr[-300:])

    # The name decides the format: show --out X.csv writes CSV without
    # --format, X.csv.gz gzipped CSV, X.json JSON; a --format that the name
    # contradicts exits 2, nothing written.
    csv_text = run(["show", samples, "--format", "csv"]).stdout
    q = run(["show", samples, "--out", at("named-show.csv")])
    check("show --out X.csv without --format writes CSV",
          q.returncode == 0 and os.path.exists(at("named-show.csv")) and
          open(at("named-show.csv"), encoding="utf-8").read() == csv_text, q.stderr[-300:])
    q = run(["show", samples, "--out", at("named-show2.csv.gz")])
    check("show --out X.csv.gz without --format writes gzipped CSV",
          q.returncode == 0 and os.path.exists(at("named-show2.csv.gz")) and
          is_gzip(at("named-show2.csv.gz")) and inflated(at("named-show2.csv.gz")) == csv_text,
          q.stderr[-300:])
    q = run(["show", samples, "--out", at("named-show.json")])
    try:
        named_doc = json.load(open(at("named-show.json")))
    except (OSError, ValueError):
        named_doc = {}
    check("show --out X.json without --format writes JSON",
          named_doc.get("schema") == "memsweep-results", q.stderr[-300:])
    for given in ("json", "table", "markdown"):
        q = run(["show", samples, "--format", given, "--out", at("clash-%s.csv" % given)])
        check("show --format %s --out X.csv exits 2, nothing written" % given,
              q.returncode == 2 and "--format" in q.stderr and
              not os.path.exists(at("clash-%s.csv" % given)), q.stderr[-300:])
    # An export and calibrate's profile, whose format the option fixes, are
    # refused under a name that says another.
    for option, name in (("--export-json", "clash-export.csv"), ("--export-csv", "clash.json"),
                         ("--export-markdown", "clash-md.csv.gz")):
        q = run(["show", samples, option, at(name)])
        check("show %s X%s exits 2, nothing written" % (option, name[name.index("."):]),
              q.returncode == 2 and "the name says" in q.stderr and
              not os.path.exists(at(name)), q.stderr[-300:])
    q = run(["calibrate", "--runs", "3", "--out", at("profile.json")] + SWEEP, env=env)
    check("calibrate --out X.json (a CSV profile) exits 2, nothing written",
          q.returncode == 2 and "the name says json" in q.stderr and
          not [f for f in os.listdir(tmp) if f.startswith("profile.json")], q.stderr[-300:])
    q = run(["show", samples, "--format", "csv", "--out", at("agree.csv")])
    check("show --format csv --out X.csv still writes CSV",
          q.returncode == 0 and open(at("agree.csv"), encoding="utf-8").read() == csv_text,
          q.stderr[-300:])

    # run --out X.csv.gz: a prefix cannot promise one gzipped file; refused
    # before any work, naming --compress, instead of a plain
    # X.csv.gz-samples.csv.
    q = run(["run"] + SWEEP + ["--out", at("prefix.csv.gz")], env=env)
    check("run --out X.csv.gz exits 2, names --out X --compress, writes nothing",
          q.returncode == 2 and "--compress" in q.stderr and "prefix --compress" in q.stderr and
          not [f for f in os.listdir(tmp) if f.startswith("prefix")], q.stderr[-300:])

    # A flag a command does not use is refused, not ignored: --compress
    # where no CSV file is written (the option table's needs).
    for cmd in (["info"], ["modes"], ["show", samples], ["compare", samples, samples],
                ["fleet-report", tmp]):
        q = run(cmd + ["--compress"])
        check("%s --compress, with no CSV file to compress, exits 2" % cmd[0],
              q.returncode == 2 and "--compress does nothing without --export-csv" in q.stderr,
              "exit %d: %s" % (q.returncode, q.stderr[-300:]))
    q = run(["modes", "--compress", "--export-csv", at("modes.csv")])
    check("modes --compress --export-csv X.csv writes X.csv.gz",
          q.returncode == 0 and written_gzip(at("modes.csv.gz"), at("modes.csv")),
          q.stderr[-300:])

print("%d check(s) failed" % fails if fails else "PASS")
sys.exit(1 if fails else 0)
