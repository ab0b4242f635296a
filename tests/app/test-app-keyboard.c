/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-keyboard.c: the keyboard keeps working after every item of the
 * main menu. Each item is chosen in the open menu as a user would; then
 * real key presses (through the X server's XTest extension, as xdotool
 * sends them) must reach the window: Alt+3 and Alt+1 switch views. Also the
 * export dialog: Enter in a size field goes on to the file chooser, which
 * starts in the folder of the last export. Run under Xvfb. */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <X11/keysym.h>

#include "ms-app-test.h"
#include "ms-recent-runs.h"
#include "ms-reference-dialog.h"
#include "ms-timeline-view.h"
#include "ms-chart-page.h"
#include "ms-chart-view.h"
#include "ms-reference-runs.h"
#include "ms-window.h"
#include "ms-xtest.h"
#include "ms-plot-view.h"

static gboolean done;


static void
wait_until (gboolean (*cond) (gpointer), gpointer data, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!cond (data)) {
    if (g_get_monotonic_time () > deadline)
      g_error ("timed out waiting until %s", what);
    g_main_context_iteration (NULL, FALSE);
    g_usleep (1000);
  }
}

static void
spin (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  while (g_get_monotonic_time () < end) {
    g_main_context_iteration (NULL, FALSE);
    g_usleep (1000);
  }
}

/* Presses modifier+key through the X server. */
static void
press (MsWindow *win, KeySym modifier, KeySym key)
{
  ms_xtest_press (GTK_WIDGET (win), modifier, key);
}

/* Presses Ctrl+Shift+key through the X server. */
static void
press_ctrl_shift (MsWindow *win, KeySym key)
{
  Display *dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (win)));
  KeyCode ctrl = XKeysymToKeycode (dpy, XK_Control_L);
  ms_fake_key (dpy, ctrl, True, 0);
  press (win, XK_Shift_L, key);
  ms_fake_key (dpy, ctrl, False, 0);
  XFlush (dpy);
}

typedef struct {
  MsWindow *win;
  MsViewKind view;
} ViewWait;

static gboolean
shows_view (gpointer data)
{
  ViewWait *w = data;
  return ms_window_get_view (w->win) == w->view;
}

/* Presses Alt+key until the view shows, for up to 20 s. On a loaded
 * machine a press can land while the theme or a popover is still settling
 * and be dropped by the X server; pressing again is what a person does.
 * The failure this test is about (keys dead until a click) never recovers
 * by pressing, so it still fails. */
static void
press_until_view (MsWindow *win, KeySym key, MsViewKind view, const char *what)
{
  ViewWait w = { win, view };
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!shows_view (&w)) {
    if (g_get_monotonic_time () > deadline)
      g_error ("timed out waiting until %s", what);
    press (win, XK_Alt_L, key);
    gint64 retry = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
    while (!shows_view (&w) && g_get_monotonic_time () < retry) {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  }
}

/* Alt+3 then Alt+1 reach the window, whatever was chosen before. */
static void
check_keys_work (MsWindow *win, const char *after)
{
  g_autofree char *what3 = g_strdup_printf ("Alt+3 shows the timeline after \"%s\"", after);
  g_autofree char *what1 = g_strdup_printf ("Alt+1 shows the bandwidth after \"%s\"", after);
  press_until_view (win, XK_3, MS_VIEW_TIMELINE, what3);
  press_until_view (win, XK_1, MS_VIEW_BANDWIDTH, what1);
  /* The focus is in the window's content, not left in a closed popover. */
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (win));
  g_assert_nonnull (focus);
  g_assert_null (gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER));
}

/* The first widget under root (depth first) that match (widget, data)
 * accepts. */
static GtkWidget *
find_widget (GtkWidget *root, gboolean (*match) (GtkWidget *, gconstpointer), gconstpointer data)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (match (c, data))
      return c;
    GtkWidget *found = find_widget (c, match, data);
    if (found)
      return found;
  }
  return NULL;
}

static gboolean
is_label (GtkWidget *w, gconstpointer text)
{
  return GTK_IS_LABEL (w) && gtk_widget_is_visible (w)
         && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), text) == 0;
}

static gboolean
is_menu_button (GtkWidget *w, gconstpointer unused)
{
  /* The main menu: its model is set when it first opens. */
  return GTK_IS_MENU_BUTTON (w) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (w));
}

static gboolean
is_type (GtkWidget *w, gconstpointer type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (w, GPOINTER_TO_SIZE (type));
}

static gboolean
popover_hidden (gpointer popover)
{
  /* Unmapped, not only hidden: until then its surface may hold the keys. */
  return !gtk_widget_get_visible (popover) && !gtk_widget_get_mapped (popover);
}

