/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-breakdown-page.h: the breakdown page: a size picker and the phase
 * breakdown at that size. */
#pragma once

#include <gtk/gtk.h>

#include "ms-page.h"

#include "ms-breakdown-view.h"

G_BEGIN_DECLS

#define MS_TYPE_BREAKDOWN_PAGE (ms_breakdown_page_get_type ())
G_DECLARE_FINAL_TYPE (MsBreakdownPage, ms_breakdown_page, MS, BREAKDOWN_PAGE, MsPage)

/* Property: "exponent" (the size picked, -1: none), bound to the view's. */

G_END_DECLS
