#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-options.py MEMSWEEP CLI_MD: every command with every option of
the option table (`memsweep __options`), read by the one parser: misspelled,
abbreviated without its value (or a flag's abbreviation with one),
without a value, out of range, a value of the wrong kind (a word for a
number, none of the choices), given twice, and given to a command that
does not take it. Each is exit 2 with "memsweep COMMAND: ..." naming the
option, before any GPU is asked; the options that act only through
others are refused without them. Then the exit statuses: every command's
--help lists the table's, and docs/cli.md's table says the same."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

memsweep, cli_md = sys.argv[1:3]
fails = 0


def check(what, ok, detail=""):
    global fails
    if not ok:
        print("FAIL: " + what + (": " + detail if detail else ""))
    fails += not ok
    return ok


def run(args, **env):
    return subprocess.run([memsweep] + args, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, LC_ALL="C", LANGUAGE="", **env), timeout=60)


table = json.loads(run(["__options"]).stdout)
commands = {c["name"]: c for c in table["commands"]}

# A value out of range: a number far beyond any bound, for the options
# whose value is a count, an exponent, a percentage or a time. plot and
# lesson check theirs only once their operands are there (the files, the
# lesson), fleet once --dir is: those are left to their own tests.
OUT_OF_RANGE = "-99999999999"
NUMBERS = {"N", "E", "K", "R", "S", "I", "PCT", "SECONDS", "MS", "MINUTES", "N|all"}
CHECKED_LATER = {"plot", "report", "lesson", "fleet"}


# A value of the wrong kind, for every option that takes a typed value:
# a word where a number goes, a word that is none of the choices. The
# commands that check their values once their operands are there get
# those (a run's file, a lesson, --dir), so that the value is what fails.
BAD_VALUE = {"number": "abc", "choice": "bogus"}
REF_RUN = os.path.join(os.path.dirname(os.path.abspath(cli_md)), "..", "data", "reference",
                       "h100-default-samples.csv.gz")
SCRATCH = tempfile.mkdtemp(prefix="memsweep-options-")
OPERANDS = {"plot": [REF_RUN, "--view", "timeline", "--out", os.path.join(SCRATCH, "x.png")],
            "report": [REF_RUN, "--out", os.path.join(SCRATCH, "x.pdf")],
            "lesson": ["reuse", "--out", os.path.join(SCRATCH, "x")],
            "fleet": ["--dir", SCRATCH, "--dry-run"]}


def operands_but(cname, name):
    """The operands the command needs before it reads its values, less
    the option under test."""
    words, out = OPERANDS.get(cname, []), []
    i = 0
    while i < len(words):
        if words[i] == "--" + name:
            i += 2
            continue
        out.append(words[i])
        i += 1
    return out


def shortest_prefix(name, names):
    """The shortest abbreviation of name that no other of names begins."""
    for n in range(1, len(name)):
        if sum(other.startswith(name[:n]) for other in names) == 1:
            return name[:n]
    return None


cases = []  # (args, what, the option the message must name)
for cname, command in commands.items():
    names = [o["name"] for o in command["options"]]
    for option in command["options"]:
        name, takes = option["name"], option["value"] is not None
        if name == "help":
            continue
        cases.append(([cname, "--%szz" % name], "misspelled", "--%szz" % name))
        if takes:
            cases.append(([cname, "--" + name], "without a value", "--" + name))
            # An empty name or number is none (--out '' wrote "-samples.csv");
            # run options and sbatch's arguments are handed on as given.
            if option["value"] not in ("OPTIONS", "ARG"):
                cases.append(([cname, "--" + name, ""], "an empty value", "--" + name))
            short = shortest_prefix(name, names)
            if short:
                cases.append(([cname, "--" + short], "abbreviated without a value", "--" + short))
            if (option["value"] in NUMBERS and not option.get("needs") and
                    cname not in CHECKED_LATER):
                cases.append(([cname, "--" + name, OUT_OF_RANGE], "out of range", "--" + name))
        else:
            short = shortest_prefix(name, names)
            if short:
                cases.append(([cname, "--%s=1" % short], "a flag abbreviated with a value",
                              "--%s=1" % short))
        if not option.get("repeats") and takes:
            given = ["--" + name, "1"]
            cases.append(([cname] + given + given, "given twice", "--" + name))
        # One rule for every number, from the table: digits, no exponent.
        need = (option.get("needs") or [None])[0]
        flag = need and all(o["value"] is None for o in command["options"] if o["name"] == need)
        if option["kind"] == "number" and takes and (not need or flag):
            # Outputs of their own: a case that checks its value once its
            # output is held must not meet another holding the same one.
            ops = [w.replace(os.path.join(SCRATCH, "x"), os.path.join(SCRATCH, "e-" + name))
                   for w in operands_but(cname, name)]
            cases.append(([cname] + (["--" + need] if need else []) + ["--" + name, "1e3"] + ops,
                          "a number with an exponent", "--" + name))
        bad = ("bogus" if option["choices"] or (takes and "|" in option["value"])
               else BAD_VALUE.get(option["kind"]))
        if bad and not option.get("needs"):
            cases.append(([cname, "--" + name, bad] + operands_but(cname, name),
                          "a bad value", "--" + name))
    # Every other command's option this one does not take (nor begins).
    others = {o["name"] for c in commands.values() for o in c["options"]} - set(names)
    for other in sorted(others):
        if not any(n.startswith(other) for n in names):
            cases.append(([cname, "--" + other], "another command's option", "--" + other))


