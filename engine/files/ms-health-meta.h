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

/* h: ms_health_compute's of results. */
void ms_health_write_metadata (FILE *f, const MsResults *results, const MsHealth *h);
/* The counters' keys; false for any other key. */
bool ms_health_read_metadata (MsResults *results, const char *key, const char *value);

typedef struct MsLinkLine MsLinkLine;
typedef struct {
  MsLinkLine *lines;
  int n, cap;
} MsLinkPending;

/* Keeps line when it is a link-under-load line (true); false otherwise. */
bool ms_link_pending_take (MsLinkPending *pending, const char *line, size_t len);
/* Gives the kept links to the cells' rounds once the cells exist. */
void ms_link_pending_attach (const MsLinkPending *pending, MsResults *results);
void ms_link_pending_clear (MsLinkPending *pending);
