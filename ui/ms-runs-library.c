/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runs-library.c: the folder of kept runs. Writing goes through the
 * engine's CSV pair (temporaries, checked writes, sync, rename), so a failed
 * write leaves whatever was there and the run stays in memory; the folder
 * is listed on a worker thread; delete moves files aside until the undo
 * is no longer offered. */
#include "ms-runs-library.h"
#include "ms-props.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ms-engine.h"
#include "ms-run.h"
#include "ms-runs-trash.h"
#include "ms-show-in-folder.h"

struct _MsRunsLibrary {
  GObject parent_instance;
  char *folder;
  GListStore *entries;
  /* A run's identity (date, device, experiment) -> its samples path, so that
   * writing it again replaces its own files. */
  GHashTable *kept;
  /* Deleted entries -> their number in the trash, while undo is offered. */
  GHashTable *aside;
  MsRunsTrash *trash;
  char *write_error;
  guint generation; /* of the newest listing asked for */
  gboolean loading;
  GThreadPool *writer; /* one thread: writes in the order asked */
  /* The writer thread's own: a name chosen that another instance took
   * first -> the name written instead, for later writes of the run. */
  GHashTable *moved;
  guint n_writing;
  GMainContext *context;
};

G_DEFINE_FINAL_TYPE (MsRunsLibrary, ms_runs_library, G_TYPE_OBJECT)

enum { PROP_0, PROP_FOLDER, PROP_LOADING, PROP_WRITING, PROP_WRITE_ERROR, N_PROPS };
enum { SIGNAL_RENAMED, N_SIGNALS };
static guint signals[N_SIGNALS];
static GParamSpec *props[N_PROPS];

/* ---- object ---------------------------------------------------------------- */

static const MsProp prop_table[N_PROPS] = {
  [PROP_FOLDER] = { "folder", G_TYPE_STRING, MS_PROP_FIELD (MsRunsLibrary, folder),
                    .flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY },
  [PROP_LOADING] = { "loading", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsRunsLibrary, loading),
                     .flags = G_PARAM_READABLE },
  [PROP_WRITING] = { "writing", G_TYPE_BOOLEAN, MS_PROP_NO_FIELD,
                     .getter = G_CALLBACK (ms_runs_library_is_writing), .flags = G_PARAM_READABLE },
  [PROP_WRITE_ERROR] = { "write-error", G_TYPE_STRING, MS_PROP_FIELD (MsRunsLibrary, write_error),
                         .flags = G_PARAM_READABLE },
};

static void
ms_runs_library_finalize (GObject *object)
{
  MsRunsLibrary *self = MS_RUNS_LIBRARY (object);
  /* Every job holds the library: none is left when it is finalised. */
  if (self->writer)
    g_thread_pool_free (self->writer, FALSE, TRUE);
  g_main_context_unref (self->context);
  ms_props_clear (object);
  g_clear_object (&self->entries);
  g_hash_table_unref (self->kept);
  g_hash_table_unref (self->moved);
  g_hash_table_unref (self->aside);
  /* What is still deleted goes with the library (the app purges at quit). */
  ms_runs_trash_free (self->trash);
  G_OBJECT_CLASS (ms_runs_library_parent_class)->finalize (object);
}

static void
ms_runs_library_class_init (MsRunsLibraryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = ms_runs_library_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  signals[SIGNAL_RENAMED] =
    g_signal_new ("renamed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
}

static void
ms_runs_library_init (MsRunsLibrary *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->entries = g_list_store_new (MS_TYPE_RUNS_ENTRY);
  self->kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->moved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->aside = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref, NULL);
}

MsRunsLibrary *
ms_runs_library_new (const char *folder)
{
  MsRunsLibrary *self = g_object_new (MS_TYPE_RUNS_LIBRARY, "folder", folder, NULL);
  self->trash = ms_runs_trash_new (folder);
  return self;
}

MsRunsLibrary *
ms_runs_library_get_default (void)
{
  static MsRunsLibrary *library;
  if (!library) {
    g_autofree char *folder = g_build_filename (g_get_user_data_dir (), "memsweep", "runs", NULL);
    library = ms_runs_library_new (folder);
  }
  return library;
}

