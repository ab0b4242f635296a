/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-describe.h: a run in words for page titles, legends, labels and
 * reports: its stream count and issue order, its date, and how two runs'
 * setups differ. GLib only. */
#pragma once

#include <glib.h>

#include "memsweep.h"

G_BEGIN_DECLS

/* "4 streams, breadth-first" for a run with streams cells; for an
 * issue-order experiment the settings its cells cover ("1–16 streams,
 * depth-first and breadth-first, one hardware queue and the default").
 * NULL when the run has no streams cells. Free with g_free. */
char *ms_run_describe_streams (const MsResults *run);
/* A measurement's date as every view shows it, "2026-11-23 08:13 UTC",
 * from the ISO 8601 UTC form the files keep ("2026-11-23T08:13:36Z"); text
 * in another form comes back as it is. Free with g_free. */
char *ms_run_describe_date (const char *iso);

G_END_DECLS
