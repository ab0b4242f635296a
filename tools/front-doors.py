#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/front-doors.py: the engine and the drawing library are entered
through their front doors, calls and includes point one way, and no files
depend on each other in a circle.

Fails (exit 1, one line per miss) when
- app/, ui/ and draw/ together include more than 6 of the engine's headers
  (every .h under engine/, by its name or its path), or any header of
  engine/lessons/ (a lesson is reached through engine/ms-lessons.h);
- app/ and ui/ together include more than 2 of draw/'s headers (its front
  door is draw/ms-drawing.h);
- a file calls a function defined in a higher room or folder (an upward
  call): the engine's rooms are, lowest first, its top folder, io/, devices/,
  model/, files/, analysis/, run/ and lessons/; the folders kernels/,
  engine/, draw/, ui/ and app/ (tests/, bench/ and tools/ use them all);
- a header declares a function defined in another room or folder (each
  room declares its own functions, in its own headers);
- files of kernels/, engine/, draw/, ui/ or app/ depend on each other in
  a circle of any length (a cycle): a file
  depends on the headers it includes and on the files defining the
  functions it calls (a header: in its inline code). Two files calling
  into each other are the shortest circle.
- a file of ui/ or app/gtk/ reads a file itself (GIO's reads, stdio,
  open or read): files are read through the engine's one reader
  (io/ms-input.h), bounded and gzip-aware; READS_ALLOWED names the few
  exceptions and why; or recognises a file itself (a string of a file
  kind's title line or header row: "# memsweep ...", "mode,..."): the
  engine's table of kinds (files/ms-file-kinds.c) tells a file's kind.

Prints the headers of each library included from outside it, with the
count of files that include each, then "N upward calls, M cycles".
Calls are found by name: a function is the one its unit defines (at the
start of a line, GNOME style, or through MS_DEFINE_FROM_NAME), and a call
is that name followed by "(" outside comments and strings.

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
# The layers, lowest first: folders, and the engine's rooms within it.
FOLDERS = ("kernels", "engine", "draw", "ui", "app")
ROOMS = (".", "io", "devices", "model", "files", "analysis", "run", "lessons")
DEFINITION = re.compile(r'^(static\b[^\n]*\n)?(?:MS_DEFINE_FROM_NAME \()?([a-z_][a-z0-9_]*)\s*\(', re.M)
CALL = re.compile(r'\b([a-z_][a-z0-9_]*)\s*\(')


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def includes(path):
    return INCLUDE.findall(read(path))


def code_of(text):
    """text without comments and string literals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


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


def unit_of(rel):
    """A file is its own unit: a.c depends on a.h, never the reverse,
    unless a.h's inline code calls into a.c."""
    return rel


def layer(rel):
    """(folder rank, room rank) of a source file; None outside the layers."""
    parts = rel.split(os.sep)
    if parts[0] not in FOLDERS:
        return None
    room = parts[1] if parts[0] == "engine" and len(parts) > 2 else "."
    return (FOLDERS.index(parts[0]), ROOMS.index(room) if room in ROOMS else 0)


def sources():
    """Every source file of the layered folders, by its path from ROOT."""
    found = []
    for top in FOLDERS:
        for root, name in tree(top):
            found.append(os.path.relpath(os.path.join(root, name), ROOT))
    return found


def resolve(rel, inc, by_name):
    """The file an include names: beside the includer, else by its path
    under a folder, else the one file of that name; None for others."""
    here = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
    if here in by_name.get(os.path.basename(inc), ()):
        return here
    candidates = [c for c in by_name.get(os.path.basename(inc), ()) if c.endswith(inc)]
    same = [c for c in candidates if c.split(os.sep)[0] == rel.split(os.sep)[0]]
    if len(same) == 1:
        return same[0]
    return candidates[0] if len(candidates) == 1 else None


def definitions(code):
    """The functions a file defines, and which of them are its own (static)."""
    found, static = set(), set()
    for m in DEFINITION.finditer(code):
        found.add(m.group(2))
        if m.group(1):
            static.add(m.group(2))
    return found, static


def calls(rel, code):
    """The names a file calls: in a header, only inside the bodies of its
    inline functions (its prototypes declare, they do not call; its macros
    call where they are used)."""
    if rel.endswith((".h", ".cuh")):
        # a macro calls where it is used, not where it is defined
        code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", code, flags=re.M)
        body, depth = [], 0
        for i, ch in enumerate(code):
            # a body opens after a parameter list: not a struct's, an
            # enum's or extern "C"'s brace
            if ch == "{" and (depth or code[:i].rstrip().endswith(")")):
                depth += 1
            elif ch == "}" and depth:
                depth -= 1
            body.append(ch if depth else " ")
        code = "".join(body)
    return set(CALL.findall(code))


def room_of(rel):
    """A file's room: its engine room, or its folder."""
    parts = rel.split(os.sep)
    return parts[1] if parts[0] == "engine" and len(parts) > 2 else parts[0]


def declared(code):
    """The names a header declares: its prototypes, outside macros and
    inline bodies."""
    code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", code, flags=re.M)
    return set(CALL.findall(code)) - calls("x.h", code)


def graph(files):
    """The units' edges, each with why, and the upward calls."""
    by_name = {}
    for rel in files:
        by_name.setdefault(os.path.basename(rel), []).append(rel)
    codes = {rel: code_of(read(os.path.join(ROOT, rel))) for rel in files}
    defined, own = {}, {}
    for rel in files:
        if rel.endswith((".c", ".cu")):
            found, static = definitions(codes[rel])
            own[rel] = found
            for name in found - static:
                defined.setdefault(name, rel)
    edges = {}
    upward, elsewhere = [], []
    for rel in files:
        src = unit_of(rel)
        if rel.endswith(".h"):
            for name in sorted(declared(codes[rel])):
                target = defined.get(name)
                if target and room_of(target) != room_of(rel):
                    elsewhere.append(f"{rel}: declares {name}, defined in {target} "
                                     "(its own room's header should)")
        for inc in includes(os.path.join(ROOT, rel)):
            target = resolve(rel, inc, by_name)
            if target and unit_of(target) != src:
                edges.setdefault(src, {}).setdefault(unit_of(target), f"includes {inc}")
        for name in sorted(calls(rel, codes[rel]) - own.get(rel, set())):
            target = defined.get(name)
            if not target or unit_of(target) == src:
                continue
            edges.setdefault(src, {}).setdefault(unit_of(target), f"calls {name}")
            if layer(target) > layer(rel):
                upward.append(f"{rel}: calls {name} of the higher {target}")
    return edges, upward, elsewhere


def cycles(edges):
    """The strongly connected units (Tarjan), each circle of two or more."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def describe(group, edges):
    """One circle through the group, each step with why."""
    members = set(group)
    path = [group[0]]
    while True:
        nxt = sorted(w for w in edges.get(path[-1], ()) if w in members)
        step = next((w for w in nxt if w not in path), None) or next(
            (w for w in nxt if w == path[0]), nxt[0])
        path.append(step)
        if step in path[:-1]:
            break
    start = path.index(path[-1])
    loop = path[start:]
    return " -> ".join(f"{a} ({edges[a][b]})" for a, b in zip(loop, loop[1:])) + f" -> {loop[-1]}"


# Reading a file in ui/ and app/gtk/ goes through the engine's one reader
# (io/ms-input.h: plain, gzip, bounded): no GIO, stdio or system call of
# their own. The process's own counters are no file of the user's.
READS = re.compile(r"\b(g_file_read|g_file_load_contents|g_file_load_bytes|g_file_get_contents|"
                   r"g_input_stream_read(?:_all|_bytes)?|g_zlib_decompressor_new|g_mapped_file_new|"
                   r"g_data_input_stream_new|fopen|fdopen|fread|gzopen|open|read|pread)\s*\(")
# A file kind's title line or header row, as a string: the table of kinds'.
RECOGNISES = re.compile(r'"(# memsweep |mode,)')
READS_ALLOWED = {
    "app/gtk/ms-startup-probe.c": "/proc/self/stat: the process's own counters",
    "ui/ms-runs-trash.c": "folders opened to move runs into the trash (renameat), no file read",
}


def file_reads():
    """Calls that read files, and strings that recognise them, in ui/ and
    app/gtk/, but through the engine."""
    found = []
    for top in ("ui", os.path.join("app", "gtk")):
        for folder, name in tree(top):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, ROOT)
            if rel in READS_ALLOWED or not rel.endswith(".c"):
                continue
            for m in READS.finditer(code_of(read(path))):
                found.append(f"{rel}: reads a file itself ({m.group(1)}): "
                             f"read through the engine (io/ms-input.h)")
            text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", read(path), flags=re.S)
            for m in RECOGNISES.finditer(text):
                found.append(f"{rel}: recognises a file itself ({m.group(1)}...): "
                             f"ask the engine (files/ms-file-kinds.h, files/ms-csv-pair.h)")
    return found


def main():
    reads = file_reads()
    misses = list(reads)
    for library, outside, most in LIBRARIES:
        doors(library, outside, most, misses)
    edges, upward, elsewhere = graph(sources())
    circles = cycles(edges)
    misses += upward + elsewhere
    misses += [f"cycle of {len(g)}: {describe(g, edges)}" for g in circles]
    print(f"{len(upward)} upward calls, {len(circles)} cycles, "
          f"{len(elsewhere)} functions declared outside their room, "
          f"{len(reads)} files read in ui/ or app/gtk/ but through the engine")
    for m in misses:
        print(m, file=sys.stderr)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
