#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# sync-tree.py SOURCE DEST KEEP... < PATHS: makes DEST hold the files of
# SOURCE named on stdin (NUL-separated, relative, as `git ls-files -z`
# prints them) and nothing else, the folders KEEP of DEST (relative) aside.
# A file whose bytes and mode are already in DEST is left as it is, its
# time included; one that differs is written anew and so dated now. Then
# ninja, in a build folder kept in KEEP, rebuilds what changed and no more:
# the package test's build (package-cache.sh) reuses its folder so, and a
# file written back to older bytes (another clone's tree) is still newer
# than the objects built from the bytes between. Prints what it wrote and
# removed, a count.
import os
import stat
import sys

src, dest = sys.argv[1], sys.argv[2]
keep = [os.path.join(dest, k) for k in sys.argv[3:]]
wanted = set()
written = 0

for rel in sys.stdin.buffer.read().split(b"\0"):
    if not rel:
        continue
    rel = os.fsdecode(rel)
    s, d = os.path.join(src, rel), os.path.join(dest, rel)
    try:
        st = os.lstat(s)
    except FileNotFoundError:  # tracked but deleted in the tree
        continue
    wanted.add(d)
    try:
        dt = os.lstat(d)
    except FileNotFoundError:
        dt = None
    if stat.S_ISLNK(st.st_mode):
        target = os.readlink(s)
        if dt is not None and stat.S_ISLNK(dt.st_mode) and os.readlink(d) == target:
            continue
        if dt is not None:
            os.unlink(d)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        os.symlink(target, d)
        written += 1
        continue
    with open(s, "rb") as f:
        data = f.read()
    mode = stat.S_IMODE(st.st_mode)
    if dt is not None and stat.S_ISREG(dt.st_mode) and dt.st_size == len(data):
        with open(d, "rb") as f:
            same = f.read() == data
        if same:
            if stat.S_IMODE(dt.st_mode) != mode:
                os.chmod(d, mode)
            continue
    if dt is not None and stat.S_ISDIR(dt.st_mode):
        raise SystemExit(f"sync-tree.py: {d} is a folder, {s} a file")
    os.makedirs(os.path.dirname(d), exist_ok=True)
    tmp = d + ".sync-new"
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, mode)
    os.replace(tmp, d)
    written += 1

# Whatever else is in DEST goes (what the last build left beside its
# folder: debhelper's stamps, debian/tmp, the packages' trees), as a
# clean would remove it.
removed = 0
for top, dirs, files in os.walk(dest, topdown=False):
    if any(top == k or top.startswith(k + os.sep) for k in keep):
        continue
    for name in files:
        p = os.path.join(top, name)
        if p not in wanted:
            os.unlink(p)
            removed += 1
    for name in dirs:
        p = os.path.join(top, name)
        if p in keep:
            continue
        if os.path.islink(p):
            if p not in wanted:
                os.unlink(p)
                removed += 1
        elif not os.listdir(p):
            os.rmdir(p)
print(f"{written} files written, {removed} removed, {len(wanted) - written} kept")
