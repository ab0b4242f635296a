#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/front-doors.py: the engine and the drawing library are entered
through their front doors, and no includes run in a circle.

Fails (exit 1, one line per miss) when
- app/, ui/ and draw/ together include more than 6 of the engine's headers
  (every .h under engine/, by its name or its path), or any header of
  engine/lessons/ (a lesson is reached through engine/ms-lessons.h);
- app/ and ui/ together include more than 2 of draw/'s headers (its front
  door is draw/ms-drawing.h);
- two files of one folder include each other: A includes B and B includes
  A, or A.c includes B.h while B.c includes A.h (two files calling into
  each other).

Prints the headers of each library included from outside it, with the
count of files that include each.

    python3 tools/front-doors.py    # from the source root; the data suite runs it
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Each library, the folders outside it that use it, and how many of its
# headers they may include.
LIBRARIES = (("engine", ("app", "ui", "draw"), 6), ("draw", ("app", "ui"), 2))
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


def headers_of(library):
    """Each header's name in library, with whether it is a lesson's."""
    found = {}
    for root, name in tree(library):
        if name.endswith(".h"):
            room = os.path.relpath(root, os.path.join(ROOT, library))
            found[name] = library == "engine" and room == "lessons"
    return found


def doors(library, outside, most, misses):
    headers = headers_of(library)
    used = {}
    for top in outside:
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
    print(f"{library}/ headers included from {', '.join(outside)}:")
    for base in sorted(used):
        print(f"{len(used[base]):4d} {base}")
    if len(used) > most:
        misses.append(f"{len(used)} {library}/ headers included from {', '.join(outside)}; "
                      f"at most {most}: {' '.join(sorted(used))}")


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
    for library, outside, most in LIBRARIES:
        doors(library, outside, most, misses)
    circles(misses)
    for m in misses:
        print(m, file=sys.stderr)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