const char *
ms_runs_library_get_folder (MsRunsLibrary *self)
{
  return self->folder;
}

GListModel *
ms_runs_library_get_entries (MsRunsLibrary *self)
{
  return G_LIST_MODEL (self->entries);
}

const char *
ms_runs_library_get_write_error (MsRunsLibrary *self)
{
  return self->write_error;
}

/* ---- names ------------------------------------------------------------------ */

/* A file name from text: valid UTF-8, no '/' or control characters, no
 * leading '.', at most about 150 bytes (cut between characters). */
static char *
file_name_from (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *out = g_string_new (NULL);
  for (const char *p = valid; *p; p = g_utf8_next_char (p)) {
    gunichar c = g_utf8_get_char (p);
    if (c == '/' || c == '\\')
      g_string_append_c (out, '-');
    else if (g_unichar_iscntrl (c))
      g_string_append_c (out, ' ');
    else if (out->len + 6 < 150)
      g_string_append_unichar (out, c);
  }
  g_strstrip (out->str);
  out->len = strlen (out->str);
  while (out->str[0] == '.')
    g_string_erase (out, 0, 1);
  return g_string_free (out, FALSE);
}

/* "NVIDIA H100 80GB HBM3 sweep 2026-11-23 04-32-48" (local time). */
static char *
readable_name (const MsResults *run)
{
  g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr (GDateTime) date = g_date_time_new_from_iso8601 (run->date, utc);
  if (!date)
    date = g_date_time_new_now_utc ();
  g_autoptr (GDateTime) local = g_date_time_to_local (date);
  g_autofree char *when = g_date_time_format (local, "%Y-%m-%d %H-%M-%S");
  const char *device = run->device.name[0] ? run->device.name : "host";
  const char *kind = run->experiment[0] ? run->experiment : "sweep";
  g_autofree char *text = g_strdup_printf ("%s %s %s", device, kind, when);
  return file_name_from (text);
}

static char *
samples_path (const char *folder, const char *name)
{
  g_autofree char *base = g_strconcat (name, "-samples.csv", NULL);
  return g_build_filename (folder, base, NULL);
}

static char *
summary_path (const char *folder, const char *name)
{
  g_autofree char *base = g_strconcat (name, "-summary.csv", NULL);
  return g_build_filename (folder, base, NULL);
}

static gboolean
name_taken (const char *folder, const char *name)
{
  g_autofree char *samples = samples_path (folder, name);
  g_autofree char *summary = summary_path (folder, name);
  char meta[4096];
  /* A sidecar left alone is another run's metadata: its name is taken too. */
  gboolean meta_taken = ms_meta_sidecar_path (samples, meta, sizeof meta) &&
                        (g_file_test (meta, G_FILE_TEST_EXISTS) ||
                         g_file_test (meta, G_FILE_TEST_IS_SYMLINK));
  return g_file_test (samples, G_FILE_TEST_EXISTS) || g_file_test (summary, G_FILE_TEST_EXISTS) ||
         g_file_test (samples, G_FILE_TEST_IS_SYMLINK) ||
         g_file_test (summary, G_FILE_TEST_IS_SYMLINK) || meta_taken;
}

/* Two runs can start in the same second (stopped and run again): the
 * address tells them apart while both are alive; the date, device and
 * experiment tell a new run from a freed one at the same address. */
static char *
identity (const MsResults *run)
{
  return g_strdup_printf ("%p\n%s\n%s\n%s", (const void *) run, run->date, run->device.name,
                          run->experiment);
}

/* Whether a file, or a run being written, has the name. */
static gboolean
name_in_use (MsRunsLibrary *self, const char *name)
{
  if (name_taken (self->folder, name))
    return TRUE;
  g_autofree char *samples = samples_path (self->folder, name);
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, self->kept);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (g_strcmp0 (value, samples) == 0)
      return TRUE;
  return FALSE;
}

/* The readable name, numbered " (2)", " (3)" ... until nothing has it. */
static char *
free_name (MsRunsLibrary *self, const char *wanted)
{
  char *name = g_strdup (wanted);
  for (int n = 2; name_in_use (self, name); n++) {
    g_free (name);
    name = g_strdup_printf ("%s (%d)", wanted, n);
  }
  return name;
}

