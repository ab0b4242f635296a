/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-runs.c: the Runs popover, a list view on the session's runs:
 * every sweep and file stays until closed, each under a name of its own,
 * renamed and annotated here (the note goes into exported CSV files);
 * closing a run can be undone from its toast. */
#include <glib/gi18n.h>

#include "ms-run.h"
#include "ms-toast-queue.h"
#include "ms-window-private.h"

/* The runs a toast closed, last closed first, each with the place it had then: put back in the
 * other order, every one is where it was. */
typedef struct {
  MsRun *run;
  guint position;
} Closed;

static void
closed_free (gpointer data)
{
  GArray *closed = data;
  for (guint i = 0; i < closed->len; i++)
    g_object_unref (g_array_index (closed, Closed, i).run);
  g_array_unref (closed);
}

static void
on_undo_close (AdwToast *toast, MsWindow *self)
{
  GArray *closed = g_object_get_data (G_OBJECT (toast), "closed");
  for (guint i = closed->len; i-- > 0;) {
    const Closed *c = &g_array_index (closed, Closed, i);
    ms_session_insert_run (self->session, c->run, c->position);
  }
  /* Once: a second click would put them in twice. */
  g_array_set_size (closed, 0);
}

/* Closes runs (every one but the sweep's where run is NULL) with an undo toast that holds them
 * until it goes: its Undo puts them back where they were. NULL where none closed. Each toast its
 * own runs: one undo kept by the window for all was paired, two closes in a row, with the wrong
 * toast, and leaked the first runs. */
static AdwToast *
close_runs_undoable (MsWindow *self, MsRun *run)
{
  GArray *closed = g_array_new (FALSE, FALSE, sizeof (Closed));
  for (guint i = ms_session_get_n_runs (self->session); i-- > 0;) {
    MsRun *r = ms_session_get_run (self->session, i);
    if (run && r != run)
      continue;
    Closed c = { g_object_ref (r), 0 }; /* held past its removal */
    if (ms_session_remove_run (self->session, r, &c.position))
      g_array_append_val (closed, c);
    else
      g_object_unref (c.run);
  }
  if (closed->len == 0) {
    closed_free (closed);
    return NULL;
  }
  g_autofree char *text
      = run ? g_strdup_printf (_ ("Closed %s"), ms_run_get_name (run))
            /* TRANSLATORS: a toast with an Undo button after Close Opened Runs. */
            : g_strdup_printf (ngettext ("%u run closed", "%u runs closed", closed->len),
                               closed->len);
  AdwToast *toast = ms_window_toast_undo (self, text);
  g_object_set_data_full (G_OBJECT (toast), "closed", closed, closed_free);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_undo_close), self, 0);
  return toast;
}

AdwToast *
ms_window_close_runs (MsWindow *self)
{
  return close_runs_undoable (self, NULL);
}

gboolean
ms_window_close_run (MsWindow *self, guint index)
{
  if (index >= ms_session_get_n_runs (self->session))
    return FALSE;
  return close_runs_undoable (self, ms_session_get_run (self->session, index)) != NULL;
}

/* ---- the rows ------------------------------------------------------------------ */

typedef struct {
  GtkEditable *name, *note;
  GtkWidget *close;
  MsRun *run;          /* the row's item while bound */
  GBinding *note_binding, *description_binding;
  gulong name_handler, sweeping_handler;
  MsWindow *window;
} RunRow;

static void
apply_name (RunRow *row)
{
  if (row->run && g_strcmp0 (gtk_editable_get_text (row->name), ms_run_get_name (row->run)))
    ms_session_rename_run (row->window->session, row->run, gtk_editable_get_text (row->name));
  if (row->run)
    gtk_editable_set_text (row->name, ms_run_get_name (row->run));
}

static void
on_close_clicked (RunRow *row)
{
  if (row->run)
    close_runs_undoable (row->window, row->run);
}

static void
show_name (RunRow *row)
{
  /* Not while the user types in it. */
  if (!gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (row->name))))
    gtk_editable_set_text (row->name, ms_run_get_name (row->run));
}

static void
show_closable (RunRow *row)
{
  MsSession *session = row->window->session;
  gboolean filling = ms_session_get_sweeping (session) &&
                     row->run == ms_session_get_live_run (session);
  gtk_widget_set_sensitive (row->close, !filling);
  gtk_widget_set_tooltip_text (row->close, filling ? _("Stop the sweep before closing its run")
                                                   : _("Close this run"));
}