static gboolean
menu_open (gpointer button)
{
  GtkPopover *popover = gtk_menu_button_get_popover (button);
  return popover && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

/* Whether the popover args[0] holds a mapped label args[1]. */
static gboolean
shows_item (gpointer data)
{
  gpointer *args = data;
  GtkWidget *text = find_widget (args[0], is_label, args[1]);
  return text && gtk_widget_get_mapped (text);
}

/* Whether the keyboard is in widget or a widget inside it. */
static gboolean
focus_within (gpointer widget)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));
  return focus && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Whether the keyboard has gone back from a closed popover to its window. */
static gboolean
focus_left (gpointer popover)
{
  GtkRoot *root = gtk_widget_get_root (popover);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  return focus && !gtk_widget_is_ancestor (focus, popover);
}

static gboolean is_series_button (GtkWidget *w, gconstpointer unused);

static gboolean
shows_series_button (gpointer win)
{
  return find_widget (win, is_series_button, NULL) != NULL;
}

static gboolean
reads_pinned (gpointer entry)
{
  return g_strcmp0 (gtk_editable_get_text (entry), "pinned") == 0;
}

static gboolean
is_drawn (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

static gboolean
has_focus (gpointer widget)
{
  return gtk_widget_has_focus (widget);
}

static gboolean
has_entry (gpointer list)
{
  GtkWidget *entry = find_widget (list, is_type, GSIZE_TO_POINTER (GTK_TYPE_ENTRY));
  return entry && gtk_widget_get_mapped (entry);
}

static gboolean
run_is_named_baseline (gpointer win)
{
  return g_strcmp0 (ms_test_window_run (win, 0)->label, "baseline") == 0;
}

/* Opens the main menu, chooses the item with that label (mnemonics
 * stripped) as Enter on it would, and waits for the menu to close. */
static void
choose (MsWindow *win, const char *label)
{
  GtkMenuButton *button = GTK_MENU_BUTTON (find_widget (GTK_WIDGET (win), is_menu_button, NULL));
  gboolean presenting;
  g_object_get (win, "presentation", &presenting, NULL);
  /* In presentation mode the header hides: F10 brings it with the menu. */
  if (presenting) {
    press (win, 0, XK_F10);
    wait_until (menu_open, button, "F10 opens the menu in presentation mode");
  } else {
    gtk_menu_button_popup (button);
  }
  GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (button));
  gpointer shown[] = { popover, (gpointer) label };
  wait_until (shows_item, shown, "the menu shows the item");
  GtkWidget *text = find_widget (popover, is_label, label);
  g_assert_nonnull (text);
  GtkWidget *item = gtk_widget_get_parent (text);
  while (item && !gtk_widget_get_focusable (item))
    item = gtk_widget_get_parent (item);
  g_assert_nonnull (item);
  gtk_widget_grab_focus (item);
  gtk_widget_activate (item);
  wait_until (popover_hidden, popover, "the menu closes");
  wait_until (focus_left, popover, "the keyboard leaves the menu");
}

/* Every item of the menu lies in a section: no submenu to get lost in. */
static void
check_no_submenus (GMenuModel *model)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++) {
    g_assert_null (g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU));
    g_autoptr (GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
    if (section)
      check_no_submenus (section);
  }
}

static GtkWidget *
find_toplevel (GType type)
{
  GListModel *tops = gtk_window_get_toplevels (); /* GTK's own */
  for (guint i = 0; i < g_list_model_get_n_items (tops); i++) {
    g_autoptr (GObject) w = g_list_model_get_item (tops, i);
    if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_visible (GTK_WIDGET (w)))
      return GTK_WIDGET (w);
  }
  return NULL;
}

static gboolean
has_toplevel (gpointer type)
{
  return find_toplevel (GPOINTER_TO_SIZE (type)) != NULL;
}

static gboolean
no_toplevel (gpointer type)
{
  return find_toplevel (GPOINTER_TO_SIZE (type)) == NULL;
}

static gboolean
has_folder (gpointer chooser)
{
  g_autoptr (GFile) folder = gtk_file_chooser_get_current_folder (chooser);
  return folder != NULL;
}

/* The file chooser that shows next starts in the last export's folder;
 * cancelled, it closes. */
static void
chooser_starts_in_export_folder (void)
{
  wait_until (has_toplevel, GSIZE_TO_POINTER (GTK_TYPE_FILE_CHOOSER_DIALOG),
              "the file chooser shows");
  GtkWidget *chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  wait_until (has_folder, chooser, "the file chooser shows a folder");
  g_autoptr (GFile) folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (chooser));
  g_autofree char *path = g_file_get_path (folder);
  g_assert_cmpstr (path, ==, ms_test_tmp_dir ());
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  wait_until (no_toplevel, GSIZE_TO_POINTER (GTK_TYPE_FILE_CHOOSER_DIALOG),
              "the file chooser closes");
}

/* Enter in the width field goes on to the file chooser, in the folder of
 * the last export. */
