#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-docs.py KIND PROGRAM OUT [PKGDATADIR]: the man pages and the shell completion of
memsweep, written from what the programs say of themselves, so that they
name exactly what the parsers take.

KIND is man, bash, zsh or fish for `memsweep` (its option table, printed by
`memsweep __options` as JSON: data/schema/memsweep-options.json), or
man-gtk for `memsweep-gtk` (its GOption table, through its --help). Both
programs run in the C locale (UTF-8): the pages are in English.
PKGDATADIR, for man, is the folder of the data memsweep ships as the build
configured it (prefix, datadir): the FILES section names it where the
table says @pkgdatadir@."""
import json
import os
import re
import subprocess
import sys

SEE_ALSO = {"memsweep": "memsweep-gtk", "memsweep-gtk": "memsweep"}


def run(program, *args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", LANGUAGE="")
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    return subprocess.run([program, *args], env=env, check=True, capture_output=True,
                          text=True).stdout


def roff(text):
    """Text as roff reads it: backslashes, hyphens and leading dots."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def choices(option):
    """The values an option takes, where it names them: the table's list,
    else the lower-case words of its value ("png|svg|pdf", "N|all")."""
    if option.get("choices"):
        return option["choices"]
    value = option.get("value") or ""
    if re.fullmatch(r"[A-Za-z0-9-]+(\|[A-Za-z0-9-]+)+", value):
        return [word for word in value.split("|") if re.fullmatch(r"[a-z0-9-]+", word)]
    return []


# "all" stands alone in a list: after a comma, only the other items.
ALONE = "all"


def man_option(name, value, help_text):
    head = "\\fB\\-\\-%s\\fR" % roff(name)
    if value:
        head += " \\fI%s\\fR" % roff(value)
    return ".TP\n%s\n%s\n" % (head, roff(help_text))


def exit_line(statuses, shared):
    """A command's statuses: the code alone where it means what the shared
    list says, else the code and its meaning."""
    return "; ".join(e["code"] if e in shared else "%s %s" % (e["code"], e["meaning"])
                     for e in statuses)


def man_exit_status(table):
    """Every exit status: those the commands share, then each command's
    own list (its --help's), so that compare's 5 and fleet-report's codes
    are there too."""
    out = [".SH EXIT STATUS\n"]
    out += [".TP\n.B %s\n%s.\n" % (roff(e["code"]), roff(e["meaning"]))
            for e in table["exit_statuses"]]
    out.append(".PP\nEach command's own (a code alone means what is said above):\n")
    out += [".TP\n.B %s\n%s.\n" % (roff(c["name"]), roff(exit_line(c["exit_statuses"], table["exit_statuses"])))
            for c in table["commands"]]
    return "".join(out)


def man_cli(table, help_text, pkgdatadir):
    usage, _, rest = help_text.partition("\n\n")
    description, _, _ = rest.partition("\n\n")
    out = ['.TH MEMSWEEP 1 "" "memsweep %s" "User Commands"\n' % table["version"],
           ".SH NAME\nmemsweep \\- %s\n" % roff(description.strip().rstrip(".")),
           ".SH SYNOPSIS\n\\fBmemsweep\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n",
           ".SH DESCRIPTION\n%s\n" % roff(description.strip()),
           "Every command takes \\fB\\-h\\fR or \\fB\\-\\-help\\fR and prints its own usage.\n",
           ".SH COMMANDS\n"]
    for command in table["commands"]:
        synopsis = "memsweep %s [OPTIONS]" % command["name"]
        if command["operands"]:
            synopsis += " " + command["operands"]
        out.append('.SS "%s"\n%s.\n' % (roff(synopsis), roff(command["summary"])))
        for option in command["options"]:
            out.append(man_option(option["name"], option["value"], option["help"]))
    out.append(man_exit_status(table))
    for section, key in (("ENVIRONMENT", "environment"), ("FILES", "files")):
        out.append(".SH %s\n" % section)
        out += [".TP\n\\fB%s\\fR\n%s\n" % (roff(n["name"].replace("@pkgdatadir@", pkgdatadir)),
                                              roff(n["help"])) for n in table[key]]
    out.append(".SH EXAMPLES\n")
    out += [".TP\n.B %s\n%s.\n" % (roff(n["name"]), roff(n["help"][0].upper() + n["help"][1:]))
            for n in table["examples"]]
    out.append(".SH SEE ALSO\n\\fBmemsweep\\-gtk\\fR(1)\n")
    return "".join(out)