static GtkWidget *
row_entry (const char *placeholder, const char *tooltip)
{
  GtkWidget *entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  gtk_widget_set_tooltip_text (entry, tooltip);
  gtk_widget_set_hexpand (entry, TRUE);
  return entry;
}

static void
setup_row (GtkSignalListItemFactory *factory, GtkListItem *item, MsWindow *self)
{
  RunRow *row = g_new0 (RunRow, 1);
  row->window = self;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_object_set (box, "margin-start", 6, "margin-end", 6, "margin-top", 6, "margin-bottom", 6,
                NULL);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = row_entry (_ ("Name"), NULL);
  row->close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (row->close, "flat");
  GtkWidget *note =
    row_entry (_("Note"), _("A note on this run, saved in the CSV files it is exported to"));
  /* Name and note one above the other, the close button beside both: Tab
   * goes from the name to the note, and reaches the button last (closing
   * has an Undo toast). */
  GtkWidget *fields = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_hexpand (fields, TRUE);
  gtk_box_append (GTK_BOX (fields), name);
  gtk_box_append (GTK_BOX (fields), note);
  gtk_widget_set_valign (row->close, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (line), fields);
  gtk_box_append (GTK_BOX (line), row->close);
  gtk_box_append (GTK_BOX (box), line);
  row->name = GTK_EDITABLE (name);
  row->note = GTK_EDITABLE (note);
  /* A name counts when confirmed with Enter or when the entry is left. */
  g_signal_connect_swapped (name, "activate", G_CALLBACK (apply_name), row);
  GtkEventController *focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (apply_name), row);
  gtk_widget_add_controller (name, focus);
  g_signal_connect_swapped (row->close, "clicked", G_CALLBACK (on_close_clicked), row);
  g_object_set_data_full (G_OBJECT (box), "row", row, g_free);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_child (item, box);
}

static void
bind_row (GtkSignalListItemFactory *factory, GtkListItem *item, MsWindow *self)
{
  RunRow *row = g_object_get_data (G_OBJECT (gtk_list_item_get_child (item)), "row");
  row->run = gtk_list_item_get_item (item);
  gtk_editable_set_text (row->name, ms_run_get_name (row->run));
  row->note_binding = g_object_bind_property (row->run, "note", row->note, "text",
                                              G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  /* The short name is edited here; the run in full shows over it. */
  row->description_binding = g_object_bind_property (row->run, "description", row->name,
                                                     "tooltip-text", G_BINDING_SYNC_CREATE);
  row->name_handler =
    g_signal_connect_swapped (row->run, "notify::name", G_CALLBACK (show_name), row);
  row->sweeping_handler = g_signal_connect_swapped (self->session, "notify::sweeping",
                                                    G_CALLBACK (show_closable), row);
  show_closable (row);
}

static void
unbind_row (GtkSignalListItemFactory *factory, GtkListItem *item, MsWindow *self)
{
  RunRow *row = g_object_get_data (G_OBJECT (gtk_list_item_get_child (item)), "row");
  apply_name (row);
  g_clear_pointer (&row->note_binding, g_binding_unbind);
  g_clear_pointer (&row->description_binding, g_binding_unbind);
  g_clear_signal_handler (&row->name_handler, row->run);
  g_clear_signal_handler (&row->sweeping_handler, self->session);
  row->run = NULL;
}

static void
show_list_or_none (MsWindow *self)
{
  gtk_stack_set_visible_child_name (self->runs_stack,
                                    ms_session_get_n_runs (self->session) ? "runs" : "none");
}

void
ms_window_runs_init (MsWindow *self)
{
  GtkPopover *popover = gtk_menu_button_get_popover (self->runs_button);
  gtk_widget_set_size_request (GTK_WIDGET (popover), 380, -1);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), self);
  GtkNoSelection *model = gtk_no_selection_new (g_object_ref (ms_session_get_runs (self->session)));
  gtk_list_view_set_model (self->runs_view, GTK_SELECTION_MODEL (model));
  gtk_list_view_set_factory (self->runs_view, factory);
  g_object_unref (model);
  g_object_unref (factory);
  g_signal_connect_object (self->session, "notify::n-runs", G_CALLBACK (show_list_or_none), self,
                           G_CONNECT_SWAPPED);
  show_list_or_none (self);
}
