#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-focus-chain.py SOURCE_ROOT: no label of the .ui files traps Tab.

A selectable label kept out of the keyboard's way with focusable=False
still answers GTK 4.8's focus search (it claims Tab without taking the
focus), so Tab stops before it: the Compare page's threshold kept the
focus and its table could not be reached. Such a label needs
can-focus=False as well (tests/ui/test-widget-compare-page.c walks the
real chain on that page)."""
import glob
import os
import sys
import xml.etree.ElementTree as ET

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
failures = []
files = sorted(glob.glob(os.path.join(ROOT, "ui", "*.ui")))
for path in files:
    for obj in ET.parse(path).getroot().iter("object"):
        if obj.get("class") != "GtkLabel":
            continue
        props = {p.get("name"): (p.text or "").lower() for p in obj.findall("property")}
        if (props.get("selectable") == "true" and props.get("focusable") == "false"
                and props.get("can-focus") != "false"):
            failures.append(f"{os.path.relpath(path, ROOT)}: label {obj.get('id')} is selectable "
                            "and not focusable, but still in the focus chain (can-focus)")
for f in failures:
    print("FAIL:", f)
print(f"focus chain: {len(files)} files, {len(failures)} traps")
sys.exit(1 if failures or not files else 0)
