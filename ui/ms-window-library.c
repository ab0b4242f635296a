/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-library.c: the window and the runs library. A failed write is
 * shown once (until a write works again) with an offer to export; closing
 * or quitting while a sweep runs asks whether to stop it, and the window
 * closes only once what was measured has been kept; the Recent Runs dialog
 * opens a kept run as a file is opened, and a run renamed there is renamed
 * here too. */
#include <glib/gi18n.h>

#include "ms-recent-runs.h"
#include "ms-runs-library.h"
#include "ms-toast-queue.h"
#include "ms-window-private.h"

typedef struct {
  gboolean failure_shown; /* since the last write that worked */
  gboolean quit_after_sweep;
  gboolean quit_unkept; /* the user chose to quit without the runs not kept */
  GtkWindow *question;  /* the dialog asking, while it shows */
} LibraryState;

static LibraryState *
state (MsWindow *self)
{
  LibraryState *st = g_object_get_data (G_OBJECT (self), "ms-window-library");
  if (!st) {
    st = g_new0 (LibraryState, 1);
    g_object_set_data_full (G_OBJECT (self), "ms-window-library", st, g_free);
  }
  return st;
}

static void
on_write_error (MsRunsLibrary *library, GParamSpec *pspec, MsWindow *self)
{
  LibraryState *st = state (self);
  const char *error = ms_runs_library_get_write_error (library);
  if (!error || st->failure_shown) {
    st->failure_shown = error != NULL;
    return;
  }
  st->failure_shown = TRUE;
  g_autofree char *text = g_strdup_printf (
    _("Runs cannot be kept in %s (%s). They stay open here: export them to keep them."),
    ms_runs_library_get_folder (library), error);
  /* As ms_window_toast: shown as text, never as markup; but it stays until
   * dismissed, with the way out on its button. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *markup = g_markup_escape_text (valid, -1);
  AdwToast *toast = adw_toast_new (markup);
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_set_button_label (toast, _("_Export CSV…"));
  adw_toast_set_action_name (toast, "win.export-csv");
  ms_toast_queue_add (self->toasts, toast);
  g_free (self->toast_text);
  self->toast_text = g_steal_pointer (&valid);
  g_object_notify (G_OBJECT (self), "toast-text");
}

/* ---- Recent Runs --------------------------------------------------------------- */

static void
on_recent_open (MsRecentRuns *dialog, GFile *file, MsWindow *self)
{
  ms_window_open_file (self, file);
  gtk_window_close (GTK_WINDOW (dialog));
}

static void
action_recent_runs (GSimpleAction *a, GVariant *p, gpointer data)
{
  MsWindow *self = data;
  MsRecentRuns *dialog = ms_recent_runs_new (ms_runs_library_get_default ());
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  g_signal_connect_object (dialog, "open", G_CALLBACK (on_recent_open), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A run renamed in Recent Runs while this window shows it (opened from its
 * file, or the sweep that was kept there) takes the new name and file. */
static void
on_library_renamed (MsRunsLibrary *library, const char *old_path, const char *new_path,
                    const char *name, MsWindow *self)
{
  g_autoptr (GPtrArray) runs = ms_session_dup_runs (self->session);
  for (guint i = 0; i < runs->len; i++) {
    MsRun *run = g_ptr_array_index (runs, i);
    gboolean opened = g_strcmp0 (ms_run_get_source_file (run), old_path) == 0;
    g_autofree char *kept = ms_runs_library_dup_path (library, ms_run_get_results (run));
    if (!opened && g_strcmp0 (kept, new_path) != 0)
      continue;
    if (opened)
      ms_run_set_source_file (run, new_path);
    ms_session_rename_run (self->session, run, name);
  }
}

/* ---- closing ------------------------------------------------------------------- */

static void
on_stop_response (AdwMessageDialog *dialog, const char *response, MsWindow *self)
{
  LibraryState *st = state (self);
  st->question = NULL;
  if (g_strcmp0 (response, "stop") != 0 || !ms_session_get_sweeping (self->session))
    return;
  /* The worker stops at its next repetition; the sweep's end keeps the
   * run and then closes the window (on_sweeping). */
  st->quit_after_sweep = TRUE;
  gtk_progress_bar_set_text (self->progress_bar, _("Stopping…"));
  ms_session_stop_sweep (self->session);
}

static void
ask_stop (MsWindow *self)
{
  LibraryState *st = state (self);
  /* Kept now too, in case the process does not live to the sweep's end. */
  MsRun *live = ms_session_get_live_run (self->session);
  if (live && ms_run_get_results (live)->n_cells)
    ms_runs_library_keep (ms_runs_library_get_default (), ms_run_get_results (live), NULL);
  GtkWidget *d = adw_message_dialog_new (
    GTK_WINDOW (self), _("Stop the Sweep and Quit?"),
    _("A sweep is still measuring. What it has measured so far is kept in the runs library "
      "either way."));
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (d);
  adw_message_dialog_add_responses (dialog, "keep", _("_Keep Running"), "stop",
                                    _("_Stop and Quit"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "stop", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "keep");
  adw_message_dialog_set_close_response (dialog, "keep");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_stop_response), self, 0);
  st->question = GTK_WINDOW (d);
  gtk_window_present (GTK_WINDOW (d));
}

static void
on_unkept_response (AdwMessageDialog *dialog, const char *response, MsWindow *self)
{
  LibraryState *st = state (self);
  st->question = NULL;
  if (g_strcmp0 (response, "export") == 0) {
    g_action_group_activate_action (G_ACTION_GROUP (self), "export-csv", NULL);
  } else if (g_strcmp0 (response, "quit") == 0) {
    st->quit_unkept = TRUE;
    gtk_window_close (GTK_WINDOW (self));
  }
}

/* The library could not be written: closing would lose runs. */
static void
ask_unkept (MsWindow *self)
{
  MsRunsLibrary *library = ms_runs_library_get_default ();
  g_autofree char *body = g_strdup_printf (
    _("Runs cannot be kept in %s (%s), so the runs measured since are only in this window. "
      "Export them to keep them."),
    ms_runs_library_get_folder (library), ms_runs_library_get_write_error (library));
  g_autofree char *valid = g_utf8_make_valid (body, -1);
  GtkWidget *d = adw_message_dialog_new (GTK_WINDOW (self), _("Quit Without the Runs Not Kept?"),
                                         valid);
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (d);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "export", _("_Export CSV…"),
                                    "quit", _("_Quit Anyway"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "quit", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "export");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_unkept_response), self, 0);
  state (self)->question = GTK_WINDOW (d);
  gtk_window_present (GTK_WINDOW (d));
}

