/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-row.c: the table's row type. */
#include "ms-table-row.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ms-drawing.h"
#include "ms-engine.h"
#include "ms-variant-text.h"

struct _MsTableRow {
  GObject parent_instance;
  char *run;
  char *run_description; /* the run in full, for the Run column's tooltip */
  MsTableRowKind kind;
  MsCell cell; /* a copy without events */
};

G_DEFINE_FINAL_TYPE (MsTableRow, ms_table_row, G_TYPE_OBJECT)

static void
ms_table_row_finalize (GObject *object)
{
  g_free (MS_TABLE_ROW (object)->run);
  g_free (MS_TABLE_ROW (object)->run_description);
  g_free (MS_TABLE_ROW (object)->cell.rounds);
  G_OBJECT_CLASS (ms_table_row_parent_class)->finalize (object);
}

static void
ms_table_row_class_init (MsTableRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ms_table_row_finalize;
}

static void
ms_table_row_init (MsTableRow *row)
{
}

MsTableRow *
ms_table_row_new (const char *run, const MsCell *cell, MsTableRowKind kind)
{
  MsTableRow *row = g_object_new (MS_TYPE_TABLE_ROW, NULL);
  row->run = g_utf8_make_valid (run, -1);
  row->kind = kind;
  row->cell = *cell;
  row->cell.events = NULL; /* the table needs the summary only */
  row->cell.n_events = 0;
  row->cell.e2e_us = NULL;
  row->cell.e2e_instr_us = NULL;
  row->cell.copies = NULL;
  row->cell.n_copies = 0;
  /* Its rounds' GPU states give the row's flags: a copy of its own. */
  row->cell.rounds = cell->n_rounds ? g_memdup2 (cell->rounds, sizeof (MsCellRound) * cell->n_rounds)
                                    : NULL;
  return row;
}

void
ms_table_row_set_run_description (MsTableRow *row, const char *description)
{
  g_free (row->run_description);
  row->run_description = description ? g_utf8_make_valid (description, -1) : NULL;
}

MsTableRowKind
ms_table_row_kind_of (const MsResults *run)
{
  return ms_lesson_times_costs (ms_lesson_topic_for_experiment (run->experiment))
           ? MS_TABLE_ROW_COSTS
           : MS_TABLE_ROW_TIMES;
}

const char *
ms_table_col_title (MsTableCol col)
{
  static const char *titles[MS_TABLE_N_COLS] = {
    [MS_TABLE_COL_RUN] = N_ ("Run"),
    [MS_TABLE_COL_MODE] = N_ ("Mode"),
    [MS_TABLE_COL_SIZE] = N_ ("Size"),
    [MS_TABLE_COL_VARIANT] = N_ ("Variant"),
    [MS_TABLE_COL_STATUS] = N_ ("Status"),
    /* TRANSLATORS: a table column: the cell's count of timed repetitions. */
    [MS_TABLE_COL_REPS] = N_ ("Reps"),
    [MS_TABLE_COL_E2E] = N_ ("E2E µs"),
    [MS_TABLE_COL_E2E_MIN] = N_ ("min µs"),
    [MS_TABLE_COL_E2E_MAX] = N_ ("max µs"),
    [MS_TABLE_COL_E2E_GBPS] = N_ ("E2E GB/s"),
    [MS_TABLE_COL_H2D_GBPS] = N_ ("h2d GB/s"),
    [MS_TABLE_COL_D2H_GBPS] = N_ ("d2h GB/s"),
    /* TRANSLATORS: a table column: from the first kernel's start to the
     * last one's end (streams overlap), in microseconds. */
    [MS_TABLE_COL_KERNEL] = N_ ("kernel span µs"),
    /* TRANSLATORS: a table column: what memsweep's own per-step timers
     * add to a repetition's end-to-end time. */
    [MS_TABLE_COL_OVERHEAD] = N_ ("Timer cost µs"),
    /* TRANSLATORS: table columns of the costs lesson: what allocating (or
     * registering) and freeing the buffers takes on the host. */
    [MS_TABLE_COL_ALLOC] = N_ ("alloc µs"),
    [MS_TABLE_COL_FREE] = N_ ("free µs"),
    [MS_TABLE_COL_MESSAGE] = N_ ("Reason"),
  };
  return col < MS_TABLE_N_COLS ? _ (titles[col]) : NULL;
}

