#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli-shipped-sidecars.py SOURCE_ROOT: tools/shipped-sidecars.py, in
both its uses (--check DIR and stamping), on a copy of a shipped run made
hostile by class: a .gz file that cannot be read whole (a bad CRC, cut
short, plain bytes under a .gz name), a sidecar that is not one (not
JSON, not an object, entries that are not entries), and entry names that
leave the sidecar's folder (../, an absolute name, a link out). Each
gives a FAIL line naming the sidecar, exit 1, never a traceback, and no
file outside the folder is read."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1])
TOOL = os.path.join(ROOT, "tools", "shipped-sidecars.py")
REF = os.path.join(ROOT, "data", "reference")
STEM = "h200x2-peer"
fails = 0


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL: ") + what + ("" if ok or not detail else "\n  | " +
                                                   detail.strip().replace("\n", "\n  | ")))
    fails += not ok


def fresh(top):
    folder = os.path.join(top, "ship")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name in (STEM + "-meta.json", STEM + ".csv.gz"):
        shutil.copy(os.path.join(REF, name), folder)
    return folder


def set_entry(folder, **fields):
    path = os.path.join(folder, STEM + "-meta.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc["files"]["peer"].update(fields)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def damage_gz(folder, how):
    path = os.path.join(folder, STEM + ".csv.gz")
    with open(path, "rb") as f:
        body = f.read()
    body = {"bad CRC": body[:-8] + bytes(b ^ 0xFF for b in body[-8:-4]) + body[-4:],
            "cut": body[:len(body) // 2],
            "plain bytes": gzip.decompress(body)}[how]
    with open(path, "wb") as f:
        f.write(body)


def write_sidecar(folder, text):
    with open(os.path.join(folder, STEM + "-meta.json"), "w", encoding="utf-8") as f:
        f.write(text)


def outside_names(top, folder):
    """Entry names that leave the folder; the files they name exist."""
    out = os.path.join(top, "out")
    os.makedirs(out, exist_ok=True)
    shutil.copy(os.path.join(REF, STEM + ".csv.gz"), out)
    os.symlink(os.path.join(out, STEM + ".csv.gz"), os.path.join(folder, "link.csv.gz"))
    return ["../out/" + STEM + ".csv.gz", os.path.join(out, STEM + ".csv.gz"), "/etc/hostname",
            "link.csv.gz", "..", ""]


def tool(args):
    p = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def expect_fail(what, folder):
    sidecar = os.path.join(folder, STEM + "-meta.json")
    for args in (["--check", folder], [sidecar]):
        rc, out, err = tool(args)
        check(f"{what}: {args[0]} exits 1 with a FAIL line, no traceback",
              rc == 1 and "FAIL: " + sidecar in out and "Traceback" not in out + err,
              out + err)


def main():
    top = tempfile.mkdtemp(prefix="memsweep-shipped-")
    try:
        rc, out, err = tool(["--check", fresh(top)])
        check("a shipped run as it ships passes", rc == 0, out + err)
        for how in ("bad CRC", "cut", "plain bytes"):
            folder = fresh(top)
            damage_gz(folder, how)
            expect_fail(f"a .gz file of {how}", folder)
        for what, text in (("not JSON", "{"), ("not an object", "[]"),
                           ("files a list", '{"format":"memsweep-meta","format-version":2,'
                            '"files":[]}'),
                           ("an entry's name a number", '{"format":"memsweep-meta",'
                            '"format-version":2,"files":{"peer":{"name":5,"bytes":1}}}'),
                           ("an entry a string", '{"format":"memsweep-meta",'
                            '"format-version":2,"files":{"peer":"x"}}')):
            folder = fresh(top)
            write_sidecar(folder, text)
            expect_fail(f"a sidecar {what}", folder)
        folder = fresh(top)
        for name in outside_names(top, folder):
            set_entry(fresh(top), name=name)
            expect_fail(f"entry name {name!r} outside its folder", os.path.join(top, "ship"))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print(f"shipped-sidecars: {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
