#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""alloc-table.py DIR: the alloc-costs step's table (tools/gpu.sh): each
figure of memsweep's register-allocate and pin-payoff lessons (and the
costs lesson's device pool, where DIR has it) beside the same figure from
bench/plain-alloc-costs.cu, with their ratio. DIR holds plain.txt and the
lessons' summary files lesson-NAME-summary.csv. A ratio outside 0.95..1.05
is marked '!': the note that ships the run says why or it is a finding.
implicit-sync's cells are host times of two 500 us kernels, bytes 0.
The device pool's figures are also measured by the plain program's
device-pool-steps, the same calls in three orders (one stream for all, a
new stream per sample, memsweep's per-sample steps) in another process:
the "plain range" column spans the four plain figures, and '~' marks a
memsweep figure outside 5% of device-pool that lies inside that range."""
import csv
import sys
from pathlib import Path

TOLERANCE = 0.05


def summary_rows(path):
    """The rows of a memsweep summary file, its comment lines skipped."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def number(row, key):
    try:
        return float(row.get(key) or "")
    except ValueError:
        return None


def steps_figures(path):
    """{(device-pool, bytes, 'POOL first|alloc|free'): [values]} from
    device-pool-steps lines 'device-pool-steps bytes=N variant=V POOL first
    X alloc Y free Z'."""
    out = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) != 10 or parts[0] != "device-pool-steps":
            continue
        b, pool = int(parts[1][6:]), parts[3]
        for name, value in zip(parts[4::2], parts[5::2]):
            out.setdefault(("device-pool", b, f"{pool} {name}"), []).append(float(value))
    return out


def steps_by_variant(path):
    """{variant: {(device-pool, bytes, 'POOL first|alloc|free'): value}}
    from the device-pool-steps lines."""
    out = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) != 10 or parts[0] != "device-pool-steps":
            continue
        b, pool, variant = int(parts[1][6:]), parts[3], parts[2][len("variant="):]
        for name, value in zip(parts[4::2], parts[5::2]):
            out.setdefault(variant, {})[("device-pool", b, f"{pool} {name}")] = float(value)
    return out


def plain_figures(path):
    """{(what, bytes, name): value} from plain.txt's lines
    'WHAT bytes=N NAME... VALUE'."""
    out = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) < 4 or not parts[1].startswith("bytes=") or parts[0] == "device-pool-steps":
            continue
        try:
            value = float(parts[-1])
        except ValueError:
            continue
        out[(parts[0], int(parts[1][6:]), " ".join(parts[2:-1]))] = value
    return out


def register_figures(rows):
    """The register lesson's figures at each size, named as plain.txt
    names them."""
    out = {}
    phases = {
        "registered": [("register", "register_host_median_us"),
                       ("unregister", "unregister_host_median_us"),
                       ("registered-e2e", "e2e_median_us"),
                       ("registered-alloc", "alloc_host_median_us"),
                       ("registered-free", "free_host_median_us")],
        "pinned": [("pinned-alloc", "alloc_host_median_us"),
                   ("pinned-free", "free_host_median_us"),
                   ("pinned-e2e", "e2e_median_us")],
    }
    for row in rows:
        if row.get("variant") or row.get("status") != "ok":
            continue
        for name, key in phases.get(row["mode"], []):
            v = number(row, key)
            if v is not None:
                out[("register", int(row["bytes_per_vector"]), name)] = v
    return out


def crossing(k):
    """From how many repetitions allocating once costs less than
    registering anew: ms_register_cheaper_from's rule
    (engine/lessons/ms-lesson-register.c), every timed cost counted."""
    def t(name):
        return max(k.get(name) or 0, 0)
    per_rep = t("register") + t("unregister") + t("registered-e2e") - t("pinned-e2e")
    once = t("pinned-alloc") + t("pinned-free") - t("registered-alloc") - t("registered-free")
    return int(max(0, once / per_rep)) + 1 if per_rep > 0 else 0


def pin_payoff_figures(rows):
    out = {}
    for row in rows:
        v = row.get("variant", "")
        if not v.startswith("mode=") or row.get("status") != "ok":
            continue
        kind, _, step = v[5:].partition("/step=")
        value = number(row, "e2e_median_us")
        if value is not None and step in ("setup", "release", "copy"):
            out[("pin-payoff", int(row["bytes_per_vector"]), f"{kind} {step}")] = value
    return out


