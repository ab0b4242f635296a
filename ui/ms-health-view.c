/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health-view.c: the health strip widget. What it says is computed when
 * the run is set (the chart page sets it again when the run's cells
 * change); the strip is drawn at every frame. */
#include "ms-health-view.h"

#include <glib/gi18n.h>

#include "ms-engine.h"
#include "ms-drawing.h"
#include "ms-props.h"
#include "ms-views.h"

struct _MsHealthView {
  MsChartView parent_instance;
  MsRun *run;
  gboolean warns;
  char *envelope; /* the judgement's summary */
};

G_DEFINE_FINAL_TYPE (MsHealthView, ms_health_view, MS_TYPE_CHART_VIEW)

enum { PROP_0, PROP_RUN, PROP_WARNS, PROP_ENVELOPE, N_PROPS };
static GParamSpec *props[N_PROPS];

/* The envelope file, read once: a damaged row is refused (and said on
 * standard error) while the rest is used; none at all judges nothing. */
static const MsEnvelopes *
envelopes (void)
{
  static gsize done;
  static MsEnvelopes *env;
  if (g_once_init_enter (&done)) {
    char path[1024], err[1024];
    if (ms_envelopes_default_path (path, sizeof path)) {
      env = ms_envelopes_read (path, err, sizeof err);
      if (!env)
        g_warning ("%s", err);
      else if (env->n_refused)
        g_message ("%s", env->problems);
    }
    g_once_init_leave (&done, 1);
  }
  return env;
}

static void
ms_health_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w, int h)
{
  MsHealthView *self = MS_HEALTH_VIEW (view);
  if (self->run)
    ms_health_strip_draw (cr, ms_run_get_results (self->run), self->envelope, style, w, h);
}

static void
ms_health_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                        int *natural, int *minimum_baseline, int *natural_baseline)
{
  MsHealthView *self = MS_HEALTH_VIEW (widget);
  MsChartStyle style;
  ms_chart_view_get_style (MS_CHART_VIEW (widget), &style);
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = self->run ? (int)ms_health_strip_height (&style) : 0;
  else
    *minimum = *natural = 320;
}

/* The envelope's verdict in words a class reads at a glance ("4 normal, 0
 * low, 0 high of 4 figures" was a riddle); the counts in the tooltip. */
static char *
envelope_line (const MsEnvJudgement *j)
{
  if (!j->gpu[0] || j->n_judged == 0)
    return g_strdup (j->summary);
  char link[64];
  ms_health_format_link (j->gen, j->width, link, sizeof link);
  if (j->n_normal == j->n_judged)
    return g_strdup_printf (
      ngettext ("Transfer rates: the %d key figure is in the usual range for "
                "%s on PCIe %s",
                "Transfer rates: all %d key figures are in the usual range for %s on PCIe %s",
                j->n_judged),
      j->n_judged, j->gpu, link);
  /* TRANSLATORS: the transfer rates against a GPU's usual range: counts of
   * key figures in it, below and above it, then the GPU and its link. */
  return g_strdup_printf (_("Transfer rates: %d of %d key figures in the usual range for %s on "
                            "PCIe %s, %d below it, %d above"),
                          j->n_normal, j->n_judged, j->gpu, link, j->n_low, j->n_high);
}

/* The words, the warning and the envelope's verdict, from the run. */
static void
update (MsHealthView *self)
{
  const MsResults *r = self->run ? ms_run_get_results (self->run) : NULL;
  char sentence[1024] = "", tips[4096] = "";
  gboolean warns = FALSE;
  g_clear_pointer (&self->envelope, g_free);
  if (r) {
    MsHealth h;
    MsEnvJudgement j;
    ms_health_compute (r, &h);
    warns = ms_health_warns (&h);
    ms_health_describe (r, sentence, sizeof sentence);
    ms_envelope_judge (envelopes (), r, &j);
    self->envelope = envelope_line (&j);
    g_strlcpy (tips, sentence, sizeof tips);
    g_strlcat (tips, "\n", sizeof tips);
    g_strlcat (tips, j.summary, sizeof tips);
    for (int f = 0; f < MS_ENV_N_FIGURES; f++)
      if (j.v[f].kind != MS_ENV_NOT_MEASURED) {
        g_strlcat (tips, "\n", sizeof tips);
        g_strlcat (tips, j.v[f].text, sizeof tips);
      }
  }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), tips[0] ? tips : NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, sentence,
                                  -1);
  if (warns != self->warns) {
    self->warns = warns;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_WARNS]);
  }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ENVELOPE]);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ms_health_view_set_run (MsHealthView *self, MsRun *run)
{
  gboolean changed = g_set_object (&self->run, run);
  /* The same run again: its cells changed. */
  update (self);
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUN]);
}

#define READ_ONLY (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY)
static const MsProp prop_table[N_PROPS] = {
  [PROP_RUN] = { "run", G_TYPE_OBJECT, MS_PROP_FIELD (MsHealthView, run),
                 .get_type = ms_run_get_type, .setter = G_CALLBACK (ms_health_view_set_run) },
  [PROP_WARNS] = { "warns", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsHealthView, warns),
                   .flags = READ_ONLY },
  [PROP_ENVELOPE] = { "envelope", G_TYPE_STRING, MS_PROP_FIELD (MsHealthView, envelope),
                      .flags = READ_ONLY },
};
#undef READ_ONLY

static void
ms_health_view_class_init (MsHealthViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  MS_CHART_VIEW_CLASS (klass)->draw = ms_health_view_draw;
  widget_class->measure = ms_health_view_measure;
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);

  gtk_widget_class_set_css_name (widget_class, "mshealthview");
}

static void
ms_health_view_init (MsHealthView *self)
{
  /* A strip as tall as its text (measure). */
  gtk_widget_set_vexpand (GTK_WIDGET (self), FALSE);
}
