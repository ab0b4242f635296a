/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-lesson-implicit-sync.c: the implicit-synchronisation lesson
 * without a GPU: its options, parts and cells, and its caption on two
 * model GPUs, one where the textbook's list holds and one where it does
 * not; the variants through a samples file and back. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-probe-test.h"
#include "ms-implicit-sync-model.h"
#include "ms-lesson-caption.h"
#include "ms-lesson-record.h"
#include "ms-sweep-test.h"
#include "lessons/ms-lesson-run.h"
#include "lessons/ms-lesson-table.h"
#include "model/ms-results.h"
#include "ms-sweep.h"

#define NAME "implicit-sync"

static void
test_options (void)
{
  char err[256] = "";
  g_assert_true (ms_lesson_check_options (NAME, "kernel-us=1000,kib=64", err, sizeof err));
  const char *bad[] = { "bad=1",   "kernel-us=10", "kernel-us=200000",           "kernel-us=1.5",
                        "kib=abc", "kib=2",        "kernel-us=100,kernel-us=200" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    err[0] = '\0';
    g_assert_false (ms_lesson_check_options (NAME, bad[i], err, sizeof err));
    g_assert_cmpstr (err, !=, "");
  }
  g_assert_nonnull (strstr (err, "kernel-us"));
}

static void
test_parts_and_cells (void)
{
  MsSweep s;
  ms_sweep_init_default (&s);
  snprintf (s.options, sizeof s.options, "kernel-us=800,kib=64");
  MsLessonPart parts[8];
  g_assert_cmpint (ms_lesson_parts (NAME, &s, parts, 8), ==, 2);
  /* Both queue settings in a fresh process: one with one queue. */
  g_assert_true (parts[0].isolated && parts[1].isolated);
  g_assert_cmpstr (parts[0].env, ==, "CUDA_DEVICE_MAX_CONNECTIONS=1");
  g_assert_cmpstr (parts[1].env_unset, ==, "CUDA_DEVICE_MAX_CONNECTIONS");
  const MsLesson *l = ms_lesson_record_find (NAME);
  g_assert_nonnull (l);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (int part = 0; part < 2; part++) {
    MsProbeCell cells[MS_PROBE_MAX_CELLS];
    int n = l->cells (&s, part, cells, MS_PROBE_MAX_CELLS);
    /* One kernel alone, then every operation on both stream kinds. */
    g_assert_cmpint (n, ==, 1 + 2 * (MS_SYNC_OP_COUNT - 1));
    for (int i = 0; i < n; i++) {
      g_assert_cmpuint (strlen (cells[i].variant), <=, 47);
      g_assert_true (g_hash_table_add (seen, g_strdup (cells[i].variant)));
      g_assert_cmpint (cells[i].arg[MODEL_KERNEL_US], ==, 800);
      g_assert_cmpint (cells[i].arg[MODEL_KIB], ==, 64);
      g_assert_cmpint (cells[i].arg[MODEL_DEFAULT_QUEUES], ==, part);
      g_assert_cmpint (cells[i].instrumented, ==, 1);
      char v[MS_VARIANT_LEN];
      ms_implicit_sync_variant (v, sizeof v, cells[i].arg[MODEL_OP],
                                cells[i].arg[MODEL_NON_BLOCKING], part);
      g_assert_cmpstr (v, ==, cells[i].variant);
    }
  }
  g_assert_true (g_hash_table_contains (seen, "op=malloc/s=block/q=1"));
  g_assert_true (g_hash_table_contains (seen, "op=alone/s=block/q=def"));
}

