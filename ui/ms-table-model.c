/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-model.c: the table's rows, made on demand. */
#include "ms-table-model.h"

#include "ms-run.h"
#include "ms-table-row.h"

/* A run as the model last saw it: a change in cells or repetitions (the
 * live sweep) makes its rows new. */
typedef struct {
  MsRun *held;
  const MsResults *run; /* held's results */
  size_t n_cells;
  size_t n_reps;  /* over every cell */
  guint label_hash; /* the live run is named when it ends */
} MsTableRun;

struct _MsTableModel {
  GObject parent_instance;
  GArray *runs; /* MsTableRun */
  guint n_items; /* every row; the list shows MIN (n_items, limit) */
  guint limit;
  gboolean has_variants, has_costs, has_times, has_reasons, has_not_ok; /* over every run */
};

static void ms_table_model_list_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MsTableModel, ms_table_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, ms_table_model_list_init))

static GType
ms_table_model_get_item_type (GListModel *list)
{
  return MS_TYPE_TABLE_ROW;
}

static guint
ms_table_model_get_n_items (GListModel *list)
{
  MsTableModel *self = MS_TABLE_MODEL (list);
  return MIN (self->n_items, self->limit);
}

static gpointer
ms_table_model_get_item (GListModel *list, guint position)
{
  MsTableModel *self = MS_TABLE_MODEL (list);
  if (position >= self->limit)
    return NULL;
  /* Few runs of many cells: walking the runs is cheap. */
  for (guint r = 0; r < self->runs->len; r++) {
    const MsTableRun *t = &g_array_index (self->runs, MsTableRun, r);
    if (position < t->n_cells) {
      MsTableRow *row = ms_table_row_new (t->run->label, &t->run->cells[position],
                                          ms_table_row_kind_of (t->run));
      ms_table_row_set_run_description (row, ms_run_get_description (t->held));
      return row;
    }
    position -= t->n_cells;
  }
  return NULL;
}

static void
ms_table_model_list_init (GListModelInterface *iface)
{
  iface->get_item_type = ms_table_model_get_item_type;
  iface->get_n_items = ms_table_model_get_n_items;
  iface->get_item = ms_table_model_get_item;
}

static void
table_run_clear (gpointer data)
{
  g_object_unref (((MsTableRun *) data)->held);
}

static void
ms_table_model_finalize (GObject *object)
{
  g_array_unref (MS_TABLE_MODEL (object)->runs);
  G_OBJECT_CLASS (ms_table_model_parent_class)->finalize (object);
}

static void
ms_table_model_class_init (MsTableModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ms_table_model_finalize;
}

static void
ms_table_model_init (MsTableModel *self)
{
  self->limit = G_MAXUINT;
  self->runs = g_array_new (FALSE, FALSE, sizeof (MsTableRun));
  g_array_set_clear_func (self->runs, table_run_clear);
}

static MsTableRun
table_run_of (MsRun *held)
{
  const MsResults *run = ms_run_get_results (held);
  MsTableRun t = { held, run, run->n_cells, 0, g_str_hash (run->label) };
  for (size_t i = 0; i < run->n_cells; i++)
    t.n_reps += run->cells[i].n_reps;
  return t;
}

static gboolean
table_run_same (const MsTableRun *a, const MsTableRun *b)
{
  return a->run == b->run && a->n_cells == b->n_cells && a->n_reps == b->n_reps &&
         a->label_hash == b->label_hash;
}

/* Rows [position, position + removed) of n_before became `added` rows: says
 * so for the rows below the limit. Under a limit, when rows after the change
 * would cross it, everything shown from `position` on is new: one signal,
 * so that the model reads as it is while it is emitted. */
static void
emit_shown_changes (MsTableModel *self, guint position, guint removed, guint added,
                    guint n_before)
{
  guint shown_before = MIN (n_before, self->limit), shown = MIN (self->n_items, self->limit);
  if (position >= shown_before && position >= shown)
    return;
  guint r = MIN (position + removed, shown_before) - position;
  guint a = MIN (position + added, shown) - position;
  if (shown_before - r != shown - a) {
    r = shown_before - position;
    a = shown - position;
  }
  if (r || a)
    g_list_model_items_changed (G_LIST_MODEL (self), position, r, a);
}

