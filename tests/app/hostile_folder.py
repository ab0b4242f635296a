# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/app/hostile_folder.py: the folder every case of
test-cli-hostile.py starts from: a file of every kind memsweep writes,
each with and without its sidecar, plain and gzipped, and the sets of
files that belong together (a run's pair and sidecar) that no command
may change but whole.

Kinds: a run's samples and summary (R1, R2; R3 gzipped since its sidecar
was written; R4 as data/reference ships runs; RN without a sidecar, RZ
gzipped without one), a profile from calibrate (P.csv, PZ.csv.gz from
calibrate --compress, PN.csv and PNZ.csv.gz without a sidecar), a shipped
run-to-run profile (h100.csv, plain and gzipped, with and without its
sidecar), the peer matrix and the portable table of data/reference
(plain and gzipped, with and without sidecars), a multi-GPU file (which
has no sidecar: plain and gzipped), the envelopes (plain and gzipped), a
JSON document of show (plain and gzipped), a lesson's reference run, and
a fleet's folder of two nodes written by fleet-node.
"""
import gzip
import os
import shutil
import subprocess

TINY = ["--modes", "host", "--min-exp", "10", "--max-exp", "10", "--reps", "3"]
# A file of the user's named like a temporary of R1-samples.csv: never
# removed (only a temporary with memsweep's mark is).
USER_TEMPORARIES = ("R1-samples.csv.memsweep-backup", "X-samples.csv.memsweep-backup")
# The sets of files that change together or not at all (a command that
# writes a set may replace one only whole), and their hard links.
RUN_SETS = (("R1-samples.csv", "R1-summary.csv", "R1-meta.json"),
            ("R2-samples.csv", "R2-summary.csv", "R2-meta.json", "hard-R2.csv"),
            ("R3-samples.csv.gz", "R3-summary.csv", "R3-meta.json"), ("P.csv", "P-meta.json"),
            ("R4-samples.csv.gz", "R4-summary.csv.gz", "R4-meta.json", "hard-R4"),
            ("RN-samples.csv", "RN-summary.csv"), ("RZ-samples.csv.gz", "RZ-summary.csv.gz"),
            ("PZ.csv.gz", "PZ-meta.json"), ("PN.csv",), ("PNZ.csv.gz",),
            ("h100.csv", "h100-meta.json"), ("h100z.csv.gz", "h100z-meta.json"),
            ("h100n.csv",), ("h100nz.csv.gz",),
            ("peer.csv.gz", "peer-meta.json"), ("peerp.csv", "peerp-meta.json"), ("peern.csv",),
            ("peernz.csv.gz",),
            ("portable.csv.gz", "portable-meta.json"), ("portablep.csv", "portablep-meta.json"),
            ("portablen.csv",), ("portablenz.csv.gz",),
            ("multi.csv",), ("multiz.csv.gz",),
            ("lesson-reuse-samples.csv.gz", "lesson-reuse-summary.csv.gz",
             "lesson-reuse-meta.json"),
            ("fleet/alpha-samples.csv", "fleet/alpha-summary.csv", "fleet/alpha-meta.json"),
            ("fleet/beta-samples.csv.gz", "fleet/beta-summary.csv.gz", "fleet/beta-meta.json"))
# Every kind's inputs, for the commands that read files.
RUNS = ("R1-samples.csv", "R1-summary.csv", "R2-samples.csv", "R2-summary.csv", "link-R1",
        "hard-R2.csv", "R3-samples.csv.gz", "R3-summary.csv", "R4-samples.csv.gz", "link-R4",
        "RN-samples.csv", "RN-summary.csv", "RZ-samples.csv.gz", "RZ-summary.csv.gz",
        "lesson-reuse-samples.csv.gz", "fleet/alpha-samples.csv", "fleet/beta-samples.csv.gz")
OTHER_KINDS = ("P.csv", "PZ.csv.gz", "PN.csv", "PNZ.csv.gz", "h100.csv", "h100z.csv.gz",
               "h100n.csv", "h100nz.csv.gz", "peer.csv.gz", "peerp.csv", "peern.csv",
               "peernz.csv.gz", "portable.csv.gz", "portablep.csv", "portablen.csv",
               "portablenz.csv.gz", "multi.csv", "multiz.csv.gz", "envelopes.csv",
               "envelopes.csv.gz", "doc.json", "doc.json.gz", "R1-meta.json", "missing.csv",
               "dangling", "-")
PROFILES = ("P.csv", "PZ.csv.gz", "PN.csv", "PNZ.csv.gz", "h100.csv", "h100z.csv.gz",
            "h100n.csv", "h100nz.csv.gz", "R1-samples.csv", "missing.csv")
ENVELOPES = ("envelopes.csv", "envelopes.csv.gz", "doc.json", "P.csv", "missing.csv")
# Which kind each file of the folder is, for the counts the test prints.
KINDS = (("-meta.json", "sidecar"), ("peer", "peer matrix"), ("portable", "portable table"),
         ("multi", "multi-GPU file"), ("envelopes", "envelopes"), ("doc.json", "JSON document"),
         ("h100", "run-to-run profile (shipped)"), ("P", "profile (calibrate)"),
         ("RN", "run without sidecar"), ("RZ", "run without sidecar"), ("R", "run"),
         ("link-", "run (symbolic link)"), ("hard-", "run (hard link)"),
         ("lesson-", "lesson run (shipped)"), ("fleet/", "fleet node run"))


def kind_of(name):
    for start, kind in KINDS:
        if (name.endswith(start) if start.startswith("-") else name.startswith(start)):
            return kind + (" (gzipped)" if name.endswith(".gz") else "")
    return "other"


def run(memsweep, folder, env, *args, check=True):
    subprocess.run([memsweep, *args], cwd=folder, env=env, check=check,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def gzip_file(folder, plain, gz, keep=False):
    with open(os.path.join(folder, plain), "rb") as f, \
            gzip.open(os.path.join(folder, gz), "wb") as g:
        g.write(f.read())
    if not keep:
        os.unlink(os.path.join(folder, plain))


def gunzip_to(src, dst):
    with gzip.open(src, "rb") as f, open(dst, "wb") as g:
        g.write(f.read())


def copy_kind(src_dir, folder, src, stem, sidecar, plain):
    """src (.csv.gz with SRC-meta.json) as stem.csv[.gz], with or without
    its sidecar."""
    base = src[: -len(".csv.gz")]
    dst = os.path.join(folder, stem + (".csv" if plain else ".csv.gz"))
    if plain:
        gunzip_to(os.path.join(src_dir, src), dst)
    else:
        shutil.copy(os.path.join(src_dir, src), dst)
    if sidecar:
        shutil.copy(os.path.join(src_dir, base + "-meta.json"),
                    os.path.join(folder, stem + "-meta.json"))


def made_runs(memsweep, folder, env):
    for prefix in ("R1", "R2", "R3", "old-R4", "RN", "RZ"):
        run(memsweep, folder, env, "run", *TINY, "--out", prefix, "--quiet")
    # R3's samples gzipped since its sidecar was written; R4 as shipped.
    gzip_file(folder, "R3-samples.csv", "R3-samples.csv.gz")
    for kind in ("samples", "summary"):
        gzip_file(folder, f"old-R4-{kind}.csv", f"R4-{kind}.csv.gz")
        gzip_file(folder, f"RZ-{kind}.csv", f"RZ-{kind}.csv.gz")
    os.rename(os.path.join(folder, "old-R4-meta.json"), os.path.join(folder, "R4-meta.json"))
    for stem in ("RN", "RZ"):
        os.unlink(os.path.join(folder, stem + "-meta.json"))
    run(memsweep, folder, env, "calibrate", "--runs", "3", *TINY, "--out", "P.csv", "--quiet")
    run(memsweep, folder, env, "calibrate", "--runs", "3", *TINY, "--out", "PZ.csv", "--compress",
        "--quiet")
    shutil.copy(os.path.join(folder, "P.csv"), os.path.join(folder, "PN.csv"))
    gzip_file(folder, "PN.csv", "PNZ.csv.gz", keep=True)
    for n, name in enumerate(("alpha", "beta")):
        run(memsweep, folder, env, "fleet-node", "--dir", "fleet", "--node", name, "--quiet",
            "--", *TINY, *(["--compress"] if n else []), check=not n)
    # (fleet-node --compress may write its files plain or gzipped, or fail:
    # the folder holds whatever it wrote, and beta's gzipped names.)
    for kind in ("samples", "summary"):
        plain = os.path.join(folder, "fleet", f"beta-{kind}.csv")
        if os.path.exists(plain):
            gzip_file(os.path.join(folder, "fleet"), f"beta-{kind}.csv", f"beta-{kind}.csv.gz")
    with open(os.path.join(folder, "doc.json"), "wb") as f:
        subprocess.run([memsweep, "show", "R1-samples.csv", "--format", "json"], cwd=folder,
                       env=env, check=True, stdout=f, stderr=subprocess.DEVNULL)
    gzip_file(folder, "doc.json", "doc.json.gz", keep=True)


def shipped_kinds(source, folder):
    ref, profiles = os.path.join(source, "data", "reference"), os.path.join(source, "data", "profiles")
    for src, stem in (("h200x2-peer.csv.gz", "peer"), ("h200x2-portable.csv.gz", "portable")):
        copy_kind(ref, folder, src, stem, True, False)
        copy_kind(ref, folder, src, stem + "p", True, True)
        copy_kind(ref, folder, src, stem + "n", False, True)
        copy_kind(ref, folder, src, stem + "nz", False, False)
    for name in ("samples.csv.gz", "summary.csv.gz", "meta.json"):
        shutil.copy(os.path.join(ref, "h100-lesson-reuse-" + name),
                    os.path.join(folder, "lesson-reuse-" + name))
    for stem, sidecar, plain in (("h100", True, True), ("h100z", True, False),
                                 ("h100n", False, True), ("h100nz", False, False)):
        dst = os.path.join(folder, stem + (".csv" if plain else ".csv.gz"))
        with open(os.path.join(profiles, "h100.csv"), "rb") as f:
            data = f.read()
        with (open(dst, "wb") if plain else gzip.open(dst, "wb")) as g:
            g.write(data)
        if sidecar:
            shutil.copy(os.path.join(profiles, "h100-meta.json"),
                        os.path.join(folder, stem + "-meta.json"))
    shutil.copy(os.path.join(source, "tests", "data", "old-format", "x-multi.csv"),
                os.path.join(folder, "multi.csv"))
    gzip_file(folder, "multi.csv", "multiz.csv.gz", keep=True)
    shutil.copy(os.path.join(source, "data", "envelopes.csv"), os.path.join(folder, "envelopes.csv"))
    gzip_file(folder, "envelopes.csv", "envelopes.csv.gz", keep=True)


def make_template(memsweep, source, top):
    """The folder every case copies (links are made in each copy)."""
    folder = os.path.join(top, "template")
    os.mkdir(folder)
    env = dict(os.environ, TMPDIR=top, LC_ALL="C", LANGUAGE="")
    env.pop("MEMSWEEP_ENVELOPES", None)
    made_runs(memsweep, folder, env)
    shipped_kinds(source, folder)
    for name in USER_TEMPORARIES:
        shutil.copy(os.path.join(folder, "R1-samples.csv"), os.path.join(folder, name))
    return folder


def copy_template(template, folder):
    shutil.copytree(template, folder, symlinks=True, dirs_exist_ok=True)
    os.symlink("R1-samples.csv", os.path.join(folder, "link-R1"))
    os.symlink("nothing-here.csv", os.path.join(folder, "dangling"))
    os.link(os.path.join(folder, "R2-summary.csv"), os.path.join(folder, "hard-R2.csv"))
    os.symlink("R4-summary.csv.gz", os.path.join(folder, "link-R4"))
    os.link(os.path.join(folder, "R4-samples.csv.gz"), os.path.join(folder, "hard-R4"))
    os.symlink(".", os.path.join(folder, "alias"))


def pad_sidecar(folder):
    """The profile's sidecar padded past 1 MiB (the same JSON): still read,
    so P.csv is still the profile's."""
    side = os.path.join(folder, "P-meta.json")
    with open(side) as f:
        text = f.read().rstrip()
    with open(side, "w") as f:
        f.write(text[:-1] + " " * (1100 * 1024) + text[-1:] + "\n")
