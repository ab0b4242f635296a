#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/check-citations.py: the documentation names only what the tree holds,
and the tree holds only the logs the documentation names.

Fails (exit 1, one line per miss) when
- README.md, HACKING.md or docs/*.md cites a measurement log that is not in
  docs/measurements/: a `docs/measurements/...` path, a link to
  `measurements/...` from docs/, or in docs/measurements.md a log named by
  itself (`2026-11-22-h100-run2-bench.log`, `*-run2-targets.txt`,
  `lesson-costs.txt`);
- README.md, docs/architecture.md, HACKING.md or tools/README.md names a path that
  does not exist (`engine/run/ms-runner.c`, `tools/gpu.sh`), or a file
  (`ms-runner.c`, `run/ms-runner.c`) that no folder of the tree holds;
- docs/architecture.md still says a file is to come ("until it lands");
- a log in docs/measurements/ is cited by no doc (README.md, HACKING.md,
  tools/README.md, docs/*.md) and read by no test or script (a name in
  tests/, tools/ or bench/, a measurement folder's README.md; every
  summary file and its sidecar, which tools/envelopes.py reads): git
  history keeps what the tree no longer uses;
- a log is named after a stage of work (`final`, `closing`, `rerun`,
  `evening`, ...) rather than by what it holds.

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


def measurement_citations(path, text, cited_paths=None):
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
            if re.match(r"^(2026-|\*-)\S+\.(txt|log|csv)$|^2026-\S+(/|-\*)$", word):
                found.add((n, MEASUREMENTS + "/" + word))
            elif re.match(r"^[\w-]+\.(txt|log)$", word):
                found.add((n, MEASUREMENTS + "/**/" + word))
    for n, cited in sorted(found):
        if cited.rstrip("/") == MEASUREMENTS:
            continue
        pattern = cited.replace("/**/", "/*/") if "**" not in cited else cited
        # A PREFIX of logs (tools/measurements-table.py's argument) counts.
        forms = [pattern, pattern + "-*", cited.replace("/**/", "/*/*/"), cited.replace("/**/", "/")]
        if not any(exists(form) for form in forms):
            misses.append(f"{path}:{n}: cites {cited}, which is not in the tree")
        elif cited_paths is not None:
            cited_paths.update(matches(forms))
    return misses


def matches(patterns):
    """The paths of the tree that the patterns name, folders included."""
    return {os.path.relpath(m, ROOT).rstrip("/") for pattern in patterns for p in expand(pattern)
            for gz in ("", ".gz")
            for m in glob.glob(os.path.join(ROOT, p.rstrip("/") + gz), recursive=True)}


def script_citations(files):
    """The logs that the tests and scripts read, by name (tests/meson.build
    passes `2026-11-24-h100-.../alloc-costs` to tools/alloc-table.py)."""
    paths = set()
    for f in files:
        if (f.startswith(("tests/", "tools/", "bench/")) and f.endswith((".build", ".py", ".sh"))
                or f.startswith(MEASUREMENTS + "/") and f.endswith("/README.md")):
            with open(os.path.join(ROOT, f), encoding="utf-8", errors="replace") as t:
                for m in re.finditer(r"\b20\d\d-\d\d-\d\d-[\w.{},*/-]*[\w}*/]", t.read()):
                    paths |= matches([f"{MEASUREMENTS}/{m.group(0)}", f"{MEASUREMENTS}/{m.group(0)}-*"])
    return paths


# A log is named by what it holds, never by when in the work it was made.
STAGE = re.compile(r"(?<![a-z])(acceptance|closing|final|rerun|recheck|after-review|second-call|"
                   r"morning|afternoon|evening|night|issue-?\d+|session-?\d*)(?![a-z])")


RECORDS = ("info.txt", "summary.log", "README.md")


def uncited_logs(files, cited_paths):
    """Every log in docs/measurements/ is cited by a doc or read by a
    script, and named by what it holds: the tree holds what is used."""
    misses = []
    for f in files:
        if not f.startswith(MEASUREMENTS + "/"):
            continue
        rel = f[len(MEASUREMENTS) + 1:]
        if STAGE.search(rel):
            misses.append(f"{f}: named after a stage of work, not by what it holds")
        parts = f.split("/")
        covered = any("/".join(parts[:k]) in cited_paths for k in range(3, len(parts) + 1))
        # A call's own record (its machine, its steps) goes with what it measured.
        if parts[-1] in RECORDS and len(parts) > 3:
            folder = "/".join(parts[:-1]) + "/"
            covered = covered or any(c.startswith(folder) for c in cited_paths)
        # tools/envelopes.py reads every summary file, and its sidecar.
        summary = re.sub(r"-meta\.json$", "-summary.csv", f)
        read = re.search(r"-summary\.csv(\.gz)?$", f) or (
            summary != f and (summary in files or summary + ".gz" in files))
        if not covered and not read:
            misses.append(f"{f}: no doc cites it and no script reads it")
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
    docs = ["README.md", "HACKING.md", "tools/README.md"] + sorted(glob.glob("docs/*.md"))
    cited_paths = script_citations(tree[0])
    for path in docs:
        with open(path, encoding="utf-8") as f:
            misses += measurement_citations(path, f.read(), cited_paths)
    misses += uncited_logs(tree[0], cited_paths)
    for path in ("README.md", "docs/architecture.md", "HACKING.md", "tools/README.md"):
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                misses += path_citations(path, f.read(), tree)
    for miss in misses:
        print(miss)
    print(f"{len(misses)} citations or logs out of place" if misses else
          "every cited log and path is in the tree, and every log is cited")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
