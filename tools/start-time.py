#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/start-time.py: how long memsweep commands take as whole
processes, each way of starting the GPUs interleaved with the others so
that a drift of the machine falls on all of them alike.

    tools/start-time.py MEMSWEEP ROUNDS TMPDIR

Ways: "narrowed" (the default: only the GPU in use starts), "all"
(MEMSWEEP_ALL_GPUS=1: every GPU starts, as before), "one" (CUDA shown
one GPU: CUDA_VISIBLE_DEVICES=0, the one-GPU host's start as near as this
host gets). Commands: `info`, and the default sweep (`run --quiet`) in
every third round. Prints every time, then each median, min and max.
"""
import os
import statistics
import subprocess
import sys
import time

WAYS = {
    "narrowed": {},
    "all": {"MEMSWEEP_ALL_GPUS": "1"},
    "one": {"CUDA_VISIBLE_DEVICES": "0"},
}


def timed(cmd, extra):
    env = dict(os.environ)
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.pop("MEMSWEEP_NARROWED", None)
    env.update(extra)
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return time.perf_counter() - t0, rc


def main(argv):
    ms, rounds, tmp = argv[1], int(argv[2]), argv[3]
    times = {}
    for r in range(rounds):
        for way, extra in WAYS.items():
            cmds = [("info", [ms, "info"])]
            if r % 3 == 0:
                cmds.append(("sweep", [ms, "run", "--quiet", "--out", f"{tmp}/{way}-{r}"]))
            for what, cmd in cmds:
                t, rc = timed(cmd, extra)
                print(f"{what} {way} round {r}: {t:.3f} s rc={rc}", flush=True)
                if rc == 0:
                    times.setdefault((what, way), []).append(t)
    for (what, way), ts in sorted(times.items()):
        print(f"{what:5} {way:8} n={len(ts):2} median {statistics.median(ts):.3f} s "
              f"min {min(ts):.3f} max {max(ts):.3f}")
    for what in ("info", "sweep"):
        n, o = times.get((what, "narrowed")), times.get((what, "one"))
        if n and o:
            print(f"{what}: narrowed / one-GPU start = "
                  f"{statistics.median(n) / statistics.median(o):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
