/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run.h: a run the window shows: an MsResults in a reference-counted
 * box, so that a view can keep the run it draws after the window lets it go
 * (closing or replacing a run cannot leave a view with a dangling cell). */
#pragma once

#include <glib.h>

#include "memsweep.h"

G_BEGIN_DECLS

/* Takes `results` (from the engine) and returns it boxed, with one
 * reference; `results` itself is gone. NULL stays NULL. */
MsResults *ms_run_new (MsResults *results);
/* Only for runs from ms_run_new. */
MsResults *ms_run_ref (const MsResults *run);
void ms_run_unref (MsResults *run);
/* An array of runs that drops its references with itself. */
GPtrArray *ms_run_array_new (void);

G_END_DECLS
