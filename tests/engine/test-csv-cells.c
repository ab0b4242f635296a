/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-cells.c: the samples reader's cells (engine/files/ms-csv-cells.c),
 * built in one array that the results take over. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lessons/ms-run-read.h"
#include "memsweep.h"
#include "model/ms-results.h"
#include "ms-modes.h"
#include "ms-tmp-test.h"

/* More cells than the reader's first cell array holds, with variants:
 * the array grows and its cells move while rows still arrive, and then
 * becomes the results' own array. Every cell keeps its samples, the
 * statistics equal those of a copy computed alone, and the array takes
 * another cell and is freed like any results' (checked under ASan). */
static void
test_cells_moved (void)
{
  const char *path = ms_test_tmp_path ("cells.csv");
  FILE *f = fopen (path, "wb");
  if (!f) {
    g_assert_nonnull (f);
    return;
  }
  fputs ("mode,elements,rep,phase,lane,chunk,host_start_us,host_us,gpu_start_us,gpu_us,bytes,"
         "status,variant\n", f);
  int n_cells = 0;
  for (int v = 0; v < 4; v++)
    for (int m = 0; m < MS_MODE_COUNT; m++)
      for (int e = 10; e < 18; e++, n_cells++)
        for (int rep = 0; rep < 3; rep++) {
          fprintf (f, "%s,%d,%d,h2d,1,0,0,%d.5,0,%d.25,4096,ok,copy=%d\n", ms_mode_name (m),
                   1 << e, rep, n_cells + rep, n_cells + rep, v);
          fprintf (f, "%s,%d,%d,e2e,0,0,,%d,,,0,ok,copy=%d\n", ms_mode_name (m), 1 << e, rep,
                   2 * n_cells + rep, v);
        }
  fclose (f);
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (r);
  g_assert_true (r->n_cells == (size_t)n_cells);
  g_assert_true (r->cap_cells == r->n_cells);
  for (size_t i = 0; r && i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    char variant[16];
    snprintf (variant, sizeof variant, "copy=%d", (int) i / (MS_MODE_COUNT * 8));
    g_assert_true (c->mode == (MsMode)(i / 8 % MS_MODE_COUNT));
    g_assert_cmpint (c->exponent, ==, 10 + (int)i % 8);
    g_assert_cmpstr (c->variant, ==, variant);
    g_assert_true (c->n_reps == 3);
    g_assert_true (c->n_events == 3);
    for (int rep = 0; rep < c->n_reps && rep < 3; rep++)
      g_assert_true (c->e2e_us[rep] == 2.0 * i + rep && c->events[rep].host_us == i + rep + 0.5
                     && c->events[rep].gpu_us == i + rep + 0.25 && c->events[rep].rep == rep);
    MsCell alone;
    g_assert_true (ms_cell_copy (&alone, c));
    ms_cell_compute_stats (&alone);
    g_assert_true (memcmp (&alone.stats, &c->stats, sizeof alone.stats) == 0);
    ms_cell_clear (&alone);
  }
  if (r) {
    MsCell extra;
    g_assert_true (ms_cell_copy (&extra, &r->cells[0]));
    g_assert_true (ms_results_add_cell (r, &extra));
    g_assert_true (r->n_cells == (size_t)n_cells + 1);
    g_assert_true (r->cells[n_cells].n_events == 3);
    ms_cell_clear (&extra);
  }
  ms_results_free (r);
}

/* A file of cells (mode m of modes, size 2^e) with three repetitions
 * each, an h2d and an end-to-end row a repetition; the cells' rows in
 * turn (the order memsweep writes) or, with rounds, the file visited
 * twice, each cell's repetitions split between the visits (rows come
 * back to a cell after others). skip_e2e: one end-to-end row left out. */
static const char *
write_cells_file (const char *name, bool rounds, bool skip_e2e)
{
  const char *path = ms_test_tmp_path (name);
  FILE *f = fopen (path, "wb");
  g_assert_nonnull (f);
  fputs ("mode,elements,rep,phase,lane,chunk,host_start_us,host_us,gpu_start_us,gpu_us,bytes,"
         "status\n", f);
  for (int visit = 0; visit < (rounds ? 2 : 1); visit++)
    for (int m = 0; m < 3; m++)
      for (int e = 10; e < 14; e++)
        for (int rep = 0; rep < 6; rep++) {
          if (rounds && rep % 2 != visit)
            continue;
          int k = m * 100 + e * 7 + rep * rep;
          fprintf (f, "%s,%d,%d,h2d,1,0,0,%d.5,0,%d.25,4096,ok\n", ms_mode_name (m), 1 << e,
                   rep, k, k);
          if (!(skip_e2e && m == 1 && e == 12 && rep == 3))
            fprintf (f, "%s,%d,%d,e2e,0,0,,%d,,,0,ok\n", ms_mode_name (m), 1 << e, rep,
                     3 * k + 1);
        }
  fclose (f);
  return path;
}

/* What needs only the figures reads the statistics a whole read
 * computes, with no cell keeping its samples, in the order memsweep
 * writes and with rows that come back to a cell (read again, whole). */
static void
test_figures_only (void)
{
  for (int rounds = 0; rounds < 2; rounds++) {
    const char *path = write_cells_file ("figures.csv", rounds, false);
    char err[512];
    MsResults *whole = ms_run_read_samples (path, err, sizeof err);
    MsResults *figures = ms_run_read_figures (path, err, sizeof err);
    g_assert_nonnull (whole);
    g_assert_nonnull (figures);
    g_assert_cmpuint (figures->n_cells, ==, 12);
    g_assert_cmpuint (whole->n_cells, ==, figures->n_cells);
    for (size_t i = 0; i < whole->n_cells && i < figures->n_cells; i++) {
      const MsCell *w = &whole->cells[i], *c = &figures->cells[i];
      g_assert_true (w->mode == c->mode && w->exponent == c->exponent);
      g_assert_cmpint (c->n_reps, ==, 6);
      g_assert_true (w->n_events == 6 && w->e2e_us);
      g_assert_true (c->n_events == 0 && !c->events && !c->e2e_us);
      g_assert_true (memcmp (&w->stats, &c->stats, sizeof w->stats) == 0);
      g_assert_cmpfloat (c->stats.e2e.median, >, 0);
    }
    ms_results_free (whole);
    ms_results_free (figures);
  }
}

/* A file the whole read refuses is refused with the same words. */
static void
test_figures_refused (void)
{
  const char *path = write_cells_file ("figures-cut.csv", false, true);
  char whole_err[512] = "", figures_err[512] = "";
  g_assert_null (ms_run_read_samples (path, whole_err, sizeof whole_err));
  g_assert_null (ms_run_read_figures (path, figures_err, sizeof figures_err));
  g_assert_nonnull (strstr (whole_err, "no end-to-end row for repetition 3"));
  g_assert_cmpstr (figures_err, ==, whole_err);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv-cells/cells-moved", test_cells_moved);
  g_test_add_func ("/csv-cells/figures-only", test_figures_only);
  g_test_add_func ("/csv-cells/figures-refused", test_figures_refused);
  int rc = g_test_run ();
  return rc;
}
