#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Computes data/envelopes.csv, the expected range of each key figure per
GPU model and link, from the committed reference runs (data/reference/
h100-*.csv, h200-*.csv) and the summary files kept with the measurement
logs (docs/measurements/**/*-summary.csv).

Each figure is computed as the engine computes it (engine/analysis/ms-envelope.c):
a steady-state copy rate is the median over a cell's copy bursts of
bytes / GPU time; a latency is the median of the cell's plain end-to-end
times; the duplex rate is one vector each way over the median end-to-end
time of the duplex lesson's both-at-once cell. A summary file gives the
same medians in its columns. The end-to-end figures (latency, duplex) are
taken only from files with plain repetitions (rows "e2e_instrumented"
beside "e2e"): before them the end-to-end time held the timers' own cost
and meant something else. The range written is the observed minimum and
maximum, widened by MARGIN on each side (E2E_MARGIN for the end-to-end
figures, which rest on fewer runs and hold the host's jitter).

    python3 tools/envelopes.py            # rewrites data/envelopes.csv
    python3 tools/envelopes.py --check    # exits 1 when the file differs
"""
import csv
import glob
import gzip
import io
import json
import os
import re
import statistics
import sys

MARGIN = 0.05
E2E_MARGIN = 0.10
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "data", "envelopes.csv")
GPUS = ("H100", "H200")

# id: (mode, exponent, variant, what, unit); what is h2d, d2h (steady copy
# rate), latency (end-to-end median) or duplex.
FIGURES = {
    "pinned-h2d-4MiB": ("pinned", 20, "", "h2d", "GB/s"),
    "pinned-d2h-4MiB": ("pinned", 20, "", "d2h", "GB/s"),
    "pinned-h2d-256MiB": ("pinned", 26, "", "h2d", "GB/s"),
    "pinned-d2h-256MiB": ("pinned", 26, "", "d2h", "GB/s"),
    "pageable-h2d-4MiB": ("pageable", 20, "", "h2d", "GB/s"),
    "pageable-h2d-256MiB": ("pageable", 26, "", "h2d", "GB/s"),
    "duplex-16MiB": ("pinned", 22, "copy=duplex", "duplex", "GB/s"),
    "pinned-latency-4KiB": ("pinned", 10, "", "latency", "us"),
}


def metadata(lines, path):
    meta = {}
    for line in lines:
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            meta.setdefault(key, value.strip())
    if not meta:
        # A plain CSV file: its metadata is in its sidecar (docs/csv.md).
        sidecar = re.sub(r"(-samples|-summary)?\.csv(\.gz)?$", "", path) + "-meta.json"
        if os.path.exists(sidecar):
            with open(sidecar, encoding="utf-8") as f:
                for key, value in json.load(f).get("metadata", {}).items():
                    meta[key] = str(value[0] if isinstance(value, list) else value)
    return meta


def link_of(meta):
    # "gen5 x16 (max gen5 x16)": the link the run's device query read.
    link = meta.get("pcie-link-under-load", meta.get("pcie-link", ""))
    return " ".join(link.split()[:2]) if link.startswith("gen") else ""


def samples_figures(rows):
    copies, e2e = {}, {}
    for r in rows:
        key = (r["mode"], int(r["elements"]), r.get("variant", ""))
        if r["phase"] in ("h2d_copy", "d2h_copy") and r["gpu_us"]:
            gpu_us = float(r["gpu_us"])
            if gpu_us > 0:
                copies.setdefault(key + (r["phase"][:3],), []).append(
                    int(r["bytes"]) / gpu_us * 1e-3)
        elif r["phase"] == "e2e" and r["status"] in ("ok", "partial"):
            e2e.setdefault(key, []).append(float(r["host_us"]))
    out = {}
    for fid, (mode, exp, variant, what, _) in FIGURES.items():
        key = (mode, 1 << exp, variant)
        if what in ("h2d", "d2h") and key + (what,) in copies:
            out[fid] = statistics.median(copies[key + (what,)])
        elif what == "latency" and key in e2e:
            out[fid] = statistics.median(e2e[key])
        elif what == "duplex" and key in e2e:
            out[fid] = 2 * (1 << exp) * 4 / statistics.median(e2e[key]) * 1e-3
    return out


def summary_figures(rows):
    out = {}
    for fid, (mode, exp, variant, what, _) in FIGURES.items():
        for r in rows:
            if (r["mode"], int(r["elements"]), r.get("variant", "")) != (mode, 1 << exp, variant):
                continue
            if r["status"] != "ok":
                continue
            column = {"h2d": "h2d_copy_gbps", "d2h": "d2h_copy_gbps",
                      "latency": "e2e_median_us"}.get(what)
            if column and r.get(column):
                out[fid] = float(r[column])
            elif what == "duplex" and r.get("e2e_median_us"):
                out[fid] = 2 * (1 << exp) * 4 / float(r["e2e_median_us"]) * 1e-3
    return out


def read(path):
    # The shipped runs and logs are gzipped (docs/csv.md).
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    meta = metadata(lines, path)
    body = [line for line in lines if not line.startswith("#")]
    if not body or not body[0].startswith("mode,"):
        return None
    rows = list(csv.DictReader(io.StringIO("\n".join(body))))
    gpu = next((g for g in GPUS if g in meta.get("device", "")), None)
    link = link_of(meta)
    # A run under an experiment switch (a known change injected, say) is
    # no measure of what the GPU does.
    if not gpu or not link or meta.get("experiment-switches"):
        return None
    if "e2e_median_us" in body[0]:
        figures = summary_figures(rows)
        plain = "e2e_instr" in body[0]
    else:
        figures = samples_figures(rows)
        plain = any(r["phase"] == "e2e_instrumented" for r in rows)
    if not plain:
        figures = {f: v for f, v in figures.items() if FIGURES[f][3] in ("h2d", "d2h")}
    return gpu, link, figures


def sources():
    files = []
    for gpu in ("h100", "h200"):
        for tail in ("-*-samples.csv", "-*-samples.csv.gz"):
            files += sorted(glob.glob(os.path.join(ROOT, "data", "reference", gpu + tail)))
    for tail in ("*-summary.csv", "*-summary.csv.gz"):
        files += sorted(glob.glob(os.path.join(ROOT, "docs", "measurements", "**", tail),
                                  recursive=True))
    return files


def envelopes():
    seen = {}
    for path in sources():
        got = read(path)
        if not got:
            continue
        gpu, link, figures = got
        for fid, value in figures.items():
            seen.setdefault((gpu, link, fid), []).append((value, os.path.relpath(path, ROOT)))
    rows = []
    for (gpu, link, fid), values in sorted(seen.items()):
        lo = min(v for v, _ in values)
        hi = max(v for v, _ in values)
        digits = 1 if FIGURES[fid][4] == "GB/s" else 2
        margin = MARGIN if FIGURES[fid][3] in ("h2d", "d2h") else E2E_MARGIN
        # A run is named as its plain file is, compressed or not.
        files = sorted({re.sub(r"\.gz$", "", os.path.basename(p)) for _, p in values})
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        source = (f"measured here: {len(values)} run{'s' if len(values) > 1 else ''} ({shown}), "
                  f"observed {lo:.{digits}f}..{hi:.{digits}f} widened {margin * 100:.0f} %; "
                  "tools/envelopes.py")
        rows.append([gpu, link, fid, f"{lo * (1 - margin):.{digits}f}",
                     f"{hi * (1 + margin):.{digits}f}", FIGURES[fid][4], source])
    return rows


def render(rows):
    # A plain table, no comment lines: data tools read it with their default
    # options (docs/csv.md); what it is and how to add rows is docs/envelopes.md.
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["gpu", "link", "figure", "low", "high", "unit", "source"])
    w.writerows(rows)
    return out.getvalue()


def main():
    text = render(envelopes())
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as f:
            same = f.read() == text
        print("data/envelopes.csv is up to date" if same else "data/envelopes.csv differs")
        return 0 if same else 1
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