def costs_figures(rows):
    """The costs lesson's device-pool cells: alloc and free per variant."""
    names = {"cost=malloc": "malloc", "cost=pool-first": "pool-0 first",
             "cost=pool/threshold=0": "pool-0", "cost=pool/threshold=keep": "pool-keep"}
    out = {}
    for row in rows:
        name = names.get(row.get("variant", ""))
        if row.get("mode") != "device" or name is None or row.get("status") != "ok":
            continue
        b = int(row["bytes_per_vector"])
        alloc, free = number(row, "alloc_host_median_us"), number(row, "free_host_median_us")
        if name == "pool-0 first":
            if alloc is not None:
                out[("device-pool", b, "pool-0 first")] = alloc
            continue
        if alloc is not None:
            out[("device-pool", b, f"{name} alloc")] = alloc
        if free is not None:
            out[("device-pool", b, f"{name} free")] = free
    return out


def implicit_sync_figures(rows):
    """The implicit-sync lesson's allocation cells and their references."""
    out = {}
    for row in rows:
        v = row.get("variant", "")
        op = v.split("/")[0]
        if op not in ("op=alone", "op=none", "op=malloc", "op=free", "op=mallocasync",
                      "op=freeasync") or row.get("status") != "ok":
            continue
        value = number(row, "e2e_median_us")
        if value is not None:
            out[("implicit-sync", 0, v)] = value
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: alloc-table.py DIR")
    d = Path(sys.argv[1])
    plain = plain_figures(d / "plain.txt")
    steps = steps_figures(d / "plain.txt")
    ours = {}
    ours.update(register_figures(summary_rows(d / "lesson-register-allocate-summary.csv")))
    ours.update(pin_payoff_figures(summary_rows(d / "lesson-pin-payoff-summary.csv")))
    ours.update(costs_figures(summary_rows(d / "lesson-costs-summary.csv")))
    ours.update(implicit_sync_figures(summary_rows(d / "lesson-implicit-sync-summary.csv")))
    print(f"{'lesson':<12} {'bytes':>10} {'figure':<26} {'memsweep us':>12} "
          f"{'plain us':>10} {'ratio':>7}   {'plain range':>17}")
    outside = inside_range = 0
    for key in sorted(set(plain) | set(ours)):
        what, b, name = key
        if name == "crossing":
            continue
        m, p = ours.get(key), plain.get(key)
        ratio = m / p if m is not None and p else None
        mark = "" if ratio is None or abs(ratio - 1) <= TOLERANCE else " !"
        span = steps.get(key, []) + ([p] if p is not None else [])
        rng = ""
        if key in steps and span:
            lo, hi = min(span), max(span)
            rng = f"{lo:8.2f}-{hi:<8.2f}"
            if mark and m is not None and lo * (1 - TOLERANCE) <= m <= hi * (1 + TOLERANCE):
                mark = " ~"
                inside_range += 1
        outside += mark == " !"
        fm = f"{m:12.2f}" if m is not None else f"{'-':>12}"
        fp = f"{p:10.2f}" if p is not None else f"{'-':>10}"
        fr = f"{ratio:7.3f}" if ratio is not None else f"{'-':>7}"
        print(f"{what:<12} {b:>10} {name:<26} {fm} {fp} {fr}{mark:2} {rng}")
    for key, v in sorted(plain.items()):
        if key[0] == "register" and key[2] == "crossing":
            figures = {name: value for (what, b, name), value in ours.items()
                       if what == "register" and b == key[1]}
            mine = crossing(figures) if figures else None
            print(f"register crossing at {key[1]} bytes: memsweep n = {mine}, plain n = {v:.0f}")
    print(f"{outside} figures outside {TOLERANCE:.0%} ('!'), and {inside_range} outside it but "
          f"within {TOLERANCE:.0%} of the plain range ('~')")
    for variant, figures in sorted(steps_by_variant(d / "plain.txt").items()):
        ratios = [ours[k] / v for k, v in figures.items() if k in ours and v > 0]
        if ratios:
            near = sum(abs(r - 1) <= TOLERANCE for r in ratios)
            print(f"device pool against device-pool-steps {variant}: {near} of {len(ratios)} "
                  f"within {TOLERANCE:.0%}, ratios {min(ratios):.2f}-{max(ratios):.2f}")


if __name__ == "__main__":
    main()
