/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-page.c: the Compare page: pickers for A and B over the
 * session's runs, the threshold, the summary, the difference chart
 * (draw/ms-compare-chart.c) and a table of the cells, each a row object
 * holding its MsCompareCell. */
#include <glib/gi18n.h>
#include <adwaita.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-drawing.h"
#include "ms-compare-page.h"
#include "ms-live-compare.h"
#include "ms-run.h"
#include "ms-props.h"
#include "ms-views.h"
#include "ms-engine.h"

/* One table row: a cell of the comparison. Rows are kept across
 * comparisons and changed in place ("changed"), so that a new comparison
 * rebinds the labels shown instead of making the table's widgets anew. */
#define MS_TYPE_COMPARE_ROW (ms_compare_row_get_type ())
G_DECLARE_FINAL_TYPE (MsCompareRow, ms_compare_row, MS, COMPARE_ROW, GObject)

struct _MsCompareRow {
  GObject parent_instance;
  MsCompareCell cell;
};

G_DEFINE_FINAL_TYPE (MsCompareRow, ms_compare_row, G_TYPE_OBJECT)

static guint row_changed_signal;

static void
ms_compare_row_class_init (MsCompareRowClass *klass)
{
  row_changed_signal = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ms_compare_row_init (MsCompareRow *self)
{
}

struct _MsComparePage {
  MsPage parent_instance;

  /* Template children. */
  GtkStack *stack;
  GtkDropDown *a_dropdown, *b_dropdown;
  GtkSpinButton *threshold_spin;
  GtkButton *live_button, *empty_live_button;
  GtkLabel *summary_label, *modes_label;
  GtkExpander *modes_expander;
  GtkScrolledWindow *modes_scroll;
  GtkPaned *paned;
  GtkDrawingArea *chart;
  GtkColumnView *table;

  GListStore *runs; /* MsRun, the pickers' model */
  GListStore *rows; /* MsCompareRow, every cell of the comparison */
  /* The rows the table has: GTK 4.8 makes the widgets of up to 200 rows
   * (seven labels each) at once when rows come, some 60 ms for the
   * reference runs; they come in idle slices while the page is shown
   * instead, and none while it is hidden (files are opened with another
   * page in view), so that opening runs never blocks the window. */
  GtkSliceListModel *shown;
  guint step_source;
  double threshold; /* percent */
  MsComparison *comparison;
  MsChartData *chart_data;
  double chart_share; /* of the paned's height, kept as the page resizes */
  gboolean placing;   /* the paned is being moved by the page, not the user */
  gboolean syncing;   /* the pickers are being refilled */
  MsViewScale scale;  /* the window's, as every view's */
};

G_DEFINE_FINAL_TYPE (MsComparePage, ms_compare_page, MS_TYPE_PAGE)

enum { PROP_0, PROP_THRESHOLD, PROP_SCALE_FIRST, N_PROPS = PROP_SCALE_FIRST + MS_VIEW_SCALE_N_PROPS };
static GParamSpec *props[N_PROPS];

static MsRun *
picked (GtkDropDown *dropdown)
{
  return MS_RUN (gtk_drop_down_get_selected_item (dropdown));
}

static char *
summary_line (const char *name, const MsCompareSummary *s)
{
  char ratio[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (ratio, sizeof ratio, "%.3f", s->median_ratio);
  g_autofree char *line = g_strdup_printf (
      _ ("%s: %d common cells: %d same, %d faster, %d slower, %d ambiguous; median B/A %s"), name,
      s->n_common, s->count[MS_VERDICT_SAME], s->count[MS_VERDICT_FASTER],
      s->count[MS_VERDICT_SLOWER], s->count[MS_VERDICT_AMBIGUOUS], ratio);
  if (!s->only_a && !s->only_b)
    return g_steal_pointer (&line);
  return g_strdup_printf (_ ("%s; %d only in A, %d only in B"), line, s->only_a, s->only_b);
}

/* The lines per mode, one each. */
static char *
modes_text (const MsComparison *cmp)
{
  GString *text = g_string_new (NULL);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    const MsCompareSummary *s = &cmp->mode[m];
    if (!s->n_common && !s->only_a && !s->only_b)
      continue;
    g_autofree char *line = summary_line (ms_mode_title ((MsMode)m), s);
    g_string_append_printf (text, "%s%s", text->len ? "\n" : "", line);
  }
  return g_string_free (text, FALSE);
}

/* Where each run's spread between processes came from: without one no
 * cell can be faster or slower (docs/compare.md). */
static char *
spread_text (const MsComparison *cmp)
{
  const char *unknown = _ ("unknown, so no cell can be faster or slower");
  return g_strdup_printf (_ ("Spread between processes: A: %s; B: %s"),
                          cmp->spread_a[0] ? cmp->spread_a : unknown,
                          cmp->spread_b[0] ? cmp->spread_b : unknown);
}

/* One line of the modes whose pooled verdict is v, each with what says
 * how sure it is: "Same: Pinned ±3%, Zero-copy ±6%"; "" when none. */
static void
append_pooled_group (GString *text, const MsComparison *cmp, MsVerdict v, const char *title)
{
  const char *sep = "";
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    const MsPooledVerdict *p = &cmp->pooled[m];
    if (p->method == MS_POOL_NONE || p->verdict != v)
      continue;
    if (!sep[0])
      g_string_append_printf (text, "\n%s: ", title);
    g_string_append_printf (text, "%s%s ", sep, ms_mode_title ((MsMode) m));
    if (v == MS_VERDICT_SAME)
      g_string_append_printf (text, "±%.0f%%", ceil (100 * p->within));
    else if (v == MS_VERDICT_AMBIGUOUS)
      g_string_append_printf (text, "%.0f%%", ceil (100 * p->detectable));
    else
      g_string_append_printf (text, "%.2f× (%.2f–%.2f)", p->ratio, p->lo, p->hi);
    sep = ", ";
  }
}

