/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-results-table.c: a run's cells as the command line gives them
 * (ms-cli-results-table.h): as one table, long form, a row per cell, so
 * that data tools read it as they read the summary CSV (the same column
 * names; docs/csv.md); and what `memsweep lesson NAME` prints after the
 * run: one line per cell (mode, size, variant) and the lesson's finding
 * (its record's, engine/lessons/ms-lesson-NAME.c), computed from the
 * cells shown. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-cli-results-table.h"
#include "ms-cli-tables.h"
#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-lessons.h"

enum {
  COL_MODE,
  COL_VARIANT,
  COL_ELEMENTS,
  COL_BYTES,
  COL_STATUS,
  COL_REPS,
  COL_MEDIAN,
  COL_CI_LOW,
  COL_CI_HIGH,
  COL_E2E_GBPS,
  COL_H2D_GBPS,
  COL_D2H_GBPS,
  N_COLUMNS,
};

static const MsCliColumn columns[N_COLUMNS] = {
  [COL_MODE] = { "mode" },
  [COL_VARIANT] = { "variant" },
  [COL_ELEMENTS] = { "elements", true },
  [COL_BYTES] = { "bytes_per_vector", true },
  [COL_STATUS] = { "status" },
  [COL_REPS] = { "reps", true },
  [COL_MEDIAN] = { "e2e_median_us", true },
  [COL_CI_LOW] = { "e2e_ci_low_us", true },
  [COL_CI_HIGH] = { "e2e_ci_high_us", true },
  [COL_E2E_GBPS] = { "e2e_gbps", true },
  [COL_H2D_GBPS] = { "h2d_gbps", true },
  [COL_D2H_GBPS] = { "d2h_gbps", true },
};

/* A figure of a cell with numbers; none (empty) otherwise, or when zero
 * (a rate of a mode that copies nothing). */
static double
figure (bool has, double value)
{
  return has && value > 0 ? value : NAN;
}

MsCliTable *
ms_cli_results_table (const MsResults *r)
{
  MsCliTable *t = ms_cli_table_new (columns, N_COLUMNS);
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    const MsCellStats *s = &c->stats;
    bool has = c->status == MS_CELL_OK || c->status == MS_CELL_PARTIAL;
    ms_cli_table_add_row (t);
    ms_cli_table_text (t, COL_MODE, ms_mode_name (c->mode));
    ms_cli_table_text (t, COL_VARIANT, c->variant);
    ms_cli_table_integer (t, COL_ELEMENTS, (long long) c->elements);
    ms_cli_table_integer (t, COL_BYTES, (long long) (c->elements * sizeof (float)));
    ms_cli_table_text (t, COL_STATUS, ms_cell_status_name (c->status));
    ms_cli_table_integer (t, COL_REPS, c->n_reps);
    ms_cli_table_number (t, COL_MEDIAN, figure (has, s->e2e.median), 3);
    ms_cli_table_number (t, COL_CI_LOW, figure (has, s->e2e.ci_low), 3);
    ms_cli_table_number (t, COL_CI_HIGH, figure (has, s->e2e.ci_high), 3);
    ms_cli_table_number (t, COL_E2E_GBPS, figure (has, s->e2e_gbps), 3);
    ms_cli_table_number (t, COL_H2D_GBPS, figure (has, s->h2d_gbps), 3);
    ms_cli_table_number (t, COL_D2H_GBPS, figure (has, s->d2h_gbps), 3);
  }
  return t;
}

/* A managed cell's unified-memory counts, from its extra counted
 * repetition (CUPTI), under the cell's line. */
static void
print_um_counts (FILE *out, const MsUmCounts *um)
{
  char h2d[32], d2h[32], clean[4 * sizeof um->reason];
  if (um->state == MS_UM_UNAVAILABLE || um->state == MS_UM_UNKNOWN) {
    fprintf (out,
             um->state == MS_UM_UNKNOWN ? ms_gettext ("%18sunified-memory counts unknown: %s\n")
                                        : ms_gettext ("%18sunified memory not counted: %s\n"),
             "", ms_report_clean (um->reason, clean, sizeof clean));
    return;
  }
  if (um->state != MS_UM_COUNTED)
    return;
  ms_format_bytes (um->h2d_bytes, h2d, sizeof h2d);
  ms_format_bytes (um->d2h_bytes, d2h, sizeof d2h);
  fprintf (out,
           ms_gettext ("%18scounted repetition: %llu GPU page faults, %llu CPU page faults, "
                       "%s migrated to the device, %s to the host\n"),
           "", (unsigned long long) um->gpu_faults, (unsigned long long) um->cpu_faults, h2d,
           d2h);
}

/* A row's key: mode, size and variant, padded by terminal columns (a
 * translated heading of CJK characters takes two a character). */
static void
put_key (FILE *out, const char *mode, const char *size, const char *variant)
{
  ms_cli_put_padded (out, mode, -16);
  fputc (' ', out);
  ms_cli_put_padded (out, size, 9);
  fputs ("  ", out);
  ms_cli_put_padded (out, variant, -40);
}

