# SPDX-License-Identifier: GPL-3.0-or-later
"""check-data-tools.py DIR SCHEMA-DIR DATA-DIR: the files test-data-tools.sh
wrote into DIR, and every CSV file shipped in DATA-DIR, read by pandas,
polars and DuckDB with default options: every column typed as the Table
Schema in SCHEMA-DIR says, the file valid against it (frictionless, the
schema as written), the header the engine's columns in order, the sidecars valid against their JSON Schema,
the median pinned h2d GB/s per size as memsweep computes it, the peer
matrix, multi-GPU and profile files' values as their older form held them,
and every file a command wrote, gzipped where its name ends in .gz."""
import glob
import gzip
import json
import math
import os
import sys

import duckdb
import frictionless
import jsonschema
import pandas as pd
import polars as pl

folder, schema_dir, data_dir = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
# What each tool made of each file (path -> tool -> opened or valid), for
# the table of files against tools (files-tools-table.py), written into
# the folder MEMSWEEP_DATA_TOOLS_TALLY names, when it names one.
tally = {}


def tallied(path, tool, ok):
    tally.setdefault(os.path.realpath(path), {})[tool] = bool(ok)
    return ok


def check(ok, what):
    if not ok:
        failures.append(what)


def schema(kind):
    with open(f"{schema_dir}/memsweep-{kind}.tableschema.json") as f:
        return {x["name"]: x["type"] for x in json.load(f)["fields"]}, \
            [x["name"] for x in json.load(open(f"{schema_dir}/memsweep-{kind}.tableschema.json"))["fields"]]


def kind_of(dtype_text):
    """'integer', 'number', 'string' or 'null' (a column without values) as
    a tool typed it."""
    t = dtype_text.lower()
    if t in ("null", "sqlnull"):
        return "null"
    if any(k in t for k in ("int", "bigint")) and "interval" not in t:
        return "integer"
    if any(k in t for k in ("float", "double", "decimal")):
        return "number"
    if any(k in t for k in ("str", "object", "varchar")):
        return "string"
    return t


def read_tools(path):
    """The file read once by each tool, no options: what each tool read
    (a pandas frame, a polars frame, a pandas frame of DuckDB's result)
    and how it typed each column, with whether the column holds no value."""
    for tool in ("pandas", "polars", "duckdb"):
        tallied(path, tool, False)
    p = pd.read_csv(path)
    tallied(path, "pandas", True)
    q = pl.read_csv(path)
    tallied(path, "polars", True)
    d = duckdb.sql(f"SELECT * FROM '{path}'")
    counts = d.df()
    tallied(path, "duckdb", True)
    return {
        "pandas": (p, {c: (kind_of(str(p[c].dtype)), p[c].isna().all()) for c in p.columns}),
        "polars": (q, {c: (kind_of(str(q.schema[c])), q[c].null_count() == len(q))
                       for c in q.columns}),
        "duckdb": (counts, {c: (kind_of(str(t)), counts[c].isna().all())
                            for c, t in zip(d.columns, d.types)}),
    }


def types(path, read=None):
    for tool, (_, typed) in (read or read_tools(path)).items():
        yield tool, typed


def check_file(path, kind):
    # The engine's columns (all of them, inline) equal the schema's.
    order = schema(kind)[1]
    full = open(f"{folder}/all-{kind}.header").read().rstrip("\n").split(",")
    check(full == order, f"{kind}: the engine's columns differ from the schema's: "
          f"{sorted(set(full) ^ set(order))}")
    check_typed(path, kind)


def check_valid(path, kind):
    """The file as written valid against its Table Schema, by frictionless,
    the schema as it stands (no syncing it to the header): a column left
    out is allowed by its "fieldsMatch": "superset"."""
    with open(f"{schema_dir}/memsweep-{kind}.tableschema.json") as f:
        descriptor = json.load(f)
    resource = frictionless.Resource(path=os.path.basename(path), basepath=os.path.dirname(path),
                                     schema=frictionless.Schema.from_descriptor(descriptor))
    report = frictionless.validate(resource)
    for error in report.flatten(["type", "message"])[:5]:
        failures.append(f"{path}: frictionless, schema {kind}: {error[0]}: {error[1]}")