/* ---- writing ---------------------------------------------------------------- */

char *
ms_runs_library_dup_path (MsRunsLibrary *self, const MsResults *run)
{
  g_autofree char *key = identity (run);
  return g_strdup (g_hash_table_lookup (self->kept, key));
}

/* The samples path run is written to: its own from before, or a new name
 * (*fresh), taken from now on (a write under way holds it). NULL when the
 * folder cannot be made. */
static char *
place_for (MsRunsLibrary *self, const MsResults *run, gboolean *fresh, GError **error)
{
  *fresh = FALSE;
  if (g_mkdir_with_parents (self->folder, 0755) != 0) {
    int e = errno;
    g_autofree char *msg = g_strdup_printf ("%s: %s", self->folder, g_strerror (e));
    ms_props_set_string (self, &self->write_error, msg, props[PROP_WRITE_ERROR]);
    g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (e), msg);
    return NULL;
  }
  g_autofree char *key = identity (run);
  const char *samples = g_hash_table_lookup (self->kept, key);
  if (samples)
    return g_strdup (samples);
  g_autofree char *wanted = readable_name (run);
  g_autofree char *name = free_name (self, wanted);
  char *path = samples_path (self->folder, name);
  g_hash_table_replace (self->kept, g_steal_pointer (&key), g_strdup (path));
  *fresh = TRUE;
  return path;
}

/* taken NULL: over the run's own pair; else a new pair only (*taken when
 * its name is no longer free). */
static gboolean
write_pair (const MsResults *run, const char *samples, gboolean *taken, char *err, size_t errlen)
{
  char summary[4096];
  bool exists = false;
  if (!ms_csv_pair_summary_path (samples, summary, sizeof summary)) {
    g_snprintf (err, errlen, "%s: %s", samples, g_strerror (ENAMETOOLONG));
    return FALSE;
  }
  if (!taken)
    return ms_csv_write_pair (run, samples, summary, err, errlen);
  gboolean ok = ms_csv_write_pair_new (run, samples, summary, &exists, err, errlen);
  *taken = exists;
  return ok;
}

/* A run's first write, under the name chosen for it, never over a pair
 * another app instance wrote under that name meanwhile: then under the
 * next free one. The path written (or tried last), to free. */
static char *
write_new_pair (const char *folder, const MsResults *run, const char *chosen, gboolean *ok,
                char *err, size_t errlen)
{
  g_autofree char *wanted = readable_name (run);
  char *samples = g_strdup (chosen);
  for (int n = 1;;) {
    gboolean taken = FALSE;
    *ok = write_pair (run, samples, &taken, err, errlen);
    if (*ok || !taken || n > 1000)
      return samples;
    g_autofree char *name = NULL;
    do {
      g_free (name);
      name = g_strdup_printf ("%s (%d)", wanted, ++n);
    } while (name_taken (folder, name));
    g_free (samples);
    samples = samples_path (folder, name);
  }
}

/* A write's outcome, on the main context. */
static void
written (MsRunsLibrary *self, gboolean ok, const char *err)
{
  ms_props_set_string (self, &self->write_error, ok ? NULL : err, props[PROP_WRITE_ERROR]);
  if (ok)
    ms_runs_library_reload (self);
}

gboolean
ms_runs_library_keep (MsRunsLibrary *self, const MsResults *run, GError **error)
{
  g_return_val_if_fail (MS_IS_RUNS_LIBRARY (self) && run, FALSE);
  gboolean fresh, ok;
  g_autofree char *samples = place_for (self, run, &fresh, error);
  char err[1024];
  if (!samples)
    return FALSE;
  if (fresh) {
    g_autofree char *written_to = write_new_pair (self->folder, run, samples, &ok, err, sizeof err);
    if (ok && g_strcmp0 (written_to, samples) != 0)
      g_hash_table_replace (self->kept, identity (run), g_strdup (written_to));
  } else {
    ok = write_pair (run, samples, NULL, err, sizeof err);
  }
  if (!ok)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err);
  written (self, ok, err);
  return ok;
}

