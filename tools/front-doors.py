#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/front-doors.py: the engine is entered through its front doors, and
no includes run in a circle.

Fails (exit 1, one line per miss) when
- app/, ui/ and draw/ together include more than 6 of the engine's headers
  (every .h under engine/, by its name or its path), or any header of
  engine/lessons/ (a lesson is reached through engine/ms-lessons.h);
- two files of one folder include each other: A includes B and B includes
  A, or A.c includes B.h while B.c includes A.h (two files calling into
  each other).

Prints the engine headers included from outside, with the count of files
that include each.

    python3 tools/front-doors.py    # from the source root; the data suite runs it
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTSIDE = ("app", "ui", "draw")
MAX_DOORS = 6
SOURCES = (".c", ".h", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return INCLUDE.findall(f.read())


def tree(top):
    for root, dirs, files in os.walk(os.path.join(ROOT, top)):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(SOURCES):
                yield root, name


def engine_headers():
    """Each engine header's name, with whether it is a lesson's."""
    found = {}
    for root, name in tree("engine"):
        if name.endswith(".h"):
            room = os.path.relpath(root, os.path.join(ROOT, "engine"))
            found[name] = room == "lessons"
    return found


def doors(misses):
    headers = engine_headers()
    used = {}
    for top in OUTSIDE:
        for root, name in tree(top):
            for inc in includes(os.path.join(root, name)):
                base = os.path.basename(inc)
                if base not in headers:
                    continue
                where = os.path.relpath(os.path.join(root, name), ROOT)
                used.setdefault(base, []).append(where)
                if headers[base]:
                    misses.append(f"{where}: includes the lesson header {inc} "
                                  "(use ms-lessons.h)")
    for base in sorted(used):
        print(f"{len(used[base]):4d} {base}")
    if len(used) > MAX_DOORS:
        misses.append(f"{len(used)} engine headers included from {', '.join(OUTSIDE)}; "
                      f"at most {MAX_DOORS}: {' '.join(sorted(used))}")


def circles(misses):
    for top in sorted(os.listdir(ROOT)):
        if top.startswith(".") or top == "build" or not os.path.isdir(os.path.join(ROOT, top)):
            continue
        folders = {}
        for root, name in tree(top):
            folders.setdefault(root, {})[name] = {os.path.basename(i)
                                                  for i in includes(os.path.join(root, name))}
        for root, files in folders.items():
            rel = os.path.relpath(root, ROOT)
            names = sorted(files)
            for a in names:
                for b in names:
                    if a < b and b in files[a] and a in files[b]:
                        misses.append(f"{rel}: {a} and {b} include each other")
            stems = {n[:-2] for n in names if n.endswith(".c")}
            for a in sorted(stems):
                for b in sorted(stems):
                    if a < b and b + ".h" in files[a + ".c"] and a + ".h" in files[b + ".c"]:
                        misses.append(f"{rel}: {a}.c and {b}.c include each other's header")


def main():
    misses = []
    doors(misses)
    circles(misses)
    for m in misses:
        print(m, file=sys.stderr)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
