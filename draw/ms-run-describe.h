/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-describe.h: the stream count and issue order of a run in words,
 * for page titles and legends. GLib only. */
#pragma once

#include <glib.h>

#include "memsweep.h"

G_BEGIN_DECLS

/* "4 streams, breadth-first" for a run with streams cells; for an
 * issue-order experiment the settings its cells cover ("1–16 streams,
 * depth-first and breadth-first, one hardware queue and the default").
 * NULL when the run has no streams cells. Free with g_free. */
char *ms_run_describe_streams (const MsResults *run);

G_END_DECLS