static void
check_export_dialog (MsWindow *win)
{
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_settings_set_string (settings, "export-folder", ms_test_tmp_dir ());
  g_action_group_activate_action (G_ACTION_GROUP (win), "export-chart", NULL);
  wait_until (has_toplevel, GSIZE_TO_POINTER (ADW_TYPE_MESSAGE_DIALOG), "the size dialog shows");
  GtkWidget *size = find_widget (find_toplevel (ADW_TYPE_MESSAGE_DIALOG), is_type,
                                 GSIZE_TO_POINTER (GTK_TYPE_SPIN_BUTTON));
  g_assert_nonnull (size);
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (size)), "activate");
  wait_until (no_toplevel, GSIZE_TO_POINTER (ADW_TYPE_MESSAGE_DIALOG), "the size dialog closes");
  chooser_starts_in_export_folder ();
}

/* Export Report starts in the same folder as the charts. */
static void
check_report_folder (MsWindow *win)
{
  g_action_group_activate_action (G_ACTION_GROUP (win), "export-report", NULL);
  chooser_starts_in_export_folder ();
}

/* A name without an extension, accepted by the chooser (which asked about
 * replacing "chart", not "chart.png"): an existing chart.png is kept. */
static void
check_export_keeps_existing (MsWindow *win)
{
  const char *existing = ms_test_tmp_path ("chart.png");
  g_assert_true (g_file_set_contents (existing, "mine", -1, NULL));
  g_action_group_activate_action (G_ACTION_GROUP (win), "export-chart", NULL);
  wait_until (has_toplevel, GSIZE_TO_POINTER (ADW_TYPE_MESSAGE_DIALOG), "the size dialog shows");
  GtkWidget *size = find_widget (find_toplevel (ADW_TYPE_MESSAGE_DIALOG), is_type,
                                 GSIZE_TO_POINTER (GTK_TYPE_SPIN_BUTTON));
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (size)), "activate");
  wait_until (has_toplevel, GSIZE_TO_POINTER (GTK_TYPE_FILE_CHOOSER_DIALOG),
              "the file chooser shows");
  GtkWidget *chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  wait_until (has_folder, chooser, "the file chooser shows a folder");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "chart");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  wait_until (no_toplevel, GSIZE_TO_POINTER (GTK_TYPE_FILE_CHOOSER_DIALOG),
              "the file chooser closes");
  spin (500);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (existing, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "mine");
  g_unlink (existing);
}

typedef struct {
  double x, y;
  gboolean seen;
} PointerWait;

static void
on_test_motion (GtkEventControllerMotion *c, double x, double y, PointerWait *w)
{
  w->seen = ABS (x - w->x) <= 2 && ABS (y - w->y) <= 2;
}

static gboolean
pointer_arrived (gpointer data)
{
  return ((PointerWait *) data)->seen;
}

/* Sends the X pointer to point (x, y) of widget. */
static void
fake_motion_to (MsWindow *win, GtkWidget *widget, double x, double y)
{
  Display *dpy = gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (win)));
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (win));
  double sx, sy;
  gtk_native_get_surface_transform (GTK_NATIVE (win), &sx, &sy);
  graphene_point_t p;
  g_assert_true (
      gtk_widget_compute_point (widget, GTK_WIDGET (win), &GRAPHENE_POINT_INIT (x, y), &p));
  int rx, ry;
  Window child;
  XTranslateCoordinates (dpy, gdk_x11_surface_get_xid (surface), DefaultRootWindow (dpy),
                         (int)(p.x + sx), (int)(p.y + sy), &rx, &ry, &child);
  ms_fake_motion (dpy, -1, rx, ry, 0);
  XFlush (dpy);
}

/* Moves the X pointer over point (x, y) of widget, and waits until the
 * widget has seen it there: its own motion controller gets the same event
 * (a fixed wait lost to a slow X server zooms at the middle). It comes
 * from 10 pixels to the left, so that there is a motion to see even where
 * the pointer already was. */
static void
point_at (MsWindow *win, GtkWidget *widget, double x, double y)
{
  PointerWait w = { x, y, FALSE };
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_test_motion), &w);
  gtk_widget_add_controller (widget, motion);
  fake_motion_to (win, widget, x - 10, y);
  fake_motion_to (win, widget, x, y);
  wait_until (pointer_arrived, &w, "the pointer is over the point");
  gtk_widget_remove_controller (widget, motion);
}

typedef struct {
  const MsTimeWindow *now;
  MsTimeWindow before;
} WindowWait;

static gboolean
window_moved (gpointer data)
{
  WindowWait *w = data;
  return w->now->t0 != w->before.t0 || w->now->t1 != w->before.t1;
}

/* Presses key in the timeline and waits for its window to move. */
static void
press_in_timeline (MsWindow *win, const MsTimeWindow *w, KeySym key, const char *what)
{
  WindowWait wait = { w, *w };
  press (win, 0, key);
  wait_until (window_moved, &wait, what);
}

/* The timeline by keyboard: Right pans, + zooms at the pointer, 0 goes
 * back to the copies, A shows all phases. */