def man_gtk(program, help_text, version):
    lines = help_text.splitlines()
    synopsis = lines[1].strip()
    summary = lines[3].strip()
    options = []
    section = None
    for line in lines:
        if line.endswith("Options:"):
            section = line
            continue
        m = re.match(r"^\s+(?:-\w, )?--([\w-]+)(?:=(\S+))?\s{2,}(.*)$", line)
        if m and section == "Application Options:":
            options.append(m.groups())
    out = ['.TH MEMSWEEP\\-GTK 1 "" "%s" "User Commands"\n' % roff(version),
           ".SH NAME\nmemsweep\\-gtk \\- %s\n" % roff(summary.partition(". ")[0]),
           ".SH SYNOPSIS\n%s\n" % roff(synopsis),
           ".SH DESCRIPTION\n%s\n" % roff(summary),
           ".SH OPTIONS\n"]
    out += [man_option(name, value, text) for name, value, text in options]
    out.append(man_option("help", None, "Show the help options"))
    out.append(".SH SEE ALSO\n\\fBmemsweep\\fR(1)\n")
    return "".join(out)


def bash(table):
    out = ["# bash completion for memsweep, written from its option table",
           "# (memsweep __options) by tools/cli-docs.py.",
           "_memsweep() {",
           '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}',
           "  if [ \"$COMP_CWORD\" -eq 1 ]; then",
           "    COMPREPLY=($(compgen -W '%s help --help --version' -- \"$cur\"))" %
           " ".join(c["name"] for c in table["commands"]),
           "    return",
           "  fi",
           "  local opts='' values=''",
           '  case ${COMP_WORDS[1]} in']
    for command in table["commands"]:
        names = " ".join("--" + o["name"] for o in command["options"])
        out.append("  %s) opts='%s' ;;" % (command["name"], names))
    out += ["  esac", "  local list=''", '  case "${COMP_WORDS[1]} $prev" in']
    for command in table["commands"]:
        for option in command["options"]:
            if choices(option):
                out.append("  '%s --%s') values='%s'%s ;;" %
                           (command["name"], option["name"], " ".join(choices(option)),
                            "; list=1" if option.get("comma_list") else ""))
    out += ["  esac",
            '  if [ -z "$values" ] && [[ $cur != -* ]]; then',
            '    case ${COMP_WORDS[1]} in']
    for command in table["commands"]:
        if command.get("operand_choices"):
            out.append("    %s) values='%s' ;;" % (command["name"], " ".join(command["operand_choices"])))
    # help COMMAND: the commands, not files.
    out.append("    help) values='%s' ;;" % " ".join(c["name"] for c in table["commands"]))
    out += ['    esac',
            '  fi',
            '  if [ -n "$list" ]; then',
            '    # A comma list: the next item after the ones given (none twice,',
            '    # "%s" alone), and no space, for a comma to follow.' % ALONE,
            '    local head='' item rest=''',
            '    [[ $cur == *,* ]] && head=${cur%,*},',
            '    for item in $values; do',
            '      [[ ,$head == *,$item,* ]] || { [ -n "$head" ] && [ "$item" = %s ]; } ||' % ALONE,
            '        rest="$rest $item"',
            '    done',
            "    COMPREPLY=($(compgen -P \"$head\" -W \"$rest\" -- \"${cur##*,}\"))",
            '    compopt -o nospace 2>/dev/null',
            '  elif [ -n "$values" ]; then',
            "    COMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))",
            '  elif [[ $cur == -* ]]; then',
            "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))",
            "  else",
            "    COMPREPLY=($(compgen -f -- \"$cur\"))",
            "  fi",
            "}",
            "complete -o filenames -o bashdefault -F _memsweep memsweep",
            ""]
    return "\n".join(out)


def zsh_escape(text):
    return text.replace("\\", "\\\\").replace("'", "'\\''").replace("[", "\\[") \
               .replace("]", "\\]").replace(":", "\\:")


def zsh_action(value):
    """Files for a value that names one, folders for a folder, else none."""
    if value == "DIR":
        return "_files -/"
    if re.search(r"FILE|OUT|PREFIX|PROFILE|REPORT", value):
        return "_files"
    return " "


