#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-mnemonics.py SOURCE_ROOT: an Alt+letter reaches one control.

The header bar (ui/ms-window.ui) and the settings pane
(ui/ms-settings-pane.ui) are on screen beside every page, so their
mnemonics must differ from each other, from every page's, and from the
application's Alt accelerators (ui/ms-application.c). Where two share a
letter GTK only moves the focus between them on each press: a user who
pressed Alt+T for the Compare page's threshold and typed 10 set the next
sweep's largest size instead. The clashes below are known and kept: the
README documents the chart's Alt+S and Alt+R, and the Devices page's own
Run, Stop and Direction are the multi-GPU counterparts of the header's."""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
ALWAYS = ("ui/ms-window.ui", "ui/ms-settings-pane.ui")
KNOWN = {("ui/ms-chart-page.ui", "s"), ("ui/ms-chart-page.ui", "r"),
         ("ui/ms-devices-page.ui", "r"), ("ui/ms-devices-page.ui", "s"),
         ("ui/ms-devices-page.ui", "d"), ("ui/ms-devices-page.ui", "o"),
         ("ui/ms-devices-page.ui", "p"), ("ui/ms-lessons-page.ui", "d")}


def mnemonics(path):
    """(letter, label) of every label that underlines one."""
    found = []
    for obj in ET.parse(os.path.join(ROOT, path)).getroot().iter("object"):
        props = {p.get("name"): p.text or "" for p in obj.findall("property")}
        m = re.search(r"_(\w)", props.get("label", ""))
        if m and props.get("use-underline", "").lower() in ("true", "1", "yes"):
            found.append((m.group(1).lower(), props["label"]))
    return found


def accelerators():
    with open(os.path.join(ROOT, "ui/ms-application.c"), encoding="utf-8") as f:
        return {k.lower(): f"<Alt>{k}" for k in re.findall(r'"<Alt>(\w)"', f.read())}


failures = []
taken = dict(accelerators())
for path in ALWAYS:
    for letter, label in mnemonics(path):
        if letter in taken:
            failures.append(f"{path}: {label} shares Alt+{letter.upper()} with {taken[letter]}")
        taken[letter] = label
pages = sorted(glob.glob(os.path.join(ROOT, "ui/*-page.ui")))
for page in (os.path.relpath(p, ROOT) for p in pages):
    own = {}
    for letter, label in mnemonics(page):
        other = own.get(letter) or ((page, letter) not in KNOWN and taken.get(letter))
        if other:
            failures.append(f"{page}: {label} shares Alt+{letter.upper()} with {other}")
        own[letter] = label
# The main menu: a letter its items share only moves the focus between them ("Close Opened
# Run_s" and "Follow _System" once did).
for menu in ET.parse(os.path.join(ROOT, "ui/ms-window.ui")).getroot().iter("menu"):
    seen = {}
    for item in menu.iter("item"):
        label = next((a.text or "" for a in item.findall("attribute") if a.get("name") == "label"), "")
        m = re.search(r"_(\w)", label)
        if m and m.group(1).lower() in seen:
            failures.append(f"ui/ms-window.ui menu: {label} shares {m.group(1).upper()} with {seen[m.group(1).lower()]}")
        elif m:
            seen[m.group(1).lower()] = label
for f in failures:
    print("FAIL:", f)
print(f"mnemonics: {len(pages)} pages, {len(failures)} clashes")
sys.exit(1 if failures or not pages else 0)
