/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-cells.c: the samples reader's cells (engine/ms-csv-cells.c),
 * built in one array that the results take over. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-test.h"

/* More cells than the reader's first cell array holds, with variants:
 * the array grows and its cells move while rows still arrive, and then
 * becomes the results' own array. Every cell keeps its samples, the
 * statistics equal those of a copy computed alone, and the array takes
 * another cell and is freed like any results' (checked under ASan). */
static void
test_cells_moved (void)
{
  char path[] = "/tmp/memsweep-test-csv-cells-XXXXXX";
  int fd = mkstemp (path);
  FILE *f = fd >= 0 ? fdopen (fd, "wb") : NULL;
  if (!f) {
    MS_CHECK (f != NULL, "a temporary file");
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
  MsResults *r = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (r && r->n_cells == (size_t) n_cells && r->cap_cells == r->n_cells, "%s",
            r ? "cell count" : err);
  for (size_t i = 0; r && i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    char variant[16];
    snprintf (variant, sizeof variant, "copy=%d", (int) i / (MS_MODE_COUNT * 8));
    MS_CHECK (c->mode == (MsMode) (i / 8 % MS_MODE_COUNT) && c->exponent == 10 + (int) i % 8 &&
                strcmp (c->variant, variant) == 0 && c->n_reps == 3 && c->n_events == 3,
              "cell %zu: %s 2^%d %s", i, ms_mode_name (c->mode), c->exponent, c->variant);
    for (int rep = 0; rep < c->n_reps && rep < 3; rep++)
      MS_CHECK (c->e2e_us[rep] == 2.0 * i + rep && c->events[rep].host_us == i + rep + 0.5 &&
                  c->events[rep].gpu_us == i + rep + 0.25 && c->events[rep].rep == rep,
                "cell %zu repetition %d", i, rep);
    MsCell alone;
    MS_CHECK (ms_cell_copy (&alone, c), "copy");
    ms_cell_compute_stats (&alone);
    MS_CHECK (memcmp (&alone.stats, &c->stats, sizeof alone.stats) == 0, "cell %zu stats", i);
    ms_cell_clear (&alone);
  }
  if (r) {
    MsCell extra;
    MS_CHECK (ms_cell_copy (&extra, &r->cells[0]), "copy");
    MS_CHECK (ms_results_add_cell (r, &extra), "one more cell");
    MS_CHECK (r->n_cells == (size_t) n_cells + 1 && r->cells[n_cells].n_events == 3, "added");
    ms_cell_clear (&extra);
  }
  ms_results_free (r);
  unlink (path);
}

int
main (void)
{
  MS_RUN (test_cells_moved);
  return ms_test_finish ();
}
