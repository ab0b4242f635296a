/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-page.h: the Compare page (ms-compare-page.c): two of the
 * session's runs, A and B (the first and second open, or as picked), cell
 * by cell with a verdict each (engine/analysis/ms-compare.h), the summary per mode,
 * the table and the difference chart; a status page while fewer than two
 * runs are open. Property: "threshold" (percent). */
#pragma once

#include "ms-drawing.h"
#include "ms-engine.h"
#include "ms-page.h"

G_BEGIN_DECLS

#define MS_TYPE_COMPARE_PAGE (ms_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (MsComparePage, ms_compare_page, MS, COMPARE_PAGE, MsPage)

/* The comparison shown; NULL with fewer than two runs or none in common. */
const MsComparison *ms_compare_page_get_comparison (MsComparePage *self);

G_END_DECLS
