/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-views.c: what the drawing widgets share. */
#include "ms-views.h"

#include <adwaita.h>
#include <string.h>

void
ms_view_style_from_widget (GtkWidget *widget, const MsViewScale *scale, MsChartStyle *style)
{
  GtkStyleContext *ctx = gtk_widget_get_style_context (widget);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  if (dark)
    ms_chart_style_init_dark (style);
  else
    ms_chart_style_init_light (style);
  /* Named colours from libadwaita follow light, dark and high contrast. */
  GdkRGBA bg = { style->bg.red, style->bg.green, style->bg.blue, style->bg.alpha };
  GdkRGBA fg = { style->fg.red, style->fg.green, style->fg.blue, style->fg.alpha };
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_lookup_color (ctx, "view_bg_color", &bg);
  gtk_style_context_lookup_color (ctx, "view_fg_color", &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  style->bg = (MsColor){ bg.red, bg.green, bg.blue, bg.alpha };
  style->fg = (MsColor){ fg.red, fg.green, fg.blue, fg.alpha };
  if (scale) {
    style->text_scale = scale->text_scale;
    style->line_scale = scale->line_scale;
    style->high_contrast = scale->high_contrast;
  }
  style->high_contrast =
    style->high_contrast || adw_style_manager_get_high_contrast (adw_style_manager_get_default ());
}

void
ms_view_scale_install (GObjectClass *klass, guint first_id)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  g_object_class_install_property (
    klass, first_id,
    g_param_spec_double ("text-scale", NULL, NULL, 0.1, 10.0, 1.0, flags));
  g_object_class_install_property (
    klass, first_id + 1,
    g_param_spec_double ("line-scale", NULL, NULL, 0.1, 10.0, 1.0, flags));
  g_object_class_install_property (
    klass, first_id + 2, g_param_spec_boolean ("high-contrast", NULL, NULL, FALSE, flags));
}

gboolean
ms_view_scale_set (GObject *view, MsViewScale *scale, guint index, const GValue *value)
{
  static const char *names[] = { "text-scale", "line-scale", "high-contrast" };
  MsViewScale old = *scale;
  switch (index) {
  case 0: scale->text_scale = g_value_get_double (value); break;
  case 1: scale->line_scale = g_value_get_double (value); break;
  case 2: scale->high_contrast = g_value_get_boolean (value); break;
  default: return FALSE;
  }
  if (memcmp (&old, scale, sizeof old) != 0) {
    g_object_notify (view, names[index]);
    gtk_widget_queue_draw (GTK_WIDGET (view));
  }
  return TRUE;
}

gboolean
ms_view_scale_get (const MsViewScale *scale, guint index, GValue *value)
{
  switch (index) {
  case 0: g_value_set_double (value, scale->text_scale); return TRUE;
  case 1: g_value_set_double (value, scale->line_scale); return TRUE;
  case 2: g_value_set_boolean (value, scale->high_contrast); return TRUE;
  default: return FALSE;
  }
}

void
ms_view_follow_style (GtkWidget *view, GCallback redraw)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_signal_connect_object (manager, "notify::dark", redraw, view, G_CONNECT_SWAPPED);
  g_signal_connect_object (manager, "notify::high-contrast", redraw, view, G_CONNECT_SWAPPED);
}

void
ms_widget_dispose_children (GtkWidget *widget, GType template_type)
{
  GtkWidget *child;
  gtk_widget_dispose_template (widget, template_type);
  while ((child = gtk_widget_get_first_child (widget)))
    gtk_widget_unparent (child);
}
