/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-page.h: the base of the window's pages: a `session` property (bound in
 * the window's template) and a call whenever the session's runs change, so
 * that a page follows the session instead of being handed runs. */
#pragma once

#include <gtk/gtk.h>

#include "ms-session.h"

G_BEGIN_DECLS

#define MS_TYPE_PAGE (ms_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (MsPage, ms_page, MS, PAGE, GtkWidget)

struct _MsPageClass {
  GtkWidgetClass parent_class;

  /* The runs shown changed: added, removed, renamed, or the live run's
   * cells. `runs` holds MsRun references in the session's order (empty
   * without a session); a page may keep it. */
  void (*runs_changed) (MsPage *self, GPtrArray *runs);
};

MsSession *ms_page_get_session (MsPage *self);
void ms_page_set_session (MsPage *self, MsSession *session);
/* The runs as last passed to runs_changed (never NULL). */
GPtrArray *ms_page_get_runs (MsPage *self);

G_END_DECLS
