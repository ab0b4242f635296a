/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-small-file.h: what the small result files (PREFIX-peer.csv,
 * PREFIX-multi.csv, run-to-run profiles) share: written whole into memory
 * in the C locale, then through atomic files: a plain CSV table (the header
 * on line 1, then the rows) and its metadata in NAME-meta.json beside it
 * (ms-meta-sidecar.h), committed together. Read whole and parsed strictly
 * line by line, every refusal as "path:line: why"; the form written before
 * the sidecar (a title line, '# key: value' metadata, the header, the
 * rows) is read as well. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "devices/ms-topo.h"
#include "memsweep.h"
#include "io/ms-read-file.h"

typedef struct {
  const char *path;
  int line; /* 0: a line of the sidecar's metadata */
  char *err;
  size_t errlen;
  bool failed;
  /* A plain file whose sidecar is missing, damaged or another file's: the
   * rows are read, the metadata is unknown, and why says so naming the
   * sidecar (the caller's buffer, or NULL). */
  bool meta_unknown;
  bool plain; /* the file is of the plain form (its metadata in a sidecar) */
  char *why;
  size_t whylen;
} MsSmallReader;

/* Now as an ISO 8601 UTC date, this host's name and memsweep's version:
 * where and when a result file was made. */
void ms_small_file_stamp (char (*date)[40], char (*host)[64], char (*version)[32]);

