/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-private.h: what the window's files share (ms-window.c: the
 * window and its runs; ms-window-actions.c: actions and dialogs;
 * ms-window-sweep.c: running a sweep off the main thread). */
#pragma once

#include "ms-breakdown-page.h"
#include "ms-chart-page.h"
#include "ms-lessons-page.h"
#include "ms-settings-pane.h"
#include "ms-table-page.h"
#include "ms-timeline-page.h"
#include "ms-views.h"
#include "ms-window.h"

G_BEGIN_DECLS

typedef struct _MsSweepJob MsSweepJob;

struct _MsWindow {
  AdwApplicationWindow parent_instance;

  /* Template children. */
  AdwToastOverlay *toasts;
  GtkWidget *run_button;
  GtkWidget *stop_button;
  GtkDropDown *device_dropdown;
  GtkInfoBar *banner;
  GtkLabel *banner_label;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  MsSettingsPane *settings_pane;
  AdwViewStack *stack;
  GMenu *reference_menu;
  MsChartPage *bandwidth_page, *time_page;
  MsTimelinePage *timeline_page;
  MsBreakdownPage *breakdown_page;
  MsTablePage *table_page;
  MsLessonsPage *lessons_page;

  GSettings *settings;

  /* Runs shown: MsResults* from ms_run_new, the live sweep first when
   * there is one. */
  GPtrArray *runs;
  /* Files asked for before the first frame, loaded after it. */
  GPtrArray *pending_paths;
  gboolean painted;
  guint refresh_source; /* views refreshed when idle */
  MsResults *live; /* also in runs while a sweep shows */

  /* Devices found off the main thread. */
  GArray *devices; /* MsDeviceInfo */
  gboolean discovering;

  /* The running sweep, shared with its worker thread. */
  MsSweepJob *job;
  gint64 sweep_started_us;

  MsViewScale scale;
  gboolean presentation;
  char *run_blocker;
  char *toast_text;
  gboolean run_when_ready;
};

/* ms-window.c */
void ms_window_toast (MsWindow *self, const char *text);
void ms_window_refresh_views (MsWindow *self);
void ms_window_update_actions (MsWindow *self);
/* The sweep as set, with the device picked; as ms_settings_pane_get_sweep. */
gboolean ms_window_get_sweep (MsWindow *self, MsSweep *sweep, char *err, size_t err_size);
void ms_window_set_text_scale (MsWindow *self, double text_scale);

/* ms-window-actions.c */
void ms_window_add_actions (MsWindow *self);

/* ms-window-sweep.c */
void ms_window_sweep_cancel (MsWindow *self);

G_END_DECLS
