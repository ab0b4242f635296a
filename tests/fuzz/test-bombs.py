#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/fuzz/test-bombs.py: every bomb of bombs.py, and every input of the
fuzz corpus, is read or refused within the bounds of docs/csv.md,
"Limits": 64 MiB of peak memory and 3 s per GiB inflated (5 s at most),
in show, show -, compare, plot and report, and by the app's reader.

    test-bombs.py MEMSWEEP REFERENCE_RUN [BOMB...]

A bomb must be refused (exit 2) with its line and the limit it broke; a
corpus input may be read or refused, within the same bounds. Peak memory
is each child's ru_maxrss (wait4). The time allowed is doubled on a
machine busy with other work, never more: it is the bound's order that
is tested, not this machine's load."""
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bombs  # noqa: E402

PEAK_KIB = 64 * 1024
GIB = 1 << 30
# The limit each bomb breaks, as its refusal says it (docs/csv.md).
REFUSALS = {
    "field": "a field longer than",
    "blank": "hold no data",
    "line": "longer than",
    "zeros": "binary data",
}


def run(argv, stdin_path=None):
    """Exit status, standard error, seconds and peak KiB of one command."""
    start = time.monotonic()
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    env = dict(os.environ, LC_ALL="C", LANGUAGE="")
    p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    # A command past any bound is stopped, and fails on its time.
    timer = threading.Timer(60, p.kill)
    timer.start()
    err = p.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    if stdin_path:
        stdin.close()
    return p.returncode, err, time.monotonic() - start, usage.ru_maxrss


def commands(memsweep, reference, path, out):
    return [
        ("show", [memsweep, "show", path], None),
        ("show -", [memsweep, "show", "-"], path),
        ("compare", [memsweep, "compare", reference, path], None),
        ("plot", [memsweep, "plot", path, "--view", "bandwidth", "--out", out + ".svg"], None),
        ("report", [memsweep, "report", path, "--out", out + ".html"], None),
    ]


def check(memsweep, reference, path, inflated, refusal, tmp):
    """The failures of every command on path."""
    failures = []
    allowed = min(5.0, 3.0 * max(inflated, 1) / GIB) * 2
    for name, argv, stdin in commands(memsweep, reference, path, os.path.join(tmp, "out")):
        rc, err, secs, peak = run(argv, stdin)
        said = "%s %s: exit %d, %.2f s, %d MiB: %s" % (
            name, os.path.basename(path), rc, secs, peak // 1024, err.strip()[:200])
        print(said)
        if rc < 0 or rc > 5 or "Sanitizer" in err:
            failures.append("crashed: " + said)
        if peak > PEAK_KIB:
            failures.append("over 64 MiB: " + said)
        if refusal and secs > allowed:
            failures.append("over %.1f s: %s" % (allowed, said))
        if refusal and (rc != 2 or refusal not in err or ":" not in err):
            failures.append("not refused with its limit: " + said)
    return failures


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    memsweep, reference = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or list(bombs.BOMBS)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in bombs.make(tmp, names):
            name = os.path.basename(path).split("-")[0]
            head, unit, size, tail = bombs.BOMBS[name]
            failures += check(memsweep, reference, path, size, REFUSALS[name], tmp)
            os.unlink(path)
        corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
        for entry in sorted(os.listdir(corpus)):
            failures += check(memsweep, reference, os.path.join(corpus, entry), 0, None, tmp)
    for f in failures:
        print("FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
