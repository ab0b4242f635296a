/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-window-files.c: the files the window opens (the command line, Open,
 * drag and drop, Recent Runs): read on worker threads, started after the
 * first frame, joining the session in the order they were asked for. */
#include <glib/gi18n.h>

#include "ms-engine.h"
#include "ms-profiling.h"
#include "ms-run.h"
#include "ms-window-private.h"

static MsRun *
read_run (const char *path, GError **error)
{
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  if (!r) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, err);
    return NULL;
  }
  /* A file saved with a name keeps it; others (the reader names them after
   * the file) get a short name, GPU and day, that the session numbers
   * where it clashes; the long form (device, kind, date, the setting that
   * sets it apart) stays as the run's description. */
  g_autofree char *base = g_path_get_basename (path);
  if (g_strcmp0 (r->label, base) == 0)
    r->label[0] = '\0';
  g_autofree char *description = ms_plot_run_label (r);
  g_autofree char *name
      = g_strcmp0 (description, r->label) == 0 ? g_strdup (r->label) : ms_run_short_name (r);
  g_snprintf (r->label, sizeof r->label, "%s", name);
  MsRun *run = ms_run_new (r, MS_RUN_KIND_REFERENCE);
  ms_run_set_description (run, description);
  ms_run_set_source_file (run, path);
  return run;
}

gboolean
ms_window_load_path (MsWindow *self, const char *path, GError **error)
{
  g_autoptr (MsRun) run = read_run (path, error);
  if (run)
    ms_session_add_run (self->session, run);
  return run != NULL;
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  MsRun *r = read_run (task_data, &error);
  if (r)
    g_task_return_pointer (task, r, g_object_unref);
  else
    g_task_return_error (task, error);
}

/* A file read, waiting for its turn: files are read in parallel but their
 * runs join the session in the order they were asked for (the command
 * line's order), so that markers and captions do not depend on which file
 * was read first. */
typedef struct {
  MsRun *run;
  char *error;
  char *path;
} LoadedFile;

static void
loaded_file_free (LoadedFile *f)
{
  g_clear_object (&f->run);
  g_free (f->error);
  g_free (f->path);
  g_free (f);
}

/* One toast for the runs opened together, once every file asked for has
 * joined: eighteen reference runs opened at once queued eighteen "Opened"
 * toasts, which covered the projected axis and legend for about two
 * minutes. A toast of its own is not changed once shown (the previous try,
 * which retitled a shown toast, crashed inside libadwaita's animation). */
static void
toast_opened (MsWindow *self)
{
  if (self->load_next_added != self->load_next_ticket || self->opened_count == 0)
    return;
  g_autofree char *msg =
    self->opened_count == 1
      ? g_strdup_printf (_("Opened %s"), self->opened_first)
      /* TRANSLATORS: one toast for many runs opened at once, e.g. "Opened
       * 18 runs, the first h100-default". */
      : g_strdup_printf (ngettext ("Opened %u run, the first %s", "Opened %u runs, the first %s",
                                   self->opened_count),
                         self->opened_count, self->opened_first);
  ms_window_toast (self, msg);
  self->opened_count = 0;
  g_clear_pointer (&self->opened_first, g_free);
}

/* The files read so far whose turn it is join the session together: in
 * one change of its runs, so that each page rebuilds once for all of them
 * (files opened together tend to finish together). */
static void
add_loaded_in_order (MsWindow *self)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) loaded_file_free);
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();
  LoadedFile *f;
  while ((f = g_hash_table_lookup (self->loaded, GUINT_TO_POINTER (self->load_next_added)))) {
    g_hash_table_steal (self->loaded, GUINT_TO_POINTER (self->load_next_added));
    self->load_next_added++;
    g_ptr_array_add (files, f);
    if (f->run)
      g_ptr_array_add (runs, f->run);
  }
  if (!files->len)
    return;
  g_autoptr (GPtrArray) added =
    ms_session_add_runs (self->session, (MsRun **) runs->pdata, runs->len);
  for (guint i = 0; i < files->len; i++) {
    f = g_ptr_array_index (files, i);
    guint pos;
    if (!f->run) {
      ms_window_toast (self, f->error);
    } else if (g_ptr_array_find (added, f->run, &pos)) {
      if (self->opened_count++ == 0)
        self->opened_first = g_strdup (ms_run_get_name (f->run));
      /* A plain CSV file whose sidecar is missing, damaged or another
       * run's: the run shows without its device and settings, and says why. */
      const char *unknown = ms_run_get_results (f->run)->metadata_unknown;
      if (unknown[0])
        ms_window_toast (self, unknown);
    }
    ms_profiling_open_added (f->path, f->error);
  }
  toast_opened (self);
}

