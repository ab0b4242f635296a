#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/check-citations.py: the documentation names only what the tree holds.

Fails (exit 1, one line per miss) when
- README.md, HACKING.md or docs/*.md cites a measurement log that is not in
  docs/measurements/: a `docs/measurements/...` path, a link to
  `measurements/...` from docs/, or in docs/measurements.md a log named by
  itself (`2026-11-22-h100-run2-bench.log`, `*-run2-targets.txt`,
  `lesson-costs.txt`);
- README.md, docs/architecture.md, HACKING.md or tools/README.md names a path that
  does not exist (`engine/run/ms-runner.c`, `tools/gpu.sh`), or a file
  (`ms-runner.c`, `run/ms-runner.c`) that no folder of the tree holds;
- docs/architecture.md still says a file is to come ("until it lands").

Braces expand (`{h100,h200}`), `*` and `?` match, and a word in capitals
(`NAME`, `N`, `PREFIX`) stands for any name.

    python3 tools/check-citations.py    # from the source root; the data suite runs it
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEASUREMENTS = "docs/measurements"
TOP = ("app", "bench", "data", "docs", "draw", "engine", "kernels", "po", "tests", "tools", "ui")
FILE_NAME = re.compile(r"^[\w.*?\[\]{},-]+\.(c|h|cu|cuh|ui|py|sh|css|xml|in|build|md|csv)$")
# Headers of the libraries the tree uses, named in the text.
EXTERNAL = {"gtk.h", "glib.h", "adwaita.h", "cairo.h", "csv.h", "cuda.h", "cupti.h", "nvml.h"}
# A program is named by its source: bench/bench-plain is bench/bench-plain.c.
SOURCES = ("", ".c", ".cu", ".sh", ".py")
NOT_YET = ("until it lands", "until it is split out")


def expand(text):
    """`a{b,c}d` as `abd`, `acd`; capitals as `*`."""
    m = re.search(r"\{([^{}]*)\}", text)
    if m:
        return [x for part in m.group(1).split(",")
                for x in expand(text[:m.start()] + part + text[m.end():])]
    return [re.sub(r"\b[A-Z][A-Z0-9_]*\b", "*", text)]


def exists(pattern):
    return any(glob.glob(os.path.join(ROOT, p.rstrip("/"))) for p in expand(pattern))


def tracked():
    """The tree's files, their names, and the names of its folders."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    folders = {part for f in files for part in f.split("/")[:-1]}
    return files, {os.path.basename(f) for f in files}, folders


def quoted(text):
    """Every word of every `...` span of a markdown text, with its line
    number (`tools/gpu.sh STEP...` gives tools/gpu.sh and STEP...)."""
    for n, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"`([^`]+)`", line):
            for word in m.group(1).split():
                yield n, word.strip("()'\"")


def measurement_citations(path, text):
    misses = []
    found = set()
    for n, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"docs/measurements/(?:[^\s`)\]\"',;:{]|\{[^}]*\})*", line):
            found.add((n, m.group(0).rstrip(".")))
        if path.startswith("docs/"):
            for m in re.finditer(r"\]\((measurements/[^)\s]*)\)", line):
                found.add((n, "docs/" + m.group(1)))
    if path == "docs/measurements.md":
        for n, word in quoted(text):
            if re.match(r"^(2026-|\*-)\S+\.(txt|log|csv)$|^2026-\S+/$", word):
                found.add((n, MEASUREMENTS + "/" + word))
            elif re.match(r"^[\w-]+\.(txt|log)$", word):
                found.add((n, MEASUREMENTS + "/**/" + word))
    for n, cited in sorted(found):
        if cited.rstrip("/") == MEASUREMENTS:
            continue
        pattern = cited.replace("/**/", "/*/") if "**" not in cited else cited
        # A PREFIX of logs (tools/measurements-table.py's argument) counts.
        if not (exists(pattern) or exists(pattern + "-*") or exists(cited.replace("/**/", "/*/*/"))
                or exists(cited.replace("/**/", "/"))):
            misses.append(f"{path}:{n}: cites {cited}, which is not in the tree")
    return misses


def path_citations(path, text, tree):
    files, names, folders = tree
    misses = []
    for n, word in quoted(text):
        word = word.rstrip(".,;:")
        for candidate in re.split(r"(?<=\.c)/(?=\.ui)", word):
            if candidate == ".ui":
                candidate = word.split("/")[-2].rsplit(".", 1)[0] + ".ui" if "/" in word else candidate
            first = candidate.split("/")[0]
            if "/" in candidate and first in TOP:
                if not any(exists(candidate + ext) for ext in SOURCES):
                    misses.append(f"{path}:{n}: names {candidate}, which is not in the tree")
            elif "/" in candidate and first in folders and FILE_NAME.match(candidate.split("/")[-1]):
                # A path inside a folder the text is about (`run/ms-runner.c`
                # under "engine/"): some folder of that name holds it.
                pats = [re.compile(glob.fnmatch.translate("*/" + p)) for p in expand(candidate)]
                if not any(p.match(f) for p in pats for f in files):
                    misses.append(f"{path}:{n}: names {candidate}, which no folder holds")
            elif "/" not in candidate and FILE_NAME.match(candidate) and candidate not in EXTERNAL:
                pats = [re.compile(glob.fnmatch.translate(p)) for p in expand(candidate)]
                if not any(p.match(name) for p in pats for name in names):
                    misses.append(f"{path}:{n}: names {candidate}, which no folder holds")
    for n, line in enumerate(text.splitlines(), 1):
        if path == "docs/architecture.md" and any(s in line for s in NOT_YET):
            misses.append(f"{path}:{n}: says a file is still to come")
    return misses


def main():
    os.chdir(ROOT)
    tree = tracked()
    misses = []
    docs = ["README.md", "HACKING.md"] + sorted(glob.glob("docs/*.md"))
    for path in docs:
        with open(path, encoding="utf-8") as f:
            misses += measurement_citations(path, f.read())
    for path in ("README.md", "docs/architecture.md", "HACKING.md", "tools/README.md"):
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                misses += path_citations(path, f.read(), tree)
    for miss in misses:
        print(miss)
    print(f"{len(misses)} citations to missing files" if misses else
          "every cited log and path is in the tree")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
