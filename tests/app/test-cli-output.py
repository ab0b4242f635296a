#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-output.py MEMSWEEP SCHEMA_DIR REFERENCE_DIR: the one output
convention (docs/cli.md, "Output") on every command that prints a table and
runs without a GPU: each --format (table, json, csv, markdown), the exports
beside the normal output (several at once, `-` for standard output), JSON
valid against its schema in data/schema/, --quiet (nothing but errors) and
--verbose (what it does, on standard error), `-` for standard input and
output (show -, calibrate --out - into run --profile -), and bad values
(exit 2, nothing written)."""
import csv
import gzip
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile

memsweep, schema_dir, reference = sys.argv[1:4]
fails = 0
HOST_SWEEP = ["--modes", "host", "--min-exp", "8", "--max-exp", "9", "--reps", "6",
              "--warmup", "0"]


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + detail))
    fails += not ok


spec = importlib.util.spec_from_file_location(
    "json_check", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                               "json-check.py"))
json_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(json_check)


def run(args, stdin=None, env=None):
    return subprocess.run([memsweep] + args, capture_output=True, text=True, input=stdin,
                          env=dict(os.environ, **(env or {})))


def on_terminal(args):
    """Exit status and all that memsweep wrote, its standard output and
    error on a pseudo-terminal."""
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(memsweep, [memsweep] + args)
    said = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        said += chunk
    os.close(fd)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), said.decode("utf-8", "replace")


def json_errors(text, schema):
    """Why text is not one document of schema (None: no schema), or []."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        return ["not one JSON document: %s" % e]
    if schema is None:
        return [] if isinstance(doc, list) and all(isinstance(r, dict) for r in doc) else \
            ["not an array of rows"]
    return json_check.errors_of(json_check.load_schema(schema_dir, schema), doc)


def csv_errors(text):
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 2:
        return ["fewer than a header and a row: %r" % text[:200]]
    return ["row %d has %d fields, the header %d" % (i, len(r), len(rows[0]))
            for i, r in enumerate(rows) if len(r) != len(rows[0])][:3]


def markdown_errors(text):
    lines = text.splitlines()
    if len(lines) < 3:
        return ["fewer than a header, its rule and a row"]
    if not all(set(c.strip()) <= set("-:") and c.strip() for c in lines[1].strip("|").split("|")):
        return ["second line is no rule: %r" % lines[1]]

    def cells(line):
        # '|' escaped as '\|' inside a cell is no separator.
        return line.replace("\\|", "").count("|")
    return ["line %d: %d pipes, the header %d" % (i, cells(l), cells(lines[0]))
            for i, l in enumerate(lines) if not l.startswith("|") or cells(l) != cells(lines[0])][:3]


def format_errors(fmt, text, schema):
    if fmt == "json":
        return json_errors(text, schema)
    if fmt == "csv":
        return csv_errors(text)
    if fmt == "markdown":
        return markdown_errors(text)
    return [] if text.strip() else ["empty"]