/* The run's pooled verdict and how many modes came out which way, in one
 * line above the cells' counts: the question a user asks first. Which
 * modes, with how sure each is, opens under "Each mode" (pooled_groups):
 * at 1024x768 the chart keeps its room. */
static char *
pooled_text (const MsComparison *cmp)
{
  char text[200];
  int count[MS_VERDICT_COUNT] = { 0 };
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (cmp->pooled[m].method != MS_POOL_NONE)
      count[cmp->pooled[m].verdict]++;
  ms_pooled_verdict_describe (&cmp->pooled_run, text, sizeof text);
  GString *line = g_string_new (NULL);
  g_string_append_printf (line, _ ("Whole run: %s; its modes:"), text);
  const char *sep = " ";
  for (int v = 0; v < MS_VERDICT_COUNT; v++) {
    if (!count[v])
      continue;
    g_string_append (line, sep);
    if (v == MS_VERDICT_SAME)
      g_string_append_printf (line, _ ("%d same"), count[v]);
    else if (v == MS_VERDICT_FASTER)
      g_string_append_printf (line, _ ("%d B faster"), count[v]);
    else if (v == MS_VERDICT_SLOWER)
      g_string_append_printf (line, _ ("%d B slower"), count[v]);
    else
      g_string_append_printf (line, _ ("%d undecided"), count[v]);
    sep = ", ";
  }
  /* Why host-bound modes may differ, in short; the sentence opens
   * "Each mode". */
  const MsPooledVerdict *host = ms_comparison_host_moved (cmp);
  if (host)
    g_string_append_printf (line,
                            host->verdict == MS_VERDICT_SAME
                                ? _ ("; host moved, less than the threshold (CPU baseline %.2f×)")
                                : _ ("; host differs (CPU baseline %.2f×)"),
                            host->ratio);
  return g_string_free (line, FALSE);
}

/* Each mode's pooled verdict, grouped by verdict; first, when the host
 * side differs, why that matters. */
static char *
pooled_groups (const MsComparison *cmp)
{
  GString *text = g_string_new (NULL);
  const MsPooledVerdict *host = ms_comparison_host_moved (cmp);
  if (host) {
    char moved[400];
    ms_host_moved_describe (host, moved, sizeof moved);
    g_string_append_printf (text, "\n%s", moved);
  }
  append_pooled_group (text, cmp, MS_VERDICT_SLOWER, _ ("B slower"));
  append_pooled_group (text, cmp, MS_VERDICT_FASTER, _ ("B faster"));
  append_pooled_group (text, cmp, MS_VERDICT_SAME, _ ("Same"));
  append_pooled_group (text, cmp, MS_VERDICT_AMBIGUOUS,
                       _ ("Undecided, the smallest change each could find"));
  /* Each group began with a line break. */
  if (text->len)
    g_string_erase (text, 0, 1);
  return g_string_free (text, FALSE);
}

