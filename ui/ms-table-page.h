/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-page.h: every cell of every run in a sortable table, rows copied
 * as CSV. */
#pragma once

#include <gtk/gtk.h>

#include "ms-page.h"

G_BEGIN_DECLS

#define MS_TYPE_TABLE_PAGE (ms_table_page_get_type ())
G_DECLARE_FINAL_TYPE (MsTablePage, ms_table_page, MS, TABLE_PAGE, MsPage)

/* Puts the keyboard in the filter entry (the window's Ctrl+F). */
gboolean ms_table_page_focus_filter (MsTablePage *self);
/* The selected rows as CSV, header first. */
char *ms_table_page_dup_selected_csv (MsTablePage *self);

G_END_DECLS
