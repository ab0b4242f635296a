/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-private.h: what the window's files share (ms-window.c: the
 * window, devices and files; ms-window-runs.c: the runs, their names and
 * notes; ms-window-actions.c: actions and dialogs; ms-window-sweep.c:
 * running a sweep off the main thread). */
#pragma once

#include "ms-breakdown-page.h"
#include "ms-chart-page.h"
#include "ms-devices-page.h"
#include "ms-lessons-page.h"
#include "ms-settings-pane.h"
#include "ms-table-page.h"
#include "ms-timeline-page.h"
#include "ms-views.h"
#include "ms-window.h"

G_BEGIN_DECLS

typedef struct _MsSweepJob MsSweepJob;
typedef struct _MsEta MsEta;

struct _MsWindow {
  AdwApplicationWindow parent_instance;

  /* Template children. */
  AdwToastOverlay *toasts;
  GtkWidget *run_button;
  GtkWidget *stop_button;
  GtkDropDown *device_dropdown;
  GtkInfoBar *banner;
  GtkLabel *banner_label, *banner_error;
  GtkLabel *blocker_label;
  GtkRevealer *blocker_revealer;
  GtkMenuButton *runs_button, *main_menu_button;
  GtkListBox *runs_list;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  MsSettingsPane *settings_pane;
  AdwViewStack *stack;
  GMenu *reference_menu;
  GMenuModel *primary_menu;
  MsChartPage *bandwidth_page, *time_page;
  MsTimelinePage *timeline_page;
  MsBreakdownPage *breakdown_page;
  MsTablePage *table_page;
  MsDevicesPage *devices_page;
  MsLessonsPage *lessons_page;

  GSettings *settings;

  /* Runs shown: MsResults* from ms_run_new, in the order they came;
   * every sweep and file stays until the user closes it. */
  GPtrArray *runs;
  /* Files asked for before the first frame, loaded after it. */
  GPtrArray *pending_paths;
  gboolean painted;
  guint refresh_source; /* views refreshed when idle */
  MsResults *live; /* the newest sweep's run, also in runs; NULL once closed */

  /* Devices found off the main thread. */
  GArray *devices; /* MsDeviceInfo */
  gboolean discovering;

  /* The running sweep, shared with its worker thread. */
  MsSweepJob *job;
  gint64 cell_started_us; /* when the cell now measured began */
  MsEta *eta;

  MsViewScale scale;
  gboolean presentation;
  char *run_blocker;
  char *toast_text;
  gboolean run_when_ready;
  gboolean banner_dismissed;
  guint n_sweeps; /* sweeps started, for their names */
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

/* ms-window-pages.c: the GPUs and Lessons pages. */
void ms_window_pages_init (MsWindow *self);
void ms_window_open_devices_file (MsWindow *self, const char *path);
void ms_window_lesson_run_added (MsWindow *self, MsResults *run);
void ms_window_lesson_prepare_sweep (MsWindow *self, MsSweep *sweep);
void ms_window_lesson_show_view (MsWindow *self, const char *view, const char *modes,
                                 int metric, gboolean log_scale, int exponent);
char *ms_window_dup_export_folder (MsWindow *self);

/* ms-window-runs.c */
void ms_window_runs_init (MsWindow *self);
/* Takes run; FALSE (and run dropped) when the same file is already shown. */
gboolean ms_window_add_file_run (MsWindow *self, MsResults *run, gboolean refresh_now);
/* "H100 80GB HBM3 · sweep 2": sweeps of one GPU differ by their names. */
void ms_window_name_sweep (MsWindow *self, MsResults *run);
void ms_window_name_file_run (MsWindow *self, MsResults *run);

/* ms-window-sweep.c */
void ms_window_sweep_cancel (MsWindow *self);

/* ms-window-library.c: the runs library's failures, the quit prompt. */
void ms_window_library_init (MsWindow *self);
/* close-request: TRUE while the close waits (a sweep runs: the user is
 * asked whether to stop it). */
gboolean ms_window_library_confirm_close (MsWindow *self);
/* After a sweep's end: closes the window once its run is written, when the
 * user chose to stop and quit. */
void ms_window_library_sweep_ended (MsWindow *self);

G_END_DECLS