static void
check_timeline_keys (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  ms_window_set_view (win, MS_VIEW_TIMELINE);
  GtkWidget *view
      = find_widget (GTK_WIDGET (win), is_type, GSIZE_TO_POINTER (MS_TYPE_TIMELINE_VIEW));
  g_assert_nonnull (view);
  wait_until (is_drawn, view, "the timeline is laid out");
  gtk_widget_grab_focus (view);
  wait_until (has_focus, view, "the timeline has the keyboard");
  const MsTimeWindow *w = ms_timeline_view_get_window (MS_TIMELINE_VIEW (view));
  MsTimeWindow start = *w;
  double span = start.t1 - start.t0;

  press_in_timeline (win, w, XK_Right, "Right pans the timeline");
  g_assert_cmpfloat_with_epsilon (w->t0, start.t0 + 0.2 * span, span * 1e-6);

  /* The pointer at three quarters of the width: zooming keeps that side. */
  point_at (win, view, gtk_widget_get_width (view) * 0.75, gtk_widget_get_height (view) * 0.3);
  MsTimeWindow before = *w;
  press_in_timeline (win, w, XK_plus, "+ zooms the timeline");
  double new_span = w->t1 - w->t0;
  g_assert_cmpfloat_with_epsilon (new_span, span / 1.5, span * 1e-6);
  /* A zoom at the middle would start at t0 + span / 6. */
  g_assert_cmpfloat (w->t0, >, before.t0 + span / 6 + span * 0.02);

  press_in_timeline (win, w, XK_0, "0 resets the timeline");
  g_assert_cmpfloat_with_epsilon (w->t0, start.t0, span * 1e-6);
  g_assert_cmpfloat_with_epsilon (w->t1, start.t1, span * 1e-6);

  /* A shows every phase from the start of the repetition (its first
   * event, where the axis reads 0), and back. */
  press_in_timeline (win, w, XK_a, "A shows all phases");
  g_assert_cmpfloat (w->t0, ==, w->origin_us);
  g_assert_cmpfloat (w->t0, <, start.t0);
  g_assert_true (ms_test_get_boolean (MS_TIMELINE_VIEW (view), "show-setup"));
  press_in_timeline (win, w, XK_a, "A goes back to the data movement");
  g_assert_cmpfloat_with_epsilon (w->t0, start.t0, span * 1e-6);
  ms_window_close_run (win, 0);
  ms_window_set_view (win, MS_VIEW_BANDWIDTH);
}

/* The Runs popover's list: a list view of runs (drop-downs and the table
 * hold list views too). */
static gboolean
is_runs_list (GtkWidget *w, gconstpointer data)
{
  GtkSelectionModel *model =
    GTK_IS_LIST_VIEW (w) ? gtk_list_view_get_model (GTK_LIST_VIEW (w)) : NULL;
  GListModel *runs =
    GTK_IS_NO_SELECTION (model) ? gtk_no_selection_get_model (GTK_NO_SELECTION (model)) : NULL;
  return runs && g_list_model_get_item_type (runs) == MS_TYPE_RUN;
}

static gboolean
popover_shown (gpointer popover)
{
  return gtk_widget_get_mapped (popover);
}

static void
type_text (MsWindow *win, const char *text)
{
  for (const char *c = text; *c; c++)
    press (win, 0, (KeySym)*c);
}

typedef struct {
  GtkWidget *popover, *before;
} FocusWait;

static gboolean
focus_moved (gpointer data)
{
  FocusWait *f = data;
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (f->popover));
  return focus && focus != f->before && gtk_widget_is_ancestor (focus, f->popover);
}

/* Ctrl+Shift+R opens the runs (a list view on the session); the name typed
 * there, with Enter, renames the run; Escape closes the popover and the keys work on. */
static void
check_runs_popover (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  press_ctrl_shift (win, XK_r);
  GtkWidget *list = find_widget (GTK_WIDGET (win), is_runs_list, NULL);
  GtkWidget *popover = gtk_widget_get_ancestor (list, GTK_TYPE_POPOVER);
  wait_until (popover_shown, popover, "Ctrl+Shift+R opens the runs");
  wait_until (has_entry, list, "the runs list shows a run's name");
  GtkWidget *entry = find_widget (list, is_type, GSIZE_TO_POINTER (GTK_TYPE_ENTRY));
  gtk_widget_grab_focus (entry);
  gtk_editable_select_region (GTK_EDITABLE (entry), 0, -1);
  type_text (win, "baseline");
  press (win, 0, XK_Return);
  wait_until (run_is_named_baseline, win, "Return names the run");
  g_assert_cmpstr (ms_test_window_run (win, 0)->label, ==, "baseline");
  /* Tab goes from the name to the note, not to the close button. */
  gtk_widget_grab_focus (entry);
  wait_until (focus_within, entry, "the run's name has the keyboard");
  FocusWait f = { popover, gtk_root_get_focus (GTK_ROOT (win)) };
  press (win, 0, XK_Tab);
  wait_until (focus_moved, &f, "Tab moves on from the run's name");
  GtkWidget *next = gtk_root_get_focus (GTK_ROOT (win));
  g_assert_nonnull (gtk_widget_get_ancestor (next, GTK_TYPE_ENTRY));
  g_assert_null (gtk_widget_get_ancestor (next, GTK_TYPE_BUTTON));
  press (win, 0, XK_Escape);
  wait_until (popover_hidden, popover, "Escape closes the runs");
  wait_until (focus_left, popover, "the keyboard leaves the runs");
  check_keys_work (win, "the runs popover");
  g_assert_true (ms_window_close_run (win, 0));
}

