#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`memsweep show` on a large samples file beside polars and DuckDB.

    bench/show-large.py MEMSWEEP [--before OLD-MEMSWEEP] [--rows N] [--runs R]
                        [--dir DIR] [--keep] [--reference FILE]
                        [--only memsweep,polars,duckdb] [--gzip] [--tmpdir DIR]

Makes a samples file of about N rows (default 10^7, some 1.3 GB) from a
shipped reference run as a sweep with more repetitions would write it: each
cell's rows repeated with the repetition numbers moved on, the phase rows of
every copy, then the end-to-end rows, then the cell's steady-state copy rows
once (the writer's order). Then, R times each (default 3), alternating:

- `MEMSWEEP show FILE` (whole process, its output kept aside), and with
  --before, another build's in the same rounds (on FILE.gz too);
- polars: scan_csv (lazy), the end-to-end rows' median time per mode and
  size, collected;
- DuckDB: the same query on read_csv;
- with --gzip, each of them again on FILE.gz (gzip -6 of the same file),
  in the same rounds: memsweep-gz, polars-gz, duckdb-gz.

With --tmpdir DIR, every memsweep process runs with TMPDIR=DIR and the
most bytes DIR's file system held beyond its start is printed (nothing
should be staged there: a tmpfs's bytes are memory).

The dataframe libraries are timed from the query's start to its result,
inside their process (the interpreter's start and the import are left
out, in their favour); memsweep as a whole process. Peak memory is each
process's maximum resident set (getrusage of the child). Prints min,
median and max wall time and the median peak memory, and checks that the
three agree on the medians. Run it with the Python that has polars and
duckdb (`sh tools/deps.sh test` puts them in .deps/python).
"""
import argparse
import gzip
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time

# The builds of memsweep timed, whose outputs are compared.
MEMSWEEPS = ("memsweep", "before", "memsweep-gz", "before-gz")
HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "data", "reference", "h100-default-samples.csv.gz")
# The reader takes up to 10^6 repetitions per cell.
MAX_REPS = 1000000

POLARS = """
import sys, time, polars as pl
t = time.perf_counter()
df = (pl.scan_csv(sys.argv[1], comment_prefix="#")
      .filter(pl.col("phase") == "e2e")
      .group_by("mode", "elements")
      .agg(pl.col("host_us").median())
      .sort("mode", "elements")
      .collect())
t = time.perf_counter() - t
for mode, elements, median in df.iter_rows():
    print(f"{mode},{elements},{median:.3f}")
print(f"seconds {t:.6f}")
"""

DUCKDB = """
import sys, time, duckdb
duckdb.execute("SET enable_progress_bar = false")
t = time.perf_counter()
rows = duckdb.sql(
    "SELECT mode, elements, median(host_us) FROM read_csv(?, comment = '#', header = true) "
    "WHERE phase = 'e2e' GROUP BY ALL ORDER BY mode, elements",
    params=[sys.argv[1]]).fetchall()
t = time.perf_counter() - t
for mode, elements, median in rows:
    print(f"{mode},{elements},{median:.3f}")
print(f"seconds {t:.6f}")
"""


def split_row(row):
    """A data row's fields: memsweep quotes no comma inside one."""
    return row.split(",")


def load_reference(path):
    """The metadata and header lines, and each cell's rows in file order."""
    head, cells, key = [], [], None
    # The shipped reference run is gzipped.
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    i = 0
    while lines[i].startswith("#"):
        head.append(lines[i])
        i += 1
    head.append(lines[i])
    for row in lines[i + 1:]:
        fields = split_row(row)
        row_key = tuple(fields[:3])
        if row_key != key:
            key = row_key
            cells.append([])
        cells[-1].append(fields)
    return "".join(head), cells


def row_pass(fields):
    """Which pass writes a row: phase rows, end-to-end rows, copy rows."""
    phase = fields[4]
    if phase == '"e2e"':
        return 1
    return 2 if phase in ('"h2d_copy"', '"d2h_copy"') else 0


def generate(reference, rows, path):
    head, cells = load_reference(reference)
    # The copy rows are written once, the others k times.
    once = sum(1 for c in cells for r in c if row_pass(r) == 2)
    k = max(1, -(-(rows - once) // (sum(len(c) for c in cells) - once)))
    written = 0
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as f:
        f.write(head)
        for cell in cells:
            reps = 1 + max(int(r[3]) for r in cell if row_pass(r) != 2)
            if reps * k > MAX_REPS:
                sys.exit(f"{rows} rows need more than {MAX_REPS} repetitions in a cell")
            for pass_ in range(3):
                rows_of_pass = [r for r in cell if row_pass(r) == pass_]
                for copy in range(1 if pass_ == 2 else k):
                    out = []
                    for r in rows_of_pass:
                        r = r.copy()
                        r[3] = str(int(r[3]) + copy * reps) if pass_ != 2 else r[3]
                        out.append(",".join(r))
                    f.write("".join(out))
                    written += len(out)
    return written


# --tmpdir: every memsweep process's TMPDIR, and the most bytes its file
# system held beyond what it held before, polled while the process ran: a
# cost that resident memory does not show (a staging file on a tmpfs).
TMPDIR = None
TMP_PEAK = {}


def tmp_used():
    st = os.statvfs(TMPDIR)
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def watch_tmp(name, done):
    base = tmp_used()
    while not done.wait(0.02):
        TMP_PEAK[name] = max(TMP_PEAK.get(name, 0), tmp_used() - base)


def run_child(argv, inside):
    """Wall time (the child's own figure where it prints one), peak
    resident memory in MiB and standard output of one process."""
    watched = TMPDIR and not inside
    env = dict(os.environ, TMPDIR=TMPDIR) if watched else None
    with tempfile.TemporaryFile(mode="w+") as out:
        done = threading.Event()
        watcher = threading.Thread(target=watch_tmp, args=(argv[-1], done)) if watched else None
        if watcher:
            watcher.start()
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        if watcher:
            done.set()
            watcher.join()
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            sys.exit(f"{' '.join(argv[:2])} failed ({p.returncode})")
        out.seek(0)
        text = out.read()
    if inside:
        wall = float(text.rsplit("seconds ", 1)[1])
    return wall, usage.ru_maxrss / 1024, text


def show_medians(text):
    """mode,elements,median from show's JSON (docs/json.md)."""
    import json
    doc = json.loads(text)
    out = {}
    for cell in doc.get("cells", []):
        median = (cell.get("e2e") or {}).get("median_us")
        if median is not None:
            out[(cell["mode"], int(cell["elements"]))] = median
    return out


def frame_medians(text):
    out = {}
    for line in text.splitlines():
        if line.startswith("seconds"):
            continue
        mode, elements, median = line.split(",")
        out[(mode, int(elements))] = float(median)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("memsweep")
    ap.add_argument("--before", help="another memsweep, timed in the same rounds")
    ap.add_argument("--rows", type=int, default=10 ** 7)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--reference", default=REFERENCE)
    ap.add_argument("--only", default="memsweep,polars,duckdb")
    ap.add_argument("--gzip", action="store_true",
                    help="each tool on the gzipped file too, in the same rounds")
    ap.add_argument("--tmpdir", default=None,
                    help="memsweep's TMPDIR (a small tmpfs, say): the most it held is printed")
    a = ap.parse_args()
    global TMPDIR
    TMPDIR = a.tmpdir
    tools = a.only.split(",")
    if a.before:
        tools.insert(tools.index("memsweep") + 1 if "memsweep" in tools else 0, "before")
    if a.gzip:
        tools += [t + "-gz" for t in tools]
    folder = a.dir or tempfile.mkdtemp(prefix="show-large-")
    path = os.path.join(folder, f"large-{a.rows}-samples.csv")
    if not os.path.exists(path):
        t = time.perf_counter()
        rows = generate(a.reference, a.rows, path)
        print(f"made {path}: {rows} rows, {os.path.getsize(path) / 1e9:.2f} GB "
              f"in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    gz = path + ".gz"
    if a.gzip and not os.path.exists(gz):
        t = time.perf_counter()
        with open(gz + ".tmp", "wb") as f:
            subprocess.run(["gzip", "-6nc", path], stdout=f, check=True)
        os.rename(gz + ".tmp", gz)
        print(f"made {gz}: {os.path.getsize(gz) / 1e9:.2f} GB "
              f"in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    commands = {
        "memsweep-gz": ([a.memsweep, "show", gz], False),
        "polars-gz": ([sys.executable, "-c", POLARS, gz], True),
        "duckdb-gz": ([sys.executable, "-c", DUCKDB, gz], True),
        "memsweep": ([a.memsweep, "show", path], False),
        "before": ([a.before or "", "show", path], False),
        "before-gz": ([a.before or "", "show", gz], False),
        "polars": ([sys.executable, "-c", POLARS, path], True),
        "duckdb": ([sys.executable, "-c", DUCKDB, path], True),
    }
    # Once untimed: the file into the page cache, and the answers compared.
    answers, outputs = {}, {}
    for name in tools:
        argv, _ = commands[name]
        if name in MEMSWEEPS:
            text = run_child(commands[name][0], False)[2]
            json_text = run_child(commands[name][0][:2] + ["--format", "json", argv[2]],
                                  False)[2]
            outputs[name] = (text, json_text)
            answers[name] = show_medians(json_text)
        else:
            answers[name] = frame_medians(run_child(argv, True)[2])
    load_before = os.getloadavg()[0]
    times = {name: [] for name in tools}
    peaks = {name: [] for name in tools}
    for _ in range(a.runs):
        for name in tools:
            argv, inside = commands[name]
            wall, peak, _ = run_child(argv, inside)
            times[name].append(wall)
            peaks[name].append(peak)
    print(f"# {platform.node()}, {os.cpu_count()} cores, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.path.getsize(path) / 1e9:.2f} GB"
          + (f" ({os.path.getsize(gz) / 1e9:.2f} GB gzipped)" if a.gzip else "")
          + f", {a.runs} runs each, "
          f"load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after")
    print(f"# {' '.join(sys.argv)}")
    print(f"{'tool':12} {'min s':>7} {'median s':>9} {'max s':>7} {'peak MiB':>9}")
    for name in tools:
        ts = times[name]
        print(f"{name:12} {min(ts):7.2f} {statistics.median(ts):9.2f} {max(ts):7.2f} "
              f"{statistics.median(peaks[name]):9.0f}")
    if TMPDIR:
        for name in tools:
            argv = commands[name][0]
            if argv[-1] in TMP_PEAK and name in MEMSWEEPS:
                print(f"# {name}: at most {TMP_PEAK[argv[-1]]} bytes in TMPDIR ({TMPDIR})")
    agree = True
    base = answers[tools[0]]
    for name in tools[1:]:
        other = answers[name]
        for key, value in base.items():
            if key not in other or abs(other[key] - value) > 1e-3 * max(1.0, abs(value)):
                agree = False
                print(f"# {name} differs on {key}: {other.get(key)} against {value}")
    print(f"# medians agree: {'yes' if agree else 'no'} ({len(base)} cells)")
    if "before" in outputs and "memsweep" in outputs:
        same = outputs["before"] == outputs["memsweep"]
        agree = agree and same
        print(f"# show's table and JSON byte for byte as before: {'yes' if same else 'no'}")
    if "before-gz" in outputs and "memsweep-gz" in outputs:
        same = outputs["before-gz"] == outputs["memsweep-gz"]
        agree = agree and same
        print(f"# show's table and JSON of the gzipped file byte for byte as before: "
              f"{'yes' if same else 'no'}")
    if "memsweep-gz" in outputs and "memsweep" in outputs:
        same = outputs["memsweep-gz"][1] == outputs["memsweep"][1]
        print(f"# show's JSON on the gzipped file byte for byte as on the plain one: "
              f"{'yes' if same else 'no'}")
    if not a.keep and not a.dir:
        if a.gzip:
            os.remove(gz)
        os.remove(path)
        os.rmdir(folder)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
