#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-docs.py MEMSWEEP BASH ZSH MAN [GTK GTK_MAN]: the man pages and the
shell completion the build wrote name every command and every option of
the option table, the table holds every option each command's --help
names, and the bash completion completes commands, options and values."""
import json
import os
import re
import shutil
import subprocess
import sys

memsweep, bash_file, zsh_file, man_file = sys.argv[1:5]
# Without the app (a command-line build), its page is not checked.
gtk, gtk_man = (sys.argv[5:7] + [None, None])[:2]
fails = 0


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + detail))
    fails += not ok


def output(*args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    env.pop("DISPLAY", None)
    return subprocess.run(args, env=env, capture_output=True, text=True).stdout


table = json.loads(output(memsweep, "__options"))
bash = open(bash_file, encoding="utf-8").read()
zsh = open(zsh_file, encoding="utf-8").read()
man = open(man_file, encoding="utf-8").read()

# The bash completion's list of commands and each command's options.
top = re.search(r"compgen -W '([^']*)'", bash).group(1).split()
for command in table["commands"]:
    name = command["name"]
    check("bash completes the command %s" % name, name in top)
    m = re.search(r"^  %s\) opts='([^']*)'" % re.escape(name), bash, re.M)
    bash_opts = m.group(1).split() if m else []
    zm = re.search(r"^  %s\)\n(.*?);;" % re.escape(name), zsh, re.M | re.S)
    zsh_block = zm.group(1) if zm else ""
    check("zsh completes the command %s" % name, "'%s:" % name in zsh and zm is not None)
    section = re.search(r'^\.SS "memsweep %s \[OPTIONS\].*?"\n(.*?)(?=^\.S[SH] )' %
                        re.escape(name.replace("-", "\\-")), man, re.M | re.S)
    man_block = section.group(1) if section else ""
    check("the man page describes %s" % name, section is not None)
    options = {o["name"] for o in command["options"]}
    for option in sorted(options):
        check("bash completes %s --%s" % (name, option), "--" + option in bash_opts)
        check("zsh completes %s --%s" % (name, option), "'--%s" % option in zsh_block)
        check("the man page lists %s --%s" % (name, option),
              "\\fB\\-\\-%s\\fR" % option.replace("-", "\\-") in man_block)
    # The table against what the command's own usage names (another
    # program's options, as sbatch's, are not memsweep's).
    help_text = output(memsweep, name, "--help")
    check("%s has a parser (its --help says something)" % name, help_text.strip() != "")
    named = set(re.findall(r"(?<!sbatch )(?<![\w-])--([a-z][a-z0-9-]+)", help_text))
    for option in sorted(named - options):
        check("%s's table has --%s, which its --help names" % (name, option), False)

# Both completions are scripts their shells take.
for shell, path in (("bash", bash_file), ("zsh", zsh_file)):
    if shutil.which(shell):
        p = subprocess.run([shell, "-n", path], capture_output=True, text=True)
        check("%s reads its completion" % shell, p.returncode == 0, p.stderr.strip())
    else:
        print("skip: no %s to read its completion" % shell)

# The bash completion at work.
if shutil.which("bash"):
    def complete(*words):
        script = ('source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _memsweep; '
                  'printf "%%s\\n" "${COMPREPLY[@]}"' %
                  (bash_file, " ".join("'%s'" % w for w in words), len(words) - 1))
        return subprocess.run(["bash", "-c", script], capture_output=True,
                              text=True).stdout.split()
    check("memsweep com<TAB> is compare", complete("memsweep", "com") == ["compare"])
    check("memsweep compare --thr<TAB> is --threshold",
          complete("memsweep", "compare", "--thr") == ["--threshold"])
    check("memsweep show --format <TAB> is table, json, csv, markdown or text (table's older name)",
          complete("memsweep", "show", "--format", "") == ["table", "json", "csv", "markdown",
                                                           "text"])
    check("memsweep run --order <TAB> names the issue orders",
          complete("memsweep", "run", "--order", "") == ["depth", "breadth"])

# docs/cli.md's table of output flags per command is the option table's:
# a row per command, a mark where the command takes the flag.
cli_md = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                           "cli.md"), encoding="utf-8").read()
m = re.search(r"<!-- flag-table -->\n(.*?)<!-- /flag-table -->", cli_md, re.S)
check("docs/cli.md has the flag table", m is not None)
rows = [[c.strip() for c in line.strip().strip("|").split("|")]
        for line in (m.group(1).splitlines() if m else [])]
head, rows = (rows[0], rows[2:]) if len(rows) > 2 else ([], [])
flags = [h.strip("`")[2:] for h in head[1:] if h.startswith("`--")]
documented = {r[0].strip("`"): r for r in rows}
for command in table["commands"]:
    if command.get("hidden"):
        continue
    name = command["name"]
    row = documented.pop(name, None)
    check("docs/cli.md's flag table has %s" % name, row is not None)
    if row is None:
        continue
    takes = {o["name"] for o in command["options"]}
    for i, flag in enumerate(flags):
        check("docs/cli.md: %s %s --%s" % (name, "takes" if flag in takes else "lacks", flag),
              (row[1 + i] != "") == (flag in takes), "the table says %r" % row[1 + i])
check("docs/cli.md's flag table names no other command", not documented, ", ".join(documented))
check("docs/cli.md's flag table has the output flags",
      flags == ["format", "export-json", "export-csv", "export-markdown", "quiet", "verbose"],
      repr(flags))

# ENVIRONMENT, FILES and EXAMPLES come from the table --help prints too:
# every variable memsweep reads is in both.
usage = output(memsweep, "--help")
for section, key in (("ENVIRONMENT", "environment"), ("FILES", "files"), ("EXAMPLES", "examples")):
    check("the man page has %s" % section, ".SH %s\n" % section in man)
    check("the table has %s to list" % key, len(table[key]) > 0)
for note in table["environment"]:
    name = note["name"].split(",")[0]
    check("the man page names %s" % name, name in man)
    check("memsweep --help names %s" % name, name in usage)
for name in ("MEMSWEEP_EXPERIMENT", "MEMSWEEP_PROFILES_DIR", "MEMSWEEP_REFERENCE_DIR",
             "MEMSWEEP_ENVELOPES", "TMPDIR", "XDG_DATA_HOME"):
    check("the environment lists %s" % name, any(n["name"] == name for n in table["environment"]))
# Values complete where they are names: modes, figures, lessons.
modes = output(memsweep, "modes").split()
compare = next(c for c in table["commands"] if c["name"] == "compare")
mode_option = next(o for o in compare["options"] if o["name"] == "mode")
check("compare --mode offers the modes", "pinned" in mode_option["choices"] and
      "all" not in mode_option["choices"])
lesson = next(c for c in table["commands"] if c["name"] == "lesson")
check("lesson offers its lessons", "reuse" in lesson["operand_choices"])
check("zsh completes the lessons", "reuse" in zsh and "issue-order" in zsh)
fish_file = os.path.join(os.path.dirname(bash_file), "memsweep.fish")
fish = open(fish_file, encoding="utf-8").read()
for command in table["commands"]:
    check("fish completes %s" % command["name"],
          "-a %s -d" % command["name"] in fish)
check("fish completes compare --mode's values", re.search(
    r"__fish_seen_subcommand_from compare' -l mode .* -x -a '[^']*pinned", fish) is not None)
if shutil.which("bash"):
    check("memsweep lesson issue-o<TAB> is issue-order",
          complete("memsweep", "lesson", "issue-o") == ["issue-order"])

# The pages render without a warning; memsweep-gtk's names its options.
if shutil.which("man"):
    for page in filter(None, (man_file, gtk_man)):
        warnings = subprocess.run(["man", "--warnings", "-l", page], capture_output=True,
                                  text=True, env=dict(os.environ, MANWIDTH="80")).stderr
        check("%s renders without warnings" % os.path.basename(page), warnings.strip() == "")
# memsweep --help, every command's --help, the man page and docs/cli.md
# agree: each command's --help names each option the table gives it and
# ends with the manual's name and where to report bugs, as memsweep --help
# does; the man page and docs/cli.md name every command and option.
bug = re.search(r"Report bugs at (\S+)\.$", usage, re.M)
check("memsweep --help names the manual and where to report bugs",
      bug is not None and "man memsweep" in usage)
for command in table["commands"]:
    name = command["name"]
    text = output(memsweep, name, "--help")
    check("memsweep --help lists %s" % name, re.search(r"^  %s\b" % re.escape(name), usage, re.M)
          is not None)
    check("%s --help ends with the manual and the bug report line" % name,
          bug is not None and text.rstrip().endswith("Report bugs at %s." % bug.group(1)))
    for option in command["options"]:
        o = option["name"]
        if o in ("help", "version"):
            continue
        # run's settings too, where a command takes them (calibrate).
        check("%s --help names --%s" % (name, o), "--" + o in text)
        check("docs/cli.md names %s --%s" % (name, o), "--" + o in cli_md)
    check("docs/cli.md names %s" % name, re.search(r"\b%s\b" % re.escape(name), cli_md) is not None)
# Each command's --help is printed from the table the man page is
# written from: its usage line is the man page's heading of the command,
# its summary the heading's sentence, and each option's line the man
# page's entry for it, word for word.
def unroff(text):
    return re.sub(r"\\f[BIR]", "", text).replace("\\-", "-").replace("\\(aq", "'")


for command in table["commands"]:
    name = command["name"]
    lines = output(memsweep, name, "--help").splitlines()
    m = re.search(r'^\.SS "(memsweep %s \[OPTIONS\].*?)"\n(.*)\.\n' %
                  re.escape(name.replace("-", "\\-")), man, re.M)
    check("%s --help's usage line is the man page's heading" % name,
          m is not None and lines[:2] == ["Usage: " + unroff(m.group(1)), unroff(m.group(2))],
          repr(lines[:2]))
    entries = {}
    for head, text in re.findall(r"^\.TP\n(.*)\n(.*)$", man[m.end():] if m else "", re.M):
        entries.setdefault(unroff(head), unroff(text))
    for option in command["options"]:
        if option["name"] in ("help", "version") or not re.search(r"^  --%s\b" % re.escape(
                option["name"]), "\n".join(lines), re.M):
            continue
        # An entry: its line and the lines under it (a sweep setting's
        # range and default, from the engine's table, end it).
        head = "--%s%s" % (option["name"], " " + option["value"] if option["value"] else "")
        at = next((i for i, l in enumerate(lines) if l.startswith("  " + head + " ")), None)
        entry = []
        for i, l in enumerate(lines[at:] if at is not None else []):
            if i and not l.startswith(" " * 23):
                break
            entry.append(l)
        text = " ".join(" ".join(entry).split())[len(head) + 1:].lstrip()
        want = entries.get(head)
        check("%s --help's entry of --%s is the man page's" % (name, option["name"]),
              want is not None and text.startswith(want), "%r against %r" % (text, want))
check("docs/cli.md says --version prints the licence", "GPL-3.0-or-later" in cli_md)
check("memsweep --version has its licence line",
      "GPL-3.0-or-later" in output(memsweep, "--version"))

if gtk:
    gtk_page = open(gtk_man, encoding="utf-8").read()
    gtk_help = output(gtk, "--help").split("Application Options:")[-1]
    gtk_options = re.findall(r"^\s+--([a-z][\w-]*)", gtk_help, re.M)
    check("memsweep-gtk has options to list", len(gtk_options) > 0)
    for option in gtk_options:
        check("memsweep-gtk.1 lists --%s" % option,
              "\\fB\\-\\-%s\\fR" % option.replace("-", "\\-") in gtk_page)

if fails:
    print("%d check(s) failed" % fails)
sys.exit(1 if fails else 0)