/* A probe lesson's cell: one figure, and what its timers cost. */
static void
print_probe_cell (FILE *out, const MsCell *c)
{
  /* A cell of one element is a setting of the lesson (K kernels, say),
   * not a size: no "4 B". */
  char size[32] = "-";
  if (c->elements > 1)
    ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
  put_key (out, ms_mode_name (c->mode), size, c->variant);
  if (c->status != MS_CELL_OK && c->status != MS_CELL_PARTIAL) {
    char clean[4 * sizeof c->message];
    fprintf (out, " %s: %s\n", ms_cell_status_name (c->status),
             ms_report_clean (c->message, clean, sizeof clean));
    return;
  }
  fprintf (out, " %12.1f %12.1f %12.1f", c->stats.e2e.median, c->stats.e2e.min,
           c->stats.e2e.max);
  if (c->stats.e2e_instr.n > 0)
    fprintf (out, " %12.1f", c->stats.e2e_instr.median);
  fputc ('\n', out);
}

static void print_cell_numbers (FILE *out, const MsCell *c, bool costs);

static void
print_cell (FILE *out, const MsCell *c, bool costs)
{
  char size[32];
  ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
  put_key (out, ms_mode_name (c->mode), size, c->variant);
  if (!ms_report_has_numbers (c)) {
    char clean[4 * sizeof c->message];
    fprintf (out, " %s: %s\n", ms_cell_status_name (c->status),
             ms_report_clean (c->message, clean, sizeof clean));
    return;
  }
  print_cell_numbers (out, c, costs);
  if (c->status == MS_CELL_PARTIAL) {
    /* Its numbers are from the repetitions it finished: say so below. */
    char clean[4 * sizeof c->message];
    fprintf (out, "  %s: %s\n", ms_cell_status_name (c->status),
             ms_report_clean (c->message, clean, sizeof clean));
  }
}

static void
print_cell_numbers (FILE *out, const MsCell *c, bool costs)
{
  const MsCellStats *st = &c->stats;
  if (costs) {
    bool reg = c->mode == MS_MODE_REGISTERED;
    double a = st->phase_host[reg ? MS_PHASE_REGISTER : MS_PHASE_ALLOC].median;
    double f = st->phase_host[reg ? MS_PHASE_UNREGISTER : MS_PHASE_FREE].median;
    double mib = ms_vector_bytes (c->elements) / 1048576.0;
    bool sized = strstr (c->variant, "context") == NULL;
    fprintf (out, " %12.1f %12.1f", a, f);
    if (sized)
      fprintf (out, " %12.1f", (a + f) / mib);
    fputc ('\n', out);
    return;
  }
  fprintf (out, " %12.1f %8.2f %8.2f %10.1f %10.1f\n", st->e2e.median, st->h2d_gbps,
           st->d2h_gbps, st->phase[MS_PHASE_KERNEL].median, st->phase[MS_PHASE_VERIFY].median);
  print_um_counts (out, &c->um);
}

/* The headings: the key's, then n figures right-aligned in widths. */
static void
put_heading (FILE *out, const char *const *headings, const int *widths, int n)
{
  put_key (out, ms_gettext ("mode"), ms_gettext ("size"), ms_gettext ("variant"));
  for (int i = 0; i < n; i++) {
    fputc (' ', out);
    ms_cli_put_padded (out, headings[i], widths[i]);
  }
  fputc ('\n', out);
}

void
ms_cli_lesson_table (FILE *out, const MsResults *r)
{
  MsLessonTopic topic = ms_lesson_topic_for_experiment (r->experiment);
  bool costs = ms_lesson_times_costs (topic);
  bool probe = ms_lesson_is_probe (r->experiment);
  fputc ('\n', out);
  if (probe) {
    const char *h[] = { ms_gettext ("median us"), ms_gettext ("min us"), ms_gettext ("max us"),
                        ms_gettext ("timed us") };
    static const int w[] = { 12, 12, 12, 12 };
    put_heading (out, h, w, 4);
    for (size_t i = 0; i < r->n_cells; i++)
      print_probe_cell (out, &r->cells[i]);
  } else if (costs) {
    const char *h[] = { ms_gettext ("alloc us"), ms_gettext ("free us"),
                        ms_gettext ("us per MiB") };
    static const int w[] = { 12, 12, 12 };
    put_heading (out, h, w, 3);
  } else {
    const char *h[] = { ms_gettext ("e2e us"), ms_gettext ("to GB/s"), ms_gettext ("back GB/s"),
                        ms_gettext ("kernel us"), ms_gettext ("verify us") };
    static const int w[] = { 12, 8, 8, 10, 10 };
    put_heading (out, h, w, 5);
  }
  for (size_t i = 0; i < r->n_cells && !probe; i++)
    print_cell (out, &r->cells[i], costs);
  fputc ('\n', out);
  /* Probe lessons say their caption; lessons of sweeps, what their record
   * finds beyond it. */
  char caption[MS_LESSON_CAPTION_MAX], finding[8192];
  /* The slide's headline first, as the app and the exports lead with it. */
  if (topic != MS_TOPIC_COUNT) {
    ms_lesson_takeaway (topic, r, caption, sizeof caption);
    fprintf (out, "%s\n", caption);
  }
  if (topic != MS_TOPIC_COUNT && probe) {
    ms_lesson_caption (topic, r, -1, caption, sizeof caption);
    fprintf (out, "%s\n", caption);
  }
  ms_lesson_finding (topic, r, finding, sizeof finding);
  fputs (finding, out);
}