static char *
all_text (const MsComparison *cmp)
{
  g_autofree char *pooled = pooled_text (cmp);
  g_autofree char *counts = summary_line (_ ("all"), &cmp->all);
  g_autofree char *all = g_strdup_printf ("%s\n%s", pooled, counts);
  if (cmp->spread_a[0] && cmp->spread_b[0])
    return g_steal_pointer (&all);
  /* Where it is missing, say so beside the counts: it is why none differs. */
  return g_strdup_printf ("%s\n%s", all,
                          _ ("The spread between processes is unknown for a run: no cell can "
                             "be faster or slower (calibrate, or open runs of a GPU model "
                             "memsweep has a profile of)."));
}

static gboolean
same_interval (const MsInterval *a, const MsInterval *b)
{
  /* Bitwise, so that NaN equals NaN. */
  return a->valid == b->valid && memcmp (&a->median, &b->median, sizeof a->median) == 0
         && memcmp (&a->lo, &b->lo, sizeof a->lo) == 0
         && memcmp (&a->hi, &b->hi, sizeof a->hi) == 0;
}

static gboolean
same_cell (const MsCompareCell *a, const MsCompareCell *b)
{
  return a->mode == b->mode && a->exponent == b->exponent && strcmp (a->variant, b->variant) == 0
         && a->in_a == b->in_a && a->in_b == b->in_b && same_interval (&a->a, &b->a)
         && same_interval (&a->b, &b->b) && memcmp (&a->ratio, &b->ratio, sizeof a->ratio) == 0
         && a->verdict == b->verdict;
}

static void step_rows_start (MsComparePage *self);

/* The rows kept change in place where their cell did (runs opened beside
 * A and B change none); only the rows past the old count come or go. */
static void
fill_rows (MsComparePage *self)
{
  guint n = self->comparison ? (guint) self->comparison->n_cells : 0;
  guint had = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  for (guint i = 0; i < MIN (n, had); i++) {
    g_autoptr (MsCompareRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), i);
    if (same_cell (&row->cell, &self->comparison->cells[i]))
      continue;
    row->cell = self->comparison->cells[i];
    g_signal_emit (row, row_changed_signal, 0);
  }
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = had; i < n; i++) {
    MsCompareRow *row = g_object_new (MS_TYPE_COMPARE_ROW, NULL);
    row->cell = self->comparison->cells[i];
    g_ptr_array_add (rows, row);
  }
  if (n != had)
    g_list_store_splice (self->rows, MIN (n, had), had > n ? had - n : 0, rows->pdata, rows->len);
  step_rows_start (self);
}

/* One slice: more rows for the table while the page is shown. */
static gboolean
step_rows (gpointer data)
{
  MsComparePage *self = data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  guint size = gtk_slice_list_model_get_size (self->shown);
  gint64 start = g_get_monotonic_time ();
  while (size < n && g_get_monotonic_time () - start < MS_ROWS_SLICE_US)
    gtk_slice_list_model_set_size (self->shown, size = ms_rows_step (size, n));
  if (size < n && gtk_widget_get_mapped (GTK_WIDGET (self)))
    return G_SOURCE_CONTINUE;
  self->step_source = 0;
  return G_SOURCE_REMOVE;
}

static void
step_rows_start (MsComparePage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  /* Fewer rows go at once: they only cost their widgets' destruction. */
  if (gtk_slice_list_model_get_size (self->shown) > n)
    gtk_slice_list_model_set_size (self->shown, n);
  if (!self->step_source && gtk_widget_get_mapped (GTK_WIDGET (self))
      && gtk_slice_list_model_get_size (self->shown) < n)
    self->step_source = g_idle_add (step_rows, self);
}

static void
ms_compare_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ms_compare_page_parent_class)->map (widget);
  step_rows_start (MS_COMPARE_PAGE (widget));
}

