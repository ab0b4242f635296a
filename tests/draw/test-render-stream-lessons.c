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

#include "lessons/ms-run-read.h"
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

typedef struct {
  char *text;
  double x, w, y, h;
} Placed;

static void
record_placed (const char *text, double x, double y, double w, double h, gpointer data)
{
  Placed p = { g_strdup (text), x, w, y, h };
  g_array_append_val ((GArray *)data, p);
}

static void
clear_placed (gpointer p)
{
  g_free (((Placed *)p)->text);
}

/* The H100's reference run, projected: no bar's value label crosses a
 * yardstick (one and two single-thread times), and none claims a share
 * of legacy's time saved: the takeaway says it, only where the 95%
 * ranges decide it ("35% less than legacy" found no place).
 * The lines stand where their names say: one thread's right of its name,
 * 0.3 of the text size away; two threads' as far again from 0 µs. No
 * value label lies on its own bar ("796 µs, 1.92×" sat inside legacy's
 * end): one left of the bar's end is a row's fifth or more off its
 * middle, the bar being three fifths of the row. */
static void
test_default_stream_labels_off_yardsticks (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"),
                                            "h100-lesson-default-stream-samples.csv.gz", NULL);
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  MsChartStyle st;
  ms_chart_style_init_light (&st);
  st.text_scale = 1.6;
  st.line_scale = 2;
  g_autoptr (GArray) placed = g_array_new (FALSE, FALSE, sizeof (Placed));
  g_array_set_clear_func (placed, clear_placed);
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surf);
  ms_draw_set_text_recorder (record_placed, placed);
  g_assert_true (ms_lesson_picture_draw (cr, MS_TOPIC_DEFAULT_STREAM, r, &st, W, H));
  ms_draw_set_text_recorder (NULL, NULL);
  double zero = -1, one = -1;
  for (guint i = 0; i < placed->len; i++) {
    const Placed *p = &g_array_index (placed, Placed, i);
    if (zero < 0 && (strcmp (p->text, "0 µs") == 0 || strcmp (p->text, "0 ms") == 0))
      zero = p->x + p->w / 2;
    if (one < 0 && strcmp (p->text, "one thread's time") == 0)
      one = p->x + p->w + ms_style_font_size (&st) * 0.3;
  }
  g_assert_cmpfloat (zero, >, 0);
  g_assert_cmpfloat (one, >, zero);
  guint values = 0;
  for (guint i = 0; i < placed->len; i++) {
    const Placed *p = &g_array_index (placed, Placed, i);
    if (!strstr (p->text, "×") || strstr (p->text, "one thread"))
      continue;
    values++;
    g_assert_null (strstr (p->text, "less than legacy"));
    for (int k = 1; k <= 2; k++) {
      double px = zero + k * (one - zero);
      if (px > p->x - 1 && px < p->x + p->w + 1)
        g_error ("\"%s\" (%.0f to %.0f) on the line at %.0f", p->text, p->x, p->x + p->w, px);
    }
  }
  g_assert_cmpuint (values, ==, 3);
  static const char *const rows[] = { "one thread", "two, legacy", "two, per-thread" };
  double row_y[3] = { -1, -1, -1 };
  for (guint i = 0; i < placed->len; i++)
    for (guint k = 0; k < G_N_ELEMENTS (rows); k++) {
      const Placed *p = &g_array_index (placed, Placed, i);
      if (row_y[k] < 0 && strcmp (p->text, rows[k]) == 0)
        row_y[k] = p->y + p->h / 2;
    }
  g_assert_cmpfloat (row_y[0], >, 0);
  const double row_h = row_y[1] - row_y[0];
  g_assert_cmpfloat (row_h, >, 0);
  guint row = 0;
  for (guint i = 0; i < placed->len && row < 3; i++) {
    const Placed *p = &g_array_index (placed, Placed, i);
    if (!strstr (p->text, "×") || strstr (p->text, "one thread"))
      continue;
    double multiple = g_ascii_strtod (strstr (p->text, ", ") + 2, NULL);
    double end = zero + multiple * (one - zero);
    if (p->x < end - 1 && fabs (p->y + p->h / 2 - row_y[row]) < 0.3 * row_h)
      g_error ("\"%s\" (%.0f to %.0f) on its bar, which ends at %.0f", p->text, p->x,
               p->x + p->w, end);
    row++;
  }
  g_assert_cmpuint (row, ==, 3);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);
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
  g_test_add_func ("/render/stream-lessons/default-stream-labels-off-yardsticks",
                   test_default_stream_labels_off_yardsticks);
  g_test_add_func ("/render/stream-lessons/host-func", test_host_func);
  return g_test_run ();
}
