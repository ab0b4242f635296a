/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-pages.c: the window's glue to the GPUs page (saved peer and
 * multi files) and the Lessons page (showing an answer in a view, opening a
 * lesson once the devices are known); both put their runs in the session. */
#include "ms-window-private.h"

#include <string.h>

#include "ms-engine.h"
#include "ms-profiling.h"

static void
devices_file_opened (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr (MsWindow) self = g_weak_ref_get (ref);
  g_weak_ref_clear (ref);
  g_free (ref);
  if (!self)
    return; /* the page went with the window; the task drops what it read */
  g_autoptr (GError) error = NULL;
  if (!ms_devices_page_open_path_finish (self->devices_page, result, &error)) {
    ms_window_toast (self, error->message);
    return;
  }
  adw_view_stack_set_visible_child_name (self->stack, "devices");
}

/* A multi file names one samples file per GPU: read off the main thread. */
void
ms_window_open_devices_file (MsWindow *self, const char *path)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  ms_devices_page_open_path_async (self->devices_page, path, devices_file_opened, ref);
}

/* A lesson's answer in one of the window's views: its series, metric and
 * scale through the charts' properties (the chart says what it hides, with
 * Show All), and the timeline on the cell the caption speaks of. */
void
ms_window_lesson_show_view (MsWindow *self, const char *view, const char *modes, int metric,
                            gboolean log_scale, int exponent)
{
  MsChartPage *chart = g_str_equal (view, "bandwidth") ? self->bandwidth_page
                       : g_str_equal (view, "time")    ? self->time_page
                                                       : NULL;
  if (chart)
    g_object_set (chart, "modes", modes, "metric", metric, "log-scale", log_scale, NULL);
  /* The last mode named is the one the lesson recommends (pinned, ...). */
  const char *last = modes ? strrchr (modes, ',') : NULL;
  MsMode mode;
  if (chart && exponent >= 0 && ms_mode_from_name (last ? last + 1 : modes, &mode))
    g_object_set (self->timeline_page, "mode", mode, "exponent", exponent, NULL);
  adw_view_stack_set_visible_child_name (self->stack, view);
}

static void
on_lesson_finished (MsWindow *self, const char *name, const char *error)
{
  MsLessonTopic t = ms_lesson_topic_from_name (name);
  gboolean measured = FALSE;
  g_object_get (self->lessons_page, "can-run", &measured, NULL);
  const MsResults *run = ms_lessons_page_get_run (self->lessons_page, t);
  /* Says which run the caption is from, so a check can tell a fresh
   * measurement from a reference run opened instead. */
  g_autofree char *source =
    g_strdup_printf ("%s on %s, %s", measured ? "measured" : "reference run",
                     run && run->device.present ? run->device.name : "no GPU",
                     run ? run->date : "-");
  ms_profiling_lesson_finished (GTK_WINDOW (self), name, source,
                            ms_lessons_page_get_caption (self->lessons_page, t), error);
}

typedef struct {
  GWeakRef window;
  char *name;
  gboolean run;
} LessonRequest;

static void
lesson_request_free (gpointer data)
{
  LessonRequest *req = data;
  g_weak_ref_clear (&req->window);
  g_free (req->name);
  g_free (req);
}

static void
lesson_request_closure_free (gpointer data, GClosure *closure)
{
  lesson_request_free (data);
}

static void
show_lesson (LessonRequest *req)
{
  g_autoptr (MsWindow) self = g_weak_ref_get (&req->window);
  if (!self)
    return;
  adw_view_stack_set_visible_child_name (self->stack, "lessons");
  ms_lessons_page_show_name (self->lessons_page, req->name, req->run);
}

/* Before discovery ends the page cannot know whether Run measures or opens
 * the reference run: the request waits for the session to say so. */
static void
on_discovering (MsSession *session, GParamSpec *pspec, LessonRequest *req)
{
  if (ms_session_get_discovering (session))
    return;
  show_lesson (req);
  g_signal_handlers_disconnect_by_func (session, on_discovering, req);
}

gboolean
ms_window_open_lesson (MsWindow *self, const char *name, gboolean run)
{
  g_return_val_if_fail (MS_IS_WINDOW (self), FALSE);
  if (ms_lesson_topic_from_name (name) == MS_TOPIC_COUNT)
    return FALSE;
  LessonRequest *req = g_new0 (LessonRequest, 1);
  g_weak_ref_init (&req->window, self);
  req->name = g_strdup (name);
  req->run = run;
  adw_view_stack_set_visible_child_name (self->stack, "lessons");
  if (!ms_session_get_discovering (self->session)) {
    show_lesson (req);
    lesson_request_free (req);
  } else {
    g_signal_connect_data (self->session, "notify::discovering", G_CALLBACK (on_discovering), req,
                           lesson_request_closure_free, 0);
  }
  return TRUE;
}

void
ms_window_pages_init (MsWindow *self)
{
  g_signal_connect_swapped (self->lessons_page, "lesson-finished",
                            G_CALLBACK (on_lesson_finished), self);
}