const char *
ms_table_col_description (MsTableCol col)
{
  static const char *texts[MS_TABLE_N_COLS] = {
    [MS_TABLE_COL_RUN] = N_ ("The run the row comes from"),
    [MS_TABLE_COL_MODE] = N_ ("How the host's data reaches the GPU"),
    [MS_TABLE_COL_SIZE] = N_ ("Bytes in each of the three vectors (2^n floats)"),
    [MS_TABLE_COL_VARIANT]
    = N_ ("The lesson's setting for this row; hover a value for what it means"),
    [MS_TABLE_COL_STATUS] = N_ ("Whether the cell was measured, and if not why"),
    [MS_TABLE_COL_REPS]
    = N_ ("Timed repetitions of the cell: at least the minimum set before the sweep, more "
          "until the median was known closely enough"),
    [MS_TABLE_COL_E2E]
    = N_ ("Median end-to-end time of one repetition (copies in, kernel, copy out, "
          "synchronisation), over the plain repetitions, which run without per-step timers"),
    [MS_TABLE_COL_E2E_MIN] = N_ ("Fastest plain repetition, end to end"),
    [MS_TABLE_COL_E2E_MAX] = N_ ("Slowest plain repetition, end to end"),
    [MS_TABLE_COL_E2E_GBPS] = N_ ("The three vectors' bytes over the median end-to-end time"),
    [MS_TABLE_COL_H2D_GBPS]
    = N_ ("Bytes copied to the GPU over the median copy time, from the repetitions with "
          "per-step timers"),
    [MS_TABLE_COL_D2H_GBPS]
    = N_ ("Bytes copied back to the host over the median copy time, from the repetitions "
          "with per-step timers"),
    [MS_TABLE_COL_KERNEL]
    = N_ ("Median time from the first kernel's start to the last kernel's end, from the "
          "repetitions with per-step timers. Streams' kernels overlap: this is their wall "
          "span, not their sum. Timed repetitions run slower than plain ones, so this can "
          "exceed the end-to-end time; the Breakdown view scales the phases to fit it."),
    [MS_TABLE_COL_OVERHEAD]
    = N_ ("What memsweep's own per-step timers add to a repetition: the median end-to-end "
          "time with timers less the one without, and their ratio. “≈0” where the "
          "difference is lost in the spread (below the noise), as the Timeline view says."),
    [MS_TABLE_COL_ALLOC] = N_ ("Median time to allocate (or register) the buffers on the host"),
    [MS_TABLE_COL_FREE] = N_ ("Median time to free (or unregister) the buffers on the host"),
    [MS_TABLE_COL_MESSAGE] = N_ ("Why the cell failed or was skipped"),
  };
  return col < MS_TABLE_N_COLS ? _ (texts[col]) : NULL;
}

gboolean
ms_table_col_is_number (MsTableCol col)
{
  return (col >= MS_TABLE_COL_E2E && col <= MS_TABLE_COL_E2E_MAX) || col == MS_TABLE_COL_ALLOC
         || col == MS_TABLE_COL_FREE;
}

gboolean
ms_table_col_is_time (MsTableCol col)
{
  return col >= MS_TABLE_COL_E2E && col <= MS_TABLE_COL_E2E_MAX && col != MS_TABLE_COL_REPS;
}

/* The costs lesson's host phases, as `memsweep lesson costs` prints them. */
static double
cost_of (const MsCell *cell, MsTableCol col)
{
  gboolean reg = cell->mode == MS_MODE_REGISTERED;
  MsPhase alloc = reg ? MS_PHASE_REGISTER : MS_PHASE_ALLOC;
  MsPhase release = reg ? MS_PHASE_UNREGISTER : MS_PHASE_FREE;
  const MsStat *st = &cell->stats.phase_host[col == MS_TABLE_COL_ALLOC ? alloc : release];
  return st->n ? st->median : NAN;
}