/* Records the first failure as "path:line: why"; returns false. */
bool ms_small_reader_fail (MsSmallReader *rd, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* The slot of the CUDA device index among *n devices; with the metadata
 * unknown (rd says so), an index not seen yet takes the next slot (the
 * writers' rows come in slot order). -1 when there is none. */
int ms_small_slot_of (const MsSmallReader *rd, int *n, int *devices, long index);

/* The fields of a peer or portable file that hold its run beside the
 * results, the same in both: written out in each struct, not as a member,
 * so that their callers read file->reps. */
#define MS_SMALL_RUN_FIELDS                                                                        \
  /* Per slot: index, name, pci_bus_id, pcie_gen/width, cc_major/minor. */                         \
  MsDeviceInfo device[MS_MULTI_MAX_DEVICES];                                                       \
  int reps;                                                                                        \
  char date[40]; /* ISO 8601 UTC */                                                                \
  char host[64];                                                                                   \
  char version[32];                                                                                \
  /* Empty, or why the metadata is unknown (the sidecar missing, damaged or                        \
   * another file's): then only the rows, and the CUDA indices they name,                          \
   * are known. */                                                                                 \
  char meta_unknown[512]

/* What the peer and portable files share: the run's devices (by slot),
 * copy size and repetitions, and where and when it was made. */
typedef struct {
  int min_devices;
  int *n_devices;
  int *devices;         /* CUDA indices */
  MsDeviceInfo *device; /* their descriptions */
  uint64_t *bytes;
  int *reps;
  char (*version)[32], (*date)[40], (*host)[64];
  bool seen_index[MS_MULTI_MAX_DEVICES];
} MsSmallRun;

/* What a reader keeps beside the struct it fills (ms_small_file_load_new):
 * a kind's own state starts with it, as a GObject with its parent. */
typedef struct {
  void *file;
  MsSmallRun run; /* kinds with a run */
} MsSmallReadState;

/* What a column of a small file holds, and how its value sits in the
 * kind's row struct. */
typedef enum {
  MS_SMALL_TEXT,    /* char[size]: quoted and guarded (ms-csv-field.h), on one line */
  MS_SMALL_KEY,     /* int: the index of the value in keys */
  MS_SMALL_MODE,    /* MsMode: a memory mode's name */
  MS_SMALL_INT,     /* long, from min to max */
  MS_SMALL_RATE,    /* double: GB/s, empty where there is none (0 or less); 3 decimals */
  MS_SMALL_DECIMAL, /* double: digits with a point, up to max; written with `digits` decimals */
  MS_SMALL_BOOL,    /* bool: 0 or 1 */
} MsSmallType;

typedef struct {
  const char *name; /* in the header row */
  MsSmallType type;
  size_t offset;    /* offsetof the field in the row struct */
  size_t size;      /* TEXT: the field's size */
  long min, max;    /* INT: the range; DECIMAL: max */
  int digits;       /* DECIMAL: decimals written */
  const char *const *keys; /* KEY: the values, NULL at the end */
} MsSmallColumn;

#define MS_SMALL_MAX_COLUMNS 16

typedef struct MsSmallFormat MsSmallFormat;
struct MsSmallFormat {
  const char *title;  /* line 1 of the older form, exactly */
  const char *role;   /* the file's role in its sidecar: "peer", "multi", "profile" */
  bool header_optional; /* an older file may hold metadata only */
  /* The table: its columns (their names make the header row) and the
   * struct a row is read into, which take then checks and keeps. */
  const MsSmallColumn *columns;
  int n_columns;
  size_t row_size;
  bool (*meta) (MsSmallReader *rd, const char *key, const char *value, void *data);
  bool (*take) (MsSmallReader *rd, const void *row, void *data);
  /* Writing: '# key: value' lines (no title; NULL: the run's alone), and
   * the rows after the header, each through ms_small_put_row. */
  void (*put_meta) (FILE *f, const void *data);
  void (*put_rows) (FILE *f, const MsSmallFormat *format, const void *data);
  /* Reading into a struct of its own (ms_small_file_load_new): its size
   * and where in it why the metadata is unknown goes; the reader's state
   * (an MsSmallReadState first; none: the struct is meta's and take's
   * data); the struct's run, for kinds with one, whose metadata and checks
   * are then read and made here; and the kind's checks of the whole. */
  size_t file_size, why_offset, why_size, state_size;
  MsSmallRun (*run) (void *file);
  bool (*finish) (MsSmallReader *rd, void *state);
};

/* A format's table: the array columns, read into rows of the struct Row. */
#define MS_SMALL_TABLE(columns_, Row)                                                              \
  .columns = (columns_), .n_columns = sizeof (columns_) / sizeof *(columns_),                      \
  .row_size = sizeof (Row)

/* A format's file_size, why_offset and why_size: a struct File whose
 * meta_unknown says why the metadata is unknown. */
#define MS_SMALL_FILE_STRUCT(File)                                                                 \
  .file_size = sizeof (File), .why_offset = offsetof (File, meta_unknown),                         \
  .why_size = sizeof ((File *) 0)->meta_unknown

/* One line of a table of format's columns, split as CSV (each field's
 * count, type and range checked) into row, a row struct of format's: for
 * a reader of its own lines (the envelopes', which keeps the rows it can).
 * False with rd's message. */
bool ms_small_read_row (MsSmallReader *rd, const MsSmallFormat *format, const char *line,
                        size_t len, void *row);

/* The header row of format: its columns' names, comma-separated. */
const char *ms_small_format_header (const MsSmallFormat *format, char *buf, size_t len);

/* Writes row (a row struct of format's) as one line of the table. */
void ms_small_put_row (FILE *f, const MsSmallFormat *format, const void *row);

/* The metadata every small file with devices starts with: its format (1),
 * memsweep's version, the date and the host. */
void ms_small_put_stamp (FILE *f, const char *version, const char *date, const char *host);

/* Takes key's value when it is one of those: true where it was. */
bool ms_small_take_stamp (const char *key, const char *value, char (*version)[32],
                          char (*date)[40], char (*host)[64]);

/* Fills the run of file (a struct of format's) as a finished run's: each
 * slot's description from info (in slot order), reps, and the date, host
 * and version of now. */
void ms_small_run_fill (const MsSmallFormat *format, void *file, const MsDeviceInfo *info,
                        int reps);

/* The run's metadata lines: first its stamp, bytes and reps (those two
 * where known); then the devices line and the gpu-I-KEY lines of each
 * (bus_ids and serials, where not NULL, per slot). */
void ms_small_put_run_head (FILE *f, const MsSmallRun *run);
void ms_small_put_run_devices (FILE *f, const MsSmallRun *run, const char (*bus_ids)[32],
                               const char (*serials)[32]);

/* Writes data as format says to path, its metadata to the sidecar beside
 * it; a target that is no file (a pipe, a device), where no sidecar can go,
 * gets the older form with the metadata inline. False with a message. */
bool ms_small_file_write (const char *path, const MsSmallFormat *format, const void *data,
                          char *err, size_t errlen);

/* Reads rd->path whole and parses it in the C locale, either form: the
 * metadata first (the sidecar's, for a plain file), then the rows (rd set
 * up with the path, err and why): the readers' one way in. False with a
 * message. */
bool ms_small_file_load (MsSmallReader *rd, const MsSmallFormat *format, void *data);

/* Reads path, as ms_small_file_load, into a new struct of format's, then
 * checks it whole (format's finish); NULL with "path:line: why". Free with
 * free (). A plain file without its sidecar is still read (its struct's
 * meta_unknown says why).
 *
 * Each kind's header declares its table, ms_KIND_file_format (its
 * columns, whose names make line 1, the header: how it is told from other
 * files), and its writer and reader, ms_KIND_file_write and
 * ms_KIND_file_read: these two functions above for that table, made by
 * MS_SMALL_FILE_WRITER and MS_SMALL_FILE_READER. */
void *ms_small_file_load_new (const char *path, const MsSmallFormat *format, char *err,
                              size_t errlen);

#define MS_SMALL_FILE_WRITER(File, kind)                                                           \
  static inline bool ms_##kind##_file_write (const File *file, const char *path, char *err,        \
                                             size_t errlen)                                        \
  {                                                                                                \
    return ms_small_file_write (path, &ms_##kind##_file_format, file, err, errlen);                \
  }
#define MS_SMALL_FILE_READER(File, kind)                                                           \
  static inline File *ms_##kind##_file_read (const char *path, char *err, size_t errlen)           \
  {                                                                                                \
    return ms_small_file_load_new (path, &ms_##kind##_file_format, err, errlen);                   \
  }