def check_typed(path, kind):
    """A file's columns are the schema's in its order, less the empty ones,
    and each tool types every column as the schema says."""
    order = schema(kind)[1]
    header = open(path).readline().rstrip("\n").split(",")
    check(not open(path).read(1) == "#", f"{path}: starts with a '#' line")
    check(header == [c for c in order if c in header], f"{path}: columns not in the schema's order")
    check_valid(path, kind)
    check_types(path, kind)


def check_types(path, kind, kept=(), read=None):
    """Each tool types every column as the schema says; kept: number
    columns a file may hold without any value; read: the tools' read of
    the file (read_tools), when the caller has it."""
    expected = schema(kind)[0]
    for tool, got in types(path, read):
        for column, (typed, empty) in got.items():
            want = expected.get(column)
            if want is None:
                failures.append(f"{path}: {tool}: {column} is not in the schema")
            elif want in ("integer", "number"):
                # Integers of a column with gaps read as floats (pandas).
                ok = typed == want or (want == "integer" and typed == "number")
                if empty and column in kept:
                    continue
                check(ok and not empty, f"{path}: {tool}: {column} typed {typed}"
                      f"{' (no values)' if empty else ''}, schema {want}")
            elif want == "string":
                # A text column without any value (variant of a plain sweep)
                # holds only nulls, which pandas types float64; DuckDB types
                # hexadecimal text (throttle bits) as integers.
                ok = typed == "string" or empty or (column.startswith("throttle_") and tool == "duckdb")
                check(ok, f"{path}: {tool}: {column} typed {typed}, schema string")


def h2d_medians(path):
    """The analysis of docs/csv.md in each tool, no reader options: median
    pinned h2d GB/s per size (bytes / median GPU time of the h2d phase)."""
    p = pd.read_csv(path)
    h = p[(p["mode"] == "pinned") & (p["phase"] == "h2d")].groupby("bytes_per_vector")
    yield "pandas", (h["bytes"].median() / h["gpu_us"].median() / 1e3).to_dict()
    q = (pl.read_csv(path).filter((pl.col("mode") == "pinned") & (pl.col("phase") == "h2d"))
         .group_by("bytes_per_vector").agg(pl.col("bytes").median() / pl.col("gpu_us").median() / 1e3))
    yield "polars", dict(q.iter_rows())
    d = duckdb.sql(f"SELECT bytes_per_vector, median(bytes) / median(gpu_us) / 1e3 FROM '{path}' "
                   "WHERE mode = 'pinned' AND phase = 'h2d' GROUP BY ALL").fetchall()
    yield "duckdb", dict(d)


def check_analysis(run):
    shown = json.load(open(f"{folder}/{run}.json"))
    # Per size and variant: a lesson's variants share sizes.
    cells = {(c["bytes_per_vector"], c.get("variant") or ""): c["h2d_gbps"] for c in shown["cells"]
             if c["mode"] == "pinned" and c["h2d_gbps"] is not None}
    summary = pd.read_csv(f"{folder}/{run}-summary.csv")
    rows = summary[summary["mode"] == "pinned"].copy()
    rows["variant"] = rows["variant"].fillna("").astype(str) if "variant" in rows else ""
    pinned = rows.groupby(["bytes_per_vector", "variant"])["h2d_gbps"].median()
    check(len(cells) > 0, f"{run}: memsweep shows no pinned h2d rate")
    for key, gbps in cells.items():
        # The summary file holds three decimals.
        check(key in pinned and abs(pinned[key] - gbps) <= 5e-4,
              f"{run}: summary {key}: {pinned.get(key)} != {gbps}")
    if run != "sweep":
        return  # the tools' analysis below is the sweep's, per size
    want = {size: gbps for (size, _), gbps in cells.items()}
    for tool, got in h2d_medians(f"{folder}/{run}-samples.csv"):
        check(set(got) == set(want), f"{run}: {tool}: sizes {sorted(got)} != {sorted(want)}")
        for size, gbps in want.items():
            check(size in got and math.isclose(got[size], gbps, rel_tol=1e-6),
                  f"{run}: {tool}: {size} B: {got.get(size)} GB/s, memsweep {gbps}")


_validators = {}


def validator(name):
    """The JSON Schema memsweep-NAME.json, checked once, and a validator of
    documents against it (jsonschema.validate checks the schema again on
    every call)."""
    if name not in _validators:
        with open(f"{schema_dir}/memsweep-{name}.json") as f:
            document = json.load(f)
        cls = jsonschema.validators.validator_for(document)
        cls.check_schema(document)
        _validators[name] = cls(document)
    return _validators[name]


