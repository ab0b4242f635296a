/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-page.c: the table page. */
#include "ms-table-page.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ms-views.h"

#include "ms-table-model.h"
#include "ms-table-row.h"

struct _MsTablePage {
  MsPage parent_instance;

  /* Template children. */
  GtkColumnView *column_view;
  GtkLabel *hint_label;
  GtkMultiSelection *selection;
  MsTableModel *store; /* rows made as they show */
  GtkStringFilter *filter; /* by mode or variant, from filter_entry */
  GtkSearchEntry *filter_entry;
  GtkFilterListModel *filtered;
  GtkLabel *no_match_label;

  /* Held here too: the column view lets go of it while the page is hidden,
   * so that runs opened or swept meanwhile build no row widgets. */
  GtkSelectionModel *rows;
  gboolean attached; /* the column view has rows */

  /* GTK 4.8 makes widgets for up to 200 rows of 12 cells at once when the
   * column view gets its model, and destroys them as slowly when it lets
   * go (about 0.15 ms a cell): rows come and go a few at a time in idle
   * slices instead, so that showing or leaving the page or opening a run
   * never blocks the window. */
  guint step_source;
  GtkBitset *held_selection; /* of rows let go until they are all back */
};

G_DEFINE_FINAL_TYPE (MsTablePage, ms_table_page, MS_TYPE_PAGE)

static void
table_setup (GtkSignalListItemFactory *f, GtkListItem *item, gpointer col)
{
  GtkWidget *label = gtk_label_new (NULL);
  MsTableCol c = GPOINTER_TO_INT (col);
  gtk_label_set_xalign (GTK_LABEL (label), ms_table_col_is_number (c) ? 1 : 0);
  if (ms_table_col_is_number (c))
    gtk_widget_add_css_class (label, "numeric");
  if (c == MS_TABLE_COL_MESSAGE)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  /* A run's name is short ("H100 11-24 #2"), but one a user gives may be
   * long: cut in the middle past 26 characters, so that the numbers stay
   * in view; the tooltip has the run in full. (One run alone has no Run
   * column.) */
  if (c == MS_TABLE_COL_RUN) {
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
    gtk_label_set_width_chars (GTK_LABEL (label), 20);
    gtk_label_set_max_width_chars (GTK_LABEL (label), 26);
  }
  gtk_list_item_set_child (item, label);
}

static void
table_bind (GtkSignalListItemFactory *f, GtkListItem *item, gpointer col)
{
  MsTableRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = ms_table_row_text (row, GPOINTER_TO_INT (col));
  GtkWidget *label = gtk_list_item_get_child (item);
  gtk_label_set_text (GTK_LABEL (label), text);
  if (GPOINTER_TO_INT (col) == MS_TABLE_COL_MESSAGE) {
    gtk_widget_set_tooltip_text (label, text[0] ? text : NULL);
  } else {
    g_autofree char *tip = ms_table_row_tooltip (row, GPOINTER_TO_INT (col));
    gtk_widget_set_tooltip_text (label, tip);
  }
}

static int
table_compare (gconstpointer a, gconstpointer b, gpointer col)
{
  return ms_table_row_compare ((MsTableRow *) a, (MsTableRow *) b, GPOINTER_TO_INT (col));
}

static void
add_columns (MsTablePage *self)
{
  for (MsTableCol c = 0; c < MS_TABLE_N_COLS; c++) {
    GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
    g_signal_connect (f, "setup", G_CALLBACK (table_setup), GINT_TO_POINTER (c));
    g_signal_connect (f, "bind", G_CALLBACK (table_bind), GINT_TO_POINTER (c));
    /* A title over two lines, broken at its first space ("kernel" over
     * "span µs"): the titles were wider than the figures under them, and
     * at 1024 pixels in presentation mode Reps, min and max went past the
     * edge. */
    g_autofree char *title = g_strdup (ms_table_col_title (c));
    gboolean figure = ms_table_col_is_number (c) || c == MS_TABLE_COL_OVERHEAD;
    char *space = figure ? strchr (title, ' ') : NULL;
    if (space)
      *space = '\n';
    GtkColumnViewColumn *col = gtk_column_view_column_new (title, f);
    GtkSorter *sorter =
      GTK_SORTER (gtk_custom_sorter_new (table_compare, GINT_TO_POINTER (c), NULL));
    gtk_column_view_column_set_sorter (col, sorter);
    g_object_unref (sorter);
    gtk_column_view_column_set_resizable (col, TRUE);
    gtk_column_view_column_set_expand (col, c == MS_TABLE_COL_MESSAGE);
    gtk_column_view_append_column (self->column_view, col);
    g_object_unref (col);
  }
  /* GTK 4.8 has no tooltip for a column's title: its header buttons come
   * in the columns' order, in the column view's first child. */
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
  MsTableCol c = 0;
  for (GtkWidget *title = header ? gtk_widget_get_first_child (header) : NULL;
       title && c < MS_TABLE_N_COLS; title = gtk_widget_get_next_sibling (title), c++)
    gtk_widget_set_tooltip_text (title, ms_table_col_description (c));
}

