/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-copy-kinds.h: the copy-kinds lesson's facts, shared by its
 * caption and its picture (draw/ms-picture-copy-kinds.c): one row per
 * fact, in the order of the card. */
#pragma once

#include "memsweep.h"

typedef enum {
  MS_COPY_FACT_H2H_PINNED,
  MS_COPY_FACT_H2H_PAGEABLE,
  MS_COPY_FACT_D2D,
  MS_COPY_FACT_H2D,
  MS_COPY_FACT_D2H,
  MS_COPY_FACT_MAP_MALLOC_HOST,
  MS_COPY_FACT_MAP_REGISTER_MAPPED,
  MS_COPY_FACT_MAP_REGISTER_DEFAULT,
  MS_COPY_FACT_READ_MAPPED,
  MS_COPY_FACT_READ_WC,
  MS_COPY_FACT_COUNT
} MsCopyFact;

typedef struct {
  MsMode mode;
  const char *variant;
  const char *label; /* untranslated (MS_N_): show through ms_gettext or _() */
  bool has_rate;     /* a copy or a read, with a rate; else a pass/fail fact */
} MsCopyFactInfo;

const MsCopyFactInfo *ms_copy_fact_info (MsCopyFact fact);
/* The fact's cell in r at any size, or NULL. */
const MsCell *ms_copy_fact_cell (const MsResults *r, MsCopyFact fact);
/* Its rate in GB/s (bytes moved per second / 1e9; the copies move the
 * buffer once, the reads read it once), or 0 without one. */
double ms_copy_fact_rate (const MsResults *r, MsCopyFact fact);
