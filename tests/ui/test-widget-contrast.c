/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-contrast.c: every text colour the app sets reads 4.5:1
 * (WCAG AA) on its background, light and dark, with libadwaita's own
 * colours as the app gets them: the style sheet's hint text (dim labels,
 * placeholders) and the charts' faintest text (MS_TEXT_FAINT_ALPHA of the
 * foreground), on the background and over a grid line. */
#include "ms-color-test.h"
#include "ms-palette.h"
#include "ms-widget-test.h"

static MsColor
from_rgba (const GdkRGBA *c)
{
  return (MsColor){ c->red, c->green, c->blue, c->alpha };
}

static MsColor
named_color (GtkWidget *widget, const char *name)
{
  GdkRGBA c = { 0 };
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, &c));
  G_GNUC_END_IGNORE_DEPRECATIONS
  return from_rgba (&c);
}

static MsColor
text_color (GtkWidget *widget)
{
  GdkRGBA c;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &c);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return from_rgba (&c);
}

static gboolean
style_is (gpointer dark)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ()) == GPOINTER_TO_INT (dark);
}

static void
use_scheme (gboolean dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                           : ADW_COLOR_SCHEME_FORCE_LIGHT);
  ms_test_wait_until (style_is, GINT_TO_POINTER (dark), "the style changes");
}

/* The app's style sheet, as the application loads it. */
static void
load_style_sheet (void)
{
  GtkCssProvider *css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/memsweep/Memsweep/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref (css);
}

/* A dim label's text and an entry's placeholder over the window's
 * background: neither dimmed by an opacity, both 4.5:1. */
static void
check_hint_text (gboolean dark)
{
  use_scheme (dark);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *hint = gtk_label_new ("2^10 = 1024 floats = 4 KiB per vector");
  gtk_widget_add_css_class (hint, "dim-label");
  GtkWidget *entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "Note");
  gtk_box_append (GTK_BOX (box), hint);
  gtk_box_append (GTK_BOX (box), entry);
  GtkWindow *window = ms_test_show (box, 400, 200);
  MsColor bg = named_color (GTK_WIDGET (window), "window_bg_color");
  GtkWidget *placeholder = ms_test_find_label (entry, "Note");
  g_assert_nonnull (placeholder);
  GtkWidget *labels[] = { hint, placeholder };
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++) {
    MsColor fg = text_color (labels[i]);
    MsColor seen = ms_test_over (&fg, gtk_widget_get_opacity (labels[i]), &bg);
    double ratio = ms_test_contrast (&seen, &bg);
    if (ratio < 4.5)
      g_error ("%s hint text %u: %.2f:1", dark ? "dark" : "light", i, ratio);
  }
  ms_test_destroy (window, box);
}

static void
test_hint_text (void)
{
  load_style_sheet ();
  check_hint_text (FALSE);
  check_hint_text (TRUE);
}

/* The charts paint with the view's colours (ms_view_style_from_widget):
 * their faintest text on the background and over a grid line. */
static void
check_chart_text (gboolean dark)
{
  use_scheme (dark);
  GtkWidget *label = gtk_label_new ("chart");
  GtkWindow *window = ms_test_show (label, 200, 100);
  MsColor bg = named_color (label, "view_bg_color"), fg = named_color (label, "view_fg_color");
  bg.alpha = 1;
  MsColor grid = ms_test_over (&fg, MS_GRID_ALPHA, &bg);
  const MsColor *under[] = { &bg, &grid };
  for (guint i = 0; i < G_N_ELEMENTS (under); i++) {
    MsColor text = ms_test_over (&fg, MS_TEXT_FAINT_ALPHA, under[i]);
    double ratio = ms_test_contrast (&text, under[i]);
    if (ratio < 4.5)
      g_error ("%s chart text over %s: %.2f:1", dark ? "dark" : "light",
               i ? "a grid line" : "the background", ratio);
  }
  ms_test_destroy (window, label);
}

static void
test_chart_text (void)
{
  check_chart_text (FALSE);
  check_chart_text (TRUE);
}

/* The measure itself: black on white is 21:1, a colour on itself 1:1, and
 * Adwaita's old hint grey (#8C8C8C on #FAFAFA) under 4.5:1. */
static void
test_ratio (void)
{
  MsColor black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 };
  g_assert_cmpfloat_with_epsilon (ms_test_contrast (&black, &white), 21, 1e-9);
  g_assert_cmpfloat_with_epsilon (ms_test_contrast (&white, &white), 1, 1e-9);
  MsColor grey = { 0x8c / 255.0, 0x8c / 255.0, 0x8c / 255.0, 1 };
  MsColor page = { 0xfa / 255.0, 0xfa / 255.0, 0xfa / 255.0, 1 };
  g_assert_cmpfloat (ms_test_contrast (&grey, &page), <, 4.5);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/contrast/ratio", test_ratio);
  g_test_add_func ("/contrast/hint-text", test_hint_text);
  g_test_add_func ("/contrast/chart-text", test_chart_text);
  return g_test_run ();
}