typedef struct {
  MsRunsLibrary *self;
  MsRun *run;      /* a reference: its cells stay while they are written */
  MsResults facts; /* run's fields as asked (name, note...), its cells shared */
  char *samples;   /* as chosen; where it was written, once done */
  char *chosen;
  char *key;       /* the run's identity in kept */
  gboolean fresh;  /* the run's first write */
  gboolean ok;
  char err[1024];
  GApplication *app;
} KeepJob;

static gboolean
keep_done (gpointer data)
{
  KeepJob *job = data;
  MsRunsLibrary *self = job->self;
  /* Another instance had taken the name: later writes follow the run. */
  if (job->ok && g_strcmp0 (job->samples, job->chosen) != 0 &&
      g_strcmp0 (g_hash_table_lookup (self->kept, job->key), job->chosen) == 0)
    g_hash_table_replace (self->kept, g_strdup (job->key), g_strdup (job->samples));
  written (self, job->ok, job->err);
  if (--self->n_writing == 0)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_WRITING]);
  if (job->app)
    g_application_release (job->app);
  g_object_unref (job->run);
  g_free (job->samples);
  g_free (job->chosen);
  g_free (job->key);
  g_object_unref (job->self);
  g_free (job);
  return G_SOURCE_REMOVE;
}

/* One writer thread: writes of the same run land in the order asked. */
static void
keep_thread (gpointer data, gpointer user_data)
{
  KeepJob *job = data;
  GHashTable *moved = job->self->moved;
  const char *instead = g_hash_table_lookup (moved, job->chosen);
  if (instead) {
    g_free (job->samples);
    job->samples = g_strdup (instead);
  }
  if (job->fresh && !instead) {
    g_free (job->samples);
    job->samples = write_new_pair (job->self->folder, &job->facts, job->chosen, &job->ok,
                                   job->err, sizeof job->err);
    if (job->ok && g_strcmp0 (job->samples, job->chosen) != 0)
      g_hash_table_replace (moved, g_strdup (job->chosen), g_strdup (job->samples));
  } else {
    job->ok = write_pair (&job->facts, job->samples, NULL, job->err, sizeof job->err);
  }
  /* Always from the main context's loop: g_main_context_invoke would run it
   * here when no thread owns the context at this moment. */
  g_autoptr (GSource) idle = g_idle_source_new ();
  g_source_set_callback (idle, keep_done, job, NULL);
  g_source_attach (idle, job->self->context);
}

void
ms_runs_library_keep_async (MsRunsLibrary *self, MsRun *run)
{
  g_return_if_fail (MS_IS_RUNS_LIBRARY (self) && MS_IS_RUN (run));
  const MsResults *results = ms_run_get_results (run);
  gboolean fresh;
  char *samples = place_for (self, results, &fresh, NULL);
  if (!samples)
    return;
  KeepJob *job = g_new0 (KeepJob, 1);
  job->chosen = g_strdup (samples);
  job->key = identity (results);
  job->fresh = fresh;
  job->self = g_object_ref (self);
  job->run = g_object_ref (run);
  /* The name and note may change meanwhile (the Runs popover): the writer
   * reads its own copy of them. */
  job->facts = *results;
  job->samples = samples;
  /* Quitting waits for the write. */
  if ((job->app = g_application_get_default ()))
    g_application_hold (job->app);
  if (self->n_writing++ == 0)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_WRITING]);
  if (!self->writer)
    self->writer = g_thread_pool_new (keep_thread, NULL, 1, FALSE, NULL);
  g_thread_pool_push (self->writer, job, NULL);
}

gboolean
ms_runs_library_is_writing (MsRunsLibrary *self)
{
  return self->n_writing > 0;
}

/* ---- listing ---------------------------------------------------------------- */

