/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-runs.c: the runs of a session as the user's own: every sweep and
 * file stays until closed, each under a name of its own, renamed and
 * annotated in the Runs popover (the note goes into exported CSV files). */
#include <glib/gi18n.h>
#include <string.h>

#include "ms-run.h"
#include "ms-window-private.h"

/* "NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3": the vendor is implied. */
static const char *
short_device_name (const MsResults *run)
{
  const char *name = run->device.name[0] && run->device.present ? run->device.name : NULL;
  if (!name)
    return _ ("Host CPU");
  return g_str_has_prefix (name, "NVIDIA ") ? name + 7 : name;
}

static gboolean
label_taken (MsWindow *self, const MsResults *except, const char *label)
{
  for (guint i = 0; i < self->runs->len; i++) {
    const MsResults *r = g_ptr_array_index (self->runs, i);
    if (r != except && g_strcmp0 (r->label, label) == 0)
      return TRUE;
  }
  return FALSE;
}

/* The longest prefix of s in at most max_bytes bytes, cut on a character. */
static char *
utf8_cut (const char *s, gsize max_bytes)
{
  return g_utf8_substring (s, 0, g_utf8_strlen (s, max_bytes));
}

/* Sets run's label to `wanted`, or to "wanted (2)", "(3)" ... when another
 * run already has that name: two runs never share one. A long name is cut
 * to leave room for the number, so that the numbered names stay apart. */
static void
set_unique_label (MsWindow *self, MsResults *run, const char *wanted)
{
  g_autofree char *valid = g_utf8_make_valid (wanted, -1);
  g_strstrip (valid);
  const char *base = valid[0] ? valid : short_device_name (run);
  g_autofree char *label = utf8_cut (base, sizeof run->label - 1);
  g_autofree char *stem = utf8_cut (base, sizeof run->label - 16);
  for (int n = 2; label_taken (self, run, label); n++) {
    g_free (label);
    label = g_strdup_printf ("%s (%d)", stem, n);
  }
  g_strlcpy (run->label, label, sizeof run->label);
}

void
ms_window_name_sweep (MsWindow *self, MsResults *run)
{
  self->n_sweeps++;
  /* TRANSLATORS: a run's name: the GPU (or "Host CPU") and a sweep number. */
  g_autofree char *name
      = g_strdup_printf (_ ("%s · sweep %u"), short_device_name (run), self->n_sweeps);
  set_unique_label (self, run, name);
}

/* A file keeps the name it was saved with (read_run gives one to a file
 * without), made unique among the runs shown. */
void
ms_window_name_file_run (MsWindow *self, MsResults *run)
{
  g_autofree char *name = g_strdup (run->label);
  set_unique_label (self, run, name);
}

static gboolean
same_file_run (const MsResults *a, const MsResults *b)
{
  return a->date[0] && g_strcmp0 (a->date, b->date) == 0
         && g_strcmp0 (a->device.name, b->device.name) == 0 && a->n_cells == b->n_cells;
}

static gboolean
refresh_when_idle (gpointer data)
{
  MsWindow *self = data;
  self->refresh_source = 0;
  ms_window_refresh_views (self);
  return G_SOURCE_REMOVE;
}

gboolean
ms_window_add_file_run (MsWindow *self, MsResults *run, gboolean refresh_now)
{
  /* The same file twice is one comparison, not two. */
  for (guint i = 0; i < self->runs->len; i++) {
    MsResults *r = g_ptr_array_index (self->runs, i);
    if (r != self->live && same_file_run (r, run)) {
      ms_run_unref (run);
      return FALSE;
    }
  }
  ms_window_name_file_run (self, run);
  g_ptr_array_add (self->runs, run);
  if (refresh_now)
    ms_window_refresh_views (self);
  else if (!self->refresh_source)
    /* After the files that finished meanwhile, before the next frame. */
    self->refresh_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_when_idle, self, NULL);
  return TRUE;
}

const MsResults *
ms_window_get_run (MsWindow *self, guint index)
{
  return index < self->runs->len ? g_ptr_array_index (self->runs, index) : NULL;
}

static gboolean
is_sweeping_into (MsWindow *self, const MsResults *run)
{
  return self->job && run == self->live;
}

gboolean
ms_window_rename_run (MsWindow *self, guint index, const char *name)
{
  MsResults *run = index < self->runs->len ? g_ptr_array_index (self->runs, index) : NULL;
  if (!run || !name)
    return FALSE;
  set_unique_label (self, run, name);
  ms_window_refresh_views (self);
  return TRUE;
}

gboolean
ms_window_set_run_note (MsWindow *self, guint index, const char *note)
{
  MsResults *run = index < self->runs->len ? g_ptr_array_index (self->runs, index) : NULL;
  if (!run || !note)
    return FALSE;
  g_autofree char *valid = g_utf8_make_valid (note, -1);
  /* One line in the file's metadata: line breaks become spaces. */
  g_strdelimit (valid, "\r\n", ' ');
  g_autofree char *cut = utf8_cut (valid, sizeof run->note - 1);
  g_strlcpy (run->note, cut, sizeof run->note);
  return TRUE;
}

