#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-conventions.py MEMSWEEP: the conventions every command keeps
(docs/cli.md, "Every command"), on a tiny run of the CPU alone:
`-` as input wherever a file is read (show, plot, report, compare as A or
as B, show --envelopes; gzip through it too); a closed pipe on standard
output is a quiet success (exit 0, nothing on standard error); --quiet and
--verbose on every command of the option table, and every flag of the
table taken by its command's parser; --out is the file written (show --out
FILE in any format); `memsweep CMD --version` and `memsweep help CMD`; one
form for an unknown option, an ambiguous one and a missing value in every
command; an option given without those it acts through (the table's
needs) refused; no message of the engine's own that does not begin
"memsweep CMD: "."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

memsweep = sys.argv[1]
fails = 0
HOST_SWEEP = ["--modes", "host", "--min-exp", "8", "--max-exp", "9", "--reps", "3",
              "--warmup", "0"]


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + detail))
    fails += not ok


def run(args, stdin=None, binary=False):
    return subprocess.run([memsweep] + args, capture_output=True, input=stdin,
                          text=not binary, env=dict(os.environ, LC_ALL="C", LANGUAGE=""))


def to_closed_pipe(args):
    """args run with standard output a pipe whose reader has already gone."""
    r, w = os.pipe()
    os.close(r)
    p = subprocess.run([memsweep] + args, stdout=w, stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, LC_ALL="C", LANGUAGE=""))
    os.close(w)
    return p


def commands():
    """The visible commands and their options, from the option table."""
    doc = json.loads(run(["__options"]).stdout)
    return {c["name"]: [o["name"] for o in c["options"]] for c in doc["commands"]
            if not c["name"].startswith("__")}