def json_errors(document, name):
    """The first error of DOCUMENT against memsweep-NAME.json, or against
    its own older version's schema where it is of one (memsweep-meta-v1.schema.json
    beside memsweep-meta.schema.json), as jsonschema.validate would raise
    it, or None."""
    version = document.get("format-version", document.get("schema_version")) \
        if isinstance(document, dict) else None
    base, dot, rest = name.partition(".")
    older = f"{base}-v{version}{dot}{rest}"
    if version is not None and os.path.exists(f"{schema_dir}/memsweep-{older}.json"):
        name = older
    return jsonschema.exceptions.best_match(validator(name).iter_errors(document))


def valid_sidecar(name):
    meta = json.load(open(f"{folder}/{name}-meta.json"))
    error = json_errors(meta, "meta.schema")
    if error is not None:
        failures.append(f"{name}-meta.json: {error.message}")
    return meta


def check_sidecar(run):
    meta = valid_sidecar(run)
    check(meta["metadata"].get("device") == "NVIDIA H100 80GB HBM3", f"{run}: device not kept")
    check(meta["files"]["samples"]["name"] == f"{run}-samples.csv", f"{run}: samples not named")


def all_tools(path):
    """The file as each tool reads it, no options: pandas frames."""
    yield "pandas", pd.read_csv(path)
    yield "polars", pd.DataFrame(pl.read_csv(path).to_dict(as_series=False))
    yield "duckdb", duckdb.sql(f"SELECT * FROM '{path}'").df()


def check_small_files():
    """One peer matrix, one sweep on several GPUs, one profile, one portable
    run: typed, their sidecars valid, values as the older form
    (tests/data/old-format, the portable fixture) has them."""
    for kind in ("peer", "multi", "profile", "portable"):
        check_file(f"{folder}/{kind}.csv", kind)
    peer = valid_sidecar("peer")
    check(peer["files"].get("peer", {}).get("name") == "peer.csv", "peer: file not named")
    check(peer["metadata"].get("gpu-1-name") == "NVIDIA H200", "peer: GPU name not kept")
    check(peer["metadata"].get("link-0-1", "").startswith("nvlinks 18,"), "peer: link not kept")
    multi = valid_sidecar("multi")
    check(multi["metadata"].get("gpu-1-samples") == "x-gpu1-samples.csv", "multi: samples not kept")
    portable = valid_sidecar("portable")
    check(portable["files"].get("portable", {}).get("name") == "portable.csv",
          "portable: file not named")
    check(portable["metadata"].get("gpu-1-name") == "NVIDIA H100 80GB HBM3",
          "portable: GPU name not kept")
    profile = valid_sidecar("profile")
    check(profile["metadata"].get("device") == "NVIDIA H100 80GB HBM3", "profile: device not kept")
    check(profile["metadata"].get("run-to-run", "").startswith("10 runs,"), "profile: runs not kept")
    for tool, p in all_tools(f"{folder}/peer.csv"):
        row = p[(p["method"] == "copy-access-on") & (p["direction"] == "uni") & (p["src"] == 0)
                & (p["dst"] == 1)]
        check(len(row) == 1 and abs(row["gbps"].iloc[0] - 393.351) < 1e-9,
              f"peer: {tool}: copy-access-on 0 -> 1 not 393.351 GB/s")
    for tool, m in all_tools(f"{folder}/multi.csv"):
        row = m[(m["mode"] == "pinned") & (m["exponent"] == 20)]
        check(len(row) == 1 and row["gpus_ok"].iloc[0] == 2 and
              abs(row["h2d_sum_gbps"].iloc[0] - 1010.0) < 1e-9, f"multi: {tool}: pinned 2^20 row")
    for tool, p in all_tools(f"{folder}/portable.csv"):
        row = p[(p["buffer"] == "foreign") & (p["gpu"] == 1)]
        check(len(row) == 1 and abs(row["h2d_gbps"].iloc[0] - 41.2) < 1e-9
              and row["pinned"].iloc[0] == 1, f"portable: {tool}: foreign on GPU 1 not 41.2 GB/s")
    for tool, r in all_tools(f"{folder}/profile.csv"):
        row = r[(r["mode"] == "pinned") & (r["exponent"] == 10)]
        check(len(row) == 1 and abs(row["sd_ln_median"].iloc[0] - 0.0938) < 1e-9,
              f"profile: {tool}: pinned 2^10 sd")