static void
test_caption_material_holds (void)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  /* An unlisted call that serialises with one queue only. */
  m.serial[MS_SYNC_OP_EVENT_RECORD][MS_SYNC_COLUMN (0, 0)] = true;
  m.serial[MS_SYNC_OP_EVENT_RECORD][MS_SYNC_COLUMN (1, 0)] = true;
  MsResults *r = ms_sync_model_run (&m, "kernel-us=500");
  char buf[4096];
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "Serialised, as the textbooks say (the two took nearer two "
                                 "kernel times than one)"));
  g_assert_nonnull (strstr (buf, "cudaMalloc, cudaMallocHost, cudaMemset"));
  /* The legacy kernel only on blocking streams: said where. */
  g_assert_nonnull (strstr (buf, "kernel on legacy default stream (blocking streams)"));
  g_assert_nonnull (strstr (buf, "Not on the textbooks' list, but serialised here (a larger view draws every column): cudaEventRecord "
                                 "(1 hardware queue)."));
  /* Each call in one list: the unlisted one is not also among the serialised. */
  const char *first = strstr (buf, "cudaEventRecord");
  g_assert_null (strstr (first + 1, "cudaEventRecord"));
  /* What the cells count first, with the one kernel's time they count in. */
  g_assert_true (g_str_has_prefix (buf, "Each cell's word rests on the two kernels' total, "
                                        "counted in one kernel's times: one kernel took 510 µs; "
                                        "two with nothing between, "));
  g_assert_null (strstr (buf, "but overlapped here"));
  MsSyncJudged j;
  g_assert_cmpint (ms_implicit_sync_judge (r, MS_SYNC_OP_MALLOC, 0, &j), ==, MS_SYNC_SERIALISED);
  g_assert_cmpfloat_with_epsilon (j.times, 1010.0 / 510, 1e-9);
  g_assert_cmpint (ms_implicit_sync_judge (r, MS_SYNC_OP_KERNEL_PER_THREAD, 0, &j), ==,
                   MS_SYNC_OVERLAPPED);
  /* Stream-ordered allocation, not on the material's list, overlaps in
   * this model: counted beside the classic calls from the same verdicts. */
  g_assert_cmpint (ms_implicit_sync_judge (r, MS_SYNC_OP_MALLOC_ASYNC, 3, &j), ==,
                   MS_SYNC_OVERLAPPED);
  /* The grid's rows tell them; the caption names them where they
   * serialised, as the next run shows. */
  g_assert_null (strstr (buf, "cudaMallocAsync"));
  ms_results_free (r);
  /* Where a stream-ordered free serialises, with one queue only, the
   * unlisted list says so. */
  m.serial[MS_SYNC_OP_FREE_ASYNC][MS_SYNC_COLUMN (0, 0)] = true;
  m.serial[MS_SYNC_OP_FREE_ASYNC][MS_SYNC_COLUMN (1, 0)] = true;
  r = ms_sync_model_run (&m, "kernel-us=500");
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "Not on the textbooks' list, but serialised here (a larger view draws every column): cudaFreeAsync "
                                 "(1 hardware queue)"));
  ms_results_free (r);
}

static void
test_caption_material_fails (void)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  memset (m.serial, 0, sizeof m.serial);
  m.serial[MS_SYNC_OP_KERNEL_LEGACY][MS_SYNC_COLUMN (0, 1)] = true;
  /* A call that takes most of a kernel, and no GPU stamps: the host
   * clock cannot tell. */
  m.call_share[MS_SYNC_OP_MALLOC_HOST] = 0.9;
  m.no_stamps = true;
  MsResults *r = ms_sync_model_run (&m, "kernel-us=1000");
  char buf[4096];
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "Serialised, as the textbooks say (the two took nearer two "
                                 "kernel times than one): kernel on legacy default stream (blocking, default queues)."));
  g_assert_nonnull (strstr (buf, "Listed by the textbooks, yet overlapped here: cudaMalloc, "
                                 "cudaMemset,"));
  /* The unclear call is the picture's (hatched, and its key says why)
   * while the caption has verdicts to give. */
  g_assert_null (strstr (buf, "Unclear"));
  g_assert_null (strstr (buf, "Not on the textbooks' list"));
  ms_results_free (r);
  /* A call off the list that only a larger view draws (a slide draws one
   * off the list only where it serialised): the caption names it. */
  m.call_share[MS_SYNC_OP_MALLOC_HOST] = 0;
  m.call_share[MS_SYNC_OP_FREE] = 0.9;
  r = ms_sync_model_run (&m, "kernel-us=1000");
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "Not on the textbooks' list, and unclear (the call itself took "
                                 "most of a kernel's time): cudaFree"));
  ms_results_free (r);
  /* With nothing else to say, the caption names it. */
  memset (m.serial, 0, sizeof m.serial);
  for (int op = MS_SYNC_OP_MALLOC; op < MS_SYNC_OP_COUNT; op++)
    m.call_share[op] = ms_implicit_sync_op_listed ((MsSyncOp)op) ? 0.9 : 0;
  r = ms_sync_model_run (&m, "kernel-us=1000");
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "Unclear, as the call itself took most of a kernel's time: "
                                 "cudaMalloc, cudaMallocHost,"));
  ms_results_free (r);
}

/* Where a call takes most of a kernel, the kernels' GPU stamps can show
 * the two overlapped (a long call the second kernel started during); where
 * they show the call returned only after the first kernel ended and the
 * second after it, the verdict stays unclear with how long after (the
 * reference runs' cudaFree: 38.4-116.4 µs after): a call that waits for
 * the kernel (cudaFree here) and one merely as slow (cudaHostRegister
 * here) look the same to them, and neither is called serialised. */
