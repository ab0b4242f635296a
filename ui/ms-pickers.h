/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-pickers.h: the run and size drop-downs of the view pages, kept equal
 * to the runs shown. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Labels of the runs (MsRun*), as valid UTF-8. */
GPtrArray *ms_pickers_run_labels (GPtrArray *runs);
/* A size drop-down listing "2^20 · 4 MiB" for every size present in any
 * run (MsRun*), smallest first, each known by its exponent. */
void ms_pickers_sync_sizes (GtkDropDown *dropdown, GPtrArray *runs);
/* Keeps a drop-down's GtkStringList equal to `items`, preserving the
 * selection by text where it can, else selecting the last item. */
void ms_pickers_sync (GtkDropDown *dropdown, GPtrArray *items);
/* The exponent of the selected size (of a drop-down kept by
 * ms_pickers_sync_sizes), or -1. */
int ms_pickers_get_exponent (GtkDropDown *dropdown);
/* Selects the size with that exponent; FALSE if it is not listed. */
gboolean ms_pickers_set_exponent (GtkDropDown *dropdown, int exponent);

G_END_DECLS