def check_piped_profile():
    """calibrate --out -: the profile's table alone, as in its file, so
    that every reader, polars' lazy one and DuckDB included, takes each
    row (the comment lines before the header gave 7 rows and 0)."""
    path = f"{folder}/profiles/piped.csv"
    with open(path) as f:
        rows = len(f.read().splitlines()) - 1
    got = {"pandas": len(pd.read_csv(path)), "polars": pl.read_csv(path).height,
           "polars lazy": pl.scan_csv(path).collect().height,
           "duckdb": len(duckdb.sql(f"SELECT * FROM '{path}'").df())}
    check(rows == 3 and all(n == rows for n in got.values()),
          f"calibrate --out -: {rows} rows, read as {got}")
    check(list(pl.scan_csv(path).collect().columns) == ["mode", "exponent", "sd_ln_median"],
          "calibrate --out -: columns not the profile's")


def check_host_run():
    """A run on the CPU alone and a fleet report without a link: every
    number column typed a number by each tool (none left empty)."""
    for kind in ("samples", "summary"):
        check_typed(f"{folder}/host-{kind}.csv", kind)
    for tool, got in types(f"{folder}/fleet.csv"):
        for column, (typed, empty) in got.items():
            number = column.endswith(("_gbps", "_deviation")) or column in ("link_gen", "link_width")
            check(not number or (typed in ("integer", "number") and not empty),
                  f"fleet.csv: {tool}: {column} typed {typed}{' (no values)' if empty else ''}")


def run_recipes():
    """docs/csv.md's recipes as written, on a GPU run (run-*) and a run on
    the CPU alone (host-*) in their own folder."""
    docs = open(f"{data_dir}/../docs/csv.md").read()
    blocks = [b.split("\n", 1) for b in docs.split("```")[1::2]]
    here = os.getcwd()
    os.chdir(folder)
    for kind in ("samples", "summary", "meta"):
        ext = "json" if kind == "meta" else "csv"
        os.link(f"sweep-{kind}.{ext}", f"run-{kind}.{ext}")
    # The recipes of compressed runs: the same samples gzipped.
    with open("run-samples.csv", "rb") as f, gzip.open("run-samples.csv.gz", "wb") as g:
        g.write(f.read())
    ran = 0
    for lang, code in blocks:
        try:
            if lang.strip() == "python":
                exec(compile(code, "docs/csv.md", "exec"), {"print": lambda *a, **k: None})
                ran += 1
            elif lang.strip() == "sql":
                duckdb.sql(code).fetchall()
                ran += 1
        except Exception as e:
            failures.append(f"docs/csv.md: {lang.strip()} recipe: {type(e).__name__}: "
                            f"{str(e).splitlines()[0]}\n{code}")
    os.chdir(here)
    check(ran >= 9, f"docs/csv.md: only {ran} recipes ran")


def shipped_kind(path):
    """The Table Schema of a file shipped in data/, by its name; None for a
    file without one (the envelopes)."""
    name = os.path.basename(path).removesuffix(".gz")
    for kind in ("samples", "summary", "peer", "multi", "portable"):
        if name.endswith(f"-{kind}.csv"):
            return kind
    return "profile" if os.path.basename(os.path.dirname(path)) == "profiles" else None


def check_shipped():
    """Every CSV file in data/ opens in each tool with no options (no
    comment lines, one header), its columns its schema's in order, each
    typed as the schema says."""
    # The reference runs ship gzipped: each tool reads them as they are.
    paths = sorted(glob.glob(f"{data_dir}/**/*.csv", recursive=True) +
                   glob.glob(f"{data_dir}/**/*.csv.gz", recursive=True))
    check(len(paths) >= 80, f"{data_dir}: only {len(paths)} CSV files found")
    for path in paths:
        try:
            read = read_tools(path)
        except Exception as e:  # each tool's own parse error, named
            failures.append(f"{path}: {type(e).__name__}: {str(e).splitlines()[0]}")
            continue
        for tool, (frame, _) in read.items():
            check(len(frame) > 0 and not any(c.startswith("#") for c in frame.columns),
                  f"{path}: {tool}: read {len(frame)} rows, columns {list(frame.columns)[:3]}")
        kind = shipped_kind(path)
        if kind:
            order = schema(kind)[1]
            with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
                header = f.readline().rstrip("\n").split(",")
            check(header == [c for c in order if c in header],
                  f"{path}: columns not the {kind} schema's, in its order")
            # The summary reader needs e2e_median_us, kept where every cell
            # failed (the NUMA lesson on a host of one node).
            check_types(path, kind, kept=("e2e_median_us",) if kind == "summary" else (), read=read)


