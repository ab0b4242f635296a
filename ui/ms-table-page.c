/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-table-page.c: the table page. */
#include "ms-table-page.h"

#include "ms-views.h"

#include "ms-table-model.h"
#include "ms-table-row.h"

struct _MsTablePage {
  GtkWidget parent_instance;

  /* Template children. */
  GtkColumnView *column_view;
  GtkMultiSelection *selection;
  MsTableModel *store; /* rows made as they show */

  /* Held here too: the column view lets go of it while the page is hidden,
   * so that runs opened meanwhile build no row widgets. */
  GtkSelectionModel *rows;
};

G_DEFINE_FINAL_TYPE (MsTablePage, ms_table_page, GTK_TYPE_WIDGET)

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
  /* A run's name can be long ("H100 80GB HBM3 · 2026-11-22 14:36"): cut in
   * the middle past 18 characters, so that at 1024x768 in presentation
   * mode the numbers stay in view; the tooltip has it whole. */
  if (c == MS_TABLE_COL_RUN) {
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
    gtk_label_set_width_chars (GTK_LABEL (label), 16);
    gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
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
  if (GPOINTER_TO_INT (col) == MS_TABLE_COL_MESSAGE || GPOINTER_TO_INT (col) == MS_TABLE_COL_RUN)
    gtk_widget_set_tooltip_text (label, text[0] ? text : NULL);
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
    GtkColumnViewColumn *col = gtk_column_view_column_new (ms_table_col_title (c), f);
    GtkSorter *sorter =
      GTK_SORTER (gtk_custom_sorter_new (table_compare, GINT_TO_POINTER (c), NULL));
    gtk_column_view_column_set_sorter (col, sorter);
    g_object_unref (sorter);
    gtk_column_view_column_set_resizable (col, TRUE);
    gtk_column_view_column_set_expand (col, c == MS_TABLE_COL_MESSAGE);
    gtk_column_view_append_column (self->column_view, col);
    g_object_unref (col);
  }
}

static void
ms_table_page_map (GtkWidget *widget)
{
  MsTablePage *self = MS_TABLE_PAGE (widget);
  gtk_column_view_set_model (self->column_view, self->rows);
  GTK_WIDGET_CLASS (ms_table_page_parent_class)->map (widget);
}

static void
ms_table_page_unmap (GtkWidget *widget)
{
  MsTablePage *self = MS_TABLE_PAGE (widget);
  GTK_WIDGET_CLASS (ms_table_page_parent_class)->unmap (widget);
  gtk_column_view_set_model (self->column_view, NULL);
}

static void
ms_table_page_dispose (GObject *object)
{
  ms_widget_dispose_children (GTK_WIDGET (object), MS_TYPE_TABLE_PAGE);
  g_clear_object (&MS_TABLE_PAGE (object)->rows);
  G_OBJECT_CLASS (ms_table_page_parent_class)->dispose (object);
}

static void
ms_table_page_class_init (MsTablePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ms_table_page_dispose;
  widget_class->map = ms_table_page_map;
  widget_class->unmap = ms_table_page_unmap;
  g_type_ensure (MS_TYPE_TABLE_ROW);
  g_type_ensure (MS_TYPE_TABLE_MODEL);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/memsweep/Memsweep/ms-table-page.ui");
  gtk_widget_class_bind_template_child (widget_class, MsTablePage, column_view);
  gtk_widget_class_bind_template_child (widget_class, MsTablePage, selection);
  gtk_widget_class_bind_template_child (widget_class, MsTablePage, store);
}

static void
ms_table_page_init (MsTablePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  add_columns (self);
  self->rows = g_object_ref (GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_set_model (self->column_view, NULL);
}

void
ms_table_page_set_runs (MsTablePage *self, GPtrArray *runs)
{
  ms_table_model_set_runs (self->store, runs);
}

GtkSelectionModel *
ms_table_page_get_selection (MsTablePage *self)
{
  return self->rows;
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
