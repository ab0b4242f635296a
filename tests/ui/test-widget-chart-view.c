/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-chart-view.c: MsChartView, the base of the drawing widgets:
 * its scale properties, the style it hands its subclass, its snapshot
 * calling the subclass's draw and keeping the picture, its fade, the focus
 * ring and the pointer highlight drawn over it, and finalising. */
#include "ms-chart-view.h"
#include "ms-widget-test.h"

/* The least subclass: counts what the base calls. */
struct _MsTestChart {
  MsChartView parent_instance;
  guint draws, contrast_sets;
  double drawn_text_scale;
};
G_DECLARE_FINAL_TYPE (MsTestChart, ms_test_chart, MS, TEST_CHART, MsChartView)
G_DEFINE_FINAL_TYPE (MsTestChart, ms_test_chart, MS_TYPE_CHART_VIEW)

static void
ms_test_chart_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsTestChart *self = MS_TEST_CHART (view);
  self->draws++;
  self->drawn_text_scale = style->text_scale;
  cairo_set_source_rgb (cr, 1, 0, 0);
  cairo_rectangle (cr, w / 2.0, 0, w / 2.0, h);
  cairo_fill (cr);
}

static void
ms_test_chart_contrast_set (MsChartView *view)
{
  MS_TEST_CHART (view)->contrast_sets++;
}

static void
ms_test_chart_class_init (MsTestChartClass *klass)
{
  MS_CHART_VIEW_CLASS (klass)->draw = ms_test_chart_draw;
  MS_CHART_VIEW_CLASS (klass)->contrast_set = ms_test_chart_contrast_set;
  MS_CHART_VIEW_CLASS (klass)->keeps_picture = TRUE;
}

static void
ms_test_chart_init (MsTestChart *self)
{
}

static void
test_base (void)
{
  MsTestChart *chart = g_object_new (ms_test_chart_get_type (), NULL);
  MsChartView *view = MS_CHART_VIEW (chart);
  g_assert_true (gtk_widget_get_hexpand (GTK_WIDGET (view)));
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (view)), ==,
                   GTK_ACCESSIBLE_ROLE_IMG);
  g_assert_cmpfloat (ms_chart_view_get_scale (view)->text_scale, ==, 1.0);
  guint text_n, contrast_n;
  ms_test_watch (view, "text-scale", &text_n);
  ms_test_watch (view, "high-contrast", &contrast_n);
  g_object_set (view, "text-scale", 1.6, NULL);
  g_object_set (view, "text-scale", 1.6, NULL); /* no change: no notify */
  g_object_set (view, "high-contrast", TRUE, NULL);
  g_object_set (view, "high-contrast", TRUE, NULL); /* told again, as a binding does */
  g_assert_cmpuint (text_n, ==, 1);
  g_assert_cmpuint (contrast_n, ==, 1);
  g_assert_cmpuint (chart->contrast_sets, ==, 2);
  MsChartStyle style;
  ms_chart_view_get_style (view, &style);
  g_assert_cmpfloat (style.text_scale, ==, 1.6);
  g_assert_true (style.high_contrast);
  GtkWindow *window = ms_test_show (GTK_WIDGET (view), 400, 300);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  g_assert_cmpuint (chart->draws, >=, 1);
  g_assert_cmpfloat (chart->drawn_text_scale, ==, 1.6);
  guint draws = chart->draws;
  ms_test_ink (GTK_WIDGET (view)); /* the kept picture */
  g_assert_cmpuint (chart->draws, ==, draws);
  ms_chart_view_redraw (view);
  g_assert_cmpuint (ms_test_ink (GTK_WIDGET (view)), >, 20);
  g_assert_cmpuint (chart->draws, ==, draws + 1);
  ms_test_destroy (window, GTK_WIDGET (view));
}

/* The view rendered as the window would: its pixels, w x h. */
static guint32 *
render (GtkWidget *widget, int w, int h)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  GskRenderer *renderer = gsk_cairo_renderer_new ();
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  g_autoptr (GdkTexture) texture
      = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gsk_renderer_unrealize (renderer);
  g_object_unref (renderer);
  guint32 *pixels = g_new (guint32, (gsize)w * h);
  gdk_texture_download (texture, (guchar *)pixels, w * 4);
  return pixels;
}

/* A pixel (ARGB, as downloaded on a little-endian machine) is mostly blue:
 * libadwaita's accent, which the focus ring is drawn in. */
static gboolean
is_bluish (guint32 argb)
{
  guint r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff, a = argb >> 24;
  return a > 128 && b > r + 60 && b > g;
}

/* With the keyboard focus the canvas draws a ring at its edge, over the
 * kept picture and without drawing it again; without, none; in
 * presentation mode, none. */
