#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""json-check.py SCHEMA_DIR FILE...: each FILE is one JSON document valid
against the schema in SCHEMA_DIR (data/schema/) of its own kind and
version: the kind its "schema" key names (a sidecar's "format"), the
version its "schema_version" (a sidecar's "format-version"). Each schema
there says which kind and version it validates (its "schema" or "format"
const and its version's const), so that every version memsweep ever
wrote keeps its schema (memsweep-compare-v3.json beside
memsweep-compare.json) and any change of a document's fields is a new
version with a schema of its own.

json-check.py SCHEMA_DIR --versions FILE --tree DIR...: the same for
every *.json and *.json.gz file under each DIR (the measurements, data/,
the tests' fixtures), and every schema in SCHEMA_DIR checked as a JSON
Schema and against FILE (tests/data/schema-versions.txt), which records
the shape of each kind's every version: its keys, types, constants and
what is required, its words (descriptions, titles) left aside. A schema
whose shape changed under the same version, a version that is gone and
one not recorded there all fail: a change of a document's fields is a
new version, its old schema kept. The fuzzers' seeds (tests/fuzz/),
damaged on purpose, are left out.

jsonschema checks where it is installed (tools/deps.sh test); else the
keywords data/schema/ uses are checked here. Exit 1 when one is not.
tests/app/test-cli-json.py uses the same checks."""
import gzip
import hashlib
import json
import os
import re
import sys


def own_errors(schema, doc, path="$"):
    """The keywords data/schema/ uses, for machines without jsonschema."""
    errors = []
    if "anyOf" in schema:
        if all(own_errors(s, doc, path) for s in schema["anyOf"]):
            errors.append("%s: matches no choice" % path)
        return errors
    if "oneOf" in schema:
        if sum(not own_errors(s, doc, path) for s in schema["oneOf"]) != 1:
            errors.append("%s: matches not exactly one choice" % path)
        rest = dict(schema)
        del rest["oneOf"]
        return errors + own_errors(rest, doc, path)
    if "const" in schema and doc != schema["const"]:
        errors.append("%s: not %r" % (path, schema["const"]))
    if "enum" in schema and doc not in schema["enum"]:
        errors.append("%s: %r not in %r" % (path, doc, schema["enum"]))
    kinds = schema.get("type")
    if kinds:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(is_kind(doc, k) for k in kinds):
            return errors + ["%s: %r is not %s" % (path, doc, kinds)]
    if isinstance(doc, dict):
        errors += object_errors(schema, doc, path)
    if isinstance(doc, list):
        if len(doc) < schema.get("minItems", 0):
            errors.append("%s: fewer than %d items" % (path, schema["minItems"]))
        for i, item in enumerate(doc):
            errors += own_errors(schema.get("items", {}), item, "%s[%d]" % (path, i))
    if isinstance(doc, str) and "pattern" in schema and not re.search(schema["pattern"], doc):
        errors.append("%s: %r does not match %s" % (path, doc, schema["pattern"]))
    return errors


def is_kind(doc, kind):
    if kind == "integer":
        return isinstance(doc, int) and not isinstance(doc, bool)
    if kind == "number":
        return isinstance(doc, (int, float)) and not isinstance(doc, bool)
    return isinstance(doc, {"object": dict, "array": list, "string": str, "boolean": bool,
                            "null": type(None)}[kind])


def object_errors(schema, doc, path):
    errors = ["%s: no %s" % (path, key) for key in schema.get("required", []) if key not in doc]
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties")
    for key, value in doc.items():
        if key in props:
            errors += own_errors(props[key], value, path + "." + key)
        elif extra is False:
            errors.append("%s: unexpected %s" % (path, key))
        elif isinstance(extra, dict):
            errors += own_errors(extra, value, path + "." + key)
    return errors


try:
    import jsonschema

    def errors_of(schema, doc):
        validator = jsonschema.Draft202012Validator(schema)
        return ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
                for e in validator.iter_errors(doc)]
    HAVE_JSONSCHEMA = True
except ImportError:
    errors_of = own_errors
    HAVE_JSONSCHEMA = False


def kind_and_version(doc):
    """The kind and version a document (or, from its consts, a schema) says."""
    if not isinstance(doc, dict):
        return None, None
    if "format" in doc:
        return doc.get("format"), doc.get("format-version")
    return doc.get("schema"), doc.get("schema_version")


def schema_kind_and_version(schema):
    props = schema.get("properties", {})
    consts = {key: value.get("const") for key, value in props.items() if isinstance(value, dict)}
    return kind_and_version(consts)


def schemas_in(schema_dir):
    """Every JSON Schema in schema_dir by the (kind, version) it validates;
    the Table Schemas of the CSV files (*.tableschema.json) are no JSON
    Schemas."""
    found = {}
    for name in sorted(os.listdir(schema_dir)):
        if not name.endswith(".json") or name.endswith(".tableschema.json"):
            continue
        with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
            schema = json.load(f)
        key = schema_kind_and_version(schema)
        if key in found:
            raise ValueError("%s and %s both validate %s version %s" %
                             (found[key][0], name, key[0], key[1]))
        found[key] = (name, schema)
    return found


_schemas = {}


def schema_for(schema_dir, doc):
    """The schema of doc's own kind and version."""
    if schema_dir not in _schemas:
        _schemas[schema_dir] = schemas_in(schema_dir)
    kind, version = kind_and_version(doc)
    found = _schemas[schema_dir].get((kind, version))
    if not found:
        raise ValueError("no schema of %r version %r in %s" % (kind, version, schema_dir))
    return found[1]


def load_schema(schema_dir, name):
    """The current schema of a kind (memsweep-results): the file of its name."""
    with open(os.path.join(schema_dir, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def read_document(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def check_paths(schema_dir, paths):
    fails = 0
    for path in paths:
        try:
            doc = read_document(path)
            errors = errors_of(schema_for(schema_dir, doc), doc)
        except (OSError, ValueError, AttributeError, EOFError) as e:
            errors = [str(e)]
        print(("ok   %s" % path) if not errors else "FAIL: %s: %s" % (path, "; ".join(errors[:5])))
        fails += bool(errors)
    return fails


def tree(dirs):
    """The JSON documents under dirs, the fuzzers' seeds left out."""
    for top in dirs:
        for root, subdirs, files in os.walk(top):
            subdirs[:] = sorted(d for d in subdirs if d not in ("fuzz", "schema"))
            for name in sorted(files):
                if name.endswith(".json") or name.endswith(".json.gz"):
                    yield os.path.join(root, name)


def shape(schema):
    """A schema without its words: what a change of the documents' fields changes."""
    if isinstance(schema, dict):
        return {key: shape(value) for key, value in schema.items()
                if key not in ("description", "title", "$comment", "$id", "examples")}
    if isinstance(schema, list):
        return [shape(value) for value in schema]
    return schema


def shape_digest(schema):
    text = json.dumps(shape(schema), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def check_versions(schema_dir, versions_path):
    """Each (kind, version) as versions_path records its shape."""
    recorded = {}
    with open(versions_path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                kind, version, digest = line.split()
                recorded[(kind, int(version))] = digest
    fails = 0
    found = schemas_in(schema_dir)
    for key, (name, schema) in sorted(found.items(), key=str):
        digest = shape_digest(schema)
        if key not in recorded:
            print("FAIL: %s: %s version %s is not in %s: a new version is added there as "
                  "'%s %s %s'" % (name, key[0], key[1], versions_path, key[0], key[1], digest))
        elif recorded[key] != digest:
            print("FAIL: %s: the fields of %s version %s changed (shape %s, recorded %s): "
                  "give the documents a new version, with a schema of its own, and keep this "
                  "one" % (name, key[0], key[1], digest, recorded[key]))
        fails += key not in recorded or recorded[key] != digest
    for key in sorted(set(recorded) - set(found), key=str):
        print("FAIL: %s version %s has no schema in %s: every version written keeps its "
              "schema" % (key[0], key[1], schema_dir))
        fails += 1
    return fails


def check_schemas(schema_dir):
    fails = 0
    for key, (name, schema) in sorted(schemas_in(schema_dir).items(), key=str):
        if HAVE_JSONSCHEMA:
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.exceptions.SchemaError as e:
                print("FAIL: %s: %s" % (name, e.message))
                fails += 1
                continue
        print("ok   %s: %s version %s" % (name, key[0], key[1]))
    return fails


def main():
    schema_dir, paths = sys.argv[1], sys.argv[2:]
    versions = None
    if paths[:1] == ["--versions"]:
        versions, paths = paths[1], paths[2:]
    if paths[:1] == ["--tree"]:
        paths = list(tree(paths[1:]))
        print("%d JSON documents" % len(paths))
        fails = check_schemas(schema_dir) + check_paths(schema_dir, paths)
        if versions:
            fails += check_versions(schema_dir, versions)
    else:
        fails = check_paths(schema_dir, paths)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