static gboolean
focus_in_search (gpointer win)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (win));
  return focus && gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY);
}

/* Ctrl+F from another view: the table, with the keyboard in its filter;
 * what is typed filters the rows. */
static void
check_table_filter (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  ms_window_set_view (win, MS_VIEW_BANDWIDTH);
  wait_until (shows_series_button, win, "the bandwidth chart shows");
  press (win, XK_Control_L, XK_f);
  wait_until (focus_in_search, win, "Ctrl+F puts the keyboard in the table's filter");
  g_assert_cmpint (ms_window_get_view (win), ==, MS_VIEW_TABLE);
  GtkWidget *entry = gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (win)),
                                              GTK_TYPE_SEARCH_ENTRY);
  type_text (win, "pinned");
  wait_until (reads_pinned, entry, "the filter reads what was typed");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "pinned");
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  check_keys_work (win, "the table's filter");
  g_assert_true (ms_window_close_run (win, 0));
}

/* Every page has its Alt+number, pressed through the X server, and the
 * shortcuts window's line covers them all. */
static void
check_every_page_key (MsWindow *win)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (win));
  for (int v = 0; v < MS_VIEW_COUNT; v++) {
    g_autofree char *accel = g_strdup_printf ("<Alt>%d", v + 1);
    g_autofree char *action = g_strdup_printf ("win.view(%d)", v);
    g_auto (GStrv) actions = gtk_application_get_actions_for_accel (app, accel);
    g_assert_true (actions && g_strv_contains ((const char *const *) actions, action));
  }
  press_until_view (win, XK_7, MS_VIEW_DEVICES, "Alt+7 shows the GPUs");
  press_until_view (win, XK_8, MS_VIEW_LESSONS, "Alt+8 shows the lessons");
  press_until_view (win, XK_5, MS_VIEW_TABLE, "Alt+5 shows the table");
  press_until_view (win, XK_1, MS_VIEW_BANDWIDTH, "Alt+1 shows the bandwidth");
}

static gboolean
is_views_line (GtkWidget *w, gconstpointer unused)
{
  if (!GTK_IS_SHORTCUTS_SHORTCUT (w))
    return FALSE;
  g_autofree char *accel = NULL;
  g_object_get (w, "accelerator", &accel, NULL);
  return accel && g_str_has_prefix (accel, "<Alt>1");
}

/* A line of the shortcuts window naming this key (among others). */
static gboolean
is_line_of (GtkWidget *w, gconstpointer key)
{
  if (!GTK_IS_SHORTCUTS_SHORTCUT (w))
    return FALSE;
  g_autofree char *accel = NULL;
  g_object_get (w, "accelerator", &accel, NULL);
  guint want_key, line_key;
  GdkModifierType want_mods, line_mods;
  g_assert_true (gtk_accelerator_parse (key, &want_key, &want_mods));
  /* By key and modifiers: the app's keys read back as <Control>, the
   * window's lines say <Primary>. */
  g_auto (GStrv) keys = g_strsplit (accel ? accel : "", " ", -1);
  for (guint i = 0; keys[i]; i++)
    if (gtk_accelerator_parse (keys[i], &line_key, &line_mods) && line_key == want_key
        && line_mods == want_mods)
      return TRUE;
  return FALSE;
}

static gboolean
has_focus_in (gpointer widget)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));
  return focus && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static gboolean
is_series_button (GtkWidget *w, gconstpointer unused)
{
  return GTK_IS_MENU_BUTTON (w) && gtk_widget_is_drawable (w) &&
         g_strcmp0 (gtk_menu_button_get_label (GTK_MENU_BUTTON (w)), "Se_ries") == 0;
}

static GtkWidget *
check_button_of (GtkWidget *focus)
{
  return GTK_IS_CHECK_BUTTON (focus) ? focus
                                     : gtk_widget_get_ancestor (focus, GTK_TYPE_CHECK_BUTTON);
}

/* The Series popover: opened by keyboard, Down and Up move between its
 * check buttons, Space hides a series, Escape closes it. */
