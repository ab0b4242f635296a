#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/app/test-cli-json-kinds.py: every JSON document memsweep writes
names the schema and version its entry in the table of kinds
(engine/files/ms-file-kinds.c) gives, and the entry's schema file in
data/schema/ describes that schema and version.

    test-cli-json-kinds.py MEMSWEEP FILE_KINDS_TABLE

Written here: show --format json (results-json), compare --format json
(compare-json), fleet-report --format json (fleet-report-json) over two
fleet-node runs of the host backend, and those runs' sidecars (sidecar:
"format" and "format-version"). siblings --format json needs GPUs: its
entry is held against its schema file only."""
import json
import os
import subprocess
import sys
import tempfile

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "schema")


def table(helper):
    """name -> (schema, version, schema file)."""
    out = subprocess.run([helper], check=True, capture_output=True, text=True).stdout
    return {f[0]: (f[1], int(f[2]), f[3]) for f in (line.split() for line in out.splitlines())}


def run_json(argv):
    p = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    if p.returncode not in (0, 1, 5):
        raise SystemExit("%s exited %d: %s" % (" ".join(argv), p.returncode, p.stderr))
    return json.loads(p.stdout)


def stamp(doc):
    """What a document says it is: (schema, version)."""
    if "format" in doc:
        return doc["format"], doc["format-version"]
    return doc["schema"], doc["schema_version"]


def schema_stamp(path):
    """What a schema file says its documents are."""
    with open(path, encoding="utf-8") as f:
        props = json.load(f)["properties"]
    key, version = ("format", "format-version") if "format" in props else ("schema",
                                                                            "schema_version")
    return props[key]["const"], props[version]["const"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    memsweep, kinds = sys.argv[1], table(sys.argv[2])
    failures = []
    with tempfile.TemporaryDirectory() as w:
        out = os.path.join(w, "out")
        for node in ("alpha", "beta"):
            subprocess.run([memsweep, "fleet-node", "--dir", out, "--node", node, "--",
                            "--modes", "host", "--min-exp", "10", "--max-exp", "11", "--reps",
                            "5", "--warmup", "1"], check=True, capture_output=True)
        a, b = (os.path.join(out, n + "-samples.csv") for n in ("alpha", "beta"))
        with open(os.path.join(out, "alpha-meta.json"), encoding="utf-8") as f:
            sidecar = json.load(f)
        written = {
            "results-json": run_json([memsweep, "show", a, "--format", "json"]),
            "compare-json": run_json([memsweep, "compare", a, b, "--format", "json"]),
            "fleet-report-json": run_json([memsweep, "fleet-report", out, "--format", "json"]),
            "sidecar": sidecar,
        }
    for name, doc in written.items():
        schema, version, _ = kinds[name]
        print("%s: written %s, table %s" % (name, stamp(doc), (schema, version)))
        if stamp(doc) != (schema, version):
            failures.append("%s: the document says %s, its table entry %s" %
                            (name, stamp(doc), (schema, version)))
    for name, (schema, version, schema_file) in kinds.items():
        described = schema_stamp(os.path.join(SCHEMAS, schema_file))
        if described != (schema, version):
            failures.append("%s: %s describes %s, its table entry says %s" %
                            (name, schema_file, described, (schema, version)))
    for f in failures:
        print("FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