double
ms_table_row_number (MsTableRow *row, MsTableCol col)
{
  const MsCellStats *st = &row->cell.stats;
  gboolean ok = row->cell.status == MS_CELL_OK;
  gboolean costs = row->kind == MS_TABLE_ROW_COSTS;
  if (ms_table_col_is_time (col) && costs)
    return NAN;
  switch (col) {
  case MS_TABLE_COL_SIZE:
    return (double)row->cell.elements;
  case MS_TABLE_COL_REPS:
    return row->cell.n_reps;
  case MS_TABLE_COL_ALLOC:
  case MS_TABLE_COL_FREE:
    return ok && costs ? cost_of (&row->cell, col) : NAN;
  case MS_TABLE_COL_E2E:
    return ok ? st->e2e.median : NAN;
  case MS_TABLE_COL_E2E_MIN:
    return ok ? st->e2e.min : NAN;
  case MS_TABLE_COL_E2E_MAX:
    return ok ? st->e2e.max : NAN;
  case MS_TABLE_COL_E2E_GBPS:
    return ok ? st->e2e_gbps : NAN;
  case MS_TABLE_COL_H2D_GBPS:
    return ok && st->h2d_gbps > 0 ? st->h2d_gbps : NAN;
  case MS_TABLE_COL_D2H_GBPS:
    return ok && st->d2h_gbps > 0 ? st->d2h_gbps : NAN;
  case MS_TABLE_COL_KERNEL:
    return ok && st->phase[MS_PHASE_KERNEL].n ? st->phase[MS_PHASE_KERNEL].median : NAN;
  case MS_TABLE_COL_OVERHEAD: {
    double ratio;
    return ms_cell_instr_overhead (&row->cell, &ratio, NULL) ? ratio : NAN;
  }
  default:
    return NAN;
  }
}

