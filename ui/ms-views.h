/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-views.h: what the drawing widgets share: the text and line scale
 * (presentation mode, Ctrl+±) as three GObject properties, and the style
 * they paint with; their base class, MsChartView (ms-chart-view.h), and the
 * compare page use them. The widgets are in ms-plot-view.h,
 * ms-timeline-view.h and ms-breakdown-view.h: a file includes those it
 * uses (this header includes none, so that no header ring runs through
 * it). */
#pragma once

#include <gtk/gtk.h>

#include "memsweep.h"
#include "ms-drawing.h"

G_BEGIN_DECLS

/* Text and line scale shared by every view. */
typedef struct {
  double text_scale;
  double line_scale;
  gboolean high_contrast; /* presentation mode */
} MsViewScale;

/* The style a view paints with: libadwaita's named colours, so that dark
 * mode and high contrast follow the system. */
void ms_view_style_from_widget (GtkWidget *widget, const MsViewScale *scale, MsChartStyle *style);

/* "text-scale", "line-scale" and "high-contrast" as entries first,
 * first + 1 and first + 2 of an MsProp table (ms-props.h), for an
 * MsViewScale field of Type; changed runs when one changes. */
#define MS_VIEW_SCALE_N_PROPS 3
#define MS_VIEW_SCALE_PROPS(Type, field, first, on_change)                                        \
  [first] = { "text-scale", G_TYPE_DOUBLE, MS_PROP_FIELD (Type, field.text_scale), 0.1, 10.0, 1.0, \
              .changed = on_change },                                                             \
  [first + 1] = { "line-scale", G_TYPE_DOUBLE, MS_PROP_FIELD (Type, field.line_scale), 0.1, 10.0,  \
                  1.0, .changed = on_change },                                                    \
  [first + 2] = { "high-contrast", G_TYPE_BOOLEAN, MS_PROP_FIELD (Type, field.high_contrast),      \
                  .changed = on_change }
/* Calls `redraw (view)` when the system style turns dark or high contrast;
 * disconnected when the view goes. */
void ms_view_follow_style (GtkWidget *view, GCallback redraw);

/* Main-loop time for one idle slice of rows a list takes in while shown:
 * a frame's worth less drawing. */
#define MS_ROWS_SLICE_US 6000

/* The rows a list shows after one step from shown toward target: a
 * quarter of those in, at least one. Each change makes GTK 4.8 measure
 * every row in again: row by row, n rows took n changes and n frames
 * (minutes on a busy machine), by quarters about log n. */
static inline guint
ms_rows_step (guint shown, guint target)
{
  guint step = MAX (1, shown / 4);
  return target > shown ? shown + MIN (step, target - shown) : shown - MIN (step, shown - target);
}

/* For the dispose of a templated widget that is not a container: drops the
 * template children, then unparents what is left. */
void ms_widget_dispose_children (GtkWidget *widget, GType template_type);

/* What a class binds of its template: a child to the field of its name,
 * or a callback of that name. */
typedef struct {
  const char *name;
  gssize offset; /* the child's field; -1: a callback */
  GCallback callback;
} MsTemplateBind;
#define MS_TEMPLATE_CHILD(Type, name) { #name, G_STRUCT_OFFSET (Type, name), NULL }
#define MS_TEMPLATE_CALLBACK(name) { #name, -1, G_CALLBACK (name) }
/* The class's template, NAME.ui of the app's resources, and what it binds. */
void ms_widget_class_set_template (GtkWidgetClass *klass, const char *name,
                                   const MsTemplateBind *binds, guint n_binds);

G_END_DECLS