typedef struct {
  GWeakRef window;
  guint ticket;
} LoadTicket;

static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  LoadTicket *ticket = user_data;
  g_autoptr (MsWindow) self = g_weak_ref_get (&ticket->window);
  LoadedFile *f = g_new0 (LoadedFile, 1);
  f->path = g_strdup (g_task_get_task_data (G_TASK (result)));
  f->run = g_task_propagate_pointer (G_TASK (result), &error);
  f->error = error ? g_strdup (error->message) : NULL;
  g_weak_ref_clear (&ticket->window);
  if (!self) {
    loaded_file_free (f);
    g_free (ticket);
    return;
  }
  g_hash_table_insert (self->loaded, GUINT_TO_POINTER (ticket->ticket), f);
  g_free (ticket);
  add_loaded_in_order (self);
}

static void
start_load (MsWindow *self, const char *path)
{
  /* The worker gets its own copy of the path; the window is not the task's
   * source object, so it may go away while the file loads. */
  LoadTicket *ticket = g_new0 (LoadTicket, 1);
  g_weak_ref_init (&ticket->window, self);
  ticket->ticket = self->load_next_ticket++;
  GTask *task = g_task_new (NULL, NULL, load_done, ticket);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_thread);
  g_object_unref (task);
}

void
ms_window_open_file (MsWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  if (!path) {
    g_autofree char *uri = g_file_get_uri (file);
    g_autofree char *msg = g_strdup_printf (_("%s: only local files can be opened"), uri);
    ms_window_toast (self, msg);
    return;
  }
  /* A peer matrix, a sweep on several GPUs or a host's sibling check has
   * its own page (ms-devices-page.c). */
  if (ms_csv_name_stem (path, "-peer.csv") || ms_csv_name_stem (path, "-multi.csv")
      || g_str_has_suffix (path, "-siblings.json")) {
    ms_window_open_devices_file (self, path);
    return;
  }
  /* A portable run of several GPUs is the portable lesson's slide. */
  if (ms_csv_name_stem (path, "-portable.csv")) {
    g_autoptr (GError) error = NULL;
    if (!ms_lessons_page_open_portable (self->lessons_page, path, &error))
      ms_window_toast (self, error->message);
    else
      adw_view_stack_set_visible_child_name (self->stack, "lessons");
    return;
  }
  ms_profiling_open_asked (path);
  /* Files given at launch wait for the first frame: a small file read
   * before it would only delay it. */
  if (!self->painted)
    g_ptr_array_add (self->pending_paths, g_steal_pointer (&path));
  else
    start_load (self, path);
}

static void
on_first_paint (MsWindow *self, GdkFrameClock *clock)
{
  g_signal_handlers_disconnect_by_func (clock, on_first_paint, self);
  self->painted = TRUE;
  g_object_notify (G_OBJECT (self), "painted");
  for (guint i = 0; i < self->pending_paths->len; i++)
    start_load (self, g_ptr_array_index (self->pending_paths, i));
  g_ptr_array_set_size (self->pending_paths, 0);
}

static void
on_realize (MsWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (!self->painted)
    g_signal_connect_object (clock, "after-paint", G_CALLBACK (on_first_paint), self,
                             G_CONNECT_SWAPPED);
}

static gboolean
on_drop (MsWindow *self, const GValue *value, double x, double y, GtkDropTarget *target)
{
  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  for (GSList *l = g_value_get_boxed (value); l; l = l->next)
    ms_window_open_file (self, l->data);
  return TRUE;
}

void
ms_window_files_init (MsWindow *self)
{
  self->pending_paths = g_ptr_array_new_with_free_func (g_free);
  self->loaded =
    g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) loaded_file_free);
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_swapped (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  g_signal_connect (self, "realize", G_CALLBACK (on_realize), NULL);
}