static void
test_stamps_decide (void)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  memset (m.serial, 0, sizeof m.serial);
  m.call_share[MS_SYNC_OP_FREE] = 1.05;
  for (int col = 0; col < MS_SYNC_N_COLUMNS; col++)
    m.serial[MS_SYNC_OP_FREE][col] = true;
  m.call_share[MS_SYNC_OP_REGISTER] = 1.05;
  m.call_share[MS_SYNC_OP_FREE_HOST] = 0.9;
  /* One listed call serialised on blocking streams: where the takeaway's count is. */
  m.serial[MS_SYNC_OP_MEMSET][0] = m.serial[MS_SYNC_OP_MEMSET][1] = true;
  MsResults *r = ms_sync_model_run (&m, "kernel-us=1000");
  MsSyncJudged j;
  for (int op = MS_SYNC_OP_FREE; op <= MS_SYNC_OP_REGISTER; op += MS_SYNC_OP_REGISTER - MS_SYNC_OP_FREE) {
    g_assert_cmpint (ms_implicit_sync_judge (r, (MsSyncOp)op, 1, &j), ==, MS_SYNC_UNDECIDED);
    /* The call returned at 2 + 1050 µs, the first kernel ended at 3 + 1000. */
    g_assert_cmpfloat_with_epsilon (j.held_us, 49, 1e-6);
  }
  g_assert_cmpint (ms_implicit_sync_judge (r, MS_SYNC_OP_FREE_HOST, 1, &j), ==,
                   MS_SYNC_OVERLAPPED);
  g_assert_true (isnan (j.held_us));
  char buf[4096];
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_test_message ("%s", buf);
  /* Said once, as what stopped the overlap, not also among the unclear. */
  g_assert_null (strstr (buf, "and unclear (the call itself took most of a kernel's time)"));
  g_assert_nonnull (strstr (buf, "By the GPU's clock, cudaFree (49 µs after), "
                                 "cudaHostRegister+Unregister (49 µs after) returned only after "
                                 "the first kernel ended, so they stopped the overlap too: the "
                                 "second could not start before it. Whether each waited"));
  /* Counted by the takeaway, as a slide outlines them. */
  g_assert_true (ms_implicit_sync_counted (r, MS_SYNC_OP_FREE));
  g_assert_false (ms_implicit_sync_counted (r, MS_SYNC_OP_FREE_HOST));
  g_assert_null (strstr (buf, "serialised here"));
  ms_results_free (r);
}

static void
test_caption_missing (void)
{
  MsResults *r = ms_test_results_new (NULL);
  /* Two kernels with cudaMalloc between them, but no reference cells. */
  double times[3] = { 900, 910, 920 };
  MsCell c = {
    .mode = MS_MODE_STREAMS, .elements = 1, .n_reps = 3, .e2e_us = times, .status = MS_CELL_OK
  };
  ms_implicit_sync_variant (c.variant, sizeof c.variant, MS_SYNC_OP_MALLOC, false, false);
  ms_cell_compute_stats (&c);
  g_assert_true (ms_results_add_cell (r, &c));
  char buf[1024];
  g_assert_false (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_assert_nonnull (strstr (buf, "lacks one kernel alone"));
  ms_results_free (r);
}

/* The app makes its reference-like runs on the plain test backend. */
static void
test_plain_backend (void)
{
  MsResults *r = ms_sync_model_run (NULL, NULL);
  g_assert_cmpuint (r->n_cells, ==, 2 * (1 + 2 * (MS_SYNC_OP_COUNT - 1)));
  ms_results_free (r);
}

static void
test_round_trip (void)
{
  MsSyncModel m;
  ms_sync_model_material (&m);
  MsResults *r = ms_sync_model_run (&m, NULL);
  MsResults *back = ms_test_lesson_reread (MS_TOPIC_IMPLICIT_SYNC, r);
  char buf[4096];
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, r, -1, buf, sizeof buf));
  g_assert_true (ms_lesson_caption (MS_TOPIC_IMPLICIT_SYNC, back, -1, buf, sizeof buf));
  ms_results_free (back);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/implicit-sync/options", test_options);
  g_test_add_func ("/implicit-sync/parts-and-cells", test_parts_and_cells);
  g_test_add_func ("/implicit-sync/caption-material-holds", test_caption_material_holds);
  g_test_add_func ("/implicit-sync/caption-material-fails", test_caption_material_fails);
  g_test_add_func ("/implicit-sync/stamps-decide", test_stamps_decide);
  g_test_add_func ("/implicit-sync/caption-missing", test_caption_missing);
  g_test_add_func ("/implicit-sync/round-trip", test_round_trip);
  g_test_add_func ("/implicit-sync/plain-backend", test_plain_backend);
  return g_test_run ();
}
