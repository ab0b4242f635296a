/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture-view.c: the probe lesson's picture widget: draws
 * whatever its topic's picture function draws of its run, at every frame
 * (the pictures are small: a few dozen cells). */
#include "ms-lesson-picture-view.h"

#include "ms-chart-view.h"
#include "ms-drawing.h"
#include "ms-lessons.h"

struct _MsLessonPictureView {
  MsChartView parent_instance;
  char *topic;
  MsRun *run;
};

G_DEFINE_FINAL_TYPE (MsLessonPictureView, ms_lesson_picture_view, MS_TYPE_CHART_VIEW)

enum { PROP_0, PROP_TOPIC, PROP_RUN, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
ms_lesson_picture_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w,
                             int h)
{
  MsLessonPictureView *self = MS_LESSON_PICTURE_VIEW (view);
  MsLessonTopic t = ms_lesson_topic_from_name (self->topic);
  if (!ms_lesson_picture_has (t) || w <= 0 || h <= 0)
    return;
  ms_lesson_picture_draw (cr, t, self->run ? ms_run_get_results (self->run) : NULL, style, w, h);
}

static void
ms_lesson_picture_view_set_property (GObject *object, guint prop_id, const GValue *value,
                                     GParamSpec *pspec)
{
  MsLessonPictureView *self = MS_LESSON_PICTURE_VIEW (object);
  switch (prop_id) {
  case PROP_TOPIC:
    if (g_strcmp0 (self->topic, g_value_get_string (value)) != 0) {
      g_free (self->topic);
      self->topic = g_value_dup_string (value);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      g_object_notify_by_pspec (object, pspec);
    }
    break;
  case PROP_RUN:
    if (g_set_object (&self->run, g_value_get_object (value))) {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      g_object_notify_by_pspec (object, pspec);
    }
    break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_lesson_picture_view_get_property (GObject *object, guint prop_id, GValue *value,
                                     GParamSpec *pspec)
{
  MsLessonPictureView *self = MS_LESSON_PICTURE_VIEW (object);
  switch (prop_id) {
  case PROP_TOPIC: g_value_set_string (value, self->topic); break;
  case PROP_RUN: g_value_set_object (value, self->run); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_lesson_picture_view_dispose (GObject *object)
{
  MsLessonPictureView *self = MS_LESSON_PICTURE_VIEW (object);
  g_clear_object (&self->run);
  g_clear_pointer (&self->topic, g_free);
  G_OBJECT_CLASS (ms_lesson_picture_view_parent_class)->dispose (object);
}

static void
ms_lesson_picture_view_class_init (MsLessonPictureViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = ms_lesson_picture_view_dispose;
  object_class->set_property = ms_lesson_picture_view_set_property;
  object_class->get_property = ms_lesson_picture_view_get_property;
  MS_CHART_VIEW_CLASS (klass)->draw = ms_lesson_picture_view_draw;

  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  props[PROP_TOPIC] = g_param_spec_string ("topic", NULL, NULL, NULL, flags);
  props[PROP_RUN] = g_param_spec_object ("run", NULL, NULL, MS_TYPE_RUN, flags);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "mslessonpictureview");
}

static void
ms_lesson_picture_view_init (MsLessonPictureView *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 240);
}

GtkWidget *
ms_lesson_picture_view_new (void)
{
  return g_object_new (MS_TYPE_LESSON_PICTURE_VIEW, NULL);
}