static void
list_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  const char *folder = task_data;
  GPtrArray *entries = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GFile) dir = g_file_new_for_path (folder);
  g_autoptr (GFileEnumerator) e = g_file_enumerate_children (
    dir, G_FILE_ATTRIBUTE_STANDARD_NAME, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, NULL);
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GFileInfo *info;
  while (e && (info = g_file_enumerator_next_file (e, cancellable, NULL))) {
    const char *name = g_file_info_get_name (info);
    if (name[0] != '.')
      g_hash_table_add (names, g_strdup (name));
    g_object_unref (info);
  }
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, names);
  while (g_hash_table_iter_next (&it, &key, NULL)) {
    const char *name = key;
    /* A run's metadata (its sidecar) is no run of its own. */
    if (g_str_has_suffix (name, MS_META_SIDECAR_SUFFIX))
      continue;
    /* A summary belongs to the samples file beside it, when there is one. */
    size_t stem = ms_csv_name_stem (name, "-summary.csv");
    if (stem) {
      g_autofree char *samples = g_strdup_printf ("%.*s-samples.csv", (int) stem, name);
      g_autofree char *compressed = g_strconcat (samples, ".gz", NULL);
      if (g_hash_table_contains (names, samples) || g_hash_table_contains (names, compressed))
        continue;
    }
    g_autoptr (GFile) file = g_file_get_child (dir, name);
    g_ptr_array_add (entries, ms_runs_entry_read (file, cancellable));
  }
  g_ptr_array_sort (entries, ms_runs_entry_compare);
  g_task_return_pointer (task, entries, (GDestroyNotify) g_ptr_array_unref);
}

static void
list_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  MsRunsLibrary *self = MS_RUNS_LIBRARY (source);
  g_autoptr (GPtrArray) entries = g_task_propagate_pointer (G_TASK (result), NULL);
  if (GPOINTER_TO_UINT (user_data) != self->generation || !entries)
    return; /* a newer listing is under way */
  g_list_store_splice (self->entries, 0, g_list_model_get_n_items (G_LIST_MODEL (self->entries)),
                       entries->pdata, entries->len);
  self->loading = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LOADING]);
}

void
ms_runs_library_reload (MsRunsLibrary *self)
{
  self->generation++;
  GTask *task = g_task_new (self, NULL, list_done, GUINT_TO_POINTER (self->generation));
  g_task_set_task_data (task, g_strdup (self->folder), g_free);
  g_task_run_in_thread (task, list_thread);
  g_object_unref (task);
  if (!self->loading) {
    self->loading = TRUE;
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LOADING]);
  }
}

MsRunsEntry *
ms_runs_library_find (MsRunsLibrary *self, const char *path)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->entries));
  for (guint i = 0; i < n; i++) {
    g_autoptr (MsRunsEntry) entry = g_list_model_get_item (G_LIST_MODEL (self->entries), i);
    g_autofree char *p = g_file_get_path (ms_runs_entry_get_file (entry));
    if (g_strcmp0 (p, path) == 0)
      return entry;
  }
  return NULL;
}

static gboolean
remove_entry (MsRunsLibrary *self, MsRunsEntry *entry)
{
  guint position;
  if (!g_list_store_find (self->entries, entry, &position))
    return FALSE;
  g_list_store_remove (self->entries, position);
  return TRUE;
}

/* ---- rename and delete --------------------------------------------------------- */

/* Moves the pair and its sidecar; when the summary's or the sidecar's
 * move fails what was moved goes back, so the run is never split. A
 * missing summary or sidecar is no failure. */
static gboolean
move_pair (const char *from_samples, const char *to_samples, GError **error)
{
  char from_summary[4096], to_summary[4096], from_meta[4096], to_meta[4096];
  ms_csv_pair_summary_path (from_samples, from_summary, sizeof from_summary);
  ms_csv_pair_summary_path (to_samples, to_summary, sizeof to_summary);
  ms_meta_sidecar_path (from_samples, from_meta, sizeof from_meta);
  ms_meta_sidecar_path (to_samples, to_meta, sizeof to_meta);
  gboolean paired = g_file_test (from_summary, G_FILE_TEST_EXISTS);
  if (g_rename (from_samples, to_samples) != 0)
    return ms_runs_errno_error (error, errno, from_samples);
  if (paired && g_rename (from_summary, to_summary) != 0) {
    int e = errno;
    g_rename (to_samples, from_samples);
    return ms_runs_errno_error (error, e, from_summary);
  }
  if (g_file_test (from_meta, G_FILE_TEST_EXISTS) && g_rename (from_meta, to_meta) != 0) {
    int e = errno;
    if (paired)
      g_rename (to_summary, from_summary);
    g_rename (to_samples, from_samples);
    return ms_runs_errno_error (error, e, from_meta);
  }
  return TRUE;
}

