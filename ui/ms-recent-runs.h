/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-recent-runs.h: the Recent Runs dialog: the runs library as a list, to
 * open, rename, delete (with undo) or show a kept run in its folder. */
#pragma once

#include <adwaita.h>

#include "ms-runs-library.h"

G_BEGIN_DECLS

#define MS_TYPE_RECENT_RUNS (ms_recent_runs_get_type ())
G_DECLARE_FINAL_TYPE (MsRecentRuns, ms_recent_runs, MS, RECENT_RUNS, AdwWindow)

/* Properties "library" (construct-only) and "toast-text" (read-only: the
 * plain text of the newest toast, or NULL). Signal "open" (GFile *samples): the
 * user opened a kept run (Enter, a double click or its Open button). The
 * folder is listed again when the dialog opens. */
MsRecentRuns *ms_recent_runs_new (MsRunsLibrary *library);

G_END_DECLS
