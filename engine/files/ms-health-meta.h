/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health-meta.h: a run's link and clock health in a file's metadata,
 * written and read back, and the link-under-load lines kept until the
 * cells they name exist. Defined in ms-health-meta.c, used by the CSV
 * writer and reader; private to the engine and its tests. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "memsweep.h"
#include "model/ms-health.h"
#include "ms-meta.h"

/* h: ms_health_compute's of results. */
void ms_health_write_metadata (FILE *f, const MsResults *results, const MsHealth *h);
/* The counters' keys; false for any other key. */
bool ms_health_read_metadata (MsResults *results, const char *key, const char *value);

/* Keeps a link-under-load line's value (true); false for another key. */
bool ms_link_pending_take (MsMetaPending *pending, MsMetaId id, const char *value);
/* Gives the kept links to the cells' rounds once the cells exist. */
void ms_link_pending_attach (const MsMetaPending *pending, MsResults *results);