def judge(case):
    args, what, named = case
    p = run(args)
    first = p.stderr.splitlines()[0] if p.stderr else ""
    return (case, p.returncode == 2 and first.startswith("memsweep %s: " % args[0]) and
            named in first, "exit %d: %s" % (p.returncode, p.stderr.strip()[:200]))


with ThreadPoolExecutor(max_workers=2) as pool:
    results = list(pool.map(judge, cases))
kinds = {}
for (args, what, named), ok, detail in results:
    kinds[what] = kinds.get(what, 0) + 1
    check("%s (%s): exit 2 naming %s" % (" ".join(args), what, named), ok, detail)
for what, n in sorted(kinds.items()):
    print("ok   %d cases: %s" % (n, what))
check("a refused value wrote nothing", not os.listdir(SCRATCH), repr(os.listdir(SCRATCH)))
shutil.rmtree(SCRATCH)

# The cases of issue 83: exit 2 before any GPU is asked, not 3.
for args, named in ((["siblings", "--compress"], "--compress"),
                    (["siblings", "--budget", "1.5"], "--budget"),
                    (["siblings", "--devices", "a,b"], "--devices"),
                    (["siblings", "--devices", "0"], "--devices"),
                    (["siblings", "--run", "--reps banana"], "--reps"),
                    (["host-link", "--devices", "x"], "--devices"),
                    (["multi", "--devices", "x"], "--devices"),
                    (["calibrate", "--runs", "99"], "--runs"),
                    (["run", "--reps", "0"], "--reps"), (["info", "--device", "-1"], "--device"),
                    # Round ten: what the option names is checked, not taken.
                    (["siblings", "--gpu-experiment", "0:"], "--gpu-experiment"),
                    (["siblings", "--devices", "0,0"], "--devices"),
                    (["multi", "--devices", "1,0,1"], "--devices"),
                    (["siblings", "--run", "--export-json F.json"], "--export-json"),
                    (["siblings", "--run", "--modes 'host"], "--run"),
                    (["siblings", "--run", "--device 1"], "--device"),
                    (["compare", "--live", "--a", "--out x", "--b", ""], "--out"),
                    (["compare", "--live", "--a", "--processes 2", "--b", ""], "--processes"),
                    # Round eleven: one rule for a name in every command.
                    (["compare", "--live", "--budget", "1.5"], "--budget"),
                    (["lesson", "reuse", "--sizes", "20:20:0"], "STEP 1 or more"),
                    (["lesson", "reuse", "--sizes", "1e+06"], "whole size exponents"),
                    (["lesson", "reuse", "EXTRA"], "'EXTRA': one lesson at a time"),
                    (["fleet-report", "--openmetrics", "x.svg", "/nonexistent"],
                     "--openmetrics writes OpenMetrics")):
    p = run(args)
    check("%s: exit 2 naming %s" % (" ".join(args), named), p.returncode == 2 and
          p.stderr.startswith("memsweep %s: " % args[0]) and named in p.stderr, p.stderr)
for args in (["run", "--reps", "0"], ["calibrate", "--runs", "99"], ["info", "--device", "-1"]):
    p = run(args)
    check("%s: the range is named" % " ".join(args), re.search(r"from -?\d+ to \d+", p.stderr),
          p.stderr)
# A PREFIX names the files the command writes, in every refusal: --out -
# and --out X.csv say the command's own first file (peer's PREFIX-peer.csv).
FIRST = {"multi": "-multi.csv", "peer": "-peer.csv", "portable": "-portable.csv",
         "host-link": "-host-link.csv", "compare": "-a-samples.csv"}