static void
check_series_popover (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  ms_window_set_view (win, MS_VIEW_BANDWIDTH);
  wait_until (shows_series_button, win, "the bandwidth chart shows");
  GtkWidget *button = find_widget (GTK_WIDGET (win), is_series_button, NULL);
  g_assert_nonnull (button);
  gtk_widget_grab_focus (button);
  press (win, 0, XK_space);
  GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  wait_until (popover_shown, popover, "Space opens the Series popover");
  wait_until (has_focus_in, popover, "the Series popover has the keyboard");
  FocusWait f = { popover, gtk_root_get_focus (GTK_ROOT (win)) };
  GtkWidget *first = check_button_of (f.before);
  g_assert_nonnull (first);
  press (win, 0, XK_Down);
  wait_until (focus_moved, &f, "Down moves in the Series popover");
  f.before = gtk_root_get_focus (GTK_ROOT (win));
  GtkWidget *second = check_button_of (f.before);
  g_assert_nonnull (second);
  g_assert_true (second != first);
  press (win, 0, XK_Down);
  wait_until (focus_moved, &f, "Down moves on in the Series popover");
  GtkWidget *third = check_button_of (gtk_root_get_focus (GTK_ROOT (win)));
  g_assert_nonnull (third);
  f.before = gtk_root_get_focus (GTK_ROOT (win));
  press (win, 0, XK_Up);
  wait_until (focus_moved, &f, "Up moves back in the Series popover");
  g_assert_true (check_button_of (gtk_root_get_focus (GTK_ROOT (win))) == second);
  press (win, 0, XK_Escape);
  wait_until (popover_hidden, popover, "Escape closes the Series popover");
  wait_until (focus_left, popover, "the keyboard leaves the Series popover");
  check_keys_work (win, "the Series popover");
  g_assert_true (ms_window_close_run (win, 0));
}

static gboolean
is_active (gpointer win)
{
  return gtk_window_is_active (win);
}

static gboolean
focus_in_list (gpointer dialog)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (dialog));
  return focus && gtk_widget_get_ancestor (focus, GTK_TYPE_LIST_VIEW);
}

static gboolean
has_a_run (gpointer win)
{
  return ms_test_window_n_runs (win) > 0;
}

/* Ctrl+Shift+O: the recent runs with the keyboard in their list; Enter
 * opens the run (one kept in the runs folder before the app started). */
static void
check_recent_runs (MsWindow *win)
{
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 0);
  press_ctrl_shift (win, XK_o);
  wait_until (has_toplevel, GSIZE_TO_POINTER (MS_TYPE_RECENT_RUNS), "Ctrl+Shift+O opens the runs");
  GtkWidget *dialog = find_toplevel (MS_TYPE_RECENT_RUNS);
  wait_until (is_active, dialog, "the recent runs have the keyboard");
  wait_until (focus_in_list, dialog, "the keyboard is in the recent runs' list");
  press (win, 0, XK_Return);
  wait_until (has_a_run, win, "Enter opens the recent run");
  wait_until (no_toplevel, GSIZE_TO_POINTER (MS_TYPE_RECENT_RUNS), "the recent runs close");
  check_keys_work (win, "the recent runs");
  g_assert_true (ms_window_close_run (win, 0));
}

static gboolean
has_chosen (gpointer dialog)
{
  return ms_test_get_uint (dialog, "n-chosen") == 1;
}

static gboolean
is_revealer (GtkWidget *w, gconstpointer data)
{
  return GTK_IS_REVEALER (w) && gtk_revealer_get_child_revealed (GTK_REVEALER (w));
}

static gboolean
is_check (GtkWidget *w, gconstpointer data)
{
  return GTK_IS_CHECK_BUTTON (w);
}

/* A kind's runs are shown (the expander's animation has ended). */
static gboolean
kind_open (gpointer dialog)
{
  return find_widget (dialog, is_revealer, NULL) != NULL;
}

/* The keyboard is on a run's row (its check button inside). */
static gboolean
focus_on_run (gpointer dialog)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (dialog));
  return focus && find_widget (focus, is_check, NULL) != NULL;
}

/* Reference Runs from the menu, then only keys: Enter opens the first kind,
 * Down and Space tick its first run, Ctrl+Enter opens it and closes the
 * dialog. */
static void
check_reference_runs (MsWindow *win)
{
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 0);
  choose (win, "Reference Runs…");
  wait_until (has_toplevel, GSIZE_TO_POINTER (MS_TYPE_REFERENCE_DIALOG),
              "the menu opens the reference runs");
  GtkWidget *dialog = find_toplevel (MS_TYPE_REFERENCE_DIALOG);
  wait_until (is_active, dialog, "the reference runs have the keyboard");
  press (win, 0, XK_Return);
  wait_until (kind_open, dialog, "Enter opens the first kind of reference runs");
  press (win, 0, XK_Down);
  wait_until (focus_on_run, dialog, "Down goes to the first reference run");
  press (win, 0, XK_space);
  wait_until (has_chosen, dialog, "Space ticks a reference run");
  press (win, XK_Control_L, XK_Return);
  wait_until (has_a_run, win, "Ctrl+Enter opens the reference run");
  wait_until (no_toplevel, GSIZE_TO_POINTER (MS_TYPE_REFERENCE_DIALOG),
              "the reference runs close");
  check_keys_work (win, "the reference runs");
}

