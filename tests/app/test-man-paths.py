#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-man-paths.py MEMSWEEP CLI_DOCS MAN PKGDATADIR: the man page's FILES
names the folder of the shipped data as the build configured it
(PKGDATADIR: prefix, datadir), where the built memsweep looks too; and
the page written for two other prefixes (/usr and /usr/local) names each
its own folder, never the other's."""
import os
import re
import subprocess
import sys
import tempfile

memsweep, cli_docs, man_file, pkgdatadir = sys.argv[1:5]
fails = 0
SHIPPED = ("profiles/", "reference/", "envelopes.csv")


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + detail))
    fails += not ok


def files_section(page):
    m = re.search(r"^\.SH FILES\n(.*?)(?=^\.SH )", page, re.M | re.S)
    return m.group(1).replace("\\-", "-") if m else ""


def check_page(page, folder, other=None):
    files = files_section(page)
    check("the man page has FILES", files != "")
    for name in SHIPPED:
        check("FILES names %s/%s" % (folder, name), "\\fB%s/%s\\fR" % (folder, name) in files)
    named = set(re.findall(r"\\fB(/[^\\]*?/memsweep)/", files))
    check("FILES names no other data folder than %s" % folder, named == {folder},
          ", ".join(sorted(named)))
    check("FILES leaves no @pkgdatadir@", "@pkgdatadir@" not in page)
    if other:
        check("the page for %s does not name %s" % (folder, other), other + "/" not in files)


# The build's page, and the built memsweep looks in the same folder.
check_page(open(man_file, encoding="utf-8").read(), pkgdatadir)
binary = open(memsweep, "rb").read()
for name in ("reference", "profiles", "envelopes.csv"):
    check("memsweep looks for %s in %s" % (name, pkgdatadir),
          ("%s/%s\0" % (pkgdatadir, name)).encode() in binary)

# Two prefixes: the generator writes each one's folder.
with tempfile.TemporaryDirectory() as tmp:
    folders = ("/usr/share/memsweep", "/usr/local/share/memsweep")
    for folder, other in zip(folders, reversed(folders)):
        out = os.path.join(tmp, "memsweep.1")
        p = subprocess.run([sys.executable, cli_docs, "man", memsweep, out, folder],
                           capture_output=True, text=True)
        check("the page for %s is written" % folder, p.returncode == 0, p.stderr.strip())
        if p.returncode == 0:
            check_page(open(out, encoding="utf-8").read(), folder, other)
    p = subprocess.run([sys.executable, cli_docs, "man", memsweep, os.path.join(tmp, "x.1")],
                       capture_output=True, text=True)
    check("the generator refuses a man page without the data folder", p.returncode != 0)

if fails:
    print("%d check(s) failed" % fails)
sys.exit(1 if fails else 0)
