/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-meta.h: every '# key: value' metadata key of the samples and summary
 * files, listed once (ms-meta.c): its name and the kind and range of value
 * the readers accept. The writers print keys through ms_meta_printf by id,
 * the readers find a key's id and check its value against the table: a
 * file's metadata is untrusted input, checked once where it is read. Lines
 * with keys not listed here (a fleet node's '# node:', say) are kept with
 * the results and written back as they were. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "memsweep.h"

/* In the order the writer prints them. */
typedef enum {
  MS_META_RUN_ID,
  MS_META_VERSION,
  MS_META_DATE,
  MS_META_LABEL,
  MS_META_NOTE,
  MS_META_DEVICE,
  MS_META_DEVICE_INDEX,
  MS_META_PCI_BUS_ID,
  MS_META_COMPUTE_CAPABILITY,
  MS_META_MEMORY_TOTAL,
  MS_META_MEMORY_FREE,
  MS_META_DRIVER,
  MS_META_NVIDIA_DRIVER,
  MS_META_CUDA_RUNTIME,
  MS_META_PCIE_LINK,
  MS_META_CAN_MAP_HOST_MEMORY,
  MS_META_CONCURRENT_MANAGED_ACCESS,
  MS_META_PAGEABLE_MEMORY_ACCESS,
  MS_META_MANAGED_MEMORY,
  MS_META_UNIFIED_ADDRESSING,
  MS_META_ASYNC_ENGINE_COUNT,
  MS_META_CONCURRENT_KERNELS,
  MS_META_PRIORITY_LEAST,
  MS_META_PRIORITY_GREATEST,
  MS_META_MULTIPROCESSORS,
  MS_META_L2_BYTES,
  MS_META_CPU_AFFINITY,
  MS_META_MODES,
  MS_META_MIN_EXP,
  MS_META_MAX_EXP,
  MS_META_STEP,
  MS_META_REPS,
  MS_META_REPS_RULE,
  MS_META_MIN_REPS,
  MS_META_CI_TARGET_PCT,
  MS_META_CELL_BUDGET_MS,
  MS_META_INSTR_REPS,
  MS_META_WARMUP,
  MS_META_STREAMS,
  MS_META_ORDER,
  MS_META_HOST_INPUTS,
  MS_META_ROUNDS,
  MS_META_VARY,
  MS_META_PROCESSES,
  MS_META_GRADE_TARGET_PCT,
  MS_META_GRADE_WIDE,
  MS_META_MEASURING_CPU,
  MS_META_MEASURING_NODE,
  MS_META_EXPERIMENT_SWITCHES,
  MS_META_PREP_THREADS,
  MS_META_GPU_NEAR_CPUS,
  MS_META_GPU_WARMUP,
  MS_META_PCIE_LINK_UNDER_LOAD,
  MS_META_PCIE_LINK_UNDER_LOAD_CELL,
  MS_META_PCIE_CORRECTABLE_ERRORS,
  MS_META_PCIE_REPLAYS,
  MS_META_RUN_TO_RUN,
  MS_META_RUN_TO_RUN_SD, /* a prefix: run-to-run-sd-MODE */
  MS_META_EXPERIMENT,
  MS_META_EXPERIMENT_SETTINGS,
  MS_META_EXPERIMENT_REASON,
  MS_META_UM_COUNTS_COLUMNS,
  MS_META_UM_COUNTS,
  MS_META_UNITS,
  MS_META_FIT, /* summary files only */
  MS_META_N_KEYS
} MsMetaId;

typedef enum {
  MS_META_TEXT,   /* one line of text, kept as it is (cut to its buffer) */
  MS_META_INT,    /* a whole decimal number in lo..hi */
  MS_META_FLAG,   /* 0 or 1 */
  MS_META_COUNT,  /* a count of bytes: digits only */
  MS_META_NUMBER, /* a finite decimal number in lo..hi */
  MS_META_FORM,   /* a form of its own, parsed by its reader */
} MsMetaType;

typedef struct {
  const char *key;
  MsMetaType type;
  double lo, hi; /* MS_META_INT and MS_META_NUMBER */
  /* A plain key's member of MsResults, of its kind: char[] for text, int,
   * double for a number, bool for a flag, uint64_t for a count; size 0:
   * none (a key of a form or rule of its own). */
  size_t offset, size;
  const char *empty; /* text: the word written for an empty member, read back as empty */
} MsMetaKey;

const MsMetaKey *ms_meta_table (MsMetaId id);
/* The id of key (run-to-run-sd-pinned is MS_META_RUN_TO_RUN_SD), or
 * MS_META_N_KEYS for a key the table does not list. */
MsMetaId ms_meta_lookup (const char *key);
/* A "# key: value" line (NUL-terminated, cut in place): its value, and
 * its key in *key (the spaces after '#' skipped); NULL for any other line
 * (a title, a comment). The one reading of that form, every reader's. */
char *ms_meta_split (char *line, char **key);

/* "# key: " then fmt's text, then a line end. The text is kept on one
 * line whatever it holds (a device's name, a note read from a CR-only
 * file): a line break would end the value and the file would not read
 * back. ms_meta_printf names a key of the table by its id; ms_meta_put
 * any other (a small file's, a sidecar's lines). */
void ms_meta_put (FILE *f, const char *key, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
#define ms_meta_printf(f, id, ...) ms_meta_put ((f), ms_meta_table (id)->key, __VA_ARGS__)
/* The line of a plain key (one with a member) from r's member, as the
 * reader takes it back. */
void ms_meta_put_field (FILE *f, MsMetaId id, const MsResults *r);

/* The value checked against the key's kind and range; false (out
 * untouched) for anything else. */
bool ms_meta_int (MsMetaId id, const char *value, int *out);
bool ms_meta_number (MsMetaId id, const char *value, double *out);
bool ms_meta_flag (const char *value, bool *out);

/* A metadata line of a known key whose value was refused: counted, and
 * its key named in results->metadata_refused_keys, so that a reader that
 * shows a default in its place can say so. */
void ms_meta_refuse (MsResults *results, const char *key);

/* Metadata lines that name cells (unified-memory counts, links under
 * load), parsed and kept until the rows have made the cells: items of one
 * size, MS_META_MAX_PENDING at most (a hostile file's bound). */
typedef struct {
  void *items;
  int n, cap;
} MsMetaPending;
#define MS_META_MAX_PENDING 4096
/* Keeps a copy of item; none when full or out of memory: such lines are
 * extra, the file still reads. */
void ms_meta_pending_add (MsMetaPending *pending, const void *item, size_t size);
void ms_meta_pending_clear (MsMetaPending *pending);