static gboolean
check_is_run (MsRunsEntry *entry, GError **error)
{
  g_autofree char *path = g_file_get_path (ms_runs_entry_get_file (entry));
  if (ms_runs_entry_get_reason (entry) || !ms_csv_name_stem (path, "-samples.csv")) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                 _("“%s” is not a run memsweep keeps; it is left as it is"),
                 ms_runs_entry_get_name (entry));
    return FALSE;
  }
  return TRUE;
}

/* The kept runs written at old_path are written at new_path from now on. */
static void
follow_move (MsRunsLibrary *self, const char *old_path, const char *new_path)
{
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, self->kept);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (g_strcmp0 (value, old_path) == 0) {
      if (new_path)
        g_hash_table_iter_replace (&it, g_strdup (new_path));
      else
        g_hash_table_iter_remove (&it);
    }
}

gboolean
ms_runs_library_rename (MsRunsLibrary *self, MsRunsEntry *entry, const char *name,
                        GError **error)
{
  if (!check_is_run (entry, error))
    return FALSE;
  g_autofree char *clean = file_name_from (name);
  if (!clean[0] || strchr (name, '/') || name[0] == '.') {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                 _("A run's name cannot be empty, contain “/” or start with “.”"));
    return FALSE;
  }
  if (g_strcmp0 (clean, ms_runs_entry_get_name (entry)) == 0)
    return TRUE;
  if (name_in_use (self, clean)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("A run called “%s” is already kept"),
                 clean);
    return FALSE;
  }
  g_autofree char *from = g_file_get_path (ms_runs_entry_get_file (entry));
  g_autofree char *to = samples_path (self->folder, clean);
  if (!move_pair (from, to, error))
    return FALSE;
  follow_move (self, from, to);
  ms_runs_library_reload (self);
  g_signal_emit (self, signals[SIGNAL_RENAMED], 0, from, to, clean);
  return TRUE;
}

gboolean
ms_runs_library_delete (MsRunsLibrary *self, MsRunsEntry *entry, GError **error)
{
  if (!check_is_run (entry, error))
    return FALSE;
  g_autofree char *from = g_file_get_path (ms_runs_entry_get_file (entry));
  guint id = ms_runs_trash_put (self->trash, from, error);
  if (!id)
    return FALSE;
  follow_move (self, from, NULL);
  g_hash_table_insert (self->aside, g_object_ref (entry), GUINT_TO_POINTER (id));
  remove_entry (self, entry);
  return TRUE;
}

gboolean
ms_runs_library_undelete (MsRunsLibrary *self, MsRunsEntry *entry, GError **error)
{
  guint id = GPOINTER_TO_UINT (g_hash_table_lookup (self->aside, entry));
  if (!id) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("“%s” was not deleted"),
                 ms_runs_entry_get_name (entry));
    return FALSE;
  }
  const char *name = ms_runs_entry_get_name (entry);
  if (name_taken (self->folder, name)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("A run called “%s” is already kept"),
                 name);
    return FALSE;
  }
  if (!ms_runs_trash_restore (self->trash, id, error))
    return FALSE;
  g_hash_table_remove (self->aside, entry);
  ms_runs_library_reload (self);
  return TRUE;
}

void
ms_runs_library_purge (MsRunsLibrary *self, MsRunsEntry *entry)
{
  guint id = GPOINTER_TO_UINT (g_hash_table_lookup (self->aside, entry));
  if (!id)
    return;
  ms_runs_trash_purge (self->trash, id);
  g_hash_table_remove (self->aside, entry);
}

void
ms_runs_library_purge_all (MsRunsLibrary *self)
{
  ms_runs_trash_purge_all (self->trash);
  g_hash_table_remove_all (self->aside);
}

/* ---- show in folder ---------------------------------------------------------- */

void
ms_runs_library_show_in_folder (MsRunsLibrary *self, MsRunsEntry *entry,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data)
{
  ms_show_in_folder (ms_runs_entry_get_file (entry), cancellable, callback, user_data);
}

gboolean
ms_runs_library_show_in_folder_finish (MsRunsLibrary *self, GAsyncResult *result, GError **error)
{
  return ms_show_in_folder_finish (result, error);
}