/* The shortcuts window is built on first use: Ctrl+? opens it, twice. */
static void
check_shortcuts_window (MsWindow *win)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (win));
  g_auto (GStrv) actions = gtk_application_get_actions_for_accel (app, "<Primary>question");
  g_assert_true (actions && g_strv_contains ((const char *const *) actions, "win.show-help-overlay"));
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (win)));
  for (int i = 0; i < 2; i++) {
    gtk_widget_activate_action (GTK_WIDGET (win), "win.show-help-overlay", NULL);
    wait_until (has_toplevel, GSIZE_TO_POINTER (GTK_TYPE_SHORTCUTS_WINDOW), "the shortcuts open");
    /* The views' line names every page's key. */
    GtkWidget *line = find_widget (find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW), is_views_line, NULL);
    g_assert_nonnull (line);
    g_autofree char *accel = NULL;
    g_object_get (line, "accelerator", &accel, NULL);
    g_autofree char *last = g_strdup_printf ("<Alt>%d", MS_VIEW_COUNT);
    g_assert_true (g_str_has_suffix (accel, last));
    /* Every key of the app's own actions is listed, on a window that fits
     * a 1024x768 projector. */
    GtkWidget *shortcuts = find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);
    g_auto (GStrv) named = gtk_application_list_action_descriptions (app);
    for (guint n = 0; named[n]; n++) {
      g_auto (GStrv) keys = gtk_application_get_accels_for_action (app, named[n]);
      for (guint k = 0; keys[k]; k++) {
        /* Alternatives of one key (Ctrl+= for Ctrl++) and the views' keys,
         * which one line names, need no lines of their own. */
        if (k > 0 || g_str_has_prefix (named[n], "win.view("))
          continue;
        if (!find_widget (shortcuts, is_line_of, keys[k]))
          g_error ("%s (%s) is not in the shortcuts window", keys[k], named[n]);
      }
    }
    /* Shown at its natural size (the screen is larger). */
    wait_until (is_drawn, shortcuts, "the shortcuts window is laid out");
    g_assert_cmpint (gtk_widget_get_width (shortcuts), <=, 1024);
    g_assert_cmpint (gtk_widget_get_height (shortcuts), <=, 768);
    gtk_window_close (GTK_WINDOW (find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW)));
    wait_until (no_toplevel, GSIZE_TO_POINTER (GTK_TYPE_SHORTCUTS_WINDOW), "the shortcuts close");
  }
  check_keys_work (win, "the shortcuts window");
}

/* GTK 4.8 sizes a popover by the monitor its window is on, and fails with
 * a critical while the window is on none: a window just shown on a loaded
 * machine can be active before it is placed. */
static gboolean
on_monitor (gpointer widget)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (widget));
  return surface
         && gdk_display_get_monitor_at_surface (gdk_surface_get_display (surface), surface) != NULL;
}

/* The keyboard is on a chart canvas of the page shown (of that type). */
static gboolean
focus_on_canvas_of (gpointer win, GType type)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (win));
  return focus && G_TYPE_CHECK_INSTANCE_TYPE (focus, type) && gtk_widget_is_drawable (focus);
}

static gboolean
focus_on_plot (gpointer win)
{
  return focus_on_canvas_of (win, MS_TYPE_PLOT_VIEW);
}

static gboolean
focus_on_timeline (gpointer win)
{
  return focus_on_canvas_of (win, MS_TYPE_TIMELINE_VIEW);
}

static gboolean
highlight_on (gpointer unused)
{
  return ms_chart_view_get_highlight_pointer ();
}

static gboolean
highlight_off (gpointer unused)
{
  return !ms_chart_view_get_highlight_pointer ();
}

typedef struct {
  GObject *page;
  gboolean was;
} LogWait;

static gboolean
log_scale_flipped (gpointer data)
{
  LogWait *l = data;
  gboolean now;
  g_object_get (l->page, "log-scale", &now, NULL);
  return now != l->was;
}

/* The chart keys: Alt+N puts the keyboard on the canvas shown, Alt+3 on
 * the timeline's (its arrows work at once), Alt+L flips the log scale,
 * Ctrl+Shift+H the pointer highlight and Ctrl+Shift+L opens the
 * reference runs. */