/* A picker shows the run's short name: its tooltip has the run in full. */
static void
pick_tooltip (GtkDropDown *dropdown)
{
  MsRun *run = picked (dropdown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (dropdown), run ? ms_run_get_description (run) : NULL);
}

/* A line first where A and B are one run, or one file read twice: every cell "ambiguous" at
 * B/A 1.000 was read as a finding (the command line notes the same); a fact, as it goes into an
 * export's caption too; NULL otherwise. */
static char *
same_note (MsRun *a, MsRun *b)
{
  if (a == b)
    return g_strdup (_ ("A and B are the same run: it is compared with itself."));
  if (ms_run_same_file (a, b))
    return g_strdup (_ ("A and B are the same file, read twice: it is compared with itself."));
  return NULL;
}

/* Compares the runs picked, with the threshold set. */
static void
recompute (gpointer page)
{
  MsComparePage *self = page;
  g_clear_pointer (&self->comparison, ms_comparison_free);
  g_clear_pointer (&self->chart_data, ms_chart_data_free);
  guint n_runs = g_list_model_get_n_items (G_LIST_MODEL (self->runs));
  gtk_stack_set_visible_child_name (self->stack, n_runs >= 2 ? "compare" : "empty");
  g_autofree char *modes = NULL, *summary = NULL;
  MsRun *a = picked (self->a_dropdown), *b = picked (self->b_dropdown);
  if (n_runs >= 2 && a && b) {
    char err[256] = "";
    self->comparison = ms_compare_results (ms_run_get_results (a), ms_run_get_results (b),
                                           ms_compare_threshold_fraction (self->threshold),
                                           MS_MODE_COUNT, err, sizeof err);
    g_autofree char *title
        = g_strdup_printf (_ ("B: %s against A: %s"), ms_run_get_name (b), ms_run_get_name (a));
    if (self->comparison) {
      g_autofree char *verdicts = all_text (self->comparison);
      g_autofree char *setup = ms_setup_differences (ms_run_get_results (a),
                                                     ms_run_get_results (b));
      /* Beside the verdicts, so that host differences are not read as the GPU's. */
      g_autofree char *all = setup ? g_strdup_printf ("%s\n%s", verdicts, setup)
                                   : g_steal_pointer (&verdicts);
      g_autofree char *same = same_note (a, b);
      if (same) {
        g_autofree char *told = g_strdup_printf ("%s\n%s", same, all);
        g_free (all);
        all = g_steal_pointer (&told);
      }
      g_autofree char *per_mode = modes_text (self->comparison);
      g_autofree char *spreads = spread_text (self->comparison);
      g_autofree char *groups = pooled_groups (self->comparison);
      modes = g_strdup_printf ("%s\n%s\n%s", groups, spreads, per_mode);
      summary = g_steal_pointer (&all);
      self->chart_data = ms_compare_chart_data (self->comparison, title);
    } else {
      summary = g_utf8_make_valid (err, -1);
    }
  }
  gtk_label_set_text (self->summary_label, summary ? summary : "");
  gtk_label_set_text (self->modes_label, modes ? modes : "");
  gtk_widget_set_visible (GTK_WIDGET (self->modes_scroll), modes && modes[0]);
  pick_tooltip (self->a_dropdown);
  pick_tooltip (self->b_dropdown);
  fill_rows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart));
}

static void
on_pick (MsComparePage *self)
{
  if (!self->syncing)
    recompute (self);
}

/* The chart keeps its share of the height as the page grows or shrinks
 * (a fixed position gave it 270 px at 1024x768 in presentation mode); a
 * drag of the handle sets the share. */
static int
max_position (GtkPaned *paned)
{
  int max = 0;
  g_object_get (paned, "max-position", &max, NULL);
  return max;
}

static void
on_paned_size (MsComparePage *self)
{
  int max = max_position (self->paned);
  self->placing = TRUE;
  gtk_paned_set_position (self->paned, (int) (self->chart_share * max));
  self->placing = FALSE;
}

static void
on_paned_moved (MsComparePage *self)
{
  int max = max_position (self->paned);
  if (!self->placing && max > 0)
    self->chart_share = CLAMP ((double) gtk_paned_get_position (self->paned) / max, 0.1, 1.0);
}

