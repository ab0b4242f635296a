# SPDX-License-Identifier: GPL-3.0-or-later
"""check-frictionless.py SCHEMA-DIR FOLDER...: every memsweep CSV file in
the folders (shipped or just written, gzipped or not) valid against its
Table Schema under the frictionless this Python has; a table with none
(compare's, show's, the fleet report's, the envelopes) valid against the
schema frictionless infers from it.

The schemas declare Table Schema v2 ("$schema"), whose "fieldsMatch":
"superset" lets a file leave out a column that is empty in every row.
A frictionless that knows no fieldsMatch (5.18.1 does not; 5.21.0 does)
wants every field of the schema in the header: there the schema is synced
to the file's header (Detector(schema_sync=True)), the way such a version
validates these files, and the line printed says so.

A file found valid is remembered under MEMSWEEP_DATA_TOOLS_CACHE (default
~/.cache/memsweep-data-tools; "off" remembers nothing) by the hash of
everything its verdict depends on: the file's bytes, its schema's, this
script's, the frictionless and Python versions and the way of validating.
A file with the same hash is not read again (frictionless reads every row
in Python: the shipped grade runs take most of a minute a version), and
the line printed counts those files apart. A failure is never
remembered. With MEMSWEEP_DATA_TOOLS_TALLY naming a folder, each file's
verdict goes there too (files-tools-table.py)."""
import hashlib
import json
import os
import sys

import frictionless

schema_dir, folders = sys.argv[1], sys.argv[2:]
KINDS = ("samples", "summary", "peer", "multi", "portable")


def kind_of(path):
    name = os.path.basename(path).removesuffix(".gz")
    for kind in KINDS:
        if name.endswith(f"-{kind}.csv"):
            return kind
    if name in ("peer.csv", "multi.csv", "profile.csv", "portable.csv"):
        return name[:-4]
    return "profile" if os.path.basename(os.path.dirname(path)) == "profiles" else None


def knows_fields_match():
    return "fields_match" in getattr(frictionless.Schema, "__annotations__", {}) or \
        hasattr(frictionless.Schema, "fields_match")


def cache_folder():
    where = os.environ.get("MEMSWEEP_DATA_TOOLS_CACHE")
    if where == "off":
        return None
    if not where:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        where = os.path.join(base, "memsweep-data-tools")
    os.makedirs(where, exist_ok=True)
    return where


def verdict_key(path, schema_path, how):
    h = hashlib.sha256()
    for part in (__file__, schema_path or __file__, path):
        with open(part, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    h.update(f"{frictionless.__version__} {sys.version} {how}".encode())
    return h.hexdigest()


def validate(path, schema_path, detector):
    """The first errors of the file against its schema, as (type, message);
    a table with no Table Schema (compare's, show's, the fleet report's,
    the envelopes) against the one frictionless infers from it: its
    structure (one header, no blank or duplicate label, every row as wide
    as the header) and each column's values of one type."""
    options = {"detector": detector} if detector else {}
    if schema_path:
        with open(schema_path) as f:
            options["schema"] = frictionless.Schema.from_descriptor(json.load(f))
    resource = frictionless.Resource(path=os.path.basename(path), basepath=os.path.dirname(path),
                                     **options)
    return frictionless.validate(resource).flatten(["type", "message"])[:3]


def main():
    sync = not knows_fields_match()
    detector = frictionless.Detector(schema_sync=True) if sync else None
    how = "the schema synced to each header" if sync else "the schemas as written"
    cache = cache_folder()
    failures, n, known, tally = [], 0, 0, {}
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in sorted(names):
                path = os.path.join(root, name)
                if not name.endswith((".csv", ".csv.gz")):
                    continue
                kind = kind_of(path)
                schema_path = kind and f"{schema_dir}/memsweep-{kind}.tableschema.json"
                n += 1
                key = cache and os.path.join(cache, verdict_key(path, schema_path, how))
                if key and os.path.exists(key):
                    known += 1
                    tally[os.path.realpath(path)] = True
                    continue
                errors = validate(path, schema_path, detector if kind else None)
                tally[os.path.realpath(path)] = not errors
                for error in errors:
                    failures.append(f"{path}: {error[0]}: {error[1]}")
                if key and not errors:
                    open(key, "w").close()
    print(f"frictionless {frictionless.__version__}: {n} files ({n - known} validated now, "
          f"{known} found valid before with the same bytes: {cache or 'no cache'}), {how}, "
          f"{len(failures)} failures")
    for f in failures:
        print("FAIL:", f)
    if n == 0:
        print("FAIL: no file found")
    # Each file's verdict, for the table of files against tools
    # (files-tools-table.py).
    if os.environ.get("MEMSWEEP_DATA_TOOLS_TALLY"):
        name = f"frictionless-{frictionless.__version__}-{os.getpid()}.json"
        with open(os.path.join(os.environ["MEMSWEEP_DATA_TOOLS_TALLY"], name), "w") as f:
            json.dump(tally, f)
    return 1 if failures or n == 0 else 0


sys.exit(main())