char *
ms_table_row_text (MsTableRow *row, MsTableCol col)
{
  char buf[64];
  switch (col) {
  case MS_TABLE_COL_RUN:
    return g_strdup (row->run);
  /* The name the charts and lessons give the mode; CSV keeps its id. */
  case MS_TABLE_COL_MODE:
    return g_strdup (ms_mode_title (row->cell.mode));
  /* Bytes alone, to leave room for the figures; the tooltip has 2^n. */
  case MS_TABLE_COL_SIZE:
    ms_format_bytes (ms_vector_bytes (row->cell.elements), buf, sizeof buf);
    return g_strdup (buf);
  case MS_TABLE_COL_VARIANT:
    return g_utf8_make_valid (row->cell.variant, -1);
  case MS_TABLE_COL_STATUS:
    return g_strdup (ms_cell_status_name (row->cell.status));
  case MS_TABLE_COL_REPS:
    return g_strdup_printf ("%d", row->cell.n_reps);
  /* Reasons come from files and drivers: never trust them to be UTF-8. */
  case MS_TABLE_COL_MESSAGE:
    return g_utf8_make_valid (row->cell.message, -1);
  case MS_TABLE_COL_OVERHEAD: {
    double ratio, diff;
    if (!ms_cell_instr_overhead (&row->cell, &ratio, &diff))
      return g_strdup ("—");
    /* As the Timeline view's title has it: the instrumented median under
     * the plain one is noise, not timers that save time. Short, so that
     * the column stays narrow at 1024 pixels; the tooltip has both
     * medians. */
    if (diff <= 0)
      return g_strdup (C_ ("timer cost", "≈0"));
    /* The unit is in the title, as in every figure's column. */
    return g_strdup_printf ("+%.1f", diff);
  }
  default: {
    double v = ms_table_row_number (row, col);
    if (isnan (v))
      return g_strdup ("—");
    /* Three figures at most below 1000: narrow columns that a projector
     * still fits side by side. */
    return g_strdup_printf (v >= 1000 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  }
  }
}

char *
ms_table_row_tooltip (MsTableRow *row, MsTableCol col)
{
  double ratio, diff;
  switch (col) {
  case MS_TABLE_COL_RUN:
    /* The column shows the short name; the tooltip the run in full. */
    return g_strdup (row->run_description ? row->run_description : row->run);
  case MS_TABLE_COL_MODE:
    return g_strdup (ms_mode_description (row->cell.mode));
  case MS_TABLE_COL_SIZE:
    /* TRANSLATORS: the size column's tooltip: elements per vector. */
    return g_strdup_printf (_ ("2^%d floats per vector"), row->cell.exponent);
  case MS_TABLE_COL_VARIANT:
    return row->cell.variant[0] ? ms_variant_describe (row->cell.variant) : NULL;
  case MS_TABLE_COL_OVERHEAD:
    if (!ms_cell_instr_overhead (&row->cell, &ratio, &diff))
      return NULL;
    /* TRANSLATORS: the timer cost's tooltip: both medians and their ratio. */
    return g_strdup_printf (_ ("End to end: %.2f µs with per-step timers, %.2f µs without "
                               "(%.2f×)"),
                            row->cell.stats.e2e_instr.median, row->cell.stats.e2e.median, ratio);
  default:
    return NULL;
  }
}

int
ms_table_row_compare (MsTableRow *x, MsTableRow *y, MsTableCol c)
{
  if (c == MS_TABLE_COL_MODE)
    return (x->cell.mode > y->cell.mode) - (x->cell.mode < y->cell.mode);
  if (c == MS_TABLE_COL_RUN || c == MS_TABLE_COL_VARIANT || c == MS_TABLE_COL_STATUS
      || c == MS_TABLE_COL_MESSAGE) {
    g_autofree char *s = ms_table_row_text (x, c), *t = ms_table_row_text (y, c);
    return g_strcmp0 (s, t);
  }
  double u = ms_table_row_number (x, c), v = ms_table_row_number (y, c);
  if (isnan (u) || isnan (v))
    return isnan (u) - isnan (v);
  return (u > v) - (u < v);
}

char *
ms_table_row_dup_search_text (MsTableRow *row)
{
  g_autofree char *described
      = row->cell.variant[0] ? ms_variant_describe (row->cell.variant) : NULL;
  /* The size as the column shows it: "4 MiB" finds the rows that match
   * the Breakdown and the Timeline without scrolling past a hundred. */
  char size[32];
  ms_format_size_label ((double) ms_vector_bytes (row->cell.elements), size, sizeof size);
  return g_strdup_printf ("%s %s %s %s %s", ms_mode_name (row->cell.mode),
                          ms_mode_title (row->cell.mode), size, row->cell.variant,
                          described ? described : "");
}

void
ms_table_rows_csv_header (GString *out)
{
  g_string_append (out, "run,mode,elements,status,reps,e2e_median_us,e2e_min_us,e2e_max_us,"
                        "e2e_gbps,h2d_gbps,d2h_gbps,kernel_median_us,instr_overhead_ratio,"
                        "alloc_us,free_us,variant,message\n");
}

void
ms_table_row_append_csv (MsTableRow *row, GString *out)
{
  g_autofree char *run = g_strescape (row->run, NULL), *msg = g_strescape (row->cell.message, NULL);
  g_autofree char *variant = g_strescape (row->cell.variant, NULL);
  g_string_append_printf (out, "\"%s\",%s,%llu,%s", run, ms_mode_name (row->cell.mode),
                          (unsigned long long)row->cell.elements,
                          ms_cell_status_name (row->cell.status));
  g_string_append_printf (out, ",%d", row->cell.n_reps);
  /* The header's order, whatever the view's. */
  static const MsTableCol csv_cols[] = {
    MS_TABLE_COL_E2E,      MS_TABLE_COL_E2E_MIN,  MS_TABLE_COL_E2E_MAX, MS_TABLE_COL_E2E_GBPS,
    MS_TABLE_COL_H2D_GBPS, MS_TABLE_COL_D2H_GBPS, MS_TABLE_COL_KERNEL,  MS_TABLE_COL_OVERHEAD,
    MS_TABLE_COL_ALLOC,    MS_TABLE_COL_FREE,
  };
  for (guint i = 0; i < G_N_ELEMENTS (csv_cols); i++) {
    double v = ms_table_row_number (row, csv_cols[i]);
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append_c (out, ',');
    if (!isnan (v))
      g_string_append (out, g_ascii_formatd (num, sizeof num, "%.3f", v));
  }
  /* A reason that starts like a formula is neutralised, as in exports. */
  g_string_append_printf (out, ",\"%s\"", variant);
  g_string_append_printf (out, ",\"%s%s\"\n", strchr ("=+-@", msg[0]) && msg[0] ? "'" : "", msg);
}