gboolean
ms_window_close_run (MsWindow *self, guint index)
{
  MsResults *run = index < self->runs->len ? g_ptr_array_index (self->runs, index) : NULL;
  /* The run a sweep is filling closes when the sweep is stopped. */
  if (!run || is_sweeping_into (self, run))
    return FALSE;
  if (run == self->live)
    self->live = NULL;
  g_ptr_array_remove_index (self->runs, index);
  ms_window_refresh_views (self);
  return TRUE;
}

/* ---- the Runs popover ---------------------------------------------------- */

static int
index_of (MsWindow *self, gpointer run)
{
  guint i;
  return g_ptr_array_find (self->runs, run, &i) ? (int)i : -1;
}

static void
apply_row (MsWindow *self, GtkWidget *row)
{
  GtkEditable *name = g_object_get_data (G_OBJECT (row), "name");
  GtkEditable *note = g_object_get_data (G_OBJECT (row), "note");
  int i = index_of (self, g_object_get_data (G_OBJECT (row), "run"));
  if (i < 0)
    return;
  const MsResults *run = g_ptr_array_index (self->runs, i);
  if (g_strcmp0 (gtk_editable_get_text (note), run->note) != 0)
    ms_window_set_run_note (self, i, gtk_editable_get_text (note));
  if (g_strcmp0 (gtk_editable_get_text (name), run->label) != 0) {
    ms_window_rename_run (self, i, gtk_editable_get_text (name));
    gtk_editable_set_text (name, run->label);
  }
}

static void
on_entry_activate (GtkWidget *entry, MsWindow *self)
{
  apply_row (self, g_object_get_data (G_OBJECT (entry), "row"));
}

static void
on_close_clicked (GtkWidget *button, MsWindow *self)
{
  int i = index_of (self, g_object_get_data (G_OBJECT (button), "run"));
  if (i >= 0)
    ms_window_close_run (self, i);
}

static GtkWidget *
row_entry (MsWindow *self, GtkWidget *row, const char *text, const char *placeholder,
           const char *tooltip)
{
  GtkWidget *entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  gtk_widget_set_tooltip_text (entry, tooltip);
  gtk_widget_set_hexpand (entry, TRUE);
  g_object_set_data (G_OBJECT (entry), "row", row);
  g_signal_connect_object (entry, "activate", G_CALLBACK (on_entry_activate), self, 0);
  return entry;
}

static GtkWidget *
run_row (MsWindow *self, MsResults *run)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (row, 6);
  gtk_widget_set_margin_end (row, 6);
  gtk_widget_set_margin_top (row, 6);
  gtk_widget_set_margin_bottom (row, 6);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = row_entry (self, row, run->label, _ ("Name"),
                               _ ("The run's name in legends, "
                                  "pickers and the table"));
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_tooltip_text (close, is_sweeping_into (self, run)
                                          ? _ ("Stop the sweep before closing its run")
                                          : _ ("Close this run"));
  gtk_widget_set_sensitive (close, !is_sweeping_into (self, run));
  g_object_set_data (G_OBJECT (close), "run", run);
  g_signal_connect_object (close, "clicked", G_CALLBACK (on_close_clicked), self, 0);
  gtk_box_append (GTK_BOX (line), name);
  gtk_box_append (GTK_BOX (line), close);
  GtkWidget *note = row_entry (self, row, run->note, _ ("Note"),
                               _ ("A note on this run, saved in the CSV files it is exported to"));
  gtk_box_append (GTK_BOX (row), line);
  gtk_box_append (GTK_BOX (row), note);
  g_object_set_data (G_OBJECT (row), "run", run);
  g_object_set_data (G_OBJECT (row), "name", name);
  g_object_set_data (G_OBJECT (row), "note", note);
  return row;
}

/* Rebuilt when it opens: the popover always shows the runs as they are. */
static void
fill_runs_list (MsWindow *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->runs_list))))
    gtk_list_box_remove (self->runs_list, child);
  for (guint i = 0; i < self->runs->len; i++)
    gtk_list_box_append (self->runs_list, run_row (self, g_ptr_array_index (self->runs, i)));
  if (self->runs->len == 0) {
    GtkWidget *none = gtk_label_new (_ ("No runs yet: run a sweep or open a CSV file"));
    gtk_widget_set_margin_top (none, 12);
    gtk_widget_set_margin_bottom (none, 12);
    gtk_list_box_append (self->runs_list, none);
  }
}

static void
on_runs_popover_closed (MsWindow *self)
{
  /* Edits not confirmed with Enter still count. */
  for (GtkWidget *r = gtk_widget_get_first_child (GTK_WIDGET (self->runs_list)); r;
       r = gtk_widget_get_next_sibling (r)) {
    GtkWidget *row = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (r));
    if (g_object_get_data (G_OBJECT (row), "run"))
      apply_row (self, row);
  }
}

void
ms_window_runs_init (MsWindow *self)
{
  GtkPopover *popover = gtk_menu_button_get_popover (self->runs_button);
  gtk_widget_set_size_request (GTK_WIDGET (popover), 380, -1);
  g_signal_connect_object (popover, "show", G_CALLBACK (fill_runs_list), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (popover, "closed", G_CALLBACK (on_runs_popover_closed), self,
                           G_CONNECT_SWAPPED);
}