/* The difference chart as the page shows it, and as it exports it. */
static void
draw_comparison (MsPage *page, cairo_t *cr, const MsChartStyle *style, double width,
                 double height)
{
  MsComparePage *self = MS_COMPARE_PAGE (page);
  ms_draw_background (cr, style);
  if (self->comparison && self->chart_data)
    ms_compare_chart_draw (cr, self->comparison, self->chart_data, style, width, height, NULL);
}

static void
draw_chart (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  MsComparePage *self = data;
  /* The window's text scale, as in every view, so that the chart's words
   * grow when projected; but at most 1.3 while the chart is low (under the
   * run pickers and over the table, some 360 pixels at 1024x768): at 1.6
   * its title, legend and axis left the plot a strip. */
  MsViewScale scale = self->scale;
  if (height < 480)
    scale.text_scale = MIN (scale.text_scale, 1.3);
  MsChartStyle style;
  ms_view_style_from_widget (GTK_WIDGET (area), &scale, &style);
  draw_comparison (MS_PAGE (self), cr, &style, width, height);
}

/* ---- the table --------------------------------------------------------- */

/* The verdict and what it rests on first, the medians after: projected at
 * 1024x768 the table shows the first six columns. */
typedef enum {
  COL_MODE,
  COL_SIZE,
  COL_VARIANT,
  COL_RATIO,
  COL_INTERVAL,
  COL_VERDICT,
  COL_A,
  COL_B,
  N_COLS
} Column;

static gboolean
is_number (Column col)
{
  return col == COL_RATIO || col == COL_INTERVAL || col == COL_A || col == COL_B;
}

static char *
number (double v, const char *format)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return isfinite (v) ? g_strdup (g_ascii_formatd (buf, sizeof buf, format, v)) : g_strdup ("–");
}

/* The table's verdict says whose time it judges, as the chart's key does:
 * "FASTER" alone left the class asking which run. */
static const char *
verdict_text (MsVerdict verdict)
{
  switch (verdict) {
  case MS_VERDICT_FASTER: return C_ ("compare verdict", "B faster");
  case MS_VERDICT_SLOWER: return C_ ("compare verdict", "B slower");
  case MS_VERDICT_SAME: return C_ ("compare verdict", "same");
  case MS_VERDICT_AMBIGUOUS: return C_ ("compare verdict", "ambiguous");
  default: return ms_verdict_label (verdict);
  }
}
static char *
cell_text (const MsCompareCell *c, Column col)
{
  switch (col) {
  case COL_MODE:
    return g_strdup (ms_mode_title (c->mode));
  case COL_SIZE: {
    char bytes[32];
    ms_format_bytes (ms_exponent_bytes (c->exponent), bytes, sizeof bytes);
    return g_strdup_printf ("2^%d  %s", c->exponent, bytes);
  }
  case COL_VARIANT:
    return g_utf8_make_valid (c->variant[0] ? c->variant : "–", -1);
  case COL_A:
    return number (c->a.median, "%.2f");
  case COL_B:
    return number (c->b.median, "%.2f");
  case COL_RATIO:
    return number (c->ratio, "%.3f");
  case COL_INTERVAL: {
    /* The interval the verdict rests on, so that a reader can check it. */
    g_autofree char *lo = number (c->judgement.lo, "%.3f");
    g_autofree char *hi = number (c->judgement.hi, "%.3f");
    return c->in_a && c->in_b && isfinite (c->judgement.lo) ? g_strdup_printf ("%s–%s", lo, hi)
                                                            : g_strdup ("–");
  }
  case COL_VERDICT:
  default:
    if (c->in_a && c->in_b && c->verdict == MS_VERDICT_AMBIGUOUS &&
        isfinite (c->judgement.detectable))
      /* TRANSLATORS: an undecided cell and the smallest change its pair
       * of runs could have shown, "ambiguous, detects 16%+". */
      return g_strdup_printf (_ ("ambiguous, detects %.0f%%+"), 100 * c->judgement.detectable);
    return g_strdup (c->in_a && c->in_b ? verdict_text (c->verdict)
                     : c->in_a          ? _ ("only in A")
                                        : _ ("only in B"));
  }
}

/* Why the cell has its verdict, in words (the same reasons as memsweep
 * compare's "why"). */
