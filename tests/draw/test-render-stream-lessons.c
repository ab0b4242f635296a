/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-render-stream-lessons.c: the default-stream and host-function
 * pictures with their timelines, at 1024x768 in presentation mode, light
 * and dark, from runs on a model GPU whose instrumented samples have
 * events: every label inside the canvas, the threads' lanes drawn, and the
 * host functions on a lane of their own, named for them and in their own
 * colour. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "model/ms-results.h"
#include "ms-backend-test.h"
#include "ms-lesson-picture-test.h"
#include "ms-palette.h"
#include "ms-probe-cells.h"

#define W 1024
#define H 768


/* Both lessons' samples: a kernel on lane 1, a copy on lane 2 and, for
 * host functions, the function on lane 3. */
static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  (void)user;
  out->value_us = a->lesson == MS_TOPIC_HOST_FUNC ? 5 + a->arg[1] : 300 * a->arg[0];
  if (a->instrumented) {
    out->events[0] = (MsEvent){ .phase = MS_PHASE_H2D,
                                .lane = 1,
                                .host_start_us = -1,
                                .gpu_start_us = 0,
                                .gpu_us = 80,
                                .bytes = 1 << 22 };
    out->events[1] = (MsEvent){
      .phase = MS_PHASE_KERNEL, .lane = 2, .host_start_us = -1, .gpu_start_us = 90, .gpu_us = 200
    };
    out->n_events = 2;
    if (a->lesson == MS_TOPIC_HOST_FUNC)
      out->events[out->n_events++] = (MsEvent){ .phase = MS_PHASE_HOST_FUNC,
                                                .lane = 3,
                                                .host_start_us = -1,
                                                .gpu_start_us = 300,
                                                .gpu_us = 1000 };
  }
  return MS_CELL_OK;
}

static MsResults *
run_lesson (const char *name)
{
  return ms_test_lesson_run_model (name, "", model, NULL, 5, 0);
}

static gboolean
has_color (cairo_surface_t *surface, const MsColor *col)
{
  cairo_surface_flush (surface);
  const unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      guint32 p = *(const guint32 *)(data + y * stride + x * 4);
      if (fabs (((p >> 16) & 0xff) / 255.0 - col->red) < 0.03
          && fabs (((p >> 8) & 0xff) / 255.0 - col->green) < 0.03
          && fabs ((p & 0xff) / 255.0 - col->blue) < 0.03)
        return TRUE;
    }
  return FALSE;
}

/* Draws t's picture of run and returns how often the host functions' lane
 * is named in it. */
static int
draw_checked (MsLessonTopic t, const MsResults *run, gboolean dark)
{
  MsTestPicture p;
  ms_test_picture_draw (&p, t, run, dark, 2);
  int host_func_lane = 0;
  for (guint i = 0; i < p.texts->len; i++)
    host_func_lane += strcmp (g_ptr_array_index (p.texts, i), "host func.") == 0;
  /* The timelines' bars: the kernel's colour, and the host function's
   * in the host-function lesson. */
  MsColor c;
  ms_phase_color (MS_PHASE_KERNEL, dark, &c);
  g_assert_true (has_color (p.surface, &c));
  ms_phase_color (MS_PHASE_HOST_FUNC, dark, &c);
  g_assert_true (has_color (p.surface, &c) == (t == MS_TOPIC_HOST_FUNC));
  ms_test_picture_clear (&p);
  return host_func_lane;
}

static void
test_default_stream (void)
{
  MsResults *r = run_lesson ("default-stream");
  for (int dark = 0; dark < 2; dark++)
    g_assert_cmpint (draw_checked (MS_TOPIC_DEFAULT_STREAM, r, dark), ==, 0);
  ms_results_free (r);
}

static void
test_host_func (void)
{
  MsResults *r = run_lesson ("host-func");
  /* Both timelines name the host functions' lane. */
  for (int dark = 0; dark < 2; dark++)
    g_assert_cmpint (draw_checked (MS_TOPIC_HOST_FUNC, r, dark), ==, 2);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/stream-lessons/default-stream", test_default_stream);
  g_test_add_func ("/render/stream-lessons/host-func", test_host_func);
  return g_test_run ();
}
