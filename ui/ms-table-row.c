/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-row.c: the table's row type. */
#include "ms-table-row.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

struct _MsTableRow {
  GObject parent_instance;
  char *run;
  MsTableRowKind kind;
  MsCell cell; /* a copy without events */
};

G_DEFINE_FINAL_TYPE (MsTableRow, ms_table_row, G_TYPE_OBJECT)

static void
ms_table_row_finalize (GObject *object)
{
  g_free (MS_TABLE_ROW (object)->run);
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
  return row;
}

MsTableRowKind
ms_table_row_kind_of (const MsResults *run)
{
  return strcmp (run->experiment, "costs") == 0 ? MS_TABLE_ROW_COSTS : MS_TABLE_ROW_TIMES;
}

const char *
ms_table_col_title (MsTableCol col)
{
  static const char *titles[MS_TABLE_N_COLS] = {
    N_ ("Run"),      N_ ("Mode"),      N_ ("Size"),     N_ ("Variant"),
    N_ ("Status"),
    /* TRANSLATORS: a table column: the cell's count of timed repetitions. */
    N_ ("Reps"),     N_ ("E2E µs"),    N_ ("min µs"),   N_ ("max µs"),
    N_ ("E2E GB/s"), N_ ("h2d GB/s"),  N_ ("d2h GB/s"), N_ ("kernel µs"),
    /* TRANSLATORS: a table column: instrumented over plain end-to-end time,
     * what memsweep's own timers add. */
    N_ ("Timers ×"),
    /* TRANSLATORS: table columns of the costs lesson: what allocating (or
     * registering) and freeing the buffers takes on the host. */
    N_ ("alloc µs"), N_ ("free µs"),   N_ ("Reason"),
  };
  return col < MS_TABLE_N_COLS ? _(titles[col]) : NULL;
}

gboolean
ms_table_col_is_number (MsTableCol col)
{
  return col >= MS_TABLE_COL_REPS && col <= MS_TABLE_COL_FREE;
}

gboolean
ms_table_col_is_time (MsTableCol col)
{
  return col >= MS_TABLE_COL_E2E && col <= MS_TABLE_COL_OVERHEAD;
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
  case MS_TABLE_COL_SIZE: return (double) row->cell.elements;
  case MS_TABLE_COL_REPS: return row->cell.n_reps;
  case MS_TABLE_COL_ALLOC:
  case MS_TABLE_COL_FREE: return ok && costs ? cost_of (&row->cell, col) : NAN;
  case MS_TABLE_COL_E2E: return ok ? st->e2e.median : NAN;
  case MS_TABLE_COL_E2E_MIN: return ok ? st->e2e.min : NAN;
  case MS_TABLE_COL_E2E_MAX: return ok ? st->e2e.max : NAN;
  case MS_TABLE_COL_E2E_GBPS: return ok ? st->e2e_gbps : NAN;
  case MS_TABLE_COL_H2D_GBPS: return ok && st->h2d_gbps > 0 ? st->h2d_gbps : NAN;
  case MS_TABLE_COL_D2H_GBPS: return ok && st->d2h_gbps > 0 ? st->d2h_gbps : NAN;
  case MS_TABLE_COL_KERNEL:
    return ok && st->phase[MS_PHASE_KERNEL].n ? st->phase[MS_PHASE_KERNEL].median : NAN;
  case MS_TABLE_COL_OVERHEAD: {
    double ratio;
    return ms_cell_instr_overhead (&row->cell, &ratio, NULL) ? ratio : NAN;
  }
  default: return NAN;
  }
}

char *
ms_table_row_text (MsTableRow *row, MsTableCol col)
{
  char buf[64];
  switch (col) {
  case MS_TABLE_COL_RUN: return g_strdup (row->run);
  case MS_TABLE_COL_MODE: return g_strdup (ms_mode_name (row->cell.mode));
  case MS_TABLE_COL_SIZE:
    ms_format_bytes (row->cell.elements * sizeof (float), buf, sizeof buf);
    return g_strdup_printf ("2^%d · %s", row->cell.exponent, buf);
  case MS_TABLE_COL_VARIANT: return g_utf8_make_valid (row->cell.variant, -1);
  case MS_TABLE_COL_STATUS: return g_strdup (ms_cell_status_name (row->cell.status));
  case MS_TABLE_COL_REPS: return g_strdup_printf ("%d", row->cell.n_reps);
  /* Reasons come from files and drivers: never trust them to be UTF-8. */
  case MS_TABLE_COL_MESSAGE: return g_utf8_make_valid (row->cell.message, -1);
  case MS_TABLE_COL_OVERHEAD: {
    double ratio, diff;
    if (!ms_cell_instr_overhead (&row->cell, &ratio, &diff))
      return g_strdup ("—");
    /* TRANSLATORS: instrumented / plain time, then what the timers add. */
    return g_strdup_printf (_("%.2f× (%+.1f µs)"), ratio, diff);
  }
  default: {
    double v = ms_table_row_number (row, col);
    if (isnan (v))
      return g_strdup ("—");
    return g_strdup_printf (v >= 100 ? "%.1f" : "%.2f", v);
  }
  }
}

int
ms_table_row_compare (MsTableRow *x, MsTableRow *y, MsTableCol c)
{
  if (c == MS_TABLE_COL_MODE)
    return (x->cell.mode > y->cell.mode) - (x->cell.mode < y->cell.mode);
  if (c == MS_TABLE_COL_RUN || c == MS_TABLE_COL_VARIANT || c == MS_TABLE_COL_STATUS ||
      c == MS_TABLE_COL_MESSAGE) {
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
  return g_strdup_printf ("%s %s %s", ms_mode_name (row->cell.mode),
                          ms_mode_title (row->cell.mode), row->cell.variant);
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
                          (unsigned long long) row->cell.elements,
                          ms_cell_status_name (row->cell.status));
  g_string_append_printf (out, ",%d", row->cell.n_reps);
  for (MsTableCol c = MS_TABLE_COL_E2E; c <= MS_TABLE_COL_FREE; c++) {
    double v = ms_table_row_number (row, c);
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append_c (out, ',');
    if (!isnan (v))
      g_string_append (out, g_ascii_formatd (num, sizeof num, "%.3f", v));
  }
  /* A reason that starts like a formula is neutralised, as in exports. */
  g_string_append_printf (out, ",\"%s\"", variant);
  g_string_append_printf (out, ",\"%s%s\"\n", strchr ("=+-@", msg[0]) && msg[0] ? "'" : "", msg);
}