static const char *
cell_reason (const MsCompareCell *c)
{
  return c->in_a && c->in_b ? ms_verdict_why_text (c->judgement.why) : NULL;
}

static void
setup_cell (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  Column col = GPOINTER_TO_INT (data);
  gtk_label_set_xalign (GTK_LABEL (label), is_number (col) ? 1 : 0);
  if (is_number (col))
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
show_cell (GtkListItem *item)
{
  MsCompareRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "column"));
  g_autofree char *text = cell_text (&row->cell, col);
  gtk_label_set_text (GTK_LABEL (label), text);
  if (col == COL_VERDICT)
    gtk_widget_set_tooltip_text (label, cell_reason (&row->cell));
}

static void
bind_cell (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "column", data);
  show_cell (item);
  g_signal_connect_swapped (gtk_list_item_get_item (item), "changed", G_CALLBACK (show_cell), item);
}

static void
unbind_cell (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  g_signal_handlers_disconnect_by_func (gtk_list_item_get_item (item), show_cell, item);
}

static void
add_columns (MsComparePage *self)
{
  const char *titles[N_COLS]
      = { _ ("Mode"),  _ ("Size"),
          _ ("Variant"),
          _ ("B / A"),
          /* xgettext:no-c-format */
          _ ("95% interval"),
          _ ("Verdict"),
          _ ("A median (µs)"),
          _ ("B median (µs)") };
  for (int c = 0; c < N_COLS; c++) {
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
    g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (c));
    g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (c));
    g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GINT_TO_POINTER (c));
    GtkColumnViewColumn *column = gtk_column_view_column_new (titles[c], factory);
    gtk_column_view_column_set_expand (column, c == COL_VARIANT);
    gtk_column_view_append_column (self->table, column);
    g_object_unref (column);
  }
  GtkSelectionModel *model
      = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->shown))));
  gtk_column_view_set_model (self->table, model);
  g_object_unref (model);
}

/* ---- runs and properties ------------------------------------------------ */

static guint
index_of (GListStore *store, MsRun *run, guint fallback)
{
  guint pos;
  return run && g_list_store_find (store, run, &pos) ? pos : fallback;
}

/* The runs a comparison is between: sweeps, not lesson runs, whose cells
 * are variants of one question and have the Lessons page to read them. */
static GPtrArray *
comparable_runs (GPtrArray *runs)
{
  GPtrArray *kept = g_ptr_array_new ();
  for (guint i = 0; runs && i < runs->len; i++) {
    MsRun *run = g_ptr_array_index (runs, i);
    if (ms_plot_run_drawn (ms_run_get_results (run)))
      g_ptr_array_add (kept, run);
  }
  return kept;
}

static void
ms_compare_page_runs_changed (MsPage *page, GPtrArray *all_runs)
{
  MsComparePage *self = MS_COMPARE_PAGE (page);
  g_autoptr (GPtrArray) runs = comparable_runs (all_runs);
  /* The runs picked stay picked while they are open; else (and whenever
   * there were fewer than two to pick from) A is the first run and B the
   * second. */
  gboolean kept = g_list_model_get_n_items (G_LIST_MODEL (self->runs)) >= 2;
  MsRun *was_a = kept ? picked (self->a_dropdown) : NULL;
  MsRun *was_b = kept ? picked (self->b_dropdown) : NULL;
  g_autoptr (MsRun) a = was_a ? g_object_ref (was_a) : NULL;
  g_autoptr (MsRun) b = was_b ? g_object_ref (was_b) : NULL;
  self->syncing = TRUE;
  g_list_store_splice (self->runs, 0, g_list_model_get_n_items (G_LIST_MODEL (self->runs)),
                       runs->pdata, runs->len);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));
  guint ia = index_of (self->runs, a, 0), ib = index_of (self->runs, b, n > 1 ? 1 : 0);
  gtk_drop_down_set_selected (self->a_dropdown, n ? ia : GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (self->b_dropdown, n ? ib : GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
  recompute (self);
}

/* Picks a as Run A and b as Run B, when both are among the runs. */
static void
ms_compare_page_pick (MsComparePage *self, MsRun *a, MsRun *b)
{
  guint none = GTK_INVALID_LIST_POSITION;
  guint ia = index_of (self->runs, a, none), ib = index_of (self->runs, b, none);
  if (ia == none || ib == none)
    return;
  gtk_drop_down_set_selected (self->a_dropdown, ia);
  gtk_drop_down_set_selected (self->b_dropdown, ib);
}

static cairo_status_t
write_verdicts (MsAtomicFile *file, gpointer data)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);
  if (!out)
    return CAIRO_STATUS_NO_MEMORY;
  gboolean ok = ms_comparison_write_csv (data, out);
  ok = fclose (out) == 0 && ok;
  /* A failed write keeps its reason in the file, for its message. */
  ok = ok && ms_atomic_file_write (file, text, len);
  free (text);
  return ok ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* The verdict table beside the chart: NAME-verdicts.csv for NAME.png. */
