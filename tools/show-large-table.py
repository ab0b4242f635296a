#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/show-large-table.py LOG [LOG ...]: a table row per round of
bench/show-large.py in the logs of a lent machine's calls (docs/
measurements.md, "On a quiet host"), with issue 70's two ratios computed
from the medians the script printed. Nothing is typed in by hand: a figure
not in the log prints as '?'."""
import re
import sys

HEAD = ("| round (UTC) | cores | runs | show plain | show .gz | polars lazy .gz | .gz / plain "
        "| .gz / polars .gz | peak .gz | TMPDIR |\n| --- | --- | --- | --- | --- | --- | --- "
        "| --- | --- | --- |")


def rounds(text):
    """Each round's heading and the text up to the next one."""
    parts = re.split(r"^== (.*(?:cores\)?|taskset -c 0,1)(?:, round \d+|, \d+ runs): "
                     r"(\d\d:\d\d):\d\d.*)$", text, flags=re.M)
    for i in range(1, len(parts) - 2, 3):
        yield parts[i], parts[i + 1], parts[i + 2]


def median(block, tool):
    m = re.search(rf"^{re.escape(tool)}\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s+(\d+)$", block, re.M)
    return (float(m.group(1)), int(m.group(2))) if m else (None, None)


def row(heading, start, block):
    cores = "2" if "taskset" in heading else (re.search(r"(\d+) cores", heading) or [0, "?"])[1]
    runs = (re.search(r"(\d+) runs each", block) or [0, "?"])[1]
    plain, _ = median(block, "memsweep")
    gz, peak = median(block, "memsweep-gz")
    pgz, _ = median(block, "polars-gz")
    tmp = re.search(r"^# memsweep-gz: at most (\d+) bytes in TMPDIR", block, re.M)
    f = lambda v, unit="": "?" if v is None else f"{v:.2f}{unit}"
    ratio = lambda a, b: "?" if a is None or not b else f"{a / b:.2f}"
    return (f"| {start} | {cores} | {runs} | {f(plain, ' s')} | {f(gz, ' s')} | {f(pgz, ' s')} "
            f"| {ratio(gz, plain)} | {ratio(gz, pgz)} | {'?' if peak is None else f'{peak} MiB'} "
            f"| {'?' if not tmp else tmp.group(1) + ' bytes'} |")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    print(HEAD)
    for path in sys.argv[1:]:
        with open(path, errors="replace") as f:
            for heading, start, block in rounds(f.read()):
                print(row(heading, start, block))
    return 0


if __name__ == "__main__":
    sys.exit(main())
