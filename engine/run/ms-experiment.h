/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-experiment.h: switches for experiments on the run-to-run spread
 * (issue 18), read once from MEMSWEEP_EXPERIMENT so that one build can
 * measure each candidate cause on and off (tools/gpu.sh spread; HACKING.md
 * lists them). Not a user setting: all are off unless the variable names
 * them. Private to the engine and its tests. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  MS_ORDER_CELLS_SIZE_MAJOR, /* every mode at one size, then the next size */
  MS_ORDER_CELLS_MODE_MAJOR, /* every size of one mode, then the next mode */
  MS_ORDER_CELLS_SHUFFLED,   /* a fixed pseudo-random order, the same every run */
} MsCellOrder;

typedef struct {
  bool hugepages;        /* thp: madvise (MADV_HUGEPAGE) on malloc'd host buffers */
  bool fixed_cpu;        /* cpu-fixed: the first allowed CPU near the GPU, memory on its node */
  bool keep_buffers;     /* buffers-per-size: buffers kept from cell to cell of one size */
  bool copy_warm;        /* copy-warm: a burst of h2d and d2h copies before each GPU cell */
  MsCellOrder order;     /* order=size|mode|shuffle */
  /* inject=P (1..100): every repetition's timed window grows by a host
   * spin of P% of the time its work took, the known change of the
   * self-comparison benchmark (bench/self-compare.sh), recorded in the
   * metadata as every switch is; 0 off. */
  int inject_pct;
  /* one-thread-prep: the inputs' fill and the result's check on the
   * measuring thread alone, as before their helpers (kernels/ms-data.c),
   * to show that the helpers change no figure (issue 59). */
  bool one_thread_prep;
} MsExperiment;

/* Parses "thp,cpu-fixed,order=shuffle" ("" or NULL: all off); false with
 * a message naming the bad word. */
bool ms_experiment_parse (const char *text, MsExperiment *out, char *err, size_t errlen);
/* MEMSWEEP_EXPERIMENT, parsed on the first call; NULL (and the message in
 * err when given) when it does not parse. */
const MsExperiment *ms_experiment_get (char *err, size_t errlen);
/* The switches that are on, as the variable names them ("" when none). */
void ms_experiment_format (const MsExperiment *x, char *buf, size_t len);
