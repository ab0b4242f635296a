/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-batched.c: the batched-copies lesson without a GPU: its
 * options, its cells, a run through the engine with a model of the GPU in
 * which the batch saves time and one in which it does not, the caption of
 * each, a batch the toolkit lacks, and the variants through a samples
 * file. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-probe-test.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-record.h"
#include "ms-probe-cells.h"
#include "ms-tmp-test.h"
#include "files/ms-csv-io.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"

/* arg[] of the probe (engine/lessons/ms-lesson-batched.c). */
enum { ARG_COUNT, ARG_BATCH, ARG_ORDER };

typedef struct {
  double call_us;     /* host cost of one cudaMemcpyAsync */
  double batch_us;    /* host cost of one batch call, whatever its length */
  double per_copy_us; /* the copy engine's cost per copy in a batch */
  bool unsupported;   /* no cudaMemcpyBatchAsync */
  bool fails;         /* the batch call fails from pageable memory */
} Model;

static MsCellStatus
model (const MsProbeArgs *a, MsProbeSample *out, void *user)
{
  const Model *m = user;
  g_assert_cmpint (a->lesson, ==, MS_TOPIC_BATCHED);
  int n = a->arg[ARG_COUNT];
  double link = (double)a->bytes / 25e3; /* µs at 25 GB/s */
  double pageable = a->mode == MS_MODE_PAGEABLE ? 2 : 1;
  if (a->arg[ARG_BATCH] && m->unsupported) {
    snprintf (out->error, sizeof out->error, "built with CUDA 12.4");
    return MS_CELL_UNSUPPORTED;
  }
  if (a->arg[ARG_BATCH] && m->fails && a->mode == MS_MODE_PAGEABLE) {
    snprintf (out->error, sizeof out->error, "cudaMemcpyBatchAsync: invalid argument");
    return MS_CELL_FAILED;
  }
  if (a->arg[ARG_BATCH])
    out->value_us = m->batch_us + n * (m->per_copy_us + link * pageable);
  else
    out->value_us = n * (m->call_us + link * pageable);
  return MS_CELL_OK;
}

static MsResults *
run_with (Model *m, const char *options)
{
  return ms_test_lesson_run_model ("batched", options, model, m, 3, 0);
}

static void
test_options (void)
{
  char err[256];
  g_assert_true (ms_lesson_check_options ("batched", "", err, sizeof err));
  g_assert_true (ms_lesson_check_options ("batched", "count=64,exp=12", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("batched", "bad=1", err, sizeof err));
  g_assert_nonnull (strstr (err, "bad"));
  g_assert_false (ms_lesson_check_options ("batched", "count=0", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("batched", "count=1.5", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("batched", "exp=20", err, sizeof err));
  g_assert_false (ms_lesson_check_options ("batched", "exp=10,exp=11", err, sizeof err));
}

static void
test_cells (void)
{
  const MsLesson *l = ms_lesson_record_find ("batched");
  g_assert_nonnull (l);
  g_assert_cmpint (ms_lesson_kind (MS_TOPIC_BATCHED), ==, MS_LESSON_KIND_PROBE);
  g_assert_true (ms_lesson_record (MS_TOPIC_BATCHED) == l);
  static MsProbeCell cells[MS_PROBE_MAX_CELLS];
  int n = ms_test_lesson_cells ("batched", "count=64", cells, MS_PROBE_MAX_CELLS);
  /* 2 sources x 7 sizes x (one call each + 3 orders). */
  g_assert_cmpint (n, ==, 2 * 7 * 4);
  int batches = 0, instrumented = 0;
  for (int i = 0; i < n; i++) {
    g_assert_true (cells[i].mode == MS_MODE_PINNED || cells[i].mode == MS_MODE_PAGEABLE);
    g_assert_cmpint (cells[i].exponent, >=, 8);
    g_assert_cmpint (cells[i].exponent, <=, 14);
    g_assert_cmpint (cells[i].arg[ARG_COUNT], ==, 64);
    g_assert_true (g_str_has_prefix (cells[i].variant, "n=64/call="));
    g_assert_cmpuint (strlen (cells[i].variant), <, 48);
    g_assert_cmpint (cells[i].arg[ARG_BATCH], ==, strstr (cells[i].variant, "batch") != NULL);
    batches += cells[i].arg[ARG_BATCH];
    instrumented += cells[i].instrumented > 0;
    for (int k = 0; k < i; k++)
      g_assert_false (cells[k].mode == cells[i].mode && cells[k].exponent == cells[i].exponent
                      && strcmp (cells[k].variant, cells[i].variant) == 0);
  }
  g_assert_cmpint (batches, ==, 2 * 7 * 3);
  /* One timeline per submission and source, at the caption's size. */
  g_assert_cmpint (instrumented, ==, 2 * 4);
}

static void
test_saves (void)
{
  Model m = { .call_us = 2.0, .batch_us = 5.0, .per_copy_us = 0.2 };
  MsResults *r = run_with (&m, "count=32");
  g_assert_cmpuint (r->n_cells, ==, 56);
  char cap[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_BATCHED, r, -1, cap, sizeof cap));
  g_test_message ("%s", cap);
  g_assert_nonnull (strstr (cap, "32 copies of 1 KiB"));
  g_assert_nonnull (strstr (cap, "the batch saves time"));
  g_assert_null (strstr (cap, "costs time"));
  g_assert_nonnull (strstr (cap, "pageable"));
  /* The ratio at 1 KiB pinned (the smallest size, the takeaway's), the
   * headline's way round, from the times a copy as written: 2 + 0.04096
   * µs is "2.04", (5 + 32 (0.2 + 0.04096)) / 32 µs "0.40". */
  char want[48];
  g_snprintf (want, sizeof want, "in stream order (%.2f× as fast)", 2.04 / 0.40);
  g_assert_nonnull (strstr (cap, "0.40 µs in stream order"));
  g_assert_nonnull (strstr (cap, want));
  /* Per copy, as the picture draws it: 2 + 0.04096 µs, not 32 times that. */
  g_assert_nonnull (strstr (cap, "32 copies of 1 KiB: 2.04 µs a copy, one call each"));
  /* The same medians with intervals that meet: no verdict claimed. */
  for (size_t i = 0; i < r->n_cells; i++) {
    r->cells[i].stats.e2e.ci_low = 0;
    r->cells[i].stats.e2e.ci_high = 1e9;
  }
  char wide[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_BATCHED, r, -1, wide, sizeof wide));
  g_assert_null (strstr (wide, "saves time"));
  g_assert_nonnull (strstr (wide, "the run cannot tell them apart"));

  /* The variants survive a samples file. */
  const char *path = ms_test_tmp_path ("batched.csv");
  char err[256] = "";
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_cells, ==, r->n_cells);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = ms_results_find_variant (back, r->cells[i].mode, r->cells[i].exponent,
                                               r->cells[i].variant);
    g_assert_nonnull (c);
  }
  char cap2[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_BATCHED, back, -1, cap2, sizeof cap2));
  g_assert_cmpstr (cap, ==, cap2);
  ms_results_free (back);
  ms_results_free (r);
}