static char *
write_verdicts_beside (MsPage *page, const char *path, GError **error)
{
  MsComparePage *self = MS_COMPARE_PAGE (page);
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, G_DIR_SEPARATOR);
  size_t stem = dot && (!slash || dot > slash) ? (size_t) (dot - path) : strlen (path);
  g_autofree char *csv = g_strdup_printf ("%.*s-verdicts.csv", (int) stem, path);
  char why[4 * 1024];
  /* Held to the output plan's rules, as the picture was. */
  if (!ms_output_plan_check_file (_("Export"), csv, why, sizeof why)) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, why);
    return NULL;
  }
  if (!self->comparison || !ms_export_write_file (csv, write_verdicts, self->comparison, error))
    return NULL;
  return g_steal_pointer (&csv);
}

/* The difference chart of B against A, with their captions, and the
 * verdict table as CSV beside it. */
static char *
ms_compare_page_get_drawing (MsPage *page, MsPageDrawing *drawing)
{
  MsComparePage *self = MS_COMPARE_PAGE (page);
  MsRun *a = picked (self->a_dropdown), *b = picked (self->b_dropdown);
  if (!self->comparison || !a || !b)
    return g_strdup (_("Nothing is compared: open two runs with sizes in common first"));
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  g_ptr_array_add (runs, a);
  g_ptr_array_add (runs, b);
  drawing->kind = "compare";
  drawing->title = g_strdup (self->chart_data->title); /* as the chart names it */
  /* The verdicts' count and how the two setups differ first, as under
   * the chart on screen: an export without them read a host's difference
   * as the GPU's. */
  g_autofree char *runs_caption = ms_page_runs_caption (runs);
  const char *verdicts = gtk_label_get_text (self->summary_label);
  drawing->caption = verdicts && verdicts[0] && runs_caption
                       ? g_strdup_printf ("%s\n%s", verdicts, runs_caption)
                       : g_strdup (verdicts && verdicts[0] ? verdicts : runs_caption);
  drawing->draw = draw_comparison;
  drawing->write_beside = write_verdicts_beside;
  return NULL;
}

const MsComparison *
ms_compare_page_get_comparison (MsComparePage *self)
{
  return self->comparison;
}

/* A live comparison's two runs, once they have joined the session, become
 * A and B (ms-live-compare.c starts the work; the session names its runs). */
static void
on_live_compare_finished (MsComparePage *self, MsRun *a, MsRun *b, const char *error)
{
  if (a && b)
    ms_compare_page_pick (self, a, b);
}

static void
ms_compare_page_dispose (GObject *object)
{
  MsComparePage *self = MS_COMPARE_PAGE (object);
  g_clear_handle_id (&self->step_source, g_source_remove);
  ms_widget_dispose_children (GTK_WIDGET (object), MS_TYPE_COMPARE_PAGE);
  g_clear_object (&self->runs);
  g_clear_object (&self->shown);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->comparison, ms_comparison_free);
  g_clear_pointer (&self->chart_data, ms_chart_data_free);
  G_OBJECT_CLASS (ms_compare_page_parent_class)->dispose (object);
}

/* Opened, the modes' lines scroll (past the scroll's most height);
 * closed, no scroll bar, whose least height would take the chart's room. */
static void
on_modes_expanded (MsComparePage *self)
{
  gtk_scrolled_window_set_policy (self->modes_scroll, GTK_POLICY_NEVER,
                                  gtk_expander_get_expanded (self->modes_expander)
                                      ? GTK_POLICY_AUTOMATIC
                                      : GTK_POLICY_NEVER);
}

