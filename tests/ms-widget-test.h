/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-widget-test.h: what the per-widget tests share: the bundled H100 run,
 * waiting on conditions instead of time, showing a widget in a window and
 * rendering it, and counting notifications. */
#pragma once

#include <adwaita.h>
#include <string.h>

#include "memsweep.h"
#include "ms-plots.h"
#include "ms-run.h"

void ms_register_resource (void);

static inline void
ms_widget_test_init (int *argc, char ***argv)
{
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  ms_register_resource ();
}

/* The reference run, labelled as the window labels it. */
static inline GPtrArray *
ms_test_reference_runs (void)
{
  char err[512];
  const char *dir = g_getenv ("MEMSWEEP_REFERENCE_DIR");
  g_assert_nonnull (dir);
  g_autofree char *path = g_build_filename (dir, "h100-default-samples.csv", NULL);
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  g_autofree char *label = ms_plot_run_label (r);
  g_snprintf (r->label, sizeof r->label, "%s", label);
  GPtrArray *runs = ms_run_array_new ();
  g_ptr_array_add (runs, ms_run_new (r, MS_RUN_KIND_REFERENCE));
  return runs;
}

/* A reference run by file name (in MEMSWEEP_REFERENCE_DIR), named name. */
static inline MsRun *
ms_test_read_run (const char *file, const char *name)
{
  char err[512];
  g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), file, NULL);
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  g_snprintf (r->label, sizeof r->label, "%s", name);
  return ms_run_new (r, MS_RUN_KIND_REFERENCE);
}

/* Runs the main loop until cond (data) holds; fails after 30 s. */
static inline void
ms_test_wait_until (gboolean (*cond) (gpointer), gpointer data, const char *what)
{
  /* Long enough for a loaded 2-core machine running the app tests. */
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!cond (data)) {
    if (g_get_monotonic_time () > deadline)
      g_error ("timed out waiting until %s", what);
    g_main_context_iteration (NULL, FALSE);
    g_usleep (1000);
  }
}

/* The message dialog shown (a question a window asks), or NULL. */
static inline gpointer
ms_test_find_question (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++) {
    g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);
    if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (w))
      return w;
  }
  return NULL;
}

static inline gboolean
ms_test_has_question (gpointer unused)
{
  return ms_test_find_question () != NULL;
}

/* Clicks the button labelled label (with its mnemonic) under widget, as a
 * user would; FALSE when there is none. */
static inline gboolean
ms_test_click_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0) {
    g_signal_emit_by_name (widget, "clicked");
    return TRUE;
  }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (ms_test_click_button (c, label))
      return TRUE;
  return FALSE;
}

static inline gboolean
ms_test_is_laid_out (gpointer widget)
{
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (widget));
  int w, h;
  gtk_window_get_default_size (GTK_WINDOW (window), &w, &h);
  /* The first allocation may be the natural size: wait for the asked one,
   * since what the tests measure depends on it. */
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0 &&
         gtk_widget_get_width (window) == w && gtk_widget_get_height (window) == h;
}

/* A window holding the widget, shown and laid out at the size asked. */
static inline GtkWindow *
ms_test_show (GtkWidget *widget, int width, int height)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, width, height);
  gtk_window_set_child (window, widget);
  gtk_window_present (window);
  ms_test_wait_until (ms_test_is_laid_out, widget, "the widget is mapped and laid out");
  return window;
}

/* Renders what a drawing widget draws at its size: how many pixels per
 * thousand differ from the top-left one (the background). */
static inline guint
ms_test_ink (GtkWidget *widget)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  /* A cairo renderer of its own, without a surface, so the measure does not
   * depend on the window's GL renderer and its caches (widget-breakdown-view
   * failed now and then under load with the window's renderer). */
  GskRenderer *renderer = gsk_cairo_renderer_new ();
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  g_autoptr (GdkTexture) texture =
    gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gsk_renderer_unrealize (renderer);
  g_object_unref (renderer);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) w * h);
  gdk_texture_download (texture, (guchar *) pixels, w * 4);
  gsize ink = 0;
  for (gsize i = 0; i < (gsize) w * h; i++)
    ink += pixels[i] != pixels[0];
  return ink * 1000 / ((gsize) w * h);
}

/* A drawing view's frame: its kept picture (a texture node, held) and what
 * lies over it (cairo nodes: the crosshair). */
typedef struct {
  GdkTexture *texture;
  guint n_over;
  graphene_rect_t over;
} MsTestViewFrame;

static inline void
ms_test_collect_frame (GskRenderNode *node, MsTestViewFrame *f)
{
  switch (gsk_render_node_get_node_type (node)) {
  case GSK_TEXTURE_NODE:
    g_set_object (&f->texture, gsk_texture_node_get_texture (node));
    break;
  case GSK_CONTAINER_NODE:
    for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
      ms_test_collect_frame (gsk_container_node_get_child (node, i), f);
    break;
  case GSK_CAIRO_NODE:
    f->n_over++;
    gsk_render_node_get_bounds (node, &f->over);
    break;
  default:
    break;
  }
}

static inline MsTestViewFrame
ms_test_view_frame (GtkWidget *view)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (view)->snapshot (view, snapshot);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  MsTestViewFrame f = { 0 };
  g_assert_nonnull (node);
  ms_test_collect_frame (node, &f);
  g_assert_nonnull (f.texture);
  return f;
}

static inline void
ms_test_count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* Counts "notify::<property>" on object into *count. */
static inline void
ms_test_watch (gpointer object, const char *property, guint *count)
{
  g_autofree char *signal = g_strconcat ("notify::", property, NULL);
  *count = 0;
  g_signal_connect (object, signal, G_CALLBACK (ms_test_count_notify), count);
}

static inline const char *
ms_test_button_label (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget))
    return gtk_button_get_label (GTK_BUTTON (widget));
  if (GTK_IS_CHECK_BUTTON (widget))
    return gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
  return NULL;
}

/* The first descendant of a type (and with that button label, unless NULL),
 * depth first. */
static inline GtkWidget *
ms_test_find (GtkWidget *root, GType type, const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c)) {
    if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) &&
        (!label || g_strcmp0 (ms_test_button_label (c), label) == 0))
      return c;
    GtkWidget *found = ms_test_find (c, type, label);
    if (found)
      return found;
  }
  return NULL;
}

/* Destroys the window and checks the widget goes with it. */
static inline void
ms_test_destroy (GtkWindow *window, GtkWidget *widget)
{
  g_object_ref (widget);
  gtk_window_destroy (window);
  g_assert_finalize_object (widget);
}
