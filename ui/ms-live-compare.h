/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-live-compare.h: the Compare page's Measure Live: a button that asks
 * for each side's run options and a time budget, starts the session's
 * live comparison (ms_session_run_live_compare), turns into its Stop while
 * it runs, and picks the two runs as A and B when they come. */
#pragma once

#include "ms-compare-page.h"

G_BEGIN_DECLS

/* Makes buttons (NULL-terminated) the page's Measure Live buttons; they
 * follow the page's session from then on. The first is the compact one,
 * among the pickers. */
void ms_live_compare_attach (MsComparePage *page, GtkButton *const *buttons);

G_END_DECLS
