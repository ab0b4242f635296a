/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-headline.c: a slide's one line, fitted to its width. The fit is
 * measured as drawn (Pango, with the label's own font), not counted in
 * characters: 59-74 characters wrapped at 1024x768 projected. It is
 * applied from an idle, never while the window allocates. */
#include "ms-headline.h"

struct _MsHeadline {
  GtkWidget parent_instance;
  GtkWidget *label;
  double scale;
  int fitted_width; /* the width the scale was chosen for, or -1 */
  guint fit_idle;
};

G_DEFINE_FINAL_TYPE (MsHeadline, ms_headline, GTK_TYPE_WIDGET)

static PangoAttrList *
scale_attrs (double scale)
{
  if (scale >= 1.0)
    return NULL;
  PangoAttrList *attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_scale_new (scale));
  return attrs;
}

/* Whether text at scale of the label's CSS size is one line of width
 * pixels, laid out as the label lays it out. */
static gboolean
one_line (GtkWidget *label, const char *text, int width, double scale)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (label, text);
  PangoAttrList *attrs = scale_attrs (scale);
  pango_layout_set_attributes (layout, attrs);
  if (attrs)
    pango_attr_list_unref (attrs);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_width (layout, width * PANGO_SCALE);
  return pango_layout_get_line_count (layout) <= 1;
}

/* The largest share of the CSS size, in steps of a hundredth down to the
 * floor, at which text is one line of width pixels. Sizes do not scale
 * widths in proportion (hinting): each is laid out. Tried at the CSS size
 * first, never from the scale shown now, so that the choice never feeds
 * back on itself. */
static double
fit_scale (GtkWidget *label, const char *text, int width)
{
  if (!text || !*text || width <= 0)
    return 1.0;
  for (int percent = 100; percent > 100 * MS_HEADLINE_FLOOR; percent--)
    if (one_line (label, text, width, percent / 100.0))
      return percent / 100.0;
  return MS_HEADLINE_FLOOR;
}

static void
apply_scale (MsHeadline *self, double scale)
{
  self->scale = scale;
  PangoAttrList *attrs = scale_attrs (scale);
  gtk_label_set_attributes (GTK_LABEL (self->label), attrs);
  if (attrs)
    pango_attr_list_unref (attrs);
}

static gboolean
fit_now (gpointer data)
{
  MsHeadline *self = data;
  self->fit_idle = 0;
  int width = gtk_widget_get_width (self->label);
  double scale = fit_scale (self->label, gtk_label_get_text (GTK_LABEL (self->label)), width);
  self->fitted_width = width;
  if (scale != self->scale)
    apply_scale (self, scale);
  return G_SOURCE_REMOVE;
}

static void
refit (MsHeadline *self)
{
  self->fitted_width = -1;
  if (!self->fit_idle)
    self->fit_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, fit_now, self, NULL);
}

static void
ms_headline_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *min,
                     int *nat, int *min_base, int *nat_base)
{
  gtk_widget_measure (MS_HEADLINE (widget)->label, orientation, for_size, min, nat, min_base,
                      nat_base);
}

static void
ms_headline_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  MsHeadline *self = MS_HEADLINE (widget);
  gtk_widget_allocate (self->label, width, height, baseline, NULL);
  if (gtk_widget_get_width (self->label) != self->fitted_width)
    refit (self);
}

static GtkSizeRequestMode
ms_headline_get_request_mode (GtkWidget *widget)
{
  return gtk_widget_get_request_mode (MS_HEADLINE (widget)->label);
}

/* A new font (presentation mode, a text scale) changes the width the text
 * needs at the same width given. */
static void
ms_headline_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ms_headline_parent_class)->css_changed (widget, change);
  refit (MS_HEADLINE (widget));
}

static void
ms_headline_dispose (GObject *object)
{
  MsHeadline *self = MS_HEADLINE (object);
  g_clear_handle_id (&self->fit_idle, g_source_remove);
  g_clear_pointer (&self->label, gtk_widget_unparent);
  G_OBJECT_CLASS (ms_headline_parent_class)->dispose (object);
}

static void
ms_headline_class_init (MsHeadlineClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ms_headline_dispose;
  widget_class->measure = ms_headline_measure;
  widget_class->size_allocate = ms_headline_size_allocate;
  widget_class->get_request_mode = ms_headline_get_request_mode;
  widget_class->css_changed = ms_headline_css_changed;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ms_headline_init (MsHeadline *self)
{
  self->scale = 1.0;
  self->fitted_width = -1;
  self->label = gtk_label_new (NULL);
  GtkLabel *label = GTK_LABEL (self->label);
  gtk_label_set_xalign (label, 0);
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (label, TRUE);
  gtk_widget_set_parent (self->label, GTK_WIDGET (self));
}

void
ms_headline_set_text (MsHeadline *self, const char *text)
{
  g_return_if_fail (MS_IS_HEADLINE (self));
  if (g_strcmp0 (text, gtk_label_get_text (GTK_LABEL (self->label))) == 0)
    return;
  gtk_label_set_text (GTK_LABEL (self->label), text);
  refit (self);
}

GtkLabel *
ms_headline_get_label (MsHeadline *self)
{
  g_return_val_if_fail (MS_IS_HEADLINE (self), NULL);
  return GTK_LABEL (self->label);
}

double
ms_headline_get_scale (MsHeadline *self)
{
  g_return_val_if_fail (MS_IS_HEADLINE (self), 1.0);
  return self->scale;
}

gboolean
ms_headline_is_fitted (MsHeadline *self)
{
  g_return_val_if_fail (MS_IS_HEADLINE (self), FALSE);
  return !self->fit_idle && self->fitted_width == gtk_widget_get_width (self->label);
}
