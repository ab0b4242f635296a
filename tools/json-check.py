#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""json-check.py SCHEMA_DIR FILE...: each FILE is one JSON document valid
against its schema in SCHEMA_DIR (data/schema/), the one its "schema" key
names. jsonschema checks where it is installed (tools/deps.sh test); else
the keywords data/schema/ uses are checked here. Exit 1 when one is not.
tests/app/test-cli-json.py uses the same checks."""
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


def load_schema(schema_dir, name):
    with open(os.path.join(schema_dir, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def main():
    schema_dir, paths = sys.argv[1], sys.argv[2:]
    fails = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            errors = errors_of(load_schema(schema_dir, doc.get("schema", "")), doc)
        except (OSError, ValueError, AttributeError) as e:
            errors = [str(e)]
        print(("ok   %s" % path) if not errors else "FAIL: %s: %s" % (path, "; ".join(errors[:5])))
        fails += bool(errors)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