with tempfile.TemporaryDirectory() as tmp:
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    for prefix in (a, b):
        p = run(["run", "--quiet"] + HOST_SWEEP + ["--out", prefix])
        check("a tiny host run (%s)" % os.path.basename(prefix), p.returncode == 0, p.stderr)
    samples = a + "-samples.csv"
    text = open(samples).read()

    # - as input wherever a file is read.
    p = run(["show", "-"], stdin=text)
    check("show - reads standard input", p.returncode == 0 and "host" in p.stdout, p.stderr)
    svg = os.path.join(tmp, "p.svg")
    p = run(["plot", "-", "--view", "bandwidth", "--out", svg], stdin=text)
    check("plot - reads standard input", p.returncode == 0 and
          open(svg).read().lstrip().startswith("<?xml"), p.stderr)
    html = os.path.join(tmp, "r.html")
    p = run(["report", "-", "--out", html], stdin=text)
    check("report - reads standard input", p.returncode == 0 and os.path.getsize(html) > 0,
          p.stderr)
    # A read from - has no sidecar, so its spread is unknown: the same file
    # by name without its sidecar is what it must agree with (with the
    # sidecar, how many cells the tiny runs decide is chance).
    alone = os.path.join(tmp, "alone")
    os.mkdir(alone)
    shutil.copy(samples, alone)
    same = run(["compare", os.path.join(alone, os.path.basename(samples)), b + "-samples.csv",
                "--format", "csv"])
    for args, what in ((["-", b + "-samples.csv"], "A"), ([samples, "-"], None)):
        p = run(["compare"] + args + ["--format", "csv"], stdin=text)
        # 5: tiny runs decide no cell (docs/compare.md).
        check("compare reads - as %s" % (what or "B"),
              p.returncode in (0, 1, 5) and p.stdout.splitlines()[1:] ==
              same.stdout.splitlines()[1:] if what else p.returncode in (0, 1, 5) and p.stdout,
              p.stderr)
    # A gzipped run through standard input, as by name.
    packed = gzip.compress(text.encode())
    for args in (["show", "-", "--format", "csv"], ["compare", "-", b + "-samples.csv",
                                                    "--format", "csv"]):
        p, q = run(args, stdin=packed, binary=True), run(args, stdin=text.encode(), binary=True)
        check("%s reads gzip from standard input" % " ".join(args[:2]),
              p.returncode in (0, 1, 5) and p.stdout and p.stdout == q.stdout,
              p.stderr.decode()[-300:])
    # --envelopes -: the envelope file from standard input, as by name.
    envelopes = os.path.join(tmp, "envelopes.csv")
    with open(envelopes, "w") as f:
        f.write("gpu,link,figure,low,high,unit,source\n"
                "H100,gen5 x16,duplex-16MiB,80.5,98.4,GB/s,made up\n")
    p = run(["show", samples, "--envelopes", "-"], stdin=open(envelopes).read())
    q = run(["show", samples, "--envelopes", envelopes])
    check("show FILE --envelopes - reads standard input",
          p.returncode == 0 and p.stdout == q.stdout and "-:" not in p.stderr, p.stderr)
    p = run(["show", samples, "--envelopes", "-"], stdin="bad\n")
    check("show --envelopes -: refused as any input that cannot be read, naming -",
          p.returncode == 2 and "--envelopes: -:1: not an envelope file" in p.stderr and
          "memsweep-stdin" not in p.stderr, p.stderr)
    p = run(["show", "-", "--envelopes", "-"], stdin=text)
    check("show - --envelopes - is refused: standard input is read once",
          p.returncode == 2 and "standard input is read once" in p.stderr, p.stderr)
    p = run(["compare", "-", "-"], stdin=text)
    check("compare - - is refused: standard input is read once",
          p.returncode == 2 and "standard input is read once" in p.stderr, p.stderr)

    # A closed pipe: quiet, exit 0 (show F | head).
    for args in (["show", samples], ["show", samples, "--format", "json"],
                 ["show", samples, "--format", "csv"], ["modes"], ["--help"], ["help", "show"],
                 ["compare", samples, b + "-samples.csv"], ["lesson", "LIST"],
                 ["report", samples, "--out", "-", "--format", "html"],
                 ["plot", samples, "--view", "bandwidth", "--out", "-", "--format", "svg"]):
        p = to_closed_pipe(args)
        # compare of two tiny runs decides nothing: exit 5 and that sentence.
        undecided = args[0] == "compare" and p.returncode == 5 and \
            p.stderr.startswith("memsweep compare: no cell could be decided")
        check("%s into a closed pipe: exit 0, nothing said" % " ".join(args[:1] + args[2:]),
              (p.returncode == 0 and p.stderr == "") or undecided,
              "exit %d: %s" % (p.returncode, p.stderr))
    # A full disk is still an error.
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            p = subprocess.run([memsweep, "show", samples], stdout=full, stderr=subprocess.PIPE,
                               text=True)
        check("show into /dev/full still fails", p.returncode != 0 and p.stderr, p.stderr)

    # --quiet and --verbose on every command.
    table = commands()
    check("the option table lists the commands", "show" in table and "plot" in table,
          repr(table)[:300])
    for name, options in table.items():
        check("%s takes --quiet and --verbose" % name,
              "quiet" in options and "verbose" in options, " ".join(options))
    # Each command's parser takes each flag of its table (--quiet,
    # --verbose, --compress ...): the next option is the one refused.
    flags = json.loads(run(["__options"]).stdout)["commands"]
    for command in flags:
        if command["name"].startswith("__"):
            continue
        for option in command["options"]:
            if option["kind"] != "flag" or option["name"] in ("help", "version"):
                continue
            p = run([command["name"], "--" + option["name"], "--no-such-option"])
            check("%s --%s is parsed" % (command["name"], option["name"]),
                  p.returncode == 2 and p.stderr.startswith(
                      "memsweep %s: unknown option '--no-such-option'\n" % command["name"]),
                  p.stderr)
    # An option that acts only through others (its needs in the table:
    # info --compress through --export-csv, compare --budget through
    # --live) is refused without them, exit 2, not ignored.
    n_needs = 0
    for command in flags:
        for option in command["options"]:
            if command["name"].startswith("__") or not option.get("needs"):
                continue
            n_needs += 1
            given = ["--" + option["name"]] + (["x"] if option["value"] else [])
            p = run([command["name"]] + given)
            want = "memsweep %s: --%s does nothing without --%s" % (
                command["name"], option["name"], option["needs"][0])
            check("%s --%s without %s is refused" % (command["name"], option["name"],
                                                     " or ".join(option["needs"])),
                  p.returncode == 2 and p.stderr.startswith(want), p.stderr)
    check("the option table names options that act through others", n_needs >= 10, str(n_needs))
    # multi, peer and portable share a parser, not their options: one the
    # command does not use (peer's --solo, portable's --modes) is unknown
    # to it, as its own list in the table says.
    for args in (["peer", "--solo"], ["portable", "--modes", "pinned"],
                 ["peer", "--min-exp", "5"], ["portable", "--warmup", "1"]):
        p = run(args)
        check("%s %s: not its option, refused" % (args[0], args[1]),
              p.returncode == 2 and p.stderr.startswith(
                  "memsweep %s: unknown option '%s'" % (args[0], args[1])), p.stderr)
    p = run(["plot", samples, "--view", "bandwidth", "--out", svg, "--verbose"])
    check("plot --verbose says what it wrote", p.returncode == 0 and "written" in p.stderr,
          p.stderr)
    p = run(["report", samples, "--out", html, "--quiet"])
    check("report --quiet says nothing", p.returncode == 0 and p.stderr == "", p.stderr)
    p = run(["plot", samples, "--view", "bandwidth", "--out", svg, "--quiet", "--verbose"])
    check("plot --quiet --verbose is refused", p.returncode == 2, p.stderr)

    # --out is the file written, whatever the format.
    for fmt in ("table", "csv", "markdown", "json"):
        out = os.path.join(tmp, "show." + fmt)
        p = run(["show", samples, "--format", fmt, "--out", out])
        want = run(["show", samples, "--format", fmt]).stdout
        check("show --format %s --out FILE writes FILE alone" % fmt,
              p.returncode == 0 and p.stdout == "" and open(out).read() == want, p.stderr)
    out = os.path.join(tmp, "show.txt")
    p = run(["show", samples, "--out", out])
    check("show --out FILE without --format", p.returncode == 0 and
          open(out).read() == run(["show", samples]).stdout, p.stderr)

    # CMD --version and help CMD.
    version = run(["--version"]).stdout
    check("memsweep --version", version.startswith("memsweep "), version)
    for name in table:
        p = run([name, "--version"])
        check("%s --version" % name, p.returncode == 0 and p.stdout == version, p.stderr)
        h, g = run(["help", name]), run([name, "--help"])
        check("help %s is %s --help" % (name, name),
              h.returncode == 0 and h.stdout == g.stdout and h.stdout, h.stderr)
    p = run(["help", "nosuch"])
    check("help of no command is refused", p.returncode == 2 and "nosuch" in p.stderr, p.stderr)

    # One form for a bad option, in every command.
    for name in table:
        p = run([name, "--no-such-option"])
        check("%s --no-such-option: the one form" % name,
              p.returncode == 2 and p.stderr ==
              "memsweep %s: unknown option '--no-such-option'\n"
              "Try 'memsweep %s --help'.\n" % (name, name), p.stderr)
        p = run([name, "-Z"])
        check("%s -Z: the one form" % name, p.returncode == 2 and p.stderr ==
              "memsweep %s: unknown option '-Z'\nTry 'memsweep %s --help'.\n" % (name, name),
              p.stderr)
    for args, msg in ((["show", samples, "--export"], "option '--export' is ambiguous: --export-json, "
                       "--export-csv, --export-markdown"),
                      (["show", samples, "--envelopes"], "option '--envelopes' needs a value"),
                      (["plot", samples, "--out"], "option '--out' needs a value"),
                      (["modes", "--quiet=1"], "option '--quiet=1' takes no value")):
        p = run(args)
        check(" ".join(args[:1] + args[2:]) + ": " + msg, p.returncode == 2 and
              p.stderr == "memsweep %s: %s\nTry 'memsweep %s --help'.\n" %
              (args[0], msg, args[0]), p.stderr)

    # Run's options handed on by another command are refused as run's
    # settings are there, in one line: the command's Try line would point
    # at a --help that does not list them.
    for args in (["fleet-node", "--dir", tmp, "--", "--format", "bogus"],
                 ["fleet-node", "--dir", tmp, "--", "--reps", "x"]):
        p = run(args)
        check(" ".join(args) + ": one line, no Try line", p.returncode == 2 and
              len(p.stderr.splitlines()) == 1 and
              p.stderr.startswith("memsweep fleet-node: "), p.stderr)

    # The extension --format asks for is the one named (x.png with --format
    # svg was told to end in ".png, .svg or .pdf").
    p = run(["plot", samples, "--view", "bandwidth", "--out", os.path.join(tmp, "x.png"),
             "--format", "svg"])
    check("plot --out x.png --format svg: refused naming .svg", p.returncode == 2 and
          "must end in .svg, as --format says" in p.stderr, p.stderr)
    # A refusal of the operands says why, in the one form, never the usage
    # text alone (compare A, fleet-report, fleet-node without --dir did,
    # before issue 83): surplus operands in every command, none where some
    # are needed (which refuses before any work: no GPU is measured).
    for command in flags:
        name = command["name"]
        cases = [[name, "x", "y", "z"]]
        if command["operands"] and not command["operands"].startswith("["):
            cases.append([name])
        for args in cases:
            p = run(args)
            lines = p.stderr.splitlines()
            check("%s: refused in the one form" % " ".join(args), p.returncode == 2 and
                  len(lines) >= 2 and lines[0].startswith("memsweep") and name in lines[0] and
                  not lines[0].startswith("Usage") and
                  lines[-1] == "Try 'memsweep %s --help'." % name, p.stderr[:300])

