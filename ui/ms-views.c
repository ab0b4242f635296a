/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-views.c: what the drawing widgets share. */
#include "ms-views.h"

#include <adwaita.h>

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

void
ms_widget_class_set_template (GtkWidgetClass *klass, const char *name,
                              const MsTemplateBind *binds, guint n_binds)
{
  g_autofree char *path = g_strdup_printf ("/io/github/memsweep/Memsweep/%s.ui", name);
  gtk_widget_class_set_template_from_resource (klass, path);
  for (guint i = 0; i < n_binds; i++)
    if (binds[i].offset >= 0)
      gtk_widget_class_bind_template_child_full (klass, binds[i].name, FALSE, binds[i].offset);
    else
      gtk_widget_class_bind_template_callback_full (klass, binds[i].name, binds[i].callback);
}
