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


def load_schema(name):
    with open(os.path.join(schema_dir, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def own_errors(schema, doc, path="$"):
    """The keywords data/schema/ uses, for machines without jsonschema."""
    errors = []
    if "anyOf" in schema:
        if all(own_errors(s, doc, path) for s in schema["anyOf"]):
            errors.append("%s: matches no choice" % path)
        return errors
    if "const" in schema and doc != schema["const"]:
        errors.append("%s: not %r" % (path, schema["const"]))
    if "enum" in schema and doc not in schema["enum"]:
        errors.append("%s: %r not in %r" % (path, doc, schema["enum"]))
    kinds = schema.get("type")
    if kinds:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        py = {"object": dict, "array": list, "string": str, "boolean": bool,
              "null": type(None)}
        def is_kind(k):
            if k == "integer":
                return isinstance(doc, int) and not isinstance(doc, bool)
            if k == "number":
                return isinstance(doc, (int, float)) and not isinstance(doc, bool)
            return isinstance(doc, py[k])
        if not any(is_kind(k) for k in kinds):
            return errors + ["%s: %r is not %s" % (path, doc, kinds)]
    if isinstance(doc, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in doc:
                errors.append("%s: no %s" % (path, key))
        for key, value in doc.items():
            if key in props:
                errors += own_errors(props[key], value, path + "." + key)
            elif schema.get("additionalProperties") is False:
                errors.append("%s: unexpected %s" % (path, key))
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += own_errors(schema["additionalProperties"], value, path + "." + key)
    if isinstance(doc, list):
        if len(doc) < schema.get("minItems", 0):
            errors.append("%s: fewer than %d items" % (path, schema["minItems"]))
        for i, item in enumerate(doc):
            errors += own_errors(schema.get("items", {}), item, "%s[%d]" % (path, i))
    if isinstance(doc, str) and "pattern" in schema:
        import re
        if not re.search(schema["pattern"], doc):
            errors.append("%s: %r does not match %s" % (path, doc, schema["pattern"]))
    return errors


try:
    import jsonschema

    def errors_of(schema, doc):
        validator = jsonschema.Draft202012Validator(schema)
        return ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
                for e in validator.iter_errors(doc)]
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.json"))):
        try:
            jsonschema.Draft202012Validator.check_schema(json.load(open(path)))
            check("%s is a draft 2020-12 schema" % os.path.basename(path), True)
        except jsonschema.SchemaError as e:
            check("%s is a draft 2020-12 schema" % os.path.basename(path), False, e.message)
except ImportError:
    print("note: no jsonschema module; the schemas' keywords are checked here")
    errors_of = own_errors


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
    for path in sorted(glob.glob(os.path.join(reference, "*-samples.csv")) +
                       glob.glob(os.path.join(reference, "*-summary.csv"))):
        validate("show %s" % os.path.basename(path), "memsweep-results",
                 ["show", path, "--format", "json"])
    a = os.path.join(reference, "h100-default-1-samples.csv")
    b = os.path.join(reference, "h100-default-2-samples.csv")
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
    p = subprocess.run([memsweep, "info", "--format", "csv"], capture_output=True, text=True)
    check("info refuses CSV (its facts are no table)", p.returncode == 2 and not p.stdout)

    # The schemas pin the keys: a key the schema does not know is an error.
    modes = json.loads(subprocess.run([memsweep, "modes", "--format", "json"],
                                      capture_output=True, text=True).stdout)
    modes["unknown_key"] = 1
    check("a document with a key of no schema is refused",
          bool(errors_of(load_schema("memsweep-modes"), modes)))

if fails:
    print("%d check(s) failed" % fails)
sys.exit(1 if fails else 0)
