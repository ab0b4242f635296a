#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""alloc-table.py DIR: the alloc-costs step's table (tools/gpu.sh): each
figure of memsweep's register-allocate and pin-payoff lessons (and the
costs lesson's device pool, where DIR has it) beside the same figure from
bench/plain-alloc-costs.cu, with their ratio. DIR holds plain.txt and the
lessons' summary files lesson-NAME-summary.csv, or rounds of them in
DIR/round-N: the lessons and the plain program again in new processes.
With rounds each figure is the median of its rounds, and each side's
range spans its rounds: what the same program does from one process to
the next. implicit-sync's cells are host times of two 500 us kernels,
bytes 0. The device pool's figures are also measured by the plain
program's device-pool-steps, the same calls in three orders (one stream
for all, a new stream per sample, memsweep's per-sample steps): those
join the plain range.

Marks: none where the ratio lies within 5%; '~' where it does not but
memsweep's median lies within 5% of the plain range (the plain program
moves as far between its own processes or orderings); '!' otherwise:
the note that ships the run says why or it is a finding."""
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_files  # noqa: E402 (beside this script)

TOLERANCE = 0.05


def summary_rows(path):
    """The rows of a memsweep summary file (plain or .csv.gz), its comment
    lines skipped."""
    if not run_files.existing(path):
        return []
    with run_files.open_text(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def number(row, key):
    try:
        return float(row.get(key) or "")
    except ValueError:
        return None


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


def median(values):
    v = sorted(values)
    n = len(v)
    return (v[n // 2] + v[(n - 1) // 2]) / 2


def one_round(d):
    """(memsweep's figures, plain.txt's, device-pool-steps' by variant) of
    one round, each file read once."""
    ours = {}
    ours.update(register_figures(summary_rows(d / "lesson-register-allocate-summary.csv")))
    ours.update(pin_payoff_figures(summary_rows(d / "lesson-pin-payoff-summary.csv")))
    ours.update(costs_figures(summary_rows(d / "lesson-costs-summary.csv")))
    ours.update(implicit_sync_figures(summary_rows(d / "lesson-implicit-sync-summary.csv")))
    return ours, plain_figures(d / "plain.txt"), steps_by_variant(d / "plain.txt")


def gather(rounds):
    """Each side's figures over the rounds, {key: [value per round]}, and
    every device-pool-steps figure of every variant, {key: [values]}."""
    ours, plain, steps = {}, {}, {}
    for o, p, by_variant in rounds:
        for side, got in ((ours, o), (plain, p)):
            for k, v in got.items():
                side.setdefault(k, []).append(v)
        for figures in by_variant.values():
            for k, v in figures.items():
                steps.setdefault(k, []).append(v)
    return ours, plain, steps


def span(values):
    return f"{min(values):8.2f}-{max(values):<8.2f}" if values else f"{'':17}"


def mark_of(m, p, plain_span):
    if m is None or p is None or p <= 0 or abs(m / p - 1) <= TOLERANCE:
        return ""
    if plain_span and min(plain_span) * (1 - TOLERANCE) <= m <= max(plain_span) * (1 + TOLERANCE):
        return "~"
    return "!"


def print_table(ours, plain, steps, n_rounds):
    print(f"{'lesson':<12} {'bytes':>10} {'figure':<26} {'memsweep us':>12} {'plain us':>10} "
          f"{'ratio':>7}   {'memsweep range':>17} {'plain range':>17}")
    marks = {"": 0, "~": 0, "!": 0}
    per_lesson = {}
    for key in sorted(set(plain) | set(ours)):
        what, b, name = key
        if name == "crossing":
            continue
        m = median(ours[key]) if key in ours else None
        p = median(plain[key]) if key in plain else None
        plain_span = steps.get(key, []) + plain.get(key, [])
        mark = mark_of(m, p, plain_span if len(plain_span) > 1 else [])
        if m is not None and p is not None:
            marks[mark] += 1
            lesson = per_lesson.setdefault(what, {"": 0, "~": 0, "!": 0, "ratios": []})
            lesson[mark] += 1
            if p > 0:
                lesson["ratios"].append(m / p)
        fm = f"{m:12.2f}" if m is not None else f"{'-':>12}"
        fp = f"{p:10.2f}" if p is not None else f"{'-':>10}"
        fr = f"{m / p:7.3f}" if m is not None and p else f"{'-':>7}"
        mine = span(ours.get(key, [])) if n_rounds > 1 else f"{'':17}"
        print(f"{what:<12} {b:>10} {name:<26} {fm} {fp} {fr} {mark:1}  {mine} "
              f"{span(plain_span) if len(plain_span) > 1 else ''}".rstrip())
    print(f"{marks['']} figures within {TOLERANCE:.0%}, {marks['~']} outside it but within "
          f"{TOLERANCE:.0%} of the plain range ('~'), {marks['!']} outside both ('!'); "
          f"{n_rounds} round(s)")
    for what, c in sorted(per_lesson.items()):
        r = c["ratios"]
        print(f"{what}: {c['']} within {TOLERANCE:.0%}, {c['~']} '~', {c['!']} '!'; "
              f"memsweep / plain {min(r):.3f}-{max(r):.3f}")
    return marks


def print_spread(ours, plain, n_rounds):
    """How far each side moves between its own processes: max/min of a
    figure over the rounds, the median and the largest over figures."""
    if n_rounds < 2:
        return
    for name, side in (("memsweep", ours), ("plain", plain)):
        r = [max(v) / min(v) for k, v in side.items()
             if k[2] != "crossing" and len(v) > 1 and min(v) > 0]
        if r:
            print(f"{name} against itself over {n_rounds} processes: max/min of a figure "
                  f"median {median(r):.2f}, largest {max(r):.2f} ({len(r)} figures)")


def print_crossings(rounds):
    for i, (ours, plain, _) in enumerate(rounds, 1):
        for key, v in sorted(plain.items()):
            if key[0] == "register" and key[2] == "crossing":
                figures = {name: value for (what, b, name), value in ours.items()
                           if what == "register" and b == key[1]}
                mine = crossing(figures) if figures else None
                print(f"register crossing at {key[1]} bytes, round {i}: memsweep n = {mine}, "
                      f"plain n = {v:.0f}")


def print_pool_orderings(rounds, ours):
    by_variant = {}
    for _, _, round_variants in rounds:
        for variant, figures in round_variants.items():
            for k, v in figures.items():
                by_variant.setdefault(variant, {}).setdefault(k, []).append(v)
    for variant, figures in sorted(by_variant.items()):
        ratios = [median(ours[k]) / median(v) for k, v in figures.items()
                  if k in ours and median(v) > 0]
        if ratios:
            near = sum(abs(r - 1) <= TOLERANCE for r in ratios)
            print(f"device pool against device-pool-steps {variant}: {near} of {len(ratios)} "
                  f"within {TOLERANCE:.0%}, ratios {min(ratios):.2f}-{max(ratios):.2f}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: alloc-table.py DIR")
    d = Path(sys.argv[1])
    dirs = sorted(d.glob("round-*"), key=lambda p: int(p.name[6:])) or [d]
    rounds = [one_round(r) for r in dirs]
    ours, plain, steps = gather(rounds)
    print_table(ours, plain, steps, len(rounds))
    print_spread(ours, plain, len(rounds))
    print_crossings(rounds)
    print_pool_orderings(rounds, ours)


if __name__ == "__main__":
    main()