static void
test_focus_ring (void)
{
  MsTestChart *chart = g_object_new (ms_test_chart_get_type (), NULL);
  GtkWidget *widget = GTK_WIDGET (chart);
  GtkWidget *other = gtk_button_new_with_label ("other");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), other);
  gtk_box_append (GTK_BOX (box), widget);
  GtkWindow *window = ms_test_show (box, 400, 300);
  g_assert_true (gtk_widget_get_focusable (widget));
  gtk_widget_grab_focus (other);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  /* The left edge at mid height: the picture leaves it clear. */
  g_autofree guint32 *before = render (widget, w, h);
  g_assert_false (is_bluish (before[(gsize)(h / 2) * w + 1]));
  guint draws = chart->draws;
  g_assert_true (gtk_widget_grab_focus (widget));
  g_assert_true (gtk_widget_has_focus (widget));
  g_autofree guint32 *after = render (widget, w, h);
  g_assert_true (is_bluish (after[(gsize)(h / 2) * w + 1]));
  g_assert_true (is_bluish (after[(gsize)(h / 2) * w + w - 2]));
  g_assert_cmpuint (chart->draws, ==, draws);
  gtk_widget_grab_focus (other);
  g_autofree guint32 *again = render (widget, w, h);
  g_assert_false (is_bluish (again[(gsize)(h / 2) * w + 1]));
  /* In presentation mode no ring frames the picture, focus or not. */
  gtk_widget_add_css_class (GTK_WIDGET (window), "presentation");
  g_assert_true (gtk_widget_grab_focus (widget));
  g_autofree guint32 *projected = render (widget, w, h);
  g_assert_false (is_bluish (projected[(gsize)(h / 2) * w + 1]));
  ms_test_destroy (window, box);
}

/* The pointer highlight: a translucent disc where the pointer is, on every
 * view while it is on, never while off or with the pointer elsewhere. */
static void
test_pointer_highlight (void)
{
  MsTestChart *chart = g_object_new (ms_test_chart_get_type (), NULL);
  GtkWidget *widget = GTK_WIDGET (chart);
  GtkWindow *window = ms_test_show (widget, 400, 300);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  GtkEventController *motion = NULL;
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !motion; i++) {
    g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
    if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
      motion = c;
  }
  g_assert_nonnull (motion);
  /* In the clear left half, where the picture draws nothing. */
  double x = w / 4.0, y = h / 2.0;
  g_signal_emit_by_name (motion, "motion", x, y);
  gsize at = (gsize)y * w + (gsize)x;
  g_autofree guint32 *off = render (widget, w, h);
  g_assert_false (ms_chart_view_get_highlight_pointer ());
  ms_chart_view_set_highlight_pointer (TRUE);
  g_autofree guint32 *on = render (widget, w, h);
  g_assert_cmpuint (on[at], !=, off[at]);
  g_assert_cmpuint (on[at] >> 24, <, 255); /* translucent: the picture shows through */
  g_signal_emit_by_name (motion, "leave");
  g_autofree guint32 *gone = render (widget, w, h);
  g_assert_cmpuint (gone[at], ==, off[at]);
  ms_chart_view_set_highlight_pointer (FALSE);
  ms_test_destroy (window, widget);
}

/* The fade draws the picture's marks at that strength and again the
 * picture at full strength once it is back to 1; one notify a change. */
static void
test_fade (void)
{
  MsTestChart *chart = g_object_new (ms_test_chart_get_type (), NULL);
  GtkWidget *widget = GTK_WIDGET (chart);
  GtkWindow *window = ms_test_show (widget, 400, 300);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  gsize at = (gsize)(h / 2) * w + (gsize)(w * 3 / 4); /* in the red half */
  guint notes;
  ms_test_watch (chart, "fade", &notes);
  double fade;
  g_object_get (chart, "fade", &fade, NULL);
  g_assert_cmpfloat (fade, ==, 1.0);
  g_autofree guint32 *full = render (widget, w, h);
  g_object_set (chart, "fade", 0.4, NULL);
  g_object_set (chart, "fade", 0.4, NULL);
  g_assert_cmpuint (notes, ==, 1);
  g_autofree guint32 *faded = render (widget, w, h);
  /* The red, drawn over nothing, at 0.4 of its strength. */
  g_assert_cmpuint (full[at] >> 24, ==, 255);
  g_assert_cmpuint (faded[at] >> 24, >, 90);
  g_assert_cmpuint (faded[at] >> 24, <, 115);
  g_object_set (chart, "fade", 1.0, NULL);
  g_autofree guint32 *back = render (widget, w, h);
  g_assert_cmpuint (back[at], ==, full[at]);
  ms_test_destroy (window, widget);
}

static void
test_finalize (void)
{
  MsChartView *view = g_object_ref_sink (g_object_new (ms_test_chart_get_type (), NULL));
  g_object_set (view, "line-scale", 2.0, NULL);
  g_assert_cmpfloat (ms_chart_view_get_scale (view)->line_scale, ==, 2.0);
  g_assert_finalize_object (view);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/chart-view/base", test_base);
  g_test_add_func ("/chart-view/focus-ring", test_focus_ring);
  g_test_add_func ("/chart-view/pointer-highlight", test_pointer_highlight);
  g_test_add_func ("/chart-view/fade", test_fade);
  g_test_add_func ("/chart-view/finalize", test_finalize);
  return g_test_run ();
}