/* The columns the runs give something to (a variant, the costs lesson's
 * allocation and free, everyone else's times). */
static void
show_columns (MsTablePage *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  for (MsTableCol c = 0; c < MS_TABLE_N_COLS; c++) {
    g_autoptr (GtkColumnViewColumn) col = g_list_model_get_item (columns, c);
    gtk_column_view_column_set_visible (col, ms_table_model_has_column (self->store, c));
  }
}

/* With one run (and so no Run column) the hint names it. */
static void
show_hint (MsTablePage *self, GPtrArray *runs)
{
  g_autofree char *hint = NULL;
  if (runs && runs->len == 1)
    hint = g_strdup_printf (_("%s: click a column title to sort"),
                            ms_run_get_name (g_ptr_array_index (runs, 0)));
  /* The run's name alone, wrapped, whole: at 1024 pixels the hint after
   * it took the room of the date. The tooltip has both. */
  gtk_label_set_text (self->hint_label, hint ? ms_run_get_name (g_ptr_array_index (runs, 0))
                                             : _("Click a column title to sort"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->hint_label), hint);
}

/* Every row in the list again (shown or not), and the selection as it was
 * before rows went. */
static void
show_all_rows (MsTablePage *self)
{
  ms_table_model_set_limit (self->store, G_MAXUINT);
  if (self->held_selection) {
    gtk_selection_model_set_selection (self->rows, self->held_selection, self->held_selection);
    g_clear_pointer (&self->held_selection, gtk_bitset_unref);
  }
}

static void
hold_selection (MsTablePage *self)
{
  if (self->held_selection)
    return;
  /* A copy: the selection model may hand out the bitset it changes. */
  GtkBitset *selected = gtk_selection_model_get_selection (self->rows);
  self->held_selection = gtk_bitset_copy (selected);
  gtk_bitset_unref (selected);
}

/* Sorted by a column, every row added re-sorts the rows (GtkSortListModel
 * merges them again): then the rows come and go at once, as before. */
static gboolean
rows_are_sorted (MsTablePage *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  return sorter && gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE;
}

static void start_steps (MsTablePage *self);

/* One slice: rows toward all of them while the page is shown, toward none
 * while it is hidden, and then the column view lets go of the model. */
static gboolean
step_rows (gpointer data)
{
  MsTablePage *self = data;
  if (rows_are_sorted (self)) {
    self->step_source = 0;
    start_steps (self);
    return G_SOURCE_REMOVE;
  }
  gboolean growing = gtk_widget_get_mapped (GTK_WIDGET (self));
  guint n = ms_table_model_get_n_all (self->store);
  guint shown = MIN (n, ms_table_model_get_limit (self->store)), target = growing ? n : 0;
  guint moved = 0;
  gint64 start = g_get_monotonic_time ();
  /* Past the rows GTK makes widgets for, new rows cost nothing: after 256
   * in one slice the rest comes at once. */
  while (shown != target && !(growing && moved >= 256)
         && g_get_monotonic_time () - start < MS_ROWS_SLICE_US) {
    guint next = ms_rows_step (shown, target);
    moved += growing ? next - shown : shown - next;
    ms_table_model_set_limit (self->store, shown = next);
  }
  if (shown != target && !(growing && moved >= 256))
    return G_SOURCE_CONTINUE;
  self->step_source = 0;
  if (!growing) {
    gtk_column_view_set_model (self->column_view, NULL);
    self->attached = FALSE;
  }
  show_all_rows (self);
  return G_SOURCE_REMOVE;
}

static void
start_steps (MsTablePage *self)
{
  if (rows_are_sorted (self)) {
    g_clear_handle_id (&self->step_source, g_source_remove);
    if (!gtk_widget_get_mapped (GTK_WIDGET (self))) {
      gtk_column_view_set_model (self->column_view, NULL);
      self->attached = FALSE;
    }
    show_all_rows (self);
  } else if (!self->step_source) {
    self->step_source = g_idle_add (step_rows, self);
  }
}

static void
ms_table_page_map (GtkWidget *widget)
{
  MsTablePage *self = MS_TABLE_PAGE (widget);
  if (!self->attached) {
    hold_selection (self);
    if (!rows_are_sorted (self))
      ms_table_model_set_limit (self->store, 0);
    gtk_column_view_set_model (self->column_view, self->rows);
    self->attached = TRUE;
  }
  start_steps (self);
  GTK_WIDGET_CLASS (ms_table_page_parent_class)->map (widget);
}

