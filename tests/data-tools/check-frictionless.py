# SPDX-License-Identifier: GPL-3.0-or-later
"""check-frictionless.py SCHEMA-DIR FOLDER...: every memsweep CSV file in
the folders (shipped or just written, gzipped or not) valid against its
Table Schema under the frictionless this Python has.

The schemas declare Table Schema v2 ("$schema"), whose "fieldsMatch":
"superset" lets a file leave out a column that is empty in every row.
A frictionless that knows no fieldsMatch (5.18.1 does not; 5.21.0 does)
wants every field of the schema in the header: there the schema is synced
to the file's header (Detector(schema_sync=True)), the way such a version
validates these files, and the line printed says so."""
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


def main():
    sync = not knows_fields_match()
    detector = frictionless.Detector(schema_sync=True) if sync else None
    failures, n = [], 0
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in sorted(names):
                path = os.path.join(root, name)
                kind = kind_of(path) if name.endswith((".csv", ".csv.gz")) else None
                if not kind:
                    continue
                with open(f"{schema_dir}/memsweep-{kind}.tableschema.json") as f:
                    schema = frictionless.Schema.from_descriptor(json.load(f))
                options = {"detector": detector} if detector else {}
                resource = frictionless.Resource(path=name, basepath=root, schema=schema, **options)
                report = frictionless.validate(resource)
                n += 1
                for error in report.flatten(["type", "message"])[:3]:
                    failures.append(f"{path}: {error[0]}: {error[1]}")
    how = "the schema synced to each header" if sync else "the schemas as written"
    print(f"frictionless {frictionless.__version__}: {n} files, {how}, {len(failures)} failures")
    for f in failures:
        print("FAIL:", f)
    if n == 0:
        print("FAIL: no file found")
    return 1 if failures or n == 0 else 0


sys.exit(main())
