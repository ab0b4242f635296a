#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""files-tools-table.py TALLY-DIR DATA-DIR WRITTEN-DIR: the table of files
against tools, from what the data-tools test's checkers found
(check-data-tools.py and each check-frictionless.py run wrote their
verdicts into TALLY-DIR): for each kind of file memsweep ships (DATA-DIR,
and the sidecars of docs/measurements beside it) and each kind its
commands wrote (WRITTEN-DIR), how many files pandas, polars and DuckDB
opened with no options, each frictionless version validated against the
file's Table Schema, and Python's json and jsonschema read and validated,
as "good/files". "-": the tool was not asked (not a CSV, not a JSON
document). frictionless validates a table with no Table Schema of its
own (compare's, show's, the fleet report's, the envelopes) against the
schema it infers from it. Printed as a markdown table; exit 1 when a cell
holds a failure."""
import glob
import json
import os
import re
import sys

tally_dir, data_dir, written_dir = sys.argv[1:4]
data_dir = os.path.realpath(data_dir)
written_dir = os.path.realpath(written_dir)
logs_dir = os.path.realpath(os.path.join(data_dir, "..", "docs", "measurements"))

# Files a checker made for itself, not a command's output: the damaged
# and misplaced sidecars, copies made to test the pair rules, the docs
# recipes' links and gzip copy, the headers printed inline.
NOT_OUTPUTS = re.compile(r"^(broken-|other-|alone-|run-)|\.header$")

# A written file's kind, by its name in WRITTEN-DIR (test-data-tools.sh
# names them): the first pattern that matches.
WRITTEN = (
    (r"^packed-(samples|summary)\.csv\.gz$", "run --compress: {0} .csv.gz"),
    (r"^packed-table\.csv\.gz$", "--export-csv --compress: table .csv.gz"),
    (r"^packed-show\.csv\.gz$", "show --out X.csv --compress: table .csv.gz"),
    (r"^show-table\.csv\.gz$", "show --out X.csv.gz: table .csv.gz"),
    (r"^show\.json\.gz$", "show --out X.json.gz: results JSON .gz"),
    (r"^profiles/.*\.csv\.gz$", "calibrate --out: profile .csv.gz"),
    (r"^profiles/piped\.csv$", "calibrate --out -: profile"),
    (r"^host-(samples|summary)\.csv$", "run --out: {0}"),
    (r"^(sweep|lesson)-(samples|summary)\.csv$", "engine writer ({0}): {1}"),
    (r"^(peer|multi|portable|profile)\.csv$", "engine writer: {0}"),
    (r"^fleet/.*-(samples|summary)\.csv$", "fleet-node --dir: {0}"),
    (r"^fleet\.csv$", "fleet-report --format csv: table"),
    (r"^compare\.csv$", "compare --format csv: table"),
    (r"^(sweep|lesson)\.json$", "show --format json: results JSON"),
    (r"-meta\.json$", "sidecar (written)"),
)
TOOLS = ("pandas", "polars", "duckdb", "frictionless {old}", "frictionless {new}", "json",
         "jsonschema")


def shipped_kind(path):
    """The kind of a file shipped in DATA-DIR or docs/measurements."""
    if path.startswith(logs_dir + os.sep):
        return "sidecar (docs/measurements)"
    name = os.path.basename(path)
    gz = " .csv.gz" if name.endswith(".gz") else ""
    if name.endswith("-meta.json"):
        return "sidecar (data/reference)"
    if os.path.basename(os.path.dirname(path)) == "profiles":
        return "profile" + gz
    if name == "envelopes.csv":
        return "envelopes"
    for kind in ("peer", "portable", "multi"):
        if name.removesuffix(".gz").endswith(f"-{kind}.csv"):
            return kind + gz
    what = "grade run" if "-grade-" in name else "lesson run" if "-lesson-" in name else "run"
    part = "samples" if "-samples.csv" in name else "summary"
    return f"{what}: {part}{gz}"


def written_kind(path):
    name = os.path.relpath(path, written_dir)
    if NOT_OUTPUTS.search(os.path.basename(name)):
        return None
    for pattern, label in WRITTEN:
        m = re.search(pattern, name)
        if m:
            return label.format(*m.groups())
    return "other: " + name


def load():
    """path -> tool -> verdict, every tally merged; the frictionless
    versions, oldest first."""
    verdicts, versions = {}, set()
    for tally in sorted(glob.glob(os.path.join(tally_dir, "*.json"))):
        with open(tally) as f:
            doc = json.load(f)
        m = re.match(r"frictionless-([0-9.]+)-", os.path.basename(tally))
        if m:
            versions.add(m.group(1))
            for path, ok in doc.items():
                verdicts.setdefault(path, {})["frictionless " + m.group(1)] = ok
        else:
            for path, tools in doc.items():
                verdicts.setdefault(path, {}).update(tools)
    return verdicts, sorted(versions, key=lambda v: tuple(int(x) for x in v.split(".")))


def main():
    verdicts, versions = load()
    old, new = (versions[0], versions[-1]) if versions else ("?", "?")
    tools = [t.format(old=old, new=new) for t in TOOLS]
    if old == new:
        tools.remove("frictionless " + old)
    rows = {}
    for path, got in verdicts.items():
        if path.startswith(written_dir + os.sep):
            kind = written_kind(path)
            group = "written"
        elif path.startswith((data_dir + os.sep, logs_dir + os.sep)):
            kind, group = shipped_kind(path), "shipped"
        else:
            continue
        if not kind:
            continue
        cells = rows.setdefault((group, kind), {t: [0, 0] for t in tools})
        for tool, ok in got.items():
            if tool in cells:
                cells[tool][0] += ok
                cells[tool][1] += 1
    bad = False
    print("| files | kind | " + " | ".join(tools) + " |")
    print("|---|---|" + "---:|" * len(tools))
    for (group, kind), cells in sorted(rows.items()):
        text = []
        for tool in tools:
            good, n = cells[tool]
            text.append(f"{good}/{n}" if n else "-")
            bad = bad or good != n
        print(f"| {group} | {kind} | " + " | ".join(text) + " |")
    return 1 if bad or not rows else 0


sys.exit(main())
