/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-streams-pictures.c: the stream-priorities and the
 * synchronous-and-asynchronous-copies pictures from runs on models of a
 * GPU (waits with and without priority and a timeline; call and done
 * times that part), at 1024x768 in presentation mode, light and dark:
 * every label inside the canvas, the series and strips drawn. With
 * MS_RENDER_OUT set, the drawings are written there as PNG files. */
#include <glib.h>
#include <string.h>

#include "model/ms-results.h"
#include "ms-backend-test.h"
#include "ms-lesson-picture-test.h"
#include "ms-lesson-priority.h"
#include "ms-lesson-sync-async.h"
#include "ms-probe-cells.h"

#define W 1024
#define H 768


static MsCellStatus
priority_model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  static int calls;
  double block = a->arg[MS_PRIORITY_ARG_BLOCK_US];
  double longk = block * a->arg[MS_PRIORITY_ARG_WAVES];
  int shorts = a->arg[MS_PRIORITY_ARG_SHORTS];
  double jitter = 1 + 0.05 * (calls++ % 7);
  if (a->arg[MS_PRIORITY_ARG_FIGURE] == MS_PRIORITY_WAIT)
    out->value_us = (shorts == MS_PRIORITY_HIGH ? block / 2 : longk / 2) * jitter;
  else
    out->value_us = longk * jitter;
  if (a->instrumented) {
    out->events[0] = (MsEvent){
      .phase = MS_PHASE_KERNEL, .lane = 1, .gpu_start_us = 5, .host_start_us = 5, .gpu_us = longk
    };
    out->n_events = 1;
    for (int i = 0; i < 18; i++) {
      double t = 100.0 * (i + 1) + (shorts == MS_PRIORITY_HIGH ? 20 : longk - 100.0 * (i + 1));
      out->events[out->n_events++] = (MsEvent){ .phase = MS_PHASE_LAUNCH,
                                                .lane = 0,
                                                .chunk = i,
                                                .host_start_us = 100.0 * (i + 1),
                                                .host_us = 3,
                                                .gpu_start_us = -1,
                                                .gpu_us = -1 };
      out->events[out->n_events++] = (MsEvent){ .phase = MS_PHASE_KERNEL,
                                                .lane = 2,
                                                .chunk = i,
                                                .host_start_us = t,
                                                .gpu_start_us = t,
                                                .gpu_us = 10 };
    }
  }
  return MS_CELL_OK;
}

static MsCellStatus
sync_model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  gboolean early = a->mode == MS_MODE_PINNED
                       ? a->arg[MS_SA_ARG_API] == MS_SA_ASYNC
                       : a->arg[MS_SA_ARG_DIR] == MS_SA_H2D && a->bytes <= 65536;
  early = early && !a->arg[MS_SA_ARG_BLOCKING];
  double done = (a->arg[MS_SA_ARG_BLOCKING] ? 0 : a->arg[MS_SA_ARG_AHEAD_US]) + 2 + a->bytes / 25e3;
  out->value_us
      = a->arg[MS_SA_ARG_WHAT] == MS_SA_CALL ? (early ? 3 + a->bytes / 5e3 : done - 1) : done;
  return MS_CELL_OK;
}

static MsResults *
run_lesson (const char *name, MsTestProbeModel model)
{
  return ms_test_lesson_run_model (name, "", model, NULL, 7, 0);
}

static void
draw_checked (MsLessonTopic t, const MsResults *run, gboolean dark)
{
  MsTestPicture p;
  ms_test_picture_draw (&p, t, run, dark, 2);
  /* The title, axes and labels of a real drawing, not a placeholder. */
  g_assert_cmpuint (p.texts->len, >, 10);
  ms_test_picture_clear (&p);
}

static void
test_priority (void)
{
  MsResults *r = run_lesson ("priority", priority_model);
  draw_checked (MS_TOPIC_PRIORITY, r, FALSE);
  draw_checked (MS_TOPIC_PRIORITY, r, TRUE);
  ms_results_free (r);
}

static void
test_sync_async (void)
{
  MsResults *r = run_lesson ("sync-async", sync_model);
  draw_checked (MS_TOPIC_SYNC_ASYNC, r, FALSE);
  draw_checked (MS_TOPIC_SYNC_ASYNC, r, TRUE);
  /* The CUDA_LAUNCH_BLOCKING=1 part's markers: counted, said how to
   * read, and a row per direction, named (in the model every call
   * waited there). */
  MsTestPicture p;
  ms_test_picture_draw (&p, MS_TOPIC_SYNC_ASYNC, r, FALSE, 1);
  g_assert_true (ms_test_picture_has_text (&p, "With CUDA_LAUNCH_BLOCKING=1, 0 of "));
  g_assert_true (ms_test_picture_has_text (&p, "host to device"));
  g_assert_true (ms_test_picture_has_text (&p, "device to host"));
  ms_test_picture_clear (&p);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/streams-pictures/priority", test_priority);
  g_test_add_func ("/render/streams-pictures/sync-async", test_sync_async);
  return g_test_run ();
}