static void
ms_table_page_unmap (GtkWidget *widget)
{
  MsTablePage *self = MS_TABLE_PAGE (widget);
  GTK_WIDGET_CLASS (ms_table_page_parent_class)->unmap (widget);
  hold_selection (self);
  start_steps (self);
}

static void
ms_table_page_dispose (GObject *object)
{
  MsTablePage *self = MS_TABLE_PAGE (object);
  g_clear_handle_id (&self->step_source, g_source_remove);
  g_clear_pointer (&self->held_selection, gtk_bitset_unref);
  ms_widget_dispose_children (GTK_WIDGET (object), MS_TYPE_TABLE_PAGE);
  g_clear_object (&self->rows);
  G_OBJECT_CLASS (ms_table_page_parent_class)->dispose (object);
}

/* The table is text: Export CSV writes it. */
static char *
ms_table_page_get_drawing (MsPage *page, MsPageDrawing *drawing)
{
  return g_strdup (_("The table exports as CSV; pick a chart view to export a chart"));
}

static void
ms_table_page_runs_changed (MsPage *page, GPtrArray *runs)
{
  MsTablePage *self = MS_TABLE_PAGE (page);
  /* While the column view has rows, those of a run just opened come in
   * slices too; rows that move drop a selection held meanwhile, rows added
   * after it (a run opened, a sweep's cells) keep it. */
  if (self->attached && !rows_are_sorted (self))
    ms_table_model_set_limit (self->store, g_list_model_get_n_items (G_LIST_MODEL (self->store)));
  guint changed = ms_table_model_set_runs (self->store, runs);
  show_columns (self);
  show_hint (self, runs);
  if (self->held_selection && !gtk_bitset_is_empty (self->held_selection) &&
      changed <= gtk_bitset_get_maximum (self->held_selection))
    g_clear_pointer (&self->held_selection, gtk_bitset_unref);
  if (self->attached)
    start_steps (self);
}

/* Where a filter leaves no row of those there are, the empty table says why: a blank area was
 * read as the table gone. */
static void
show_no_match (MsTablePage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  gboolean none = text[0] && g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) == 0
                  && g_list_model_get_n_items (G_LIST_MODEL (self->store)) > 0;
  if (none) {
    /* TRANSLATORS: over the table when its filter matches no row, e.g. "No row matches “zzz”:
     * clear the filter to see them all." */
    g_autofree char *says = g_strdup_printf (_ ("No row matches “%s”: clear the filter to see "
                                                "them all."),
                                             text);
    gtk_label_set_text (self->no_match_label, says);
  }
  gtk_widget_set_visible (GTK_WIDGET (self->no_match_label), none);
}

static void
ms_table_page_class_init (MsTablePageClass *klass)
{
  MS_PAGE_CLASS (klass)->runs_changed = ms_table_page_runs_changed;
  MS_PAGE_CLASS (klass)->get_drawing = ms_table_page_get_drawing;
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ms_table_page_dispose;
  widget_class->map = ms_table_page_map;
  widget_class->unmap = ms_table_page_unmap;
  g_type_ensure (MS_TYPE_TABLE_ROW);
  g_type_ensure (MS_TYPE_TABLE_MODEL);
#define CHILD(name) MS_TEMPLATE_CHILD (MsTablePage, name)
  static const MsTemplateBind binds[] = {
    CHILD (column_view), CHILD (hint_label),    CHILD (selection),     CHILD (store),
    CHILD (filter),      CHILD (filter_entry),  CHILD (filtered),      CHILD (no_match_label),
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-table-page", binds, G_N_ELEMENTS (binds));
}

static void
ms_table_page_init (MsTablePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  add_columns (self);
  gtk_string_filter_set_expression (
    self->filter, gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                               G_CALLBACK (ms_table_row_dup_search_text), NULL,
                                               NULL));
  show_columns (self);
  g_signal_connect_object (self->filtered, "items-changed", G_CALLBACK (show_no_match), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_entry, "changed", G_CALLBACK (show_no_match), self,
                           G_CONNECT_SWAPPED);
  self->rows = g_object_ref (GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_set_model (self->column_view, NULL);
}

char *
ms_table_page_dup_selected_csv (MsTablePage *self)
{
  GString *out = g_string_new (NULL);
  ms_table_rows_csv_header (out);
  GtkBitset *sel = gtk_selection_model_get_selection (self->rows);
  GtkBitsetIter iter;
  guint pos;
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, sel, &pos); ok;
       ok = gtk_bitset_iter_next (&iter, &pos)) {
    g_autoptr (MsTableRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), pos);
    ms_table_row_append_csv (row, out);
  }
  gtk_bitset_unref (sel);
  return g_string_free (out, FALSE);
}

gboolean
ms_table_page_focus_filter (MsTablePage *self)
{
  return gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}
