#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# installed-targets.py BUILDDIR < `meson introspect --targets BUILDDIR`:
# prints the ninja names of the targets that `meson install` installs, so
# debian/rules builds those and leaves the test programs out.
import json
import os
import sys

build = os.path.abspath(sys.argv[1])
names = []
for target in json.load(sys.stdin):
    if target.get("installed"):
        names += [os.path.relpath(f, build) for f in target["filename"]]
print(" ".join(names))
