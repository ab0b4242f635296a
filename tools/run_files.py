# SPDX-License-Identifier: GPL-3.0-or-later
"""run_files.py: memsweep's files as the logs keep them, plain or gzipped
(NAME.csv.gz, as memsweep writes a name ending .gz and the shipped runs
are), for the scripts of tools/ that read them: the one rule they open
them by. A name given without .gz finds NAME.gz where only that is kept;
gzip is known by its first bytes, as memsweep knows it."""
import gzip
import os

GZIP_MAGIC = b"\x1f\x8b"


def existing(path):
    """path, or path.gz where only that is kept; None where neither is."""
    path = str(path)
    for candidate in (path, path + ".gz"):
        if os.path.exists(candidate):
            return candidate
    return None


def open_text(path):
    """path (or path.gz) open as text, gunzipped when it is gzip."""
    found = existing(path) or str(path)
    with open(found, "rb") as f:
        compressed = f.read(2) == GZIP_MAGIC
    if compressed:
        return gzip.open(found, "rt", newline="", errors="replace")
    return open(found, newline="", errors="replace")


def read_text(path):
    """The whole text of path (or path.gz); "" where neither is kept."""
    if not existing(path):
        return ""
    with open_text(path) as f:
        return f.read()
