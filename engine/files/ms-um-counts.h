/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-um-counts.h: the unified-memory counts of managed cells (MsUmCounts)
 * in a file's metadata, one "# um-counts:" line per counted cell. The
 * lines come before the rows that make the cells, so a reader keeps them
 * until the cells exist. Private to the engine. */
#pragma once

#include <stdio.h>

#include "memsweep.h"
#include "ms-meta.h"

/* The lines of every cell with counts (or the reason it has none). */
void ms_um_write_metadata (FILE *f, const MsResults *results);
/* Keeps a "# um-counts:" line's value (true); false for another key. */
bool ms_um_pending_take (MsMetaPending *pending, MsMetaId id, const char *value);
/* Gives the kept counts to their cells; lines naming no cell are dropped. */
void ms_um_pending_attach (const MsMetaPending *pending, MsResults *results);

/* Whether counts CUPTI gave for the counted repetition of a managed cell
 * (mode, n elements; resident: the pages were brought to the device before
 * it) can be true. A first touch moves a and b to the device (the host
 * wrote them last), so fewer bytes than that means records were lost, and
 * without a prefetch those bytes move only on GPU faults, so none means
 * the same; in every variant c, made on the device, comes back to the
 * host. An implausible MS_UM_COUNTED becomes MS_UM_UNKNOWN with the
 * reason; any other state is left as it is. */
void ms_um_counts_judge (MsMode mode, uint64_t n, bool resident, MsUmCounts *um);