/* The window's scale, as every view's: the chart follows it. */
static void
redraw (gpointer page)
{
  gtk_widget_queue_draw (GTK_WIDGET (page));
  gtk_widget_queue_draw (GTK_WIDGET (MS_COMPARE_PAGE (page)->chart));
}

static const MsProp prop_table[N_PROPS] = {
  /* Percent, in the range of --threshold of `memsweep compare`: both are
   * MsCompareOptions' (ms-compare-options.h). */
  [PROP_THRESHOLD] = { "threshold", G_TYPE_DOUBLE, MS_PROP_FIELD (MsComparePage, threshold),
                       MS_COMPARE_MIN_THRESHOLD_PCT, MS_COMPARE_MAX_THRESHOLD_PCT,
                       MS_COMPARE_DEFAULT_THRESHOLD_PCT, .changed = recompute },
  MS_VIEW_SCALE_PROPS (MsComparePage, scale, PROP_SCALE_FIRST, redraw),
};

static void
ms_compare_page_class_init (MsComparePageClass *klass)
{
  MS_PAGE_CLASS (klass)->runs_changed = ms_compare_page_runs_changed;
  MS_PAGE_CLASS (klass)->get_drawing = ms_compare_page_get_drawing;
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_compare_page_dispose;
  widget_class->map = ms_compare_page_map;

  ms_props_install (object_class, prop_table, props, N_PROPS);

  /* The pickers' factories look up MsRun by name. */
  g_type_ensure (MS_TYPE_RUN);
#define CHILD(name) MS_TEMPLATE_CHILD (MsComparePage, name)
  static const MsTemplateBind binds[] = {
    CHILD (stack), CHILD (a_dropdown), CHILD (b_dropdown), CHILD (threshold_spin),
    CHILD (live_button), CHILD (empty_live_button), CHILD (summary_label), CHILD (modes_label),
    CHILD (modes_expander), CHILD (modes_scroll), CHILD (paned), CHILD (chart), CHILD (table),
    MS_TEMPLATE_CALLBACK (on_pick), MS_TEMPLATE_CALLBACK (on_modes_expanded),
    MS_TEMPLATE_CALLBACK (on_paned_size), MS_TEMPLATE_CALLBACK (on_paned_moved)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-compare-page", binds, G_N_ELEMENTS (binds));
}

static void
ms_compare_page_init (MsComparePage *self)
{
  self->runs = g_list_store_new (MS_TYPE_RUN);
  self->rows = g_list_store_new (MS_TYPE_COMPARE_ROW);
  self->shown = gtk_slice_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)), 0, 0);
  self->threshold = MS_COMPARE_DEFAULT_THRESHOLD_PCT;
  self->scale = (MsViewScale){ 1, 1, FALSE };
  self->chart_share = 0.88;
  gtk_widget_init_template (GTK_WIDGET (self));
  GtkExpression *name = gtk_property_expression_new (MS_TYPE_RUN, NULL, "name");
  gtk_drop_down_set_expression (self->a_dropdown, name);
  gtk_drop_down_set_expression (self->b_dropdown, name);
  gtk_expression_unref (name);
  self->syncing = TRUE;
  gtk_drop_down_set_model (self->a_dropdown, G_LIST_MODEL (self->runs));
  gtk_drop_down_set_model (self->b_dropdown, G_LIST_MODEL (self->runs));
  self->syncing = FALSE;
  gtk_spin_button_set_range (self->threshold_spin, MS_COMPARE_MIN_THRESHOLD_PCT,
                             MS_COMPARE_MAX_THRESHOLD_PCT);
  gtk_spin_button_set_value (self->threshold_spin, self->threshold);
  g_object_bind_property (self, "threshold", self->threshold_spin, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_drawing_area_set_draw_func (self->chart, draw_chart, self, NULL);
  add_columns (self);
  recompute (self);
  ms_live_compare_attach (MS_PAGE (self),
                          (GtkButton *[]){ self->live_button, self->empty_live_button, NULL });
  ms_page_connect_session (MS_PAGE (self), "live-compare-finished",
                           G_CALLBACK (on_live_compare_finished));
}
