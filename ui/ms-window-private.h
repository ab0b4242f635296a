/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-private.h: what the window's files share. ms-window.c (the
 * window, devices, what it shows of the session's sweep) sets up the
 * parts and calls them; a part calls only parts below it in this list,
 * never ms-window.c: ms-window-actions.c (actions, dialogs, exports),
 * ms-window-library.c (the runs library, closing), ms-window-files.c
 * (opening files), ms-window-pages.c (the GPUs and Lessons pages),
 * ms-window-runs.c (the Runs popover), ms-window-presentation.c
 * (presentation mode), ms-window-toast.c (toasts). */
#pragma once

#include "ms-breakdown-page.h"
#include "ms-chart-page.h"
#include "ms-compare-page.h"
#include "ms-devices-page.h"
#include "ms-lessons-page.h"
#include "ms-session.h"
#include "ms-settings-pane.h"
#include "ms-table-page.h"
#include "ms-timeline-page.h"
#include "ms-views.h"
#include "ms-window.h"

G_BEGIN_DECLS

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
  GtkRevealer *top_revealer;
  GtkWidget *top_box;
  AdwViewSwitcherBar *switcher_bar;
  AdwViewSwitcherTitle *switcher_title;
  GtkMenuButton *runs_button, *main_menu_button;
  GtkListView *runs_view;
  GtkStack *runs_stack;
  GtkPopover *runs_popover;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  MsSettingsPane *settings_pane;
  AdwViewStack *stack;
  GMenuModel *primary_menu;
  MsChartPage *bandwidth_page, *time_page;
  MsTimelinePage *timeline_page;
  MsBreakdownPage *breakdown_page;
  MsTablePage *table_page;
  MsComparePage *compare_page;
  MsDevicesPage *devices_page;
  MsLessonsPage *lessons_page;

  GSettings *settings;
  /* The runs, the live sweep, the devices and the sweep settings: every
   * page follows it (ms-session.h). */
  MsSession *session;

  /* Files asked for before the first frame, loaded after it. */
  GPtrArray *pending_paths;
  /* Files read and waiting for those asked before them (ms-window.c). */
  GHashTable *loaded;
  guint load_next_ticket, load_next_added;
  /* Runs opened since the last "Opened" toast, and the first one's name:
   * one toast sums up files opened together (ms-window-files.c). */
  guint opened_count;
  char *opened_first;
  gboolean painted;

  MsViewScale scale;
  gboolean presentation;
  gboolean header_peek; /* presentation mode: the header shown for now */
  /* Presentation mode: the menu to open once the header is in (F10). */
  GtkMenuButton *popup_after_reveal;
  double pointer_y;
  char *run_blocker;
  char *toast_text;
  gboolean run_when_ready;
  gboolean banner_dismissed;
};

/* ms-window-toast.c: text shown as it is, never as markup. */
void ms_window_toast (MsWindow *self, const char *text);
/* The same with an Undo button, the toast (the queue's) for its caller's
 * "button-clicked". */
AdwToast *ms_window_toast_undo (MsWindow *self, const char *text);

/* ms-window-files.c: the drop target and the first frame's wait. */
void ms_window_files_init (MsWindow *self);

/* ms-window-presentation.c */
void ms_window_presentation_init (MsWindow *self);
void ms_window_presentation_set (MsWindow *self, gboolean on);
void ms_window_presentation_popover_closed (MsWindow *self);
/* Opens a menu of the header, bringing the header first where it hides. */
void ms_window_popup_header_menu (MsWindow *self, GtkMenuButton *button);
gboolean ms_window_get_header_shown (MsWindow *self);

/* ms-window-actions.c */
void ms_window_add_actions (MsWindow *self);
/* After the template: Export Handout follows the page in front and the
 * Lessons page's run shown. */
void ms_window_actions_follow_pages (MsWindow *self);

/* ms-window-keys.c: win.focus-canvas and win.highlight-pointer. */
void ms_window_add_key_actions (MsWindow *self);
/* The keyboard focus to the canvas of the page shown; FALSE where it has
 * none (the table). */
gboolean ms_window_focus_canvas (MsWindow *self);

/* ms-window-pages.c: the GPUs and Lessons pages. */
void ms_window_pages_init (MsWindow *self);
void ms_window_open_devices_file (MsWindow *self, const char *path);
void ms_window_lesson_show_view (MsWindow *self, const char *view, const char *modes,
                                 int metric, gboolean log_scale, int exponent);

/* ms-window-runs.c: the Runs popover. */
void ms_window_runs_init (MsWindow *self);

/* ms-window-library.c: the runs library's failures, the quit prompt. */
void ms_window_library_init (MsWindow *self);
/* close-request: TRUE while the close waits (a sweep runs: the user is
 * asked whether to stop it). */
gboolean ms_window_library_confirm_close (MsWindow *self);

G_END_DECLS
