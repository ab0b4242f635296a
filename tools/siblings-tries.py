#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/siblings-tries.py: what each `memsweep siblings --format json`
try named, and whether exactly the slowed GPU was named in every try with
the switch and none in every try without it.

    tools/siblings-tries.py SLOWED_GPU DIR

DIR holds plain-K.json (no switch) and slowed-K.json (--gpu-experiment on
SLOWED_GPU); exit 1 unless every try is as expected.
"""
import glob
import json
import os
import sys


def named(path):
    doc = json.load(open(path, encoding="utf-8"))
    gpus = [g["index"] for g in doc["gpus"] if g["differs"]]
    modes = {g["index"]: [m["mode"] for m in g["modes"] if m["differs"]] for g in doc["gpus"]}
    return doc, gpus, modes


def main(argv):
    slowed, folder = int(argv[1]), argv[2]
    good = total = 0
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        name = os.path.basename(path)
        try:
            doc, gpus, modes = named(path)
        except (OSError, ValueError, KeyError) as e:
            print(f"{name}: unreadable ({e})")
            total += 1
            continue
        want = [slowed] if name.startswith("slowed") else []
        ok = gpus == want
        good += ok
        total += 1
        print(f"{name}: result {doc['result']}, named {gpus or 'none'}"
              f"{' in ' + ', '.join(modes[slowed]) if slowed in gpus else ''}, "
              f"{doc['processes_per_gpu']} processes a GPU, {doc['seconds']:.0f} s: "
              f"{'as expected' if ok else 'NOT as expected'}")
    print(f"siblings: {good} of {total} tries as expected")
    return 0 if total and good == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