def check_every_written():
    """Every CSV and JSON file the commands wrote into DIR (tables, the
    fleet report, the files written gzipped because their names end in
    .gz): a name ending in .gz holds gzip bytes, never plain ones; a CSV
    opens in pandas, polars and DuckDB with no options, the same rows in
    each; a JSON document reads back."""
    written = sorted(glob.glob(f"{folder}/**/*.csv", recursive=True) +
                     glob.glob(f"{folder}/**/*.gz", recursive=True) +
                     glob.glob(f"{folder}/*.json", recursive=False))
    n_gz = 0
    for path in written:
        name = os.path.basename(path)
        if name.startswith("broken-"):
            continue
        if name.endswith(".gz"):
            with open(path, "rb") as f:
                magic = f.read(2)
            check(magic == b"\x1f\x8b", f"{path}: named .gz but not gzip")
            n_gz += 1
            if magic != b"\x1f\x8b":
                continue
        if name.endswith((".json", ".json.gz")):
            opener = gzip.open if name.endswith(".gz") else open
            try:
                with opener(path, "rt", encoding="utf-8") as f:
                    json.load(f)
                tallied(path, "json", True)
            except ValueError as e:
                tallied(path, "json", False)
                failures.append(f"{path}: not JSON: {e}")
            continue
        try:
            rows = {tool: len(frame) for tool, (frame, _) in read_tools(path).items()}
            check(len(set(rows.values())) == 1, f"{path}: rows differ between tools: {rows}")
        except Exception as e:  # what a tool raised is the finding
            failures.append(f"{path}: {type(e).__name__}: {str(e).splitlines()[0]}")
    check(n_gz >= 3, f"only {n_gz} gzipped files written")


def check_every_json():
    """Every sidecar shipped (data/, the measurement logs) and every sidecar
    and JSON document this test's commands wrote, valid against its JSON
    Schema: a sidecar against memsweep-meta, show's documents against
    memsweep-results."""
    logs = os.path.join(data_dir, "..", "docs", "measurements")
    paths = sorted(glob.glob(f"{data_dir}/**/*-meta.json", recursive=True) +
                   glob.glob(f"{logs}/**/*-meta.json", recursive=True) +
                   glob.glob(f"{folder}/**/*.json", recursive=True) +
                   glob.glob(f"{folder}/**/*.json.gz", recursive=True))
    checked = 0
    for path in paths:
        name = os.path.basename(path)
        # The test's deliberately damaged sidecar is no document memsweep wrote.
        if name.startswith("broken-"):
            continue
        kind = "meta.schema" if name.endswith("-meta.json") else \
            "results" if name in ("sweep.json", "lesson.json", "show.json.gz") else None
        if not kind:
            continue
        try:
            with (gzip.open if name.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
                error = json_errors(json.load(f), kind)
        except ValueError as e:
            error = e
        if tallied(path, "jsonschema", error is None):
            checked += 1
        else:
            failures.append(f"{path}: {kind}: {str(error).splitlines()[0]}")
    check(checked >= 100, f"only {checked} JSON documents validated")


for run in ("sweep", "lesson"):
    for kind in ("samples", "summary"):
        check_file(f"{folder}/{run}-{kind}.csv", kind)
    check_analysis(run)
    check_sidecar(run)
check_small_files()
check_piped_profile()
check_host_run()
run_recipes()
check_shipped()
check_every_json()
check_every_written()
if os.environ.get("MEMSWEEP_DATA_TOOLS_TALLY"):
    with open(os.path.join(os.environ["MEMSWEEP_DATA_TOOLS_TALLY"], "tools.json"), "w") as f:
        json.dump(tally, f)
for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