for cname, command in commands.items():
    for option in command["options"]:
        if option["kind"] != "prefix":
            continue
        need = ["--" + n for n in option.get("needs") or []]
        for value in ("-", "x.csv"):
            args = [cname] + need + ["--" + option["name"], value] + operands_but(cname, "out")
            p = run(args)
            named = "PREFIX" + FIRST.get(cname, "-samples.csv")
            check("%s: exit 2 naming %s" % (" ".join(args), named), p.returncode == 2 and
                  p.stderr.startswith("memsweep %s: " % cname) and named in p.stderr, p.stderr)
# A lesson's min-KEY above its max-KEY is refused before any process
# starts, for every lesson that has such a pair.
lessons = json.loads(run(["lesson", "list", "--format", "json"]).stdout)["lessons"]
for lesson in lessons:
    keys = {o["key"]: o for o in lesson.get("options") or []}
    for key in keys:
        top = "max-" + key[4:]
        if not key.startswith("min-") or top not in keys:
            continue
        tmp = tempfile.mkdtemp(prefix="memsweep-options-")
        args = ["lesson", lesson["name"], "--option", "%s=%g" % (key, keys[top]["max"]),
                "--option", "%s=%g" % (top, keys[key]["min"]), "--out", os.path.join(tmp, "x")]
        p = run(args, TMPDIR=tmp)
        check("%s: exit 2 before any process" % " ".join(args[:6]), p.returncode == 2 and
              p.stderr.startswith("memsweep lesson: --option " + key) and not os.listdir(tmp),
              "exit %d: %s" % (p.returncode, p.stderr[:200]))
        shutil.rmtree(tmp)
# The switches every measuring process runs under are checked before the
# first one starts: exit 2 as run's, no process folder made.
for value in ("bogus", "inject=0"):
    for args in (["run", "--grade", "--modes", "host", "--min-exp", "8", "--max-exp", "8"],
                 ["compare", "--live", "--a", "--modes host --min-exp 8 --max-exp 8",
                  "--b", "--modes host --min-exp 8 --max-exp 8"]):
        tmp = tempfile.mkdtemp(prefix="memsweep-options-")
        p = run(args, MEMSWEEP_EXPERIMENT=value, TMPDIR=tmp)
        check("MEMSWEEP_EXPERIMENT=%s %s: exit 2 before any process" % (value, " ".join(args[:2])),
              p.returncode == 2 and p.stderr.startswith("memsweep %s: MEMSWEEP_EXPERIMENT" %
                                                        args[0]) and not os.listdir(tmp),
              "exit %d: %s" % (p.returncode, p.stderr[:200]))
        os.rmdir(tmp)
# show reads --form, --qui and --verb as the others do, and calibrate
# reads --run as its --runs, not as run's option.
for abbreviation in ("--form", "--qui", "--verb"):
    p = run(["show", abbreviation] + (["json"] if abbreviation == "--form" else []) + ["/nonexistent"])
    check("show %s is taken" % abbreviation, "option" not in p.stderr, p.stderr)
p = run(["calibrate", "--run", "1"])
check("calibrate --run 1 is --runs 1", p.returncode == 2 and "--runs" in p.stderr and
      "unrecognized" not in p.stderr, p.stderr)

# --help and --version are options like every other, read by the one
# parser: any abbreviation of them prints the whole help (its options, exit
# statuses, the manual's name and where to report bugs) or the version
# with its licence, on every command and alone.
for cname, command in list(commands.items()) + [(None, None)]:
    names = [o["name"] for o in command["options"]] if command else ["help", "version"]
    head = [cname] if cname else []
    full = run(head + ["--help"])
    check("%s --help: the manual and the bug report line" % (cname or "memsweep"),
          full.returncode == 0 and "man memsweep" in full.stdout and "Report bugs" in full.stdout,
          full.stdout[-300:])
    for name, want in (("help", full.stdout), ("version", None)):
        short = "--" + (shortest_prefix(name, names) or name)
        p = run(head + [short])
        ok = p.returncode == 0 and (p.stdout == want if want else
                                    p.stdout.startswith("memsweep ") and
                                    "GPL-3.0-or-later" in p.stdout)
        check("%s %s is --%s" % (cname or "memsweep", short, name), ok,
              "exit %d: %s" % (p.returncode, (p.stdout + p.stderr)[:200]))