def zsh(table):
    out = ["#compdef memsweep",
           "# zsh completion for memsweep, written from its option table",
           "# (memsweep __options) by tools/cli-docs.py.",
           "_memsweep() {",
           "  local -a commands",
           "  commands=("]
    for command in table["commands"]:
        out.append("    '%s:%s'" % (command["name"], zsh_escape(command["summary"])))
    out.append("    'help:the usage of one command'")
    out += ["  )",
            "  if (( CURRENT == 2 )); then",
            "    _describe 'command' commands",
            "    return",
            "  fi",
            "  local command=$words[2]",
            "  shift words",
            "  (( CURRENT-- ))",
            "  case $command in",
            "  help)\n    _arguments '1:command:(%s)' ;;" %
            " ".join(c["name"] for c in table["commands"])]
    for command in table["commands"]:
        specs = []
        for option in command["options"]:
            spec = "--%s" % option["name"]
            help_text = zsh_escape(option["help"])
            if option["value"]:
                values = choices(option)
                if values and option.get("comma_list"):
                    # each item once, after commas, and "all" alone
                    items = ['"(%s)%s"' % (ALONE if v != ALONE else " ".join(values), v)
                             for v in values]
                    action = "_values -s , %s %s" % (option["name"], " ".join(items))
                elif values:
                    action = "(%s)" % " ".join(values)
                else:
                    action = zsh_action(option["value"])
                spec += "=[%s]:%s:%s" % (help_text, zsh_escape(option["value"]), action)
            else:
                spec += "[%s]" % help_text
            specs.append("'%s'" % spec)
        if command.get("operand_choices"):
            specs.append("'*:name:(%s)'" % " ".join(command["operand_choices"]))
        else:
            specs.append("'*:file:_files'")
        out.append("  %s)\n    _arguments \\\n      %s ;;" %
                   (command["name"], " \\\n      ".join(specs)))
    out += ["  esac", "}", "", '_memsweep "$@"', ""]
    return "\n".join(out)


def fish_escape(text):
    return text.replace("\\", "\\\\").replace("'", "\\'")


def fish(table):
    """fish's completion: commands, each one's options, and the values of
    those that name theirs."""
    names = " ".join(c["name"] for c in table["commands"])
    out = ["# fish completion for memsweep, written from its option table",
           "# (memsweep __options) by tools/cli-docs.py.",
           "complete -c memsweep -f",
           "# A comma list's next item: the values not given yet (\"%s\" alone)," % ALONE,
           "# after the items given.",
           "function __memsweep_list",
           "    set -l head (string match -r '^.*,' -- (commandline -ct))",
           "    set -q head[1]; or set head ''",
           "    set -l given (string split , -- $head)",
           "    for item in $argv",
           "        if not contains -- $item $given; and begin; test -z \"$head\"; or test $item != %s; end" % ALONE,
           "            echo $head$item",
           "        end",
           "    end",
           "end",
           "complete -c memsweep -n 'not __fish_seen_subcommand_from %s' -l help -d 'print the usage'" % names,
           "complete -c memsweep -n 'not __fish_seen_subcommand_from %s' -l version -d 'print the version'" % names]
    for command in table["commands"]:
        out.append("complete -c memsweep -n 'not __fish_seen_subcommand_from %s' -a %s -d '%s'" %
                   (names, command["name"], fish_escape(command["summary"])))
    out.append("complete -c memsweep -n 'not __fish_seen_subcommand_from %s help' -a help "
               "-d 'the usage of one command'" % names)
    out.append("complete -c memsweep -n '__fish_seen_subcommand_from help' -a '%s'" % names)
    for command in table["commands"]:
        seen = "__fish_seen_subcommand_from %s" % command["name"]
        if command.get("operand_choices"):
            out.append("complete -c memsweep -n '%s' -a '%s'" %
                       (seen, " ".join(command["operand_choices"])))
        elif command["operands"]:
            out.append("complete -c memsweep -n '%s' -F" % seen)
        for option in command["options"]:
            line = "complete -c memsweep -n '%s' -l %s -d '%s'" % (
                seen, option["name"], fish_escape(option["help"]))
            if option["value"]:
                values = choices(option)
                if values and option.get("comma_list"):
                    line += " -x -a '(__memsweep_list %s)'" % " ".join(values)
                elif values:
                    line += " -x -a '%s'" % " ".join(values)
                else:
                    line += " -r"
                if not values and zsh_action(option["value"]) != " ":
                    line += " -F"
            out.append(line)
    return "\n".join(out) + "\n"


def main():
    kind, program, path = sys.argv[1:4]
    if kind == "man-gtk":
        text = man_gtk(program, run(program, "--help"), run(program, "--version").strip())
    else:
        table = json.loads(run(program, "__options"))
        if kind == "man":
            if len(sys.argv) < 5:
                sys.exit("cli-docs.py: man needs PKGDATADIR, the configured data folder")
            text = man_cli(table, run(program, "--help"), sys.argv[4])
        elif kind == "bash":
            text = bash(table)
        elif kind == "zsh":
            text = zsh(table)
        elif kind == "fish":
            text = fish(table)
        else:
            sys.exit("cli-docs.py: unknown kind %r" % kind)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
