#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""shipped-sidecars.py: the sidecars that ship beside memsweep's CSV files
(data/reference/, data/profiles/) name each file as it ships and give the
SHA-256 that docs/csv.md offers to check it with: `sha256sum F` for a plain
file, `zcat F.gz | sha256sum` for a gzipped one (the bytes and hash of a
.gz file are those of its plain content, format version 2 and later,
data/schema/memsweep-meta.schema.json).

    python3 tools/shipped-sidecars.py SIDECAR...   # stamps them
    python3 tools/shipped-sidecars.py --check DIR...

Stamping: memsweep writes a run's sidecar beside the plain files
(X-samples.csv), and a run is shipped gzipped (`gzip -9n`) and often
renamed (lesson-reuse-* as h100-lesson-reuse-*). For each file the
sidecar describes, the file it describes now is the one whose name gives
that sidecar (STEM-samples.csv, STEM-summary.csv or, for any other role,
STEM.csv beside STEM-meta.json; plain or .gz, as memsweep finds a file's
sidecar). Its plain content must be the bytes the entry describes (its
size, and its SHA-256 or a version-1 sidecar's FNV-1a 64): then the entry
is written again with the shipped name, the size and the SHA-256, and a
version-1 sidecar becomes version 2 (version 3 adds only the host-link
role, and stays 3). Nothing else of the sidecar changes, byte for
byte (run-id, metadata); a sidecar whose file is not the one it describes
is left alone and named, exit 1.

--check: every sidecar under each DIR is format version 2 or 3, and each entry
names a file beside it, by its shipped name, whose plain content has the
entry's size and SHA-256; every CSV file under each DIR is named by its
sidecar. Exit 1 with a line per miss, each saying the command that fixes
it where this script can (the data suite's shipped-sidecars test)."""
import gzip
import hashlib
import json
import os
import re
import sys
import zlib

FORMAT = "memsweep-meta"
# The versions whose entries name a file with its SHA-256; 3 only adds
# the host-link role.
VERSIONS = (2, 3)
SUFFIX = "-meta.json"
GZ = ".gz"
FIX = "python3 tools/shipped-sidecars.py %s"
FNV_BASIS, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3


class Miss(Exception):
    """A file or sidecar this script cannot take: its message is the why."""


def plain_digests(path, want_fnv):
    """Size, SHA-256 and (want_fnv) FNV-1a 64 of a file's plain content;
    Miss where it cannot be read whole (a bad CRC, a cut or false .gz)."""
    sha, fnv, size = hashlib.sha256(), FNV_BASIS, 0
    opener = gzip.open if path.endswith(GZ) else open
    try:
        with opener(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                sha.update(block)
                size += len(block)
                if want_fnv:
                    for byte in block:
                        fnv = ((fnv ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    except (OSError, EOFError, zlib.error) as e:
        raise Miss("%s cannot be read whole: %s" % (path, e or type(e).__name__)) from None
    return size, sha.hexdigest(), "%016x" % fnv


def read_sidecar(sidecar):
    """The sidecar's text and document, its files a mapping of role to an
    entry with a name and a byte count; Miss where it is not."""
    try:
        with open(sidecar, encoding="utf-8") as f:
            text = f.read()
        doc = json.loads(text)
    except (OSError, ValueError) as e:
        raise Miss(str(e)) from None
    if not isinstance(doc, dict):
        raise Miss("not a JSON object")
    files = doc.get("files", {})
    if not isinstance(files, dict) or not all(
            isinstance(e, dict) and isinstance(e.get("name"), str) and
            isinstance(e.get("bytes"), int) for e in files.values()):
        raise Miss("its files are not entries with a name and a byte count")
    return text, doc


def beside(sidecar, name):
    """The path of the file NAME beside the sidecar: a plain name, in the
    sidecar's own folder (no ../, no absolute name, no link out of it)."""
    folder = os.path.dirname(os.path.abspath(sidecar))
    path = os.path.join(folder, name)
    if not name or name in (".", "..") or os.path.basename(name) != name or "\\" in name or \
            os.path.dirname(os.path.realpath(path)) != os.path.realpath(folder):
        raise Miss("entry name %r is not a file beside its sidecar" % name)
    return path


def role_names(stem, role):
    """The plain names whose sidecar is STEM-meta.json, for a role."""
    return {"samples": [stem + "-samples.csv"], "summary": [stem + "-summary.csv"]}.get(
        role, [stem + ".csv"])


def shipped_file(sidecar, role, entry_name):
    """The file beside the sidecar that the role's entry describes now: by
    the name the sidecar's own name gives it, else by the entry's name."""
    folder = os.path.dirname(sidecar)
    stem = os.path.basename(sidecar)[:-len(SUFFIX)]
    plain = entry_name[:-len(GZ)] if entry_name.endswith(GZ) else entry_name
    for name in role_names(stem, role) + [plain]:
        for form in (name + GZ, name):
            if os.path.isfile(beside(sidecar, form)):
                return os.path.join(folder, form)
    return None


def entry_text(name, size, sha256):
    """One files entry on one line, as memsweep's writer lays it out."""
    return "{ %s: %s, %s: %d, %s: %s }" % (json.dumps("name"), json.dumps(name),
                                           json.dumps("bytes"), size,
                                           json.dumps("sha256"), json.dumps(sha256))


def stamp(sidecar):
    """Rewrites one sidecar for its files as shipped; None, or why not."""
    try:
        return stamp_or_miss(sidecar)
    except Miss as e:
        return str(e)


def stamp_or_miss(sidecar):
    text, doc = read_sidecar(sidecar)
    version = doc.get("format-version")
    if doc.get("format") != FORMAT or version not in (1,) + VERSIONS:
        return "not a memsweep sidecar of format version 1, 2 or 3"
    new = text
    for role, entry in doc["files"].items():
        path = shipped_file(sidecar, role, entry["name"])
        if not path:
            return "no file of its %s beside it (%s)" % (role, entry["name"])
        size, sha, fnv = plain_digests(path, "sha256" not in entry)
        if size != entry["bytes"] or entry.get("sha256", sha) != sha or \
                entry.get("fnv1a-64", fnv) != fnv:
            return "%s is not the %s it describes (%s): another run's, or changed since" % (
                path, role, entry["name"])
        line = re.compile(r'^(\s*%s: )\{[^\n]*\}(,?)$' % re.escape(json.dumps(role)), re.M)
        new, n = line.subn(lambda m: m.group(1) + entry_text(os.path.basename(path), size, sha)
                           + m.group(2), new, count=1)
        if n != 1:
            return "its %s entry is not on one line, as memsweep writes it" % role
    new, n = re.subn(r'^(\s*"format-version": )[123](,?)$', r"\g<1>%d\2" % max(version, 2), new,
                     count=1, flags=re.M)
    after = json.loads(new)
    # Only the version and the entries changed.
    if n != 1 or {k: v for k, v in after.items() if k not in ("format-version", "files")} != \
            {k: v for k, v in doc.items() if k not in ("format-version", "files")}:
        return "its layout is not memsweep's: not rewritten"
    if new != text:
        with open(sidecar + ".tmp", "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(sidecar + ".tmp", sidecar)
    return None


def sidecars_under(top):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SUFFIX):
                yield os.path.join(root, name)


def csv_files_under(top):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".csv", ".csv" + GZ)):
                yield os.path.join(root, name)


def sidecar_of(csv_path):
    """memsweep's rule: X-samples.csv[.gz] and X-summary.csv[.gz] have
    X-meta.json, any other NAME.csv[.gz] NAME-meta.json."""
    name = csv_path[:-len(GZ)] if csv_path.endswith(GZ) else csv_path
    for suffix in ("-samples.csv", "-summary.csv", ".csv"):
        if name.endswith(suffix):
            return name[:-len(suffix)] + SUFFIX
    return None


def check_sidecar(sidecar, named):
    """One sidecar's misses; the files it names join named."""
    _, doc = read_sidecar(sidecar)
    if doc.get("format") != FORMAT:
        return []
    if doc.get("format-version") not in VERSIONS:
        return ["%s: format version %r, not 2 or 3: %s" % (
            sidecar, doc.get("format-version"), FIX % sidecar)]
    misses = []
    for role, entry in doc.get("files", {}).items():
        path = beside(sidecar, entry["name"])
        if not os.path.isfile(path):
            misses.append("%s: its %s %s is not beside it, by that name: %s" % (
                sidecar, role, entry["name"], FIX % sidecar))
            continue
        named.add(os.path.join(os.path.dirname(sidecar), entry["name"]))
        try:
            size, sha, _ = plain_digests(path, False)
        except Miss as e:
            misses.append("%s: %s" % (sidecar, e))
            continue
        if (size, sha) != (entry["bytes"], entry.get("sha256")):
            misses.append("%s: %s has %d bytes, SHA-256 %s (%s), not the %s and %s it "
                          "records: another run's file, or changed since" % (
                              sidecar, path, size, sha,
                              "zcat | sha256sum" if path.endswith(GZ) else "sha256sum",
                              entry["bytes"], entry.get("sha256")))
    return misses


def check(tops):
    misses = []
    named = set()
    for top in tops:
        for sidecar in sidecars_under(top):
            try:
                misses += check_sidecar(sidecar, named)
            except Miss as e:
                misses.append("%s: %s" % (sidecar, e))
        for path in csv_files_under(top):
            sidecar = sidecar_of(path)
            if path not in named:
                misses.append("%s: named by no sidecar (%s)%s" % (
                    path, sidecar, ": " + FIX % sidecar if sidecar and os.path.exists(sidecar)
                    else ""))
    for miss in misses:
        print("FAIL: " + miss)
    print("%d shipped sidecars out of place" % len(misses) if misses else
          "ok   every shipped sidecar names its files as they ship, with their SHA-256")
    return 1 if misses else 0


def main(args):
    if args[:1] == ["--check"]:
        return check(args[1:])
    if not args or args[0].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    fails = 0
    for sidecar in args:
        why = stamp(sidecar)
        print(("stamped %s" % sidecar) if not why else "FAIL: %s: %s" % (sidecar, why))
        fails += why is not None
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