# The engine's messages (the supervisor's of its processes, the atomic
# file's) reach the user through the command line's one message function,
# "memsweep CMD: ...": no sentence of the engine begins "memsweep: ".
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "engine")
for folder, _, names in os.walk(root):
    for n in sorted(names):
        if n.endswith(".c"):
            with open(os.path.join(folder, n), encoding="utf-8") as f:
                text = f.read()
            check("%s: no message begins 'memsweep: '" % n, '("memsweep: ' not in text)

# A process's words said by the command that started it carry one lead:
# no GPU to be seen, each command that starts processes says so once
# ("memsweep compare: no usable CUDA device", not "... memsweep run: ...").
env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
with tempfile.TemporaryDirectory() as d:
    for args in (["run", "--grade"], ["compare", "--live"], ["siblings"],
                 ["run", "--processes", "2", "--modes", "pinned"]):
        p = subprocess.run([memsweep] + args + ["--out", os.path.join(d, "x")]
                           if args[0] == "run" else [memsweep] + args, capture_output=True,
                           text=True, env=env, cwd=d, timeout=120)
        check("%s without a GPU: exit 3, one lead" % " ".join(args),
              p.returncode == 3 and p.stderr.count("memsweep") - p.stderr.count("'memsweep") ==
              p.stderr.count("\n"), p.stderr[:300])

print("cli-conventions: %d failed" % fails)
sys.exit(1 if fails else 0)