static void
check_chart_keys (MsWindow *win)
{
  const char *files[] = { "h100-default-1-samples.csv.gz", "h100-default-2-samples.csv.gz" };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++) {
    g_autoptr (GError) error = NULL;
    g_autofree char *ref = g_build_filename (ms_reference_dir (), files[i], NULL);
    g_assert_true (ms_window_load_path (win, ref, &error));
  }
  ms_window_set_view (win, MS_VIEW_BANDWIDTH);
  wait_until (shows_series_button, win, "the bandwidth chart shows");
  GtkWidget *series = find_widget (GTK_WIDGET (win), is_series_button, NULL);
  gtk_widget_grab_focus (series);
  press (win, XK_Alt_L, XK_n);
  wait_until (focus_on_plot, win, "Alt+N puts the keyboard on the chart");
  press_until_view (win, XK_3, MS_VIEW_TIMELINE, "Alt+3 shows the timeline");
  wait_until (focus_on_timeline, win, "Alt+3 puts the keyboard on the timeline");
  press_until_view (win, XK_1, MS_VIEW_BANDWIDTH, "Alt+1 shows the bandwidth chart");
  LogWait l = { G_OBJECT (
      find_widget (GTK_WIDGET (win), is_type, GSIZE_TO_POINTER (MS_TYPE_CHART_PAGE))) };
  g_object_get (l.page, "log-scale", &l.was, NULL);
  press (win, XK_Alt_L, XK_l);
  wait_until (log_scale_flipped, &l, "Alt+L flips the log scale");
  l.was = !l.was;
  press (win, XK_Alt_L, XK_l);
  wait_until (log_scale_flipped, &l, "Alt+L flips the log scale back");
  press_ctrl_shift (win, XK_h);
  wait_until (highlight_on, NULL, "Ctrl+Shift+H highlights the pointer");
  press_ctrl_shift (win, XK_h);
  wait_until (highlight_off, NULL, "Ctrl+Shift+H turns the highlight off");
  press_ctrl_shift (win, XK_l);
  wait_until (has_toplevel, GSIZE_TO_POINTER (MS_TYPE_REFERENCE_DIALOG),
              "Ctrl+Shift+L opens the reference runs");
  gtk_window_close (GTK_WINDOW (find_toplevel (MS_TYPE_REFERENCE_DIALOG)));
  wait_until (no_toplevel, GSIZE_TO_POINTER (MS_TYPE_REFERENCE_DIALOG), "the reference runs close");
  while (ms_test_window_n_runs (win))
    g_assert_true (ms_window_close_run (win, 0));
  check_keys_work (win, "the chart keys");
}

static void
on_activate (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  wait_until (is_active, win, "the window has the keyboard");
  wait_until (on_monitor, win, "the window is on a monitor");
  GtkMenuButton *button = GTK_MENU_BUTTON (find_widget (GTK_WIDGET (win), is_menu_button, NULL));
  g_assert_null (gtk_menu_button_get_menu_model (button));
  gtk_menu_button_popup (button);
  gtk_menu_button_popdown (button);
  /* Built once: opening it again keeps the same popover. */
  GtkPopover *menu = gtk_menu_button_get_popover (button);
  g_assert_nonnull (menu);
  gtk_menu_button_popup (button);
  gtk_menu_button_popdown (button);
  g_assert_true (gtk_menu_button_get_popover (button) == menu);
  check_no_submenus (gtk_menu_button_get_menu_model (button));
  check_keys_work (win, "nothing");
  /* Alt+6: the Compare page (ms-compare-page.c). */
  press_until_view (win, XK_6, MS_VIEW_COMPARE, "Alt+6 shows the compare page");
  press_until_view (win, XK_1, MS_VIEW_BANDWIDTH, "Alt+1 after the compare page");

  /* Every item that does not open a dialog of its own. */
  check_reference_runs (win);
  const char *items[] = { "Close Opened Runs", "Presentation Mode", "Presentation Mode",
                          "Dark",              "Light",             "Follow System" };
  for (guint i = 0; i < G_N_ELEMENTS (items); i++) {
    choose (win, items[i]);
    check_keys_work (win, items[i]);
  }
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 0);
  check_export_dialog (win);
  check_report_folder (win);
  check_keys_work (win, "the export dialogs");
  check_timeline_keys (win);
  check_export_keeps_existing (win);
  check_runs_popover (win);
  check_recent_runs (win);
  check_table_filter (win);
  check_every_page_key (win);
  check_series_popover (win);
  check_chart_keys (win);
  check_shortcuts_window (win);
  gtk_window_destroy (GTK_WINDOW (win));
  done = TRUE;
}

/* A runs folder of this test's own, with one run in it, before GLib reads
 * XDG_DATA_HOME. */
static void
make_runs_folder (void)
{
  const char *runs = ms_test_app_data_home ();
  g_assert_cmpint (g_mkdir_with_parents (runs, 0700), ==, 0);
  g_autofree char *from = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"),
                                            "h100-default-samples.csv.gz", NULL);
  g_autofree char *to = g_build_filename (runs, "kept-samples.csv", NULL);
  /* The runs folder holds what the app writes, plain CSV: the shipped
   * run's text, not its gzip bytes under a .csv name. */
  const char *argv[] = { "gzip", "-dc", from, NULL };
  g_autofree char *text = NULL;
  int status = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &text, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_set_contents (to, text, -1, NULL));
}

int
main (int argc, char **argv)
{
  make_runs_folder ();
  gtk_test_init (&argc, &argv, NULL);
  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ())) {
    g_print ("1..0 # SKIP needs an X11 display (Xvfb)\n");
    return 77;
  }
  if (!ms_xtest_load ()) {
    g_print ("1..0 # SKIP needs libXtst.so.6 to send key presses\n");
    return 77;
  }
  ms_test_app_run_checked (on_activate, &done);
  return 0;
}
