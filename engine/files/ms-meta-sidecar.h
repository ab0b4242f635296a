/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-meta-sidecar.h: a run's metadata (device, driver, link, settings,
 * health, format version) in PREFIX-meta.json beside its CSV files, so that
 * the CSV files are plain tables any data tool reads without options
 * (docs/csv.md, data/schema/memsweep-meta.schema.json).
 *
 * The metadata keys are those of ms-meta.h: the writer turns the '# key:
 * value' lines the CSV files used to carry into the sidecar's "metadata"
 * object, and the reader turns them back into those lines for the same
 * parsers, so that both forms are checked in one place. The sidecar names
 * each file it describes with its size and hash: a CSV whose sidecar names
 * another size, or the same size over other bytes, is another run's (or
 * was changed), and its metadata is unknown.
 *
 * A sidecar belongs to its file set: every writer of one (run, lesson,
 * multi, peer, calibrate, export, a fleet node's stamp) opens it through
 * ms_meta_sidecar_open, which never replaces a sidecar that names a file
 * the writer does not write (another run's, a profile's), nor anything that
 * is no sidecar; the commands ask ms_meta_sidecar_check_targets the same
 * before any work. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/ms-atomic-file.h"
#include "io/ms-sha256.h"

#define MS_META_SIDECAR_FORMAT "memsweep-meta"
/* 2: each file's SHA-256 (sha256) in place of its FNV-1a 64 (fnv1a-64),
 * which version 1 recorded and the reader still checks. 3: the host-link
 * role (PREFIX-host-link.csv), which version 2 did not name; a sidecar
 * of version 2 is read as before. */
#define MS_META_SIDECAR_VERSION 3
#define MS_META_SIDECAR_HOST_LINK_ROLE "host-link"
#define MS_META_SIDECAR_SUFFIX "-meta.json"
#define MS_SIDECAR_MAX_FILES 4
/* The largest sidecar read, whole, by every reader alike: the one that
 * takes it as an input, the writer that rewrites it and the output plan
 * that protects the files it names. A larger one is refused by all of
 * them as too large (never half-read by one and skipped by another). */
#define MS_META_SIDECAR_MAX_BYTES (4 << 20)

/* One CSV file a sidecar describes. */
typedef struct {
  const char *role; /* "samples" or "summary" */
  const char *path; /* its name is written, without the folder */
  long long bytes;
  uint64_t fnv1a; /* FNV-1a 64 of the file's bytes: the run id's */
  /* SHA-256 of its bytes (a .gz file's plain content), in hex; empty for
   * a file kept from a version-1 sidecar, whose entry keeps its fnv1a. */
  char sha256[MS_SHA256_HEX_LEN];
} MsSidecarFile;

/* PREFIX-meta.json for PREFIX-samples.csv or PREFIX-summary.csv, and
 * NAME-meta.json for any other NAME.csv or NAME; false when it does not
 * fit in len, and for standard input ("-"), which has none. */
bool ms_meta_sidecar_path (const char *csv_path, char *out, size_t len);

/* The run id of files written with a sidecar, in run_id[32]: a fingerprint
 * of the metadata lines and of the first file's bytes (their FNV-1a hash),
 * so that files written together share it and writing the same results
 * again gives the same id. */
void ms_meta_sidecar_run_id (const char *meta_lines, uint64_t file_hash, char *run_id);

/* Writes the sidecar: run_id, the files, and meta_lines ('# key: value'
 * lines, as the CSV writer prints them; title lines are left out). */
void ms_meta_sidecar_write (FILE *f, const char *run_id, const char *meta_lines,
                            const MsSidecarFile *files, int n_files);

/* The files other than role's that the sidecar at sidecar_path describes
 * for run_id, at most max, as the writer describes them again (a version-1
 * entry with its FNV-1a and no SHA-256), their names in names; 0 when it
 * is missing, damaged or another run's. */
int ms_meta_sidecar_kept (const char *sidecar_path, const char *run_id, const char *role,
                          MsSidecarFile *out, char (*names)[256], int max);

/* The names of the files the sidecar at sidecar_path describes (any run,
 * any role), at most max, into names; -1 when it is no sidecar of
 * memsweep's format (missing, damaged, another kind of file). */
int ms_meta_sidecar_names (const char *sidecar_path, char (*names)[256], int max);

/* Calls fn (stopping when it returns false, and then returning false)
 * with the path of each file beside the sidecar at sidecar_path that is
 * of its set and exists: each file it names, by that name, its .gz form
 * or its plain form, and each file whose own name gives it as the
 * sidecar (STEM-samples.csv, STEM-summary.csv or STEM.csv beside
 * STEM-meta.json, plain or .gz), for readers find a file's metadata by
 * that name alone: a run renamed and gzipped after its sidecar was
 * written (the shipped runs) is still its set. Nothing for a file that is
 * no sidecar of memsweep's. */
typedef bool (*MsSidecarFileFunc) (const char *path, void *data);
bool ms_meta_sidecar_each_file (const char *sidecar_path, MsSidecarFileFunc fn, void *data);

/* Whether the sidecar at sidecar_path describes the file at path by its
 * size and the digest of its bytes, SHA-256 or a version-1 sidecar's
 * FNV-1a (a file renamed since its sidecar was written, under any name). */
bool ms_meta_sidecar_describes (const char *sidecar_path, const char *path);

/* The metadata of the CSV file at csv_path (csv_bytes long) from its
 * sidecar, as '# key: value' lines ending in '\n' (run-id first); free
 * with free (). NULL when the sidecar is missing, damaged or describes
 * another file, with why naming the sidecar; errno then says why a
 * sidecar that is there could not be read (0 when it is missing or not
 * the file's): EMFILE, ENFILE or ENOMEM are the process's limits, not
 * the run's (ms_meta_sidecar_unread). */
char *ms_meta_sidecar_lines (const char *csv_path, long long csv_bytes, char *why,
                             size_t whylen);

/* The check of a CSV file's bytes against its sidecar, made on the bytes
 * its reader reads rather than in a read of its own: begun on the open
 * input in before its first read (NULL where the check needs no hash: the
 * metadata inline, no sidecar, none of the file's size, the digests known
 * already), the digests kept for ms_meta_sidecar_lines when ended after the
 * reader's last read. Meanwhile ms_meta_sidecar_lines_on_trust gives the
 * lines as if the bytes were those described, for a reader that needs them
 * before its rows; ms_meta_sidecar_hash_end then says whether they stand
 * (true where none were given, or the read stopped early), and a reader
 * whose do not reads again, the sidecar checked first. */
typedef struct MsInput MsInput;
typedef struct MsSidecarHash MsSidecarHash;
MsSidecarHash *ms_meta_sidecar_hash_begin (MsInput *in, const char *csv_path);
char *ms_meta_sidecar_lines_on_trust (MsSidecarHash *pending, char *why, size_t whylen);
bool ms_meta_sidecar_hash_end (MsInput *in, MsSidecarHash *pending);

/* Right after ms_meta_sidecar_lines gave NULL: whether the sidecar is
 * there but could not be read for a limit of the process (no descriptor,
 * no memory), which a reader must fail with, as for the file itself,
 * rather than show a run whose metadata is unknown; err says so. */
bool ms_meta_sidecar_unread (const char *csv_path, char *err, size_t errlen);

/* Whether the files at paths[0..n) (at most MS_SIDECAR_MAX_FILES), which
 * share one sidecar, can be written with it, checked before any work: each
 * file as ms_atomic_file_check says, and, where one is a file (not a pipe
 * or a device, which keep their metadata inline), its sidecar a file or a
 * new name that names no file beside it but these. False with a message
 * naming the target. */
bool ms_meta_sidecar_check_targets (const char *const *paths, int n, char *err, size_t errlen);

/* The sidecar at path for files[0..n_files) of run_id, refused as
 * ms_meta_sidecar_check_targets refuses (the run's own other file, which
 * a file written alone keeps, is no other set's), and else opened with
 * its text written; commit it with the files, after them. NULL with a
 * message. */
MsAtomicFile *ms_meta_sidecar_open (const char *path, const char *run_id, const char *meta_lines,
                                    const MsSidecarFile *files, int n_files, char *err,
                                    size_t errlen);

/* Rewrites the sidecar of csv_path with the metadata lines that start with
 * one of drop[] left out and the lines add ('# key: value\n' each) added
 * (a fleet node's stamp); the files it describes stay. False with a
 * message naming the sidecar. */
bool ms_meta_sidecar_restamp (const char *csv_path, const char *const *drop, int n_drop,
                              const char *add, char *err, size_t errlen);

/* Whether a CSV file's text starts with metadata lines (the form written
 * before the sidecar), a byte order mark allowed. */
bool ms_meta_sidecar_inline (const char *text, size_t len);