/* Which columns the runs give numbers or text to. */
static void
find_kinds (MsTableModel *self)
{
  self->has_variants = self->has_costs = self->has_times = self->has_reasons = FALSE;
  self->has_not_ok = FALSE;
  for (guint r = 0; r < self->runs->len; r++) {
    const MsResults *run = g_array_index (self->runs, MsTableRun, r).run;
    gboolean costs = ms_table_row_kind_of (run) == MS_TABLE_ROW_COSTS;
    self->has_costs |= costs;
    self->has_times |= !costs;
    /* A run has few cells (modes x sizes x variants). */
    for (size_t i = 0; i < run->n_cells; i++) {
      self->has_variants |= run->cells[i].variant[0] != '\0';
      self->has_reasons |= run->cells[i].message[0] != '\0';
      self->has_not_ok |= run->cells[i].status != MS_CELL_OK;
    }
  }
}

guint
ms_table_model_set_runs (MsTableModel *self, GPtrArray *runs)
{
  guint n_new = runs ? runs->len : 0, n_old = self->runs->len;
  g_autoptr (GArray) seen = g_array_sized_new (FALSE, FALSE, sizeof (MsTableRun), n_new);
  for (guint r = 0; r < n_new; r++) {
    MsTableRun t = table_run_of (g_ptr_array_index (runs, r));
    g_array_append_val (seen, t);
  }
  /* Runs kept at the start and at the end keep their rows. */
  guint head = 0, tail = 0, position = 0, kept_rows = 0;
  while (head < n_old && head < n_new &&
         table_run_same (&g_array_index (self->runs, MsTableRun, head),
                         &g_array_index (seen, MsTableRun, head)))
    position += g_array_index (seen, MsTableRun, head++).n_cells;
  while (tail < n_old - head && tail < n_new - head &&
         table_run_same (&g_array_index (self->runs, MsTableRun, n_old - 1 - tail),
                         &g_array_index (seen, MsTableRun, n_new - 1 - tail)))
    kept_rows += g_array_index (seen, MsTableRun, n_new - 1 - tail++).n_cells;
  guint n_items = 0;
  for (guint r = 0; r < n_new; r++) {
    MsTableRun *t = &g_array_index (seen, MsTableRun, r);
    g_object_ref (t->held);
    n_items += t->n_cells;
  }
  guint removed = self->n_items - position - kept_rows, added = n_items - position - kept_rows;
  guint n_before = self->n_items;
  g_array_set_size (self->runs, 0);
  g_array_append_vals (self->runs, seen->data, seen->len);
  self->n_items = n_items;
  find_kinds (self);
  emit_shown_changes (self, position, removed, added, n_before);
  return removed || added ? position : n_items;
}

void
ms_table_model_set_limit (MsTableModel *self, guint limit)
{
  guint before = MIN (self->n_items, self->limit), after = MIN (self->n_items, limit);
  self->limit = limit;
  if (after > before)
    g_list_model_items_changed (G_LIST_MODEL (self), before, 0, after - before);
  else if (after < before)
    g_list_model_items_changed (G_LIST_MODEL (self), after, before - after, 0);
}

guint
ms_table_model_get_limit (MsTableModel *self)
{
  return self->limit;
}

guint
ms_table_model_get_n_all (MsTableModel *self)
{
  return self->n_items;
}

gboolean
ms_table_model_has_column (MsTableModel *self, MsTableCol col)
{
  if (col == MS_TABLE_COL_VARIANT)
    return self->has_variants;
  if (col == MS_TABLE_COL_ALLOC || col == MS_TABLE_COL_FREE)
    return self->has_costs;
  /* One run's name in every row says nothing and took the room of the
   * numbers (the window's run list names it); an empty Reason likewise. */
  if (col == MS_TABLE_COL_RUN)
    return self->runs->len != 1;
  if (col == MS_TABLE_COL_MESSAGE)
    return self->has_reasons || self->runs->len == 0;
  /* "ok" in every row took the room of a figure. */
  if (col == MS_TABLE_COL_STATUS)
    return self->has_not_ok || self->runs->len == 0;
  /* Without runs the table's usual columns, not an empty header. */
  if (ms_table_col_is_time (col))
    return self->has_times || self->runs->len == 0;
  return TRUE;
}
