#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-completion.py MEMSWEEP BASH ZSH FISH: bash, zsh and fish, each
running the completion the build wrote, complete every value the option
table names (`memsweep __options`: --format, --view, --modes, --lesson, the
lessons ...) and each item of a comma list (--modes pinned,ma<TAB>), and
plot takes every view they offer. A shell that is not installed is
skipped, and said so; none is faked."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

memsweep, bash_file, zsh_file, fish_file = sys.argv[1:5]
fails = 0


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + detail))
    fails += not ok


def env():
    e = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    e.pop("DISPLAY", None)
    return e


table = json.loads(subprocess.run([memsweep, "__options"], env=env(), capture_output=True,
                                  text=True, check=True).stdout)


def values_of(option):
    """What the table says an option takes: its list, else the lower-case
    words of a value such as png|svg|pdf or N|all."""
    if option["choices"]:
        return option["choices"]
    words = (option["value"] or "").split("|")
    return [w for w in words if len(words) > 1 and re.fullmatch(r"[a-z0-9-]+", w)]


# The lines to complete and the words each must give, exactly.
cases = []
for command in table["commands"]:
    for option in command["options"]:
        values = values_of(option)
        if not values:
            continue
        line = "memsweep %s --%s " % (command["name"], option["name"])
        cases.append((line, values))
        if option.get("comma_list"):
            # After an item and a comma: the others ("all" stands alone),
            # then one of those by its start.
            first, rest = values[0], [v for v in values[1:] if v != "all"]
            cases.append((line + first + ",", [first + "," + v for v in rest]))
            start = rest[-1][:2]
            cases.append((line + first + "," + start,
                          [first + "," + v for v in rest if v.startswith(start)]))
    if command["operand_choices"]:
        cases.append(("memsweep %s " % command["name"], command["operand_choices"]))
# help COMMAND completes the commands, not files.
cases.append(("memsweep help ", [c["name"] for c in table["commands"]]))
check("the table names values to complete", len(cases) > 10, str(len(cases)))
check("plot --view's values are in the table", any(
    line == "memsweep plot --view " for line, _ in cases) or
    not any(c["name"] == "plot" for c in table["commands"]))
check("a comma list is in the table", any("," in line for line, _ in cases))


def bash_complete(line):
    words = line.split(" ")
    script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _memsweep; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    return subprocess.run(["bash", "-c", script, "bash", bash_file] + words, env=env(),
                          capture_output=True, text=True).stdout.split()


def fish_complete(line):
    out = subprocess.run(["fish", "--no-config", "-c", 'source $argv[1]; complete -C $argv[2]',
                          fish_file, line], env=env(), capture_output=True, text=True).stdout
    return [row.split("\t")[0] for row in out.splitlines() if row]


# zsh completes only in its line editor: an interactive zsh in a pseudo
# terminal (zsh/zpty) gets each line and a TAB; compadd, wrapped, writes
# the words it is given, and a function run after each completion a mark.
ZSH_DRIVER = r'''
zmodload zsh/zpty || exit 2
dir=$1 out=$2
shift 2
: > $out
zpty c zsh -f -i
zpty -w c "PS1=''; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w c "compadd () { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a hits; builtin compadd -A hits \"\$@\"; (( \$#hits )) && print -rl -- \"\$IPREFIX\"\${^hits} >> $out; builtin compadd \"\$@\"; }"
zpty -w c "mark_ () { print -r -- __MARK__ >> $out; comppostfuncs=(mark_); }; comppostfuncs=(mark_); bindkey '^I' complete-word"
integer n=0
for line in "$@"; do
  (( n++ ))
  zpty -w -n c "$line"$'\t'
  for i in {1..600}; do
    (( $(grep -c __MARK__ $out) >= n )) && break
    sleep 0.05
  done
  zpty -w -n c $'\C-u'
done
zpty -d c
'''


def zsh_complete_all(lines):
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(zsh_file, os.path.join(tmp, "_memsweep"))
        driver, out = os.path.join(tmp, "driver.zsh"), os.path.join(tmp, "out")
        with open(driver, "w", encoding="utf-8") as f:
            f.write(ZSH_DRIVER)
        subprocess.run(["zsh", "-f", driver, tmp, out] + lines, env=env(), timeout=600)
        text = open(out, encoding="utf-8").read()
    answers = [block.split() for block in text.split("__MARK__")]
    return answers[:len(lines)] + [None] * (len(lines) - len(answers[:len(lines)]))


shells = {"bash": bash_complete, "fish": fish_complete}
for shell, complete in shells.items():
    if not shutil.which(shell):
        print("skip: no %s here to complete with" % shell)
        continue
    for line, want in cases:
        got = complete(line)
        check("%s: %s<TAB>" % (shell, line), sorted(got) == sorted(want),
              "got %s" % " ".join(got))
if shutil.which("zsh"):
    for (line, want), got in zip(cases, zsh_complete_all([line for line, _ in cases])):
        check("zsh: %s<TAB>" % line, got is not None and sorted(got) == sorted(want),
              "got %s" % (" ".join(got) if got is not None else "nothing (no mark)"))
else:
    print("skip: no zsh here to complete with")

# plot takes every view offered: none is refused as a view (a made-up
# one is, with that message), whatever the file then says.
plot = next((c for c in table["commands"] if c["name"] == "plot"), None)
views = next((o["choices"] for o in plot["options"] if o["name"] == "view"), []) if plot else []
with tempfile.TemporaryDirectory() as tmp:
    def refused_as_view(view):
        p = subprocess.run([memsweep, "plot", "--view", view, "--out", os.path.join(tmp, "a.png"),
                            os.path.join(tmp, "none.csv")], env=env(), capture_output=True,
                           text=True)
        return "--view: '%s'" % view in p.stderr
    if plot:
        check("plot refuses a made-up view", refused_as_view("no-such-view"))
    for view in views:
        check("plot takes the view %s" % view, not refused_as_view(view))
# lesson takes the word that lists the lessons, which it offers too.
p = subprocess.run([memsweep, "lesson", "list"], env=env(), capture_output=True, text=True)
check("memsweep lesson list lists the lessons", p.returncode == 0 and "reuse" in p.stdout)

if fails:
    print("%d check(s) failed" % fails)
sys.exit(1 if fails else 0)
