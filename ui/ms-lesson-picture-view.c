/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-picture-view.c: the probe lesson's picture widget: draws
 * whatever its topic's picture function draws of its run, at every frame
 * (the pictures are small: a few dozen cells). */
#include "ms-lesson-picture-view.h"

#include "ms-drawing.h"
#include "ms-engine.h"
#include "ms-props.h"
#include "ms-run.h"

struct _MsLessonPictureView {
  MsChartView parent_instance;
  char *topic;
  MsRun *run;
};

G_DEFINE_FINAL_TYPE (MsLessonPictureView, ms_lesson_picture_view, MS_TYPE_CHART_VIEW)

static void
ms_lesson_picture_view_draw (MsChartView *view, cairo_t *cr, const MsChartStyle *style, int w,
                             int h)
{
  MsLessonPictureView *self = MS_LESSON_PICTURE_VIEW (view);
  MsLessonTopic t = ms_lesson_topic_from_name (self->topic);
  if (ms_lesson_picture_has (t) && w > 0 && h > 0)
    ms_lesson_picture_draw (cr, t, self->run ? ms_run_get_results (self->run) : NULL, style, w, h);
}

static void
ms_lesson_picture_view_class_init (MsLessonPictureViewClass *klass)
{
  static GParamSpec *props[3];
  static const MsProp table[3] = {
    [1] = { "topic", G_TYPE_STRING, MS_PROP_FIELD (MsLessonPictureView, topic),
            .changed = ms_chart_view_property_changed },
    [2] = { "run", G_TYPE_OBJECT, MS_PROP_FIELD (MsLessonPictureView, run),
            .get_type = ms_run_get_type, .changed = ms_chart_view_property_changed },
  };
  MS_CHART_VIEW_CLASS (klass)->draw = ms_lesson_picture_view_draw;
  ms_props_install (G_OBJECT_CLASS (klass), table, props, 3);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "mslessonpictureview");
}

static void
ms_lesson_picture_view_init (MsLessonPictureView *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 240);
}
