#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/app/test-cli-opens.py: how often `memsweep show` and `compare`
open and read a run's files (strace; skipped without it).

    test-cli-opens.py MEMSWEEP REFERENCE_DIR

On a copy of a shipped run (its samples, summary and sidecar), plain,
gzipped, and gzipped without compression (so that the .gz is larger than
the head the reader keeps of a file, and a second inflating pass would
read it again): `show RUN` and `compare RUN OTHER` open each file at most
once (main e7d19b65 opened the samples 11 times, the summary and the
sidecar 4 times each) and read each at most once: no more bytes than the
file holds, plain or gzipped (e7d19b65 read the samples 2.09 times their
size plain, 3 times gzipped: the kind's look at their head, the rows, the
sidecar's hash of them, each a pass of its own). A gzip file's last 4
bytes (the plain size it records) are read beside."""
import collections
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
def traced(memsweep, args, cwd):
    """Opens and bytes read of each file of the runs."""
    with tempfile.NamedTemporaryFile("r") as trace:
        # compare exits 1 or 5 on these runs' differences: read all the same.
        p = subprocess.run(["strace", "-f", "-qq", "-y", "-e", "trace=openat,read,pread64",
                            "-o", trace.name, memsweep] + args, cwd=cwd,
                           stdout=subprocess.DEVNULL, env=dict(os.environ, LC_ALL="C"))
        if p.returncode not in (0, 1, 5):
            raise SystemExit("%s exited %d" % (" ".join(args), p.returncode))
        opens, reads = collections.Counter(), collections.Counter()
        for line in trace:
            m = re.search(r'openat\(AT_FDCWD[^,]*, "([^"]+)".* = \d+(<[^>]*>)?$', line)
            if m and m.group(1).startswith("run-"):
                opens[m.group(1)] += 1
            m = re.search(r"(?:read|pread64)\(\d+<([^>]+)>.*\) = (\d+)$", line)
            if m and os.path.basename(m.group(1)).startswith("run-"):
                reads[os.path.basename(m.group(1))] += int(m.group(2))
    return opens, reads


def copy_run(reference, prefix, folder, form):
    """form: "plain", "gz" (as shipped) or "stored" (gzip level 0)."""
    for part in ("samples.csv", "summary.csv"):
        source = os.path.join(reference, "%s-%s.gz" % (prefix, part))
        name = os.path.join(folder, "run-%s-%s%s" % (prefix[-1], part,
                                                      "" if form == "plain" else ".gz"))
        if form == "gz":
            shutil.copy(source, name)
            continue
        with gzip.open(source, "rb") as f:
            data = f.read()
        with (open(name, "wb") if form == "plain" else
              gzip.open(name, "wb", compresslevel=0)) as out:
            out.write(data)
    shutil.copy(os.path.join(reference, prefix + "-meta.json"),
                os.path.join(folder, "run-%s-meta.json" % prefix[-1]))


def check(memsweep, folder, args, failures):
    opens, reads = traced(memsweep, args, folder)
    print("%s: opens %s; read %s" % (" ".join(args), dict(opens), {
        k: "%.2f x %d" % (v / os.path.getsize(os.path.join(folder, k)),
                          os.path.getsize(os.path.join(folder, k))) for k, v in reads.items()}))
    for name, n in opens.items():
        if n > 1:
            failures.append("%s: %s opened %d times" % (" ".join(args), name, n))
    for name, n in reads.items():
        size = os.path.getsize(os.path.join(folder, name))
        if n > size:
            failures.append("%s: %s read %d bytes, %.2f times its size (at most once)" %
                            (" ".join(args), name, n, n / size))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    memsweep, reference = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not shutil.which("strace"):
        print("strace is not installed")
        sys.exit(SKIP)
    failures = []
    for form in ("plain", "gz", "stored"):
        with tempfile.TemporaryDirectory() as folder:
            copy_run(reference, "h100-default-1", folder, form)
            copy_run(reference, "h100-default-2", folder, form)
            # The reader keeps nothing of a file changed in the last 50 ms
            # (engine/io/ms-input.c, racy): let the copies settle.
            time.sleep(0.1)
            end = "" if form == "plain" else ".gz"
            a, b = "run-1-samples.csv" + end, "run-2-samples.csv" + end
            check(memsweep, folder, ["show", a], failures)
            check(memsweep, folder, ["compare", a, b], failures)
    for f in failures:
        print("FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