static void
test_costs (void)
{
  /* A batch whose copies cost more each than separate calls. */
  Model m = { .call_us = 1.0, .batch_us = 40.0, .per_copy_us = 1.5 };
  MsResults *r = run_with (&m, "count=16,exp=9");
  char cap[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_BATCHED, r, -1, cap, sizeof cap));
  g_test_message ("%s", cap);
  /* The smallest size, whatever exp says (its instrumented repetition). */
  g_assert_nonnull (strstr (cap, "16 copies of 1 KiB"));
  g_assert_nonnull (strstr (cap, "the batch costs time"));
  g_assert_null (strstr (cap, "saves time"));
  ms_results_free (r);
}

static void
test_unsupported (void)
{
  Model m = { .call_us = 2.0, .unsupported = true };
  MsResults *r = run_with (&m, "");
  int unsupported = 0;
  for (size_t i = 0; i < r->n_cells; i++)
    unsupported += r->cells[i].status == MS_CELL_UNSUPPORTED;
  g_assert_cmpint (unsupported, ==, 2 * 7 * 3);
  char cap[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_BATCHED, r, -1, cap, sizeof cap));
  g_test_message ("%s", cap);
  g_assert_nonnull (strstr (cap, "256 copies of 1 KiB"));
  g_assert_nonnull (strstr (cap, "Batched copies were not measured: built with CUDA 12.4"));
  ms_results_free (r);
}

static void
test_failed (void)
{
  Model m = { .call_us = 2.0, .batch_us = 5.0, .per_copy_us = 0.2, .fails = true };
  MsResults *r = run_with (&m, "count=8");
  char cap[4096] = "";
  g_assert_true (ms_lesson_caption (MS_TOPIC_BATCHED, r, -1, cap, sizeof cap));
  g_test_message ("%s", cap);
  g_assert_nonnull (strstr (cap, "the batch saves time"));
  g_assert_nonnull (strstr (cap, "A batched copy failed: cudaMemcpyBatchAsync: invalid argument."));
  g_assert_null (strstr (cap, "not measured"));
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson-batched/options", test_options);
  g_test_add_func ("/lesson-batched/cells", test_cells);
  g_test_add_func ("/lesson-batched/saves", test_saves);
  g_test_add_func ("/lesson-batched/costs", test_costs);
  g_test_add_func ("/lesson-batched/unsupported", test_unsupported);
  g_test_add_func ("/lesson-batched/failed", test_failed);
  return g_test_run ();
}
