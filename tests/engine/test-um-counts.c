/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-um-counts: unified-memory counts that cannot be true are shown as
 * unknown with the reason (ms_um_counts_judge), in the run, in the file
 * and its reading back (also of files written before the rule), and on
 * the managed lesson's caption. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-lesson-caption.h"
#include "ms-sidecar-test.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "files/ms-um-counts.h"
#include "lessons/ms-lesson-run.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"
#include "lessons/ms-run-read.h"
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1ull << 18)
#define VEC (N * sizeof (float))

static MsUmCounts
counted (uint64_t gpu_faults, uint64_t h2d, uint64_t d2h)
{
  return (MsUmCounts){ .state = MS_UM_COUNTED, .gpu_faults = gpu_faults, .cpu_faults = 3,
                       .h2d_bytes = h2d, .d2h_bytes = d2h };
}

static MsUmState
judged (MsMode mode, bool resident, MsUmCounts um)
{
  ms_um_counts_judge (mode, N, resident, &um);
  if (um.state == MS_UM_UNKNOWN)
    g_assert_true (um.reason[0] && strstr (um.reason, "records were lost"));
  /* The numbers stay, for whoever looks into it. */
  g_assert_true (um.cpu_faults == 3);
  return um.state;
}

static void
test_rule (void)
{
  /* The H100's reference counts at 2^22, scaled: plausible. */
  g_assert_true (judged (MS_MODE_MANAGED, false, counted (8, 2 * VEC, VEC)) == MS_UM_COUNTED);
  g_assert_true (judged (MS_MODE_MANAGED_PREFETCH, false, counted (0, 2 * VEC, VEC)) == MS_UM_COUNTED);
  g_assert_true (judged (MS_MODE_MANAGED, true, counted (0, 0, VEC)) == MS_UM_COUNTED);
  /* The H200's gpu-suite failure: no faults, 23 of 32 MiB. */
  g_assert_true (judged (MS_MODE_MANAGED, false, counted (0, 23 * VEC / 16, VEC)) == MS_UM_UNKNOWN);
  g_assert_true (judged (MS_MODE_MANAGED, false, counted (28, 2 * VEC - 4096, VEC)) == MS_UM_UNKNOWN);
  g_assert_true (judged (MS_MODE_MANAGED_PREFETCH, false, counted (0, VEC, VEC)) == MS_UM_UNKNOWN);
  g_assert_true (judged (MS_MODE_MANAGED, true, counted (0, 0, VEC / 2)) == MS_UM_UNKNOWN);
  g_assert_true (judged (MS_MODE_MANAGED, false, counted (0, 0, 0)) == MS_UM_UNKNOWN);
  /* Other states and modes are left alone. */
  MsUmCounts un = { .state = MS_UM_UNAVAILABLE };
  snprintf (un.reason, sizeof un.reason, "refused");
  ms_um_counts_judge (MS_MODE_MANAGED, N, false, &un);
  g_assert_true (un.state == MS_UM_UNAVAILABLE && strcmp (un.reason, "refused") == 0);
  g_assert_true (judged (MS_MODE_PINNED, false, counted (0, 0, 0)) == MS_UM_COUNTED);
}

static MsResults *
run_managed_touch (bool lost)
{
  MsTestBackendConfig cfg;
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  ms_test_backend_config_init (&cfg);
  cfg.um_lost = lost;
  ms_test_sweep_init (&s, NULL, 18, 18, 3);
  MsBackend *b = ms_backend_new_test (&cfg);
  g_assert_true (ms_lesson_run ("managed-touch", &s, b, NULL, NULL, NULL, NULL, NULL, &r, err,
                           sizeof err) == MS_RUN_OK && r);
  ms_backend_free (b);
  return r;
}

static const MsUmCounts *
um_of (const MsResults *r, MsMode mode, const char *variant)
{
  const MsCell *c = r ? ms_results_find_variant (r, mode, 18, variant) : NULL;
  g_assert_true (c != NULL);
  return c ? &c->um : NULL;
}

/* The run marks lost counts, the file keeps them so, the caption says so. */
static void
test_run_file_caption (void)
{
  char err[256] = "", buf[1024];
  const char *path = ms_test_tmp_path ("counts-samples.csv");
  MsResults *r = run_managed_touch (true);
  const MsUmCounts *first = um_of (r, MS_MODE_MANAGED, "touch=first");
  const MsUmCounts *res = um_of (r, MS_MODE_MANAGED, "touch=resident");
  if (!first || !res)
    return;
  g_assert_true (first->state == MS_UM_UNKNOWN && first->h2d_bytes == VEC);
  g_assert_true (res->state == MS_UM_COUNTED);
  g_assert_true (ms_lesson_caption (MS_TOPIC_MANAGED, r, -1, buf, sizeof buf));
  g_assert_true (strstr (buf, "counts are unknown (CUPTI counted no GPU page faults") &&
              strstr (buf, "Resident data took") && !strstr (buf, "migrating"));
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (back != NULL);
  const MsUmCounts *b = um_of (back, MS_MODE_MANAGED, "touch=first");
  g_assert_true (b && b->state == MS_UM_UNKNOWN && strcmp (b->reason, first->reason) == 0 &&
              b->gpu_faults == first->gpu_faults && b->h2d_bytes == first->h2d_bytes &&
              b->d2h_bytes == first->d2h_bytes && b->cpu_faults == first->cpu_faults);
  ms_results_free (back);
  ms_results_free (r);
}

/* A file written before the rule says "counted 0 ..." for lost records: it
 * reads as unknown; a plausible line stays counted. */
static void
test_old_file_judged (void)
{
  char err[256] = "";
  const char *path = ms_test_tmp_path ("old-samples.csv");
  MsResults *r = run_managed_touch (false);
  if (!r)
    return;
  for (size_t i = 0; i < r->n_cells; i++)
    r->cells[i].um.state = MS_UM_NONE;
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  ms_results_free (r);
  /* The counts' lines as a file before the rule had them: in its metadata. */
  char first_line[256], resident[256], unknown[256];
  snprintf (first_line, sizeof first_line,
            "# um-counts: managed %llu touch=first counted 0 64 %llu %llu\n",
            (unsigned long long) N, (unsigned long long) (VEC + VEC / 2),
            (unsigned long long) VEC);
  snprintf (resident, sizeof resident,
            "# um-counts: managed %llu touch=resident counted 0 64 0 %llu\n",
            (unsigned long long) N, (unsigned long long) VEC);
  /* an unknown line needs its reason */
  snprintf (unknown, sizeof unknown,
            "# um-counts: managed-prefetch %llu touch=first unknown 0 0 1 2\n",
            (unsigned long long) N);
  const char *lines[] = { first_line, resident, unknown };
  ms_test_sidecar_add_lines (path, lines, 3);
  r = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (r != NULL);
  const MsUmCounts *first = um_of (r, MS_MODE_MANAGED, "touch=first");
  const MsUmCounts *res = um_of (r, MS_MODE_MANAGED, "touch=resident");
  const MsUmCounts *pre = um_of (r, MS_MODE_MANAGED_PREFETCH, "touch=first");
  g_assert_true (first && first->state == MS_UM_UNKNOWN && first->gpu_faults == 0);
  g_assert_true (res && res->state == MS_UM_COUNTED);
  g_assert_true (pre && pre->state == MS_UM_NONE);
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/um-counts/rule", test_rule);
  g_test_add_func ("/um-counts/run-file-caption", test_run_file_caption);
  g_test_add_func ("/um-counts/old-file-judged", test_old_file_judged);
  int rc = g_test_run ();
  return rc;
}