gboolean
ms_window_library_confirm_close (MsWindow *self)
{
  LibraryState *st = state (self);
  if (st->question) {
    gtk_window_present (st->question);
    return TRUE;
  }
  if (ms_session_get_sweeping (self->session)) {
    if (!st->quit_after_sweep)
      ask_stop (self);
    return TRUE;
  }
  if (ms_runs_library_get_write_error (ms_runs_library_get_default ()) && !st->quit_unkept &&
      ms_session_get_n_runs (self->session)) {
    ask_unkept (self);
    return TRUE;
  }
  return FALSE;
}

/* Once the sweep's run is written: kept, close; not kept, the failure's
 * toast offers the export, and closing again asks. */
static void
on_writing (MsRunsLibrary *library, GParamSpec *pspec, MsWindow *self)
{
  if (ms_runs_library_is_writing (library))
    return;
  g_signal_handlers_disconnect_by_func (library, on_writing, self);
  state (self)->quit_after_sweep = FALSE;
  if (!ms_runs_library_get_write_error (library))
    gtk_window_close (GTK_WINDOW (self));
}

/* After a sweep's end: closes the window once its run is written, when the
 * user chose to stop and quit. */
static void
on_sweeping (MsWindow *self)
{
  if (ms_session_get_sweeping (self->session) || !state (self)->quit_after_sweep)
    return;
  MsRunsLibrary *library = ms_runs_library_get_default ();
  g_signal_connect_object (library, "notify::writing", G_CALLBACK (on_writing), self, 0);
  on_writing (library, NULL, self);
}

void
ms_window_library_init (MsWindow *self)
{
  g_signal_connect_object (self->session, "notify::sweeping", G_CALLBACK (on_sweeping), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (ms_runs_library_get_default (), "notify::write-error",
                           G_CALLBACK (on_write_error), self, 0);
  g_signal_connect_object (ms_runs_library_get_default (), "renamed",
                           G_CALLBACK (on_library_renamed), self, 0);
  static const GActionEntry entries[] = { { "recent-runs", action_recent_runs } };
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}
