/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-pickers.c: the run and size drop-downs of the view pages. */
#include "ms-pickers.h"

#include "memsweep.h"
#include "ms-engine.h"
#include "ms-run.h"

GPtrArray *
ms_pickers_run_labels (GPtrArray *runs)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *run = ms_run_get_results (g_ptr_array_index (runs, r));
    /* Labels come from files: never trust them to be UTF-8. */
    g_ptr_array_add (names, g_utf8_make_valid (run->label, -1));
  }
  return names;
}

/* The exponents a size drop-down lists, in its order: the sizes are known
 * by number, never read back from their labels. */
#define EXPONENTS_KEY "ms-pickers-exponents"

void
ms_pickers_sync_sizes (GtkDropDown *dd, GPtrArray *runs)
{
  gboolean present[MS_MAX_EXPONENT + 1] = { FALSE };
  for (guint r = 0; runs && r < runs->len; r++) {
    const MsResults *run = ms_run_get_results (g_ptr_array_index (runs, r));
    for (size_t i = 0; i < run->n_cells; i++)
      present[run->cells[i].exponent] = TRUE;
  }
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  GArray *exponents = g_array_new (FALSE, FALSE, sizeof (int));
  for (int e = 0; e <= MS_MAX_EXPONENT; e++)
    if (present[e]) {
      char b[32];
      ms_format_bytes (ms_exponent_bytes (e), b, sizeof b);
      g_ptr_array_add (labels, g_strdup_printf ("2^%d · %s", e, b));
      g_array_append_val (exponents, e);
    }
  g_object_set_data_full (G_OBJECT (dd), EXPONENTS_KEY, exponents, (GDestroyNotify) g_array_unref);
  ms_pickers_sync (dd, labels);
}

void
ms_pickers_sync (GtkDropDown *dd, GPtrArray *items)
{
  GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (dd));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  gboolean same = n == items->len;
  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (gtk_string_list_get_string (list, i), g_ptr_array_index (items, i)) == 0;
  if (same)
    return;
  GtkStringObject *sel = gtk_drop_down_get_selected_item (dd);
  g_autofree char *keep = sel ? g_strdup (gtk_string_object_get_string (sel)) : NULL;
  g_ptr_array_add (items, NULL);
  gtk_string_list_splice (list, 0, n, (const char *const *) items->pdata);
  g_ptr_array_remove_index (items, items->len - 1);
  guint pos = items->len ? items->len - 1 : GTK_INVALID_LIST_POSITION;
  for (guint i = 0; keep && i < items->len; i++)
    if (g_strcmp0 (g_ptr_array_index (items, i), keep) == 0)
      pos = i;
  gtk_drop_down_set_selected (dd, pos);
}

int
ms_pickers_get_exponent (GtkDropDown *dd)
{
  GArray *exponents = g_object_get_data (G_OBJECT (dd), EXPONENTS_KEY);
  guint pos = gtk_drop_down_get_selected (dd);
  return exponents && pos < exponents->len ? g_array_index (exponents, int, pos) : -1;
}

gboolean
ms_pickers_set_exponent (GtkDropDown *dd, int exponent)
{
  GArray *exponents = g_object_get_data (G_OBJECT (dd), EXPONENTS_KEY);
  for (guint i = 0; exponents && i < exponents->len; i++)
    if (g_array_index (exponents, int, i) == exponent) {
      gtk_drop_down_set_selected (dd, i);
      return TRUE;
    }
  return FALSE;
}