with tempfile.TemporaryDirectory() as tmp:
    env = {"TMPDIR": tmp, "XDG_DATA_HOME": tmp}
    a = os.path.join(reference, "h100-default-samples.csv.gz")
    b = os.path.join(reference, "h200-default-samples.csv.gz")
    fleet = os.path.join(tmp, "fleet")
    for node in ("alpha", "beta"):
        subprocess.run([memsweep, "fleet-node", "--dir", fleet, "--node", node, "--"] + HOST_SWEEP,
                       capture_output=True, env=dict(os.environ, **env))
    profile = os.path.join(tmp, "profile.csv")
    # command: (arguments, exit statuses, JSON schema, whether it prints progress)
    commands = {
        "modes": (["modes"], (0,), "memsweep-modes", False),
        "info": (["info"], (0, 3), "memsweep-info", False),
        "show": (["show", a], (0,), "memsweep-results", False),
        "compare": (["compare", a, b], (0, 1), "memsweep-compare", False),
        "fleet-report": (["fleet-report", fleet], (0, 1), "memsweep-fleet-report", False),
        "lesson": (["lesson", "LIST"], (0,), "memsweep-lessons", False),
        "run": (["run"] + HOST_SWEEP + ["--out", os.path.join(tmp, "r")], (0,),
                "memsweep-results", True),
        "calibrate": (["calibrate", "--runs", "3", "--out", profile] + HOST_SWEEP, (0,),
                      "memsweep-calibration", True),
    }
    for name, (args, rcs, schema, progress) in commands.items():
        # Each format on standard output.
        for fmt in ("table", "json", "csv", "markdown"):
            p = run(args + ["--format", fmt], env=env)
            errors = format_errors(fmt, p.stdout, schema)
            check("%s --format %s" % (name, fmt), p.returncode in rcs and not errors,
                  "exit %d: %s %s" % (p.returncode, "; ".join(errors), p.stderr[-300:]))
        # Every export beside the normal output, each what --format gives.
        out = {f: os.path.join(tmp, "%s-export.%s" % (name, f)) for f in ("json", "csv", "md")}
        p = run(args + ["--format", "csv", "--export-json", out["json"], "--export-csv", out["csv"],
                        "--export-markdown", out["md"]], env=env)
        written = {f: open(path).read() if os.path.exists(path) else "" for f, path in out.items()}
        check("%s --export-json, --export-csv and --export-markdown at once" % name,
              p.returncode in rcs and not json_errors(written["json"], schema) and
              written["csv"] == p.stdout and not markdown_errors(written["md"]),
              "exit %d: %s" % (p.returncode, p.stderr[-300:]))
        check("%s says what it wrote, on standard error" % name,
              all(("wrote " + path) in p.stderr for path in out.values()), p.stderr[-300:])
        # - is standard output: the export takes the table's place.
        p = run(args + ["--export-json", "-"], env=env)
        check("%s --export-json - is the document on standard output" % name,
              p.returncode in rcs and not json_errors(p.stdout, schema), p.stdout[:200])
        # --quiet: nothing but errors, no "wrote" lines.
        p = run(args + ["--quiet", "--export-csv", out["csv"]], env=env)
        check("%s --quiet says nothing" % name,
              p.returncode in rcs and (p.stderr == "" or p.returncode != 0), p.stderr[-300:])
        # Bad values: exit 2, nothing on standard output, nothing written
        # (target's name says no format: every export may go there).
        target = os.path.join(tmp, "bad-%s.out" % name)
        for bad, why in ((["--format", "yaml"], "is none of table|json|csv|markdown|text"),
                         (["--export-csv", ""], "an empty one"),
                         (["--export-csv", os.path.join(tmp, "no", "x.csv")], "--export-csv"),
                         (["--export-csv", target, "--export-markdown", target],
                          "already an export"),
                         (["--quiet", "--verbose"], "exclude each other")):
            p = run(args + bad + ["--export-json", target + ".json"], env=env)
            check("%s %s is refused" % (name, " ".join(bad)),
                  p.returncode == 2 and why in p.stderr and not p.stdout and
                  not os.path.exists(target) and not os.path.exists(target + ".json"),
                  "exit %d, stdout %r: %s" % (p.returncode, p.stdout[:80], p.stderr[-300:]))
        if progress:
            p = run(args + ["--verbose"], env=env)
            check("%s --verbose says what it does" % name,
                  p.returncode in rcs and p.stderr.count("\n") >= 3, p.stderr[-300:])

    # multi, peer and portable measure GPUs: their options are checked
    # before any device (exit 2, nothing written); without a GPU they end
    # with 3 and print nothing; with GPUs each format is checked.
    for name, args in (("multi", ["multi", "--modes", "pinned", "--min-exp", "10", "--max-exp",
                                  "10", "--reps", "3"]),
                       ("peer", ["peer", "--exp", "10", "--reps", "3"]),
                       ("portable", ["portable", "--exp", "10", "--reps", "3"])):
        target = os.path.join(tmp, "bad-%s.json" % name)
        for bad, why in ((["--format", "yaml"], "is none of table|json|csv|markdown|text"),
                         (["--export-csv", os.path.join(tmp, "no", "x.csv")], "--export-csv"),
                         (["--quiet", "--verbose"], "exclude each other")):
            p = run(args + bad + ["--export-json", target], env=env)
            check("%s %s is refused" % (name, " ".join(bad)),
                  p.returncode == 2 and why in p.stderr and not p.stdout and
                  not os.path.exists(target), "exit %d: %s" % (p.returncode, p.stderr[-300:]))
        for fmt in ("table", "json", "csv", "markdown"):
            p = run(args + ["--format", fmt], env=env)
            if p.returncode == 3:
                check("%s --format %s without a GPU: exit 3, nothing printed" % (name, fmt),
                      not p.stdout, p.stdout[:200])
                continue
            # peer and portable need two GPUs: one GPU is bad input (2).
            if p.returncode == 2 and name != "multi":
                continue
            errors = format_errors(fmt, p.stdout, None)
            check("%s --format %s" % (name, fmt), p.returncode in (0, 1) and not errors,
                  "exit %d: %s %s" % (p.returncode, "; ".join(errors), p.stderr[-300:]))

    # run --verbose: a line per cell.
    p = run(["run"] + HOST_SWEEP + ["--verbose", "--out", os.path.join(tmp, "v")], env=env)
    check("run --verbose names each cell",
          p.returncode == 0 and "cell 1/2: host 2^8" in p.stderr and "cell 2/2" in p.stderr,
          p.stderr[-300:])
    # run's CSV is a row per cell, its figures those of the summary file.
    p = run(["run"] + HOST_SWEEP + ["--format", "csv", "--out", os.path.join(tmp, "c")], env=env)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    summary = [r for r in csv.DictReader(l for l in open(os.path.join(tmp, "c-summary.csv"))
                                         if not l.startswith("#"))]
    check("run --format csv has the summary's medians",
          [(r["mode"], r["elements"], r["e2e_median_us"]) for r in rows] ==
          [(r["mode"], r["elements"], r["e2e_median_us"]) for r in summary], p.stdout[:300])
    # A format named by its older name still works.
    p = run(["modes", "--format", "text"])
    check("--format text is the table", p.returncode == 0 and p.stdout == run(["modes"]).stdout)

    # - as standard input: show - reads what show FILE reads.
    p = run(["show", "-", "--format", "csv"], stdin=gzip.open(a, "rt").read())
    check("show - --format csv is show FILE's", p.returncode == 0 and
          p.stdout == run(["show", a, "--format", "csv"]).stdout, p.stderr[-300:])
    # calibrate --out -: the profile on standard output, which run --profile -
    # reads; the spread goes to an export.
    spread = os.path.join(tmp, "spread.csv")
    p = run(["calibrate", "--runs", "3", "--out", "-", "--export-csv", spread] + HOST_SWEEP,
            env=env)
    check("calibrate --out - writes the profile to standard output",
          p.returncode == 0 and p.stdout.startswith("mode,exponent,sd_ln_median\n") and
          not csv_errors(open(spread).read()), p.stderr[-300:])
    q = run(["run"] + HOST_SWEEP + ["--profile", "-", "--out", os.path.join(tmp, "prof")],
            stdin=p.stdout, env=env)
    check("run --profile - reads it from standard input",
          q.returncode == 0 and "intervals include the run-to-run spread of -" in q.stderr,
          q.stderr[-300:])
    q = run(["calibrate", "--runs", "3", "--out", "-", "--format", "json"] + HOST_SWEEP, env=env)
    check("calibrate --out - with --format json is refused (one document on standard output)",
          q.returncode == 2 and not q.stdout, q.stderr[-300:])
    # run --out - names three files: refused before any work.
    q = run(["run"] + HOST_SWEEP + ["--out", "-"], env=env)
    check("run --out - is refused", q.returncode == 2 and "standard output" in q.stderr,
          q.stderr[-300:])

    # fleet-report --openmetrics -: the OpenMetrics text alone.
    p = run(["fleet-report", "--openmetrics", "-", fleet])
    check("fleet-report --openmetrics - writes OpenMetrics to standard output",
          p.returncode in (0, 1) and p.stdout.endswith("# EOF\n") and "node" not in
          p.stdout.splitlines()[0].lower().split("#")[0], p.stdout[:200])
    p = run(["fleet-report", "--openmetrics", "-", "--format", "json", fleet])
    check("fleet-report --openmetrics - with --format json is refused",
          p.returncode == 2 and not p.stdout, p.stderr[-300:])
    # A prefix names several files: - is refused before any work.
    for cmd in (["multi", "--out", "-"], ["peer", "--out", "-"], ["compare", "--live", "--out", "-"],
                ["lesson", "reuse", "--out", "-"]):
        p = run(cmd, env=env)
        check("%s is refused" % " ".join(cmd),
              p.returncode == 2 and "standard output cannot hold" in p.stderr, p.stderr[-300:])
    # plot and report write one file: - is standard output, in the
    # --format given (standard output has no extension to say it).
    p = subprocess.run([memsweep, "plot", a, "--view", "bandwidth", "--out", "-", "--format", "svg"],
                       capture_output=True)
    check("plot --out - --format svg writes the SVG to standard output",
          p.returncode == 0 and p.stdout.startswith(b"<?xml") and b"</svg>" in p.stdout,
          p.stderr.decode()[-300:])
    for cmd in (["plot", a, "--view", "bandwidth"], ["report", a]):
        p = run(cmd + ["--out", "-"])
        check("%s --out - without --format is refused" % cmd[0],
              p.returncode == 2 and "--format" in p.stderr and not p.stdout, p.stderr[-300:])
    p = subprocess.run([memsweep, "report", a, "--out", "-", "--format", "pdf"], capture_output=True)
    check("report --out - --format pdf writes the PDF to standard output",
          p.returncode == 0 and p.stdout.startswith(b"%PDF-") and b"%%EOF" in p.stdout[-32:],
          p.stderr.decode()[-300:])
    # A binary document on a terminal is refused: the user meant a file.
    for cmd in (["report", a, "--out", "-", "--format", "pdf"],
                ["plot", a, "--view", "bandwidth", "--out", "-", "--format", "png"]):
        rc, said = on_terminal(cmd)
        check("%s --out - --format %s to a terminal is refused" % (cmd[0], cmd[-1]),
              rc == 2 and "terminal" in said and "%PDF" not in said and "PNG" not in said,
              "rc %s: %r" % (rc, said[-300:]))
    p = run(["report", a, "--out", os.path.join(tmp, "r.pdf"), "--format", "html"])
    check("report --format html with --out R.pdf is refused",
          p.returncode == 2 and not os.path.exists(os.path.join(tmp, "r.pdf")), p.stderr[-300:])

print("%d check(s) failed" % fails if fails else "PASS")
sys.exit(1 if fails else 0)
