/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-live-compare.h: the Compare page's Measure Live: a button that asks
 * for each side's run options and a time budget, starts the session's
 * live comparison (ms_session_run_live_compare) and turns into its Stop
 * while it runs. It reports through the session alone: the two runs join
 * the session and its "live-compare-finished" signal names them, which the
 * page follows to pick them as A and B; this file never calls the page. */
#pragma once

#include "ms-page.h"

G_BEGIN_DECLS

/* Makes buttons (NULL-terminated) the page's Measure Live buttons; they
 * follow the page's session from then on. The first is the compact one,
 * among the pickers. page has a "threshold" property (percent), the
 * verdicts' threshold the live comparison decides cells by. */
void ms_live_compare_attach (MsPage *page, GtkButton *const *buttons);

G_END_DECLS
