#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/siblings-tries.py: what each `memsweep siblings --format json`
try said, and whether every try without a switch said "alike" and every
try with one named the slowed GPU alone; with each try's time and, for
the slowed GPU, in how many of the GPU modes judged it was named.

    tools/siblings-tries.py SLOWED_GPU DIR

DIR holds plain-K.json (no switch) and slowedP-K.json (--gpu-experiment
inject=P on SLOWED_GPU); exit 1 unless every try is as expected.
"""
import glob
import json
import os
import sys


def named(doc):
    gpus = [g["index"] for g in doc["gpus"] if g["differs"]]
    modes = {g["index"]: [m["mode"] for m in g["modes"] if m["differs"]] for g in doc["gpus"]}
    judged = len(doc["gpus"][0]["modes"]) if doc["gpus"] else 0
    return gpus, modes, judged


def main(argv):
    slowed, folder = int(argv[1]), argv[2]
    good = total = 0
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        name = os.path.basename(path)
        total += 1
        try:
            doc = json.load(open(path, encoding="utf-8"))
            gpus, modes, judged = named(doc)
        except (OSError, ValueError, KeyError) as e:
            print(f"{name}: unreadable ({e})")
            continue
        slow = name.startswith("slowed")
        ok = gpus == [slowed] if slow else doc["result"] == "alike"
        good += ok
        where = (f" in {len(modes[slowed])} of {judged} modes ({', '.join(modes[slowed])})"
                 if slowed in gpus else "")
        print(f"{name}: result {doc['result']}, named {gpus or 'none'}{where}, "
              f"{doc['processes_per_gpu']} processes a GPU, {doc['looks']} looks, "
              f"decided after {doc['decided_after_s']:.0f} s, {doc['seconds']:.0f} s measured, "
              f"{doc['gpu_modes_undecided']} GPU modes open: "
              f"{'as expected' if ok else 'NOT as expected'}")
    print(f"siblings: {good} of {total} tries as expected")
    return 0 if total and good == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