# A word close to a command's or an option's name: the nearest is said.
for args, near in ((["shwo"], "show"), (["comapre"], "compare"),
                   (["show", "--fromat", "json"], "--format"), (["run", "--rpes", "3"], "--reps")):
    p = run(args)
    check("%s: the nearest name, %s, is said" % (" ".join(args), near),
          p.returncode == 2 and "did you mean %s?" % near in p.stderr, p.stderr)

# Run options handed on are read by run's parser, abbreviations too:
# fleet-node's run with --verb is verbose, not refused for a --quiet of
# its own beside it.
tmp = tempfile.mkdtemp(prefix="memsweep-options-")
p = subprocess.run([memsweep, "fleet-node", "--dir", "d", "--node", "n", "--", "--verb",
                    "--modes", "host", "--min-exp", "8", "--max-exp", "8", "--reps", "3"],
                   capture_output=True, text=True, cwd=tmp, timeout=120,
                   env=dict(os.environ, LC_ALL="C", LANGUAGE="", TMPDIR=tmp))
check("fleet-node -- --verb: the run is verbose, exit 0",
      p.returncode == 0 and os.path.exists(os.path.join(tmp, "d", "n-samples.csv")),
      "exit %d: %s" % (p.returncode, p.stderr[-300:]))
shutil.rmtree(tmp)

# No option is accepted that does nothing: refused before any work, exit
# 2, naming it, nothing written (the class: an option whose effect the
# others given leave without an object).
REF = os.path.join(os.path.dirname(os.path.abspath(cli_md)), "..", "data", "reference")
R1, R2 = (os.path.join(REF, "h100-default-%d-samples.csv.gz" % i) for i in (1, 2))
HOST = ["--modes", "host", "--min-exp", "8", "--max-exp", "8", "--reps", "3"]
for args, named in [(["show", R1, "--out", x, "--compress"], "--compress")
                    for x in ("X.json", "X.md", "X.txt", "X")] + [
        (["lesson", "list", "--compress"], "--compress"), (["lesson", "list", "--out", "F"], "--out"),
        (["lesson", "list", "--reps", "3"], "--reps"),
        (["run", *HOST, "--profile", "P", "--no-profile"], "--no-profile"),
        (["compare", R1, R2, "--export-json", "-", "--format", "csv"], "--format csv"),
        (["run", *HOST, "--out", "named.csv"], "named.csv"),
        (["multi", "--out", "x.json"], "x.json")]:
    tmp = tempfile.mkdtemp(prefix="memsweep-options-")
    p = subprocess.run([memsweep] + args, capture_output=True, text=True, cwd=tmp,
                       env=dict(os.environ, LC_ALL="C", LANGUAGE="", TMPDIR=tmp), timeout=60)
    check("%s: exit 2 naming %s, nothing written" % (" ".join(args[:1] + args[2:]), named),
          p.returncode == 2 and p.stderr.startswith("memsweep %s: " % args[0]) and
          named in p.stderr.splitlines()[0] and not os.listdir(tmp),
          "exit %d: %s; %s" % (p.returncode, p.stderr[:200], os.listdir(tmp)))
    shutil.rmtree(tmp)

# The exit statuses: --help, the table and docs/cli.md agree.
def help_exits(cname):
    text = run([cname, "--help"]).stdout
    block = text[text.index("Exit status:"):] if "Exit status:" in text else ""
    found, last = [], None
    for line in block.splitlines()[1:]:
        m = re.match(r"^  (\d+|128\+N)\s+(.*)$", line)
        if m:
            found.append([m.group(1), m.group(2)])
        elif line.startswith("         ") and found:
            found[-1][1] += " " + line.strip()
        elif not line.strip():
            break
    return found


doc = open(cli_md).read()
section = doc.partition("<!-- exit-statuses -->")[2].partition("<!-- /exit-statuses -->")[0]
rows = dict(re.findall(r"^\| `([a-z-]+)` \| (.*) \|$", section, re.M))
for cname, command in commands.items():
    want = [[e["code"], e["meaning"]] for e in command["exit_statuses"]]
    check("%s --help lists its exit statuses" % cname, help_exits(cname) == want,
          repr(help_exits(cname)))
    line = "; ".join("%s %s" % (code, meaning) for code, meaning in want)
    check("docs/cli.md gives %s's exit statuses as --help does" % cname,
          rows.get(cname) == line, "%r != %r" % (rows.get(cname), line))
codes = {e["code"] for c in commands.values() for e in c["exit_statuses"]}
check("compare's 5 is listed", "5" in {e["code"] for e in commands["compare"]["exit_statuses"]})
print("cli-options: %d cases, %d failed" % (len(cases), fails))
sys.exit(1 if fails else 0)
