#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-json.py MEMSWEEP SCHEMA_DIR REFERENCE_DIR: every command that
prints results prints, with --format json, one document and nothing else on
standard output, valid against its JSON Schema in data/schema/ (draft
2020-12): run and calibrate in the host mode, show on every reference run,
compare, info, modes, lesson LIST, fleet-report on two nodes made by hand,
and the option table. Status lines go to standard error. jsonschema checks
where it is installed (tools/deps.sh test); else a checker of the keywords
the schemas use. The commands whose result is one table (modes, calibrate,
fleet-report) print it with --format csv as well, the same rows as their
JSON."""
import csv
import glob
import io
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

memsweep, schema_dir, reference = sys.argv[1:4]
fails = 0
HOST_SWEEP = ["--modes", "host", "--min-exp", "10", "--max-exp", "12", "--reps", "5",
              "--warmup", "0"]


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else ": " + detail))
    fails += not ok


# The checks of tools/json-check.py, which the GPU steps use too.
spec = importlib.util.spec_from_file_location(
    "json_check", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                               "json-check.py"))
json_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(json_check)
errors_of = json_check.errors_of


def load_schema(name):
    return json_check.load_schema(schema_dir, name)


if json_check.HAVE_JSONSCHEMA:
    import jsonschema
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.json"))):
        try:
            jsonschema.Draft202012Validator.check_schema(json.load(open(path)))
            check("%s is a draft 2020-12 schema" % os.path.basename(path), True)
        except jsonschema.SchemaError as e:
            check("%s is a draft 2020-12 schema" % os.path.basename(path), False, e.message)
else:
    print("note: no jsonschema module; the schemas' keywords are checked by json-check.py")


def validate(what, schema_name, args, rcs=(0,), env=None):
    """Runs memsweep with args; stdout must be one document of the schema."""
    p = subprocess.run([memsweep] + args, capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    if p.returncode not in rcs:
        check(what, False, "exit status %d: %s" % (p.returncode, p.stderr.strip()[-300:]))
        return None, p
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        check(what, False, "standard output is not one JSON document (%s): %r" %
              (e, p.stdout[:200]))
        return None, p
    errors = errors_of(load_schema(schema_name), doc)
    check("%s is a %s document" % (what, schema_name), not errors, "; ".join(errors[:5]))
    return doc, p


def csv_rows(what, args, env):
    """Runs memsweep with args; stdout must be CSV with a header line."""
    p = subprocess.run([memsweep] + args, capture_output=True, text=True,
                       env=dict(os.environ, **env))
    check("%s --format csv exits 0" % what, p.returncode == 0, p.stderr.strip()[-300:])
    return list(csv.DictReader(p.stdout.splitlines()))


with tempfile.TemporaryDirectory() as tmp:
    env = {"TMPDIR": tmp, "XDG_DATA_HOME": tmp}
    validate("modes", "memsweep-modes", ["modes", "--format", "json"])
    # Exit status 3 where there is no GPU: the document says why.
    doc, _ = validate("info", "memsweep-info", ["info", "--format", "json"], rcs=(0, 3))
    validate("lesson LIST", "memsweep-lessons", ["lesson", "LIST", "--format", "json"])
    validate("the option table", "memsweep-options", ["__options"])

    prefix = os.path.join(tmp, "host")
    _, p = validate("run", "memsweep-results",
                    ["run", "--format", "json", "--quiet", "--out", prefix] + HOST_SWEEP, env=env)
    check("run writes its files beside the JSON", os.path.exists(prefix + "-samples.csv"))
    for path in sorted(glob.glob(os.path.join(reference, "*-samples.csv.gz")) +
                       glob.glob(os.path.join(reference, "*-summary.csv.gz"))):
        validate("show %s" % os.path.basename(path), "memsweep-results",
                 ["show", path, "--format", "json"])
    a = os.path.join(reference, "h100-default-1-samples.csv.gz")
    b = os.path.join(reference, "h100-default-2-samples.csv.gz")
    doc, _ = validate("compare", "memsweep-compare", ["compare", "--format", "json", a, b],
                      rcs=(0, 1))
    alias = subprocess.run([memsweep, "compare", "--json", a, b], capture_output=True, text=True)
    check("compare --json is --format json", doc is not None and
          json.loads(alias.stdout) == doc)

    profile = os.path.join(tmp, "profile.csv")
    _, p = validate("calibrate", "memsweep-calibration",
                    ["calibrate", "--runs", "3", "--out", profile, "--format", "json"] +
                    HOST_SWEEP, env=env)
    check("calibrate says where the profile went on standard error only",
          "wrote" in p.stderr and "wrote" not in p.stdout)
    calibration = json.loads(p.stdout) if p.returncode == 0 else {"modes": []}
    rows = csv_rows("calibrate", ["calibrate", "--runs", "3", "--out", profile, "--format",
                                  "csv"] + HOST_SWEEP, env)
    check("calibrate's CSV has the modes of its JSON",
          [r["mode"] for r in rows] == [m["name"] for m in calibration["modes"]] and
          all(float(r["half_width_pct_max"]) >= float(r["half_width_pct_min"]) for r in rows))
    p = subprocess.run([memsweep, "calibrate", "--runs", "3", "--out", profile] + HOST_SWEEP,
                       capture_output=True, text=True, env=dict(os.environ, **env))
    check("calibrate's text keeps its status lines on standard error",
          p.returncode == 0 and "wrote" in p.stderr and "wrote" not in p.stdout)

    fleet = os.path.join(tmp, "fleet")
    for node in ("alpha", "beta"):
        subprocess.run([memsweep, "fleet-node", "--dir", fleet, "--node", node, "--"] +
                       HOST_SWEEP, capture_output=True, env=dict(os.environ, **env))
    doc, _ = validate("fleet-report", "memsweep-fleet-report",
                      ["fleet-report", "--format", "json", fleet])
    check("fleet-report's document has both nodes",
          doc is not None and [n["node"] for n in doc["nodes"]] == ["alpha", "beta"])
    rows = csv_rows("fleet-report", ["fleet-report", "--format", "csv", fleet], env)
    check("fleet-report's CSV has the nodes and figures of its JSON",
          doc is not None and [r["node"] for r in rows] == ["alpha", "beta"] and
          all(float(r["host_gbps"]) == n["figures"][[f["name"] for f in n["figures"]]
                                                     .index("host")]["gbps"]
              for r, n in zip(rows, doc["nodes"])))

    rows = csv_rows("modes", ["modes", "--format", "csv"], env)
    modes_doc = json.loads(subprocess.run([memsweep, "modes", "--format", "json"],
                                          capture_output=True, text=True).stdout)
    check("modes' CSV has every mode of its JSON, descriptions whole",
          [(r["mode"], r["description"]) for r in rows] ==
          [(m["name"], m["description"]) for m in modes_doc["modes"]])
    # info's table is its modes and whether the device supports each.
    p = subprocess.run([memsweep, "info", "--format", "csv"], capture_output=True, text=True)
    check("info's CSV has a row per mode",
          [r["mode"] for r in csv.DictReader(io.StringIO(p.stdout))] ==
          [m["name"] for m in modes_doc["modes"]])

    # The schemas pin the keys: a key the schema does not know is an error.
    modes = json.loads(subprocess.run([memsweep, "modes", "--format", "json"],
                                      capture_output=True, text=True).stdout)
    modes["unknown_key"] = 1
    check("a document with a key of no schema is refused",
          bool(errors_of(load_schema("memsweep-modes"), modes)))

if fails:
    print("%d check(s) failed" % fails)
sys.exit(1 if fails else 0)
