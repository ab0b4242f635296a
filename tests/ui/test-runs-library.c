/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-runs-library.c: the runs library (ui/ms-runs-library.c) on a folder
 * of its own: a run written as a pair and read back, written again over its
 * own files, listed with its facts; damaged and foreign files listed with a
 * reason and left byte for byte; rename (refusals too), delete with undo and
 * for real; a read-only folder and a full disk (the fault interposer) shown
 * as an error with the run kept in memory and the old files intact; "show in
 * folder" asking a file manager on the session bus. */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-backend-test.h"
#include "ms-csv-pair.h"
#include "ms-meta-sidecar.h"
#include "ms-run.h"
#include "ms-runs-library.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"

/* A small sweep on the test backend, started at date. */
static MsResults *
make_run (const char *date)
{
  MsSweep s;
  ms_test_sweep_init (&s, "pinned,host", 10, 12, 3);
  s.warmup = 0;
  MsResults *r = ms_test_sweep_run (&s, NULL);
  g_snprintf (r->device.name, sizeof r->device.name, "Test GPU");
  g_snprintf (r->date, sizeof r->date, "%s", date);
  return r;
}

static gboolean
is_done_loading (MsRunsLibrary *lib)
{
  gboolean loading;
  g_object_get (lib, "loading", &loading, NULL);
  return !loading;
}

static void
reload_and_wait (MsRunsLibrary *lib)
{
  ms_runs_library_reload (lib);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!is_done_loading (lib)) {
    g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    g_main_context_iteration (NULL, TRUE);
  }
}

static MsRunsEntry *
entry_named (MsRunsLibrary *lib, const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (ms_runs_library_get_entries (lib)); i++) {
    g_autoptr (MsRunsEntry) e = g_list_model_get_item (ms_runs_library_get_entries (lib), i);
    if (g_strcmp0 (ms_runs_entry_get_name (e), name) == 0)
      return e; /* the library keeps it */
  }
  return NULL;
}

/* A file's bytes; a samples file's followed by its sidecar's (the run's
 * metadata), when it has one. */
static char *
file_contents (const char *path)
{
  char *text = NULL, *meta = NULL, sidecar[4096];
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  if (!g_str_has_suffix (path, "-samples.csv") ||
      !ms_meta_sidecar_path (path, sidecar, sizeof sidecar) ||
      !g_file_get_contents (sidecar, &meta, NULL, NULL))
    return text;
  char *both = g_strconcat (text, meta, NULL);
  g_free (text);
  g_free (meta);
  return both;
}

static guint
count_files (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  guint n = 0;
  for (const char *name; dir && (name = g_dir_read_name (dir));)
    n += !g_str_has_suffix (name, "-meta.json");
  return n;
}

/* Files alone, no folder: a failed write may keep its run in a folder of
 * its own beside them. */
static guint
count_plain_files (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  guint n = 0;
  for (const char *name; dir && (name = g_dir_read_name (dir));) {
    g_autofree char *child = g_build_filename (folder, name, NULL);
    n += !g_str_has_suffix (name, "-meta.json") && !g_file_test (child, G_FILE_TEST_IS_DIR);
  }
  return n;
}

/* The runs' sidecars (PREFIX-meta.json): they go where their files go. */
static guint
count_sidecars (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  guint n = 0;
  for (const char *name; dir && (name = g_dir_read_name (dir));)
    n += g_str_has_suffix (name, "-meta.json");
  return n;
}

static void
test_write_and_list (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_autoptr (GError) error = NULL;
  /* The folder is made when the first run is kept. */
  g_assert_true (ms_runs_library_keep (lib, run, &error));
  g_assert_no_error (error);
  g_autofree char *path = ms_runs_library_dup_path (lib, run);
  g_assert_nonnull (path);
  g_autofree char *base = g_path_get_basename (path);
  g_assert_true (g_str_has_prefix (base, "Test GPU sweep 2026-11-2"));
  g_assert_true (g_str_has_suffix (base, "-samples.csv"));
  char summary[4096], err[512];
  g_assert_true (ms_csv_pair_summary_path (path, summary, sizeof summary));
  g_assert_true (g_file_test (summary, G_FILE_TEST_IS_REGULAR));
  g_assert_true (ms_csv_pair_check (path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_cells, ==, run->n_cells);
  ms_results_free (back);

  /* More cells, kept again: the same files, not a second pair. */
  size_t cells = run->n_cells;
  run->n_cells = cells - 1;
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  run->n_cells = cells;
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_autofree char *again = ms_runs_library_dup_path (lib, run);
  g_assert_cmpstr (again, ==, path);
  g_assert_cmpuint (count_files (folder), ==, 2);
  g_assert_cmpuint (count_sidecars (folder), ==, 1);
  back = ms_run_read_samples (path, err, sizeof err);
  g_assert_cmpuint (back->n_cells, ==, cells);
  ms_results_free (back);

  /* Another run started in the same second (stopped and run again) has
   * the same readable name: numbered, never written over the first. */
  MsResults *other = make_run ("2026-11-23T04:32:48Z");
  g_assert_true (ms_runs_library_keep (lib, other, NULL));
  g_autofree char *other_path = ms_runs_library_dup_path (lib, other);
  g_assert_cmpstr (other_path, !=, path);
  g_assert_true (g_str_has_suffix (other_path, " (2)-samples.csv"));
  g_assert_cmpuint (count_files (folder), ==, 4);
  back = ms_run_read_samples (path, err, sizeof err);
  g_assert_cmpuint (back->n_cells, ==, cells);
  ms_results_free (back);
  MsResults *later = make_run ("2026-11-23T05:00:00Z");
  g_assert_true (ms_runs_library_keep (lib, later, NULL));
  g_autofree char *later_path = ms_runs_library_dup_path (lib, later);

  /* Listed newest first, one entry per pair, with the header's facts. */
  reload_and_wait (lib);
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 3);
  g_autoptr (MsRunsEntry) newest = g_list_model_get_item (ms_runs_library_get_entries (lib), 0);
  g_autoptr (MsRunsEntry) oldest = g_list_model_get_item (ms_runs_library_get_entries (lib), 1);
  g_autofree char *newest_path = g_file_get_path (ms_runs_entry_get_file (newest));
  g_autofree char *oldest_path = g_file_get_path (ms_runs_entry_get_file (oldest));
  g_assert_cmpstr (newest_path, ==, later_path);
  g_assert_cmpstr (oldest_path, ==, path);
  g_assert_null (ms_runs_entry_get_reason (oldest));
  g_assert_cmpstr (ms_runs_entry_get_device (oldest), ==, "Test GPU");
  g_assert_cmpstr (ms_runs_entry_get_kind (oldest), ==, "sweep");
  g_autofree char *date = g_date_time_format_iso8601 (ms_runs_entry_get_date (oldest));
  g_assert_cmpstr (date, ==, "2026-11-23T04:32:48Z");
  GStatBuf a, b;
  g_assert_cmpint (g_stat (path, &a), ==, 0);
  g_assert_cmpint (g_stat (summary, &b), ==, 0);
  g_assert_cmpuint (ms_runs_entry_get_size (oldest), ==, (guint64) (a.st_size + b.st_size));
  g_assert_true (ms_runs_library_find (lib, path) == oldest);
  ms_results_free (run);
  ms_results_free (other);
  ms_results_free (later);
}

typedef struct {
  const char *name;
  const char *text;
  const char *reason_part;
} BadFile;

/* The bytes of FROM gzipped into TO (GLib's own compressor). */
static void
gzip_file (const char *from, const char *to)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (from, &text, &len, NULL));
  g_autoptr (GZlibCompressor) deflate = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr (GOutputStream) out = g_converter_output_stream_new (mem, G_CONVERTER (deflate));
  g_assert_true (g_output_stream_write_all (out, text, len, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  GMemoryOutputStream *m = G_MEMORY_OUTPUT_STREAM (mem);
  g_assert_true (g_file_set_contents (to, g_memory_output_stream_get_data (m),
                                      (gssize) g_memory_output_stream_get_data_size (m), NULL));
}

/* A gzipped run is a run, whatever its name says: the shipped runs are
 * X-samples.csv.gz, and a kept copy may hold gzip bytes under .csv. The
 * list reads its header through gzip, as the engine's reader does. */
static void
test_gzipped_runs (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_autofree char *path = ms_runs_library_dup_path (lib, run);
  g_autofree char *gz = g_strconcat (path, ".gz", NULL);
  gzip_file (path, gz);
  g_autofree char *under_csv = g_build_filename (folder, "copy-samples.csv", NULL);
  gzip_file (path, under_csv);
  g_assert_cmpint (g_unlink (path), ==, 0);

  reload_and_wait (lib);
  const char *names[] = { gz, under_csv };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    MsRunsEntry *e = ms_runs_library_find (lib, names[i]);
    g_assert_nonnull (e);
    g_assert_cmpstr (ms_runs_entry_get_reason (e), ==, NULL);
  }
  /* The .gz run has its sidecar beside it; the copy has none. */
  g_assert_cmpstr (ms_runs_entry_get_device (ms_runs_library_find (lib, gz)), ==, "Test GPU");
  ms_results_free (run);
}

static void
test_damaged_and_foreign (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  static const BadFile files[] = {
    { "notes.txt", "shopping list\n", "not a memsweep samples file" },
    { "empty-samples.csv", "", "not a memsweep samples file" },
    { "other-samples.csv", "mode,elements\npinned,1\n", "not a memsweep samples file" },
    { "header-samples.csv", "# memsweep samples file\n# device: X\n", "ends inside its header" },
    { "cut-samples.csv", "# memsweep samples file\n# device: Cut GPU\nmode,elements,rep\npinned,10",
      "cut short" },
    { "garbage-samples.csv", "\xff\xfe\x00\x01\x80garbage", "not a memsweep samples file" },
    { "orphan-summary.csv", "# memsweep summary file\n", "not a memsweep samples file" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++) {
    g_autofree char *p = g_build_filename (folder, files[i].name, NULL);
    g_assert_true (g_file_set_contents (p, files[i].text, strlen (files[i].text) + (i == 5 ? 9 : 0),
                                        NULL));
  }
  g_autofree char *sub = g_build_filename (folder, "a folder", NULL);
  g_autofree char *fifo = g_build_filename (folder, "pipe-samples.csv", NULL);
  g_autofree char *dangling = g_build_filename (folder, "gone-samples.csv", NULL);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpint (symlink ("/nonexistent/memsweep", dangling), ==, 0);
  /* A header longer than the sniff: refused without reading on. */
  GString *huge = g_string_new ("# memsweep samples file\n");
  while (huge->len < 200 * 1024)
    g_string_append (huge, "# filler: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
  g_autofree char *long_path = g_build_filename (folder, "long-samples.csv", NULL);
  g_assert_true (g_file_set_contents (long_path, huge->str, (gssize) huge->len, NULL));
  g_string_free (huge, TRUE);

  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  reload_and_wait (lib);
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==,
                    G_N_ELEMENTS (files) + 4);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++) {
    g_autofree char *p = g_build_filename (folder, files[i].name, NULL);
    MsRunsEntry *e = ms_runs_library_find (lib, p);
    g_assert_nonnull (e);
    const char *reason = ms_runs_entry_get_reason (e);
    g_assert_nonnull (reason);
    if (!strstr (reason, files[i].reason_part))
      g_error ("%s: reason “%s”, wanted “%s”", files[i].name, reason, files[i].reason_part);
    /* Left alone: no rename, no delete, the bytes as they were. */
    g_autoptr (GError) error = NULL;
    g_assert_false (ms_runs_library_rename (lib, e, "renamed", &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
    g_assert_false (ms_runs_library_delete (lib, e, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
    g_autofree char *now = NULL;
    gsize len = 0;
    g_assert_true (g_file_get_contents (p, &now, &len, NULL));
    g_assert_cmpmem (now, len, files[i].text, strlen (files[i].text) + (i == 5 ? 9 : 0));
  }
  const char *others[][2] = { { sub, "folder" }, { fifo, "not a regular file" },
                              { dangling, "link to a file that is gone" }, { long_path, "does not end" } };
  for (guint i = 0; i < G_N_ELEMENTS (others); i++) {
    MsRunsEntry *e = ms_runs_library_find (lib, others[i][0]);
    g_assert_nonnull (e);
    if (!strstr (ms_runs_entry_get_reason (e), others[i][1]))
      g_error ("%s: reason “%s”, wanted “%s”", others[i][0], ms_runs_entry_get_reason (e),
               others[i][1]);
  }
  g_assert_true (g_file_test (fifo, G_FILE_TEST_EXISTS));
}

static void
test_rename (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  MsResults *second = make_run ("2026-11-23T06:00:00Z");
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_assert_true (ms_runs_library_keep (lib, second, NULL));
  g_autofree char *old_path = ms_runs_library_dup_path (lib, run);
  g_autofree char *old_bytes = file_contents (old_path);
  reload_and_wait (lib);
  MsRunsEntry *e = ms_runs_library_find (lib, old_path);
  g_assert_nonnull (e);

  g_autoptr (GError) error = NULL;
  g_assert_true (ms_runs_library_rename (lib, e, "before the BIOS update", &error));
  g_assert_no_error (error);
  g_autofree char *new_path = g_build_filename (folder, "before the BIOS update-samples.csv", NULL);
  g_autofree char *new_summary =
    g_build_filename (folder, "before the BIOS update-summary.csv", NULL);
  g_assert_false (g_file_test (old_path, G_FILE_TEST_EXISTS));
  g_autofree char *new_bytes = file_contents (new_path);
  g_assert_cmpstr (new_bytes, ==, old_bytes);
  g_assert_true (g_file_test (new_summary, G_FILE_TEST_IS_REGULAR));
  char err[512];
  g_assert_true (ms_csv_pair_check (new_path, err, sizeof err));
  reload_and_wait (lib);
  e = entry_named (lib, "before the BIOS update");
  g_assert_nonnull (e);

  /* Kept again (a stop after a rename): into the new name. */
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_autofree char *kept = ms_runs_library_dup_path (lib, run);
  g_assert_cmpstr (kept, ==, new_path);
  g_assert_cmpuint (count_files (folder), ==, 4);

  /* Refused: a name taken by the other run, a '/', a leading '.', empty. */
  g_autofree char *second_path = ms_runs_library_dup_path (lib, second);
  g_autofree char *second_base = g_path_get_basename (second_path);
  second_base[strlen (second_base) - strlen ("-samples.csv")] = '\0';
  g_assert_false (ms_runs_library_rename (lib, e, second_base, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  const char *bad[] = { "a/b", ".hidden", "", "   " };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_clear_error (&error);
    g_assert_false (ms_runs_library_rename (lib, e, bad[i], &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  }
  g_assert_true (g_file_test (new_path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (count_files (folder), ==, 4);
  ms_results_free (run);
  ms_results_free (second);
}

static guint count_files_below (const char *path);

static void
test_delete_and_undo (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_autofree char *path = ms_runs_library_dup_path (lib, run);
  g_autofree char *bytes = file_contents (path);
  reload_and_wait (lib);
  g_autoptr (MsRunsEntry) e = g_object_ref (ms_runs_library_find (lib, path));

  /* Deleted: out of the list and the folder, aside until the undo ends. */
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_runs_library_delete (lib, e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 0);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (folder), ==, 1); /* .trash */
  g_assert_cmpuint (count_sidecars (folder), ==, 0);
  reload_and_wait (lib);
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 0);

  /* Undone: back byte for byte, with its summary. */
  g_assert_true (ms_runs_library_undelete (lib, e, &error));
  g_autofree char *back = file_contents (path);
  g_assert_cmpstr (back, ==, bytes);
  char err[512];
  g_assert_true (ms_csv_pair_check (path, err, sizeof err));
  reload_and_wait (lib);
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 1);
  g_assert_false (ms_runs_library_undelete (lib, e, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  /* Deleted for real when the undo ends. */
  g_autoptr (MsRunsEntry) again = g_object_ref (ms_runs_library_find (lib, path));
  g_assert_true (ms_runs_library_delete (lib, again, NULL));
  g_autofree char *trash = g_build_filename (folder, ".trash", NULL);
  g_assert_cmpuint (count_files_below (trash), ==, 3); /* the pair and its sidecar */
  ms_runs_library_purge (lib, again);
  g_assert_cmpuint (count_files_below (trash), ==, 0);
  g_assert_cmpuint (count_files (folder), ==, 1);

  /* ... or at quit, every one still aside, and the trash goes with them. */
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  reload_and_wait (lib);
  g_autoptr (MsRunsEntry) last = g_list_model_get_item (ms_runs_library_get_entries (lib), 0);
  g_assert_true (ms_runs_library_delete (lib, last, NULL));
  g_assert_cmpuint (count_files_below (trash), ==, 3);
  ms_runs_library_purge_all (lib);
  g_assert_cmpuint (count_files_below (trash), ==, 0);
  g_assert_false (g_file_test (trash, G_FILE_TEST_EXISTS));
  ms_results_free (run);
}

/* Files (not folders) anywhere under path. */
static guint
count_files_below (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;
  for (const char *name; dir && (name = g_dir_read_name (dir));) {
    g_autofree char *child = g_build_filename (path, name, NULL);
    n += g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK)
           ? count_files_below (child)
           : 1;
  }
  return n;
}

/* Keeps run and lists it: its entry, its path and its bytes. */
static MsRunsEntry *
keep_listed (MsRunsLibrary *lib, MsResults *run, char **path, char **bytes)
{
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  *path = ms_runs_library_dup_path (lib, run);
  *bytes = file_contents (*path);
  reload_and_wait (lib);
  return g_object_ref (ms_runs_library_find (lib, *path));
}

/* Delete X, rename another run to X, delete that too: two runs aside under
 * one name. Undo of the first brings back the first, and purging the
 * second leaves the first's undo working. */
static void
test_trash_same_name (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *x = make_run ("2026-11-23T04:32:48Z"), *y = make_run ("2026-11-23T06:00:00Z");
  g_autofree char *x_path = NULL, *x_bytes = NULL, *y_path = NULL, *y_bytes = NULL;
  g_autoptr (MsRunsEntry) ex = keep_listed (lib, x, &x_path, &x_bytes);
  g_autoptr (MsRunsEntry) ey = keep_listed (lib, y, &y_path, &y_bytes);
  g_assert_cmpstr (x_bytes, !=, y_bytes);
  g_autofree char *x_name = g_strdup (ms_runs_entry_get_name (ex));
  g_assert_true (ms_runs_library_delete (lib, ex, NULL));
  g_assert_true (ms_runs_library_rename (lib, ey, x_name, NULL));
  reload_and_wait (lib);
  g_autoptr (MsRunsEntry) ey_as_x = g_object_ref (ms_runs_library_find (lib, x_path));
  g_assert_true (ms_runs_library_delete (lib, ey_as_x, NULL));
  g_assert_false (g_file_test (x_path, G_FILE_TEST_EXISTS));

  ms_runs_library_purge (lib, ey_as_x);
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_runs_library_undelete (lib, ex, &error));
  g_assert_no_error (error);
  g_autofree char *back = file_contents (x_path);
  g_assert_cmpstr (back, ==, x_bytes);
  char err[512];
  g_assert_true (ms_csv_pair_check (x_path, err, sizeof err));
  ms_results_free (x);
  ms_results_free (y);
}

/* Two instances on one folder: each purges only its own deleted runs. */
static void
test_trash_two_instances (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) one = ms_runs_library_new (folder);
  g_autoptr (MsRunsLibrary) two = ms_runs_library_new (folder);
  MsResults *a = make_run ("2026-11-23T04:32:48Z"), *b = make_run ("2026-11-23T06:00:00Z");
  g_autofree char *a_path = NULL, *a_bytes = NULL, *b_path = NULL, *b_bytes = NULL;
  g_autoptr (MsRunsEntry) ea = keep_listed (one, a, &a_path, &a_bytes);
  g_autoptr (MsRunsEntry) eb = keep_listed (two, b, &b_path, &b_bytes);
  g_assert_true (ms_runs_library_delete (one, ea, NULL));
  g_assert_true (ms_runs_library_delete (two, eb, NULL));
  /* The first quits. */
  ms_runs_library_purge_all (one);
  g_autoptr (GError) error = NULL;
  g_assert_true (ms_runs_library_undelete (two, eb, &error));
  g_assert_no_error (error);
  g_autofree char *back = file_contents (b_path);
  g_assert_cmpstr (back, ==, b_bytes);
  g_assert_false (g_file_test (a_path, G_FILE_TEST_EXISTS));
  ms_results_free (a);
  ms_results_free (b);
}

/* .trash a symbolic link (to a folder of the user's, or anywhere): delete
 * refuses and the run stays; quitting touches nothing the link points to. */
static void
test_trash_link (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_autofree char *path = NULL, *bytes = NULL;
  g_autoptr (MsRunsEntry) e = keep_listed (lib, run, &path, &bytes);
  g_autofree char *elsewhere = g_build_filename (folder, "..", "precious", NULL);
  g_autofree char *precious = g_build_filename (elsewhere, "thesis.tex", NULL);
  g_assert_cmpint (g_mkdir (elsewhere, 0755), ==, 0);
  g_assert_true (g_file_set_contents (precious, "chapter 1\n", -1, NULL));
  g_autofree char *trash = g_build_filename (folder, ".trash", NULL);
  g_assert_cmpint (symlink (elsewhere, trash), ==, 0);

  g_autoptr (GError) error = NULL;
  g_assert_false (ms_runs_library_delete (lib, e, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_autofree char *now = file_contents (path);
  g_assert_cmpstr (now, ==, bytes);
  ms_runs_library_purge_all (lib);
  g_assert_true (g_file_test (precious, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (trash, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpuint (count_files (elsewhere), ==, 1);
  ms_results_free (run);
}

/* The trash cannot be made (a full disk): delete says so, the run stays. */
static void
trash_full_disk_child (void)
{
  const char *folder = g_getenv ("MS_TEST_RUNS_FOLDER");
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_autofree char *match = g_strdup (g_getenv ("MS_FAULT_MATCH"));
  g_unsetenv ("MS_FAULT_MATCH");
  g_autofree char *path = NULL, *bytes = NULL;
  g_autoptr (MsRunsEntry) e = keep_listed (lib, run, &path, &bytes);
  g_setenv ("MS_FAULT_MATCH", match, TRUE);
  g_autoptr (GError) error = NULL;
  g_assert_false (ms_runs_library_delete (lib, e, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_autofree char *now = file_contents (path);
  g_assert_cmpstr (now, ==, bytes);
  g_assert_cmpuint (g_list_model_get_n_items (ms_runs_library_get_entries (lib)), ==, 1);
  ms_results_free (run);
}

static void
test_trash_full_disk (void)
{
  if (g_test_subprocess ()) {
    trash_full_disk_child ();
    return;
  }
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_setenv ("MS_TEST_RUNS_FOLDER", folder, TRUE);
  g_setenv ("MS_FAULT_MATCH", ".trash", TRUE);
  g_setenv ("MS_FAULT_OP", "mkdir", TRUE);
  g_setenv ("MS_FAULT_ERRNO", "28", TRUE);
  g_setenv ("LD_PRELOAD", MS_FAULT_INJECT, TRUE);
  g_autofree char *asan = g_strdup_printf ("%s:verify_asan_link_order=0",
                                           g_getenv ("ASAN_OPTIONS") ? g_getenv ("ASAN_OPTIONS") : "");
  g_setenv ("ASAN_OPTIONS", asan, TRUE);
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("LD_PRELOAD");
  g_unsetenv ("MS_FAULT_MATCH");
  g_test_trap_assert_passed ();
}

/* The run is kept and written over (old bytes), then the folder fails. */
static void
check_failed_keep (MsRunsLibrary *lib, MsResults *run, const char *path, const char *old_bytes)
{
  g_autoptr (GError) error = NULL;
  run->n_cells--;
  g_assert_false (ms_runs_library_keep (lib, run, &error));
  run->n_cells++;
  g_assert_nonnull (error);
  g_assert_nonnull (ms_runs_library_get_write_error (lib));
  g_test_message ("write-error: %s", ms_runs_library_get_write_error (lib));
  /* The old pair as it was, nothing half written beside it. */
  g_autofree char *now = file_contents (path);
  g_assert_cmpstr (now, ==, old_bytes);
  g_autofree char *folder = g_path_get_dirname (path);
  g_assert_cmpuint (count_plain_files (folder), ==, 2);
  /* What was measured is kept beside it, whole, where the write failed
   * late enough for a copy to be made (memsweep-kept-XXXXXX). */
  g_assert_cmpuint (count_files (folder) - count_plain_files (folder), <=, 1);
  /* The run in memory is untouched. */
  g_assert_cmpint (run->cells[run->n_cells - 1].status, ==, MS_CELL_OK);
}

static void
test_read_only_folder (void)
{
  if (geteuid () == 0) {
    /* Root writes anywhere: a folder mounted read-only is what refuses it;
     * the fault interposer stands in for it (EROFS at the rename). */
    g_test_skip ("root ignores folder permissions; see test_full_disk's EROFS case");
    return;
  }
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_autofree char *path = ms_runs_library_dup_path (lib, run);
  g_autofree char *bytes = file_contents (path);
  g_assert_cmpint (g_chmod (folder, 0555), ==, 0);
  check_failed_keep (lib, run, path, bytes);
  g_assert_cmpint (g_chmod (folder, 0755), ==, 0);
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_assert_null (ms_runs_library_get_write_error (lib));
  ms_results_free (run);
}

/* In a child with the interposer preloaded: the fault named by the
 * environment hits every file in the runs folder. */
static void
faulty_child (void)
{
  const char *folder = g_getenv ("MS_TEST_RUNS_FOLDER");
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_autofree char *match = g_strdup (g_getenv ("MS_FAULT_MATCH"));
  g_unsetenv ("MS_FAULT_MATCH"); /* the first write works */
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_autofree char *path = ms_runs_library_dup_path (lib, run);
  g_autofree char *bytes = file_contents (path);
  g_setenv ("MS_FAULT_MATCH", match, TRUE);
  check_failed_keep (lib, run, path, bytes);
  g_autofree char *fired = g_build_filename (folder, "..", "fired", NULL);
  g_assert_true (g_file_test (fired, G_FILE_TEST_EXISTS));
  /* Room again: the next write works and the error is gone. */
  g_unsetenv ("MS_FAULT_MATCH");
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  g_assert_null (ms_runs_library_get_write_error (lib));
  ms_results_free (run);
}

static void
run_with_fault (const char *op, const char *errno_text)
{
  if (g_test_subprocess ()) {
    faulty_child ();
    return;
  }
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_autofree char *fired = g_build_filename (folder, "..", "fired", NULL);
  g_setenv ("MS_TEST_RUNS_FOLDER", folder, TRUE);
  g_setenv ("MS_FAULT_MATCH", folder, TRUE);
  g_setenv ("MS_FAULT_OP", op, TRUE);
  g_setenv ("MS_FAULT_ERRNO", errno_text, TRUE);
  g_setenv ("MS_FAULT_FIRED", fired, TRUE);
  g_setenv ("LD_PRELOAD", MS_FAULT_INJECT, TRUE);
  /* A sanitizer build would refuse the preloaded library otherwise. */
  g_autofree char *asan = g_strdup_printf ("%s:verify_asan_link_order=0",
                                           g_getenv ("ASAN_OPTIONS") ? g_getenv ("ASAN_OPTIONS") : "");
  g_setenv ("ASAN_OPTIONS", asan, TRUE);
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("LD_PRELOAD");
  g_unsetenv ("MS_FAULT_MATCH");
  g_test_trap_assert_passed ();
}

static void
test_full_disk (void)
{
  run_with_fault ("write", "28"); /* ENOSPC, for good */
}

static void
test_short_write (void)
{
  run_with_fault ("short", "28");
}

static void
test_read_only_rename (void)
{
  run_with_fault ("rename", "30"); /* EROFS */
}

static gboolean
is_writing (MsRunsLibrary *lib)
{
  gboolean writing;
  g_object_get (lib, "writing", &writing, NULL);
  return writing;
}

static void
wait_written (MsRunsLibrary *lib)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (is_writing (lib)) {
    g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    g_main_context_iteration (NULL, TRUE);
  }
}

/* Written on the writer thread: two runs of the same second asked back to
 * back get names of their own (the first is not on disk yet when the
 * second is named); a failure shows in "write-error". */
static void
test_keep_async (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsRun *first_run = ms_run_new (make_run ("2026-11-23T04:32:48Z"), MS_RUN_KIND_SWEEP);
  MsRun *second_run = ms_run_new (make_run ("2026-11-23T04:32:48Z"), MS_RUN_KIND_SWEEP);
  const MsResults *first = ms_run_get_results (first_run);
  const MsResults *second = ms_run_get_results (second_run);
  ms_runs_library_keep_async (lib, first_run);
  ms_runs_library_keep_async (lib, second_run);
  g_assert_true (is_writing (lib));
  g_autofree char *first_path = ms_runs_library_dup_path (lib, first);
  g_autofree char *second_path = ms_runs_library_dup_path (lib, second);
  g_assert_cmpstr (first_path, !=, second_path);
  wait_written (lib);
  char err[512];
  const char *paths[] = { first_path, second_path };
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++) {
    MsResults *back = ms_run_read_samples (paths[i], err, sizeof err);
    g_assert_nonnull (back);
    g_assert_cmpuint (back->n_cells, ==, first->n_cells);
    g_assert_true (ms_csv_pair_check (paths[i], err, sizeof err));
    ms_results_free (back);
  }
  g_assert_null (ms_runs_library_get_write_error (lib));

  /* The folder's place taken by a file: the write fails, visibly. */
  g_autofree char *blocked = g_build_filename (folder, "..", "blocked", NULL);
  g_assert_true (g_file_set_contents (blocked, "in the way\n", -1, NULL));
  g_autoptr (MsRunsLibrary) broken = ms_runs_library_new (blocked);
  ms_runs_library_keep_async (broken, first_run);
  wait_written (broken);
  g_assert_nonnull (ms_runs_library_get_write_error (broken));
  g_autofree char *still = file_contents (blocked);
  g_assert_cmpstr (still, ==, "in the way\n");
  g_object_unref (first_run);
  g_object_unref (second_run);
}

/* Another app instance writes a run under the name this one chose, after
 * it chose it and before its write (this test holds the folder's lock, as
 * that instance's commit would): the other pair stays, this run goes under
 * the next free name, and later writes of the run follow it there. */
static void
test_keep_name_taken_meanwhile (void)
{
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsRun *run = ms_run_new (make_run ("2026-11-23T04:32:48Z"), MS_RUN_KIND_SWEEP);
  const MsResults *results = ms_run_get_results (run);
  int dir_fd = open (folder, O_RDONLY | O_DIRECTORY);
  g_assert_cmpint (flock (dir_fd, LOCK_EX), ==, 0);
  ms_runs_library_keep_async (lib, run);
  g_autofree char *chosen = ms_runs_library_dup_path (lib, results);
  char chosen_summary[4096];
  g_assert_true (ms_csv_pair_summary_path (chosen, chosen_summary, sizeof chosen_summary));
  g_assert_true (g_file_set_contents (chosen, "the other instance's samples\n", -1, NULL));
  g_assert_true (g_file_set_contents (chosen_summary, "the other instance's summary\n", -1, NULL));
  g_assert_cmpint (flock (dir_fd, LOCK_UN), ==, 0);
  close (dir_fd);
  wait_written (lib);
  g_assert_null (ms_runs_library_get_write_error (lib));
  g_autofree char *other = file_contents (chosen);
  g_assert_cmpstr (other, ==, "the other instance's samples\n");
  g_autofree char *other_summary = file_contents (chosen_summary);
  g_assert_cmpstr (other_summary, ==, "the other instance's summary\n");
  g_autofree char *kept = ms_runs_library_dup_path (lib, results);
  g_assert_cmpstr (kept, !=, chosen);
  g_assert_true (g_str_has_suffix (kept, " (2)-samples.csv"));
  char err[512];
  g_assert_true (ms_csv_pair_check (kept, err, sizeof err));
  /* Written again (a stop after the end): over its own pair, not the other. */
  ms_runs_library_keep_async (lib, run);
  wait_written (lib);
  g_autofree char *still = file_contents (chosen);
  g_assert_cmpstr (still, ==, "the other instance's samples\n");
  g_assert_cmpuint (count_files (folder), ==, 4);
  g_object_unref (run);
}

/* ---- show in folder: a file manager of our own on the session bus ---------- */

static char *shown_uri;

static void
on_method_call (GDBusConnection *c, const char *sender, const char *path, const char *iface,
                const char *method, GVariant *params, GDBusMethodInvocation *invocation,
                gpointer data)
{
  g_autofree const char **uris = NULL;
  const char *startup;
  g_variant_get (params, "(^a&s&s)", &uris, &startup);
  g_free (shown_uri);
  shown_uri = g_strdup (uris[0]);
  g_dbus_method_invocation_return_value (invocation, NULL);
}

static void
on_shown (GObject *source, GAsyncResult *result, gpointer data)
{
  gboolean *ok = data;
  g_autoptr (GError) error = NULL;
  *ok = ms_runs_library_show_in_folder_finish (MS_RUNS_LIBRARY (source), result, &error) ? 1 : 2;
  g_assert_no_error (error);
}

static void
test_show_in_folder (void)
{
  g_autoptr (GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (!bus) {
    g_test_skip ("no session bus (run under dbus-run-session)");
    return;
  }
  static const char xml[] =
    "<node><interface name='org.freedesktop.FileManager1'><method name='ShowItems'>"
    "<arg type='as' direction='in'/><arg type='s' direction='in'/></method></interface></node>";
  g_autoptr (GDBusNodeInfo) node = g_dbus_node_info_new_for_xml (xml, NULL);
  static const GDBusInterfaceVTable vtable = { on_method_call };
  guint reg = g_dbus_connection_register_object (bus, "/org/freedesktop/FileManager1",
                                                 node->interfaces[0], &vtable, NULL, NULL, NULL);
  guint owner = g_bus_own_name_on_connection (bus, "org.freedesktop.FileManager1",
                                              G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL, NULL, NULL);
  const char *folder = ms_test_tmp_printf ("%s/memsweep/runs", g_test_get_path () + 1);
  g_autoptr (MsRunsLibrary) lib = ms_runs_library_new (folder);
  MsResults *run = make_run ("2026-11-23T04:32:48Z");
  g_assert_true (ms_runs_library_keep (lib, run, NULL));
  reload_and_wait (lib);
  g_autoptr (MsRunsEntry) e = g_list_model_get_item (ms_runs_library_get_entries (lib), 0);
  gboolean done = 0;
  /* The name may not be ours yet: the call then falls back to opening the
   * folder, which fails here; wait until the name is owned. */
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline) {
    g_autoptr (GVariant) reply = g_dbus_connection_call_sync (
      bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
      g_variant_new ("(s)", "org.freedesktop.FileManager1"), NULL, 0, -1, NULL, NULL);
    if (reply)
      break;
    g_main_context_iteration (NULL, FALSE);
  }
  ms_runs_library_show_in_folder (lib, e, NULL, on_shown, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (done, ==, 1);
  g_autofree char *uri = g_file_get_uri (ms_runs_entry_get_file (e));
  g_assert_cmpstr (shown_uri, ==, uri);
  g_bus_unown_name (owner);
  g_dbus_connection_unregister_object (bus, reg);
  ms_results_free (run);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runs-library/write-and-list", test_write_and_list);
  g_test_add_func ("/runs-library/damaged-and-foreign", test_damaged_and_foreign);
  g_test_add_func ("/runs-library/gzipped-runs", test_gzipped_runs);
  g_test_add_func ("/runs-library/rename", test_rename);
  g_test_add_func ("/runs-library/delete-and-undo", test_delete_and_undo);
  g_test_add_func ("/runs-library/trash-same-name", test_trash_same_name);
  g_test_add_func ("/runs-library/trash-two-instances", test_trash_two_instances);
  g_test_add_func ("/runs-library/trash-link", test_trash_link);
  g_test_add_func ("/runs-library/trash-full-disk", test_trash_full_disk);
  g_test_add_func ("/runs-library/read-only-folder", test_read_only_folder);
  g_test_add_func ("/runs-library/full-disk", test_full_disk);
  g_test_add_func ("/runs-library/short-write", test_short_write);
  g_test_add_func ("/runs-library/read-only-rename", test_read_only_rename);
  g_test_add_func ("/runs-library/keep-async", test_keep_async);
  g_test_add_func ("/runs-library/keep-name-taken-meanwhile", test_keep_name_taken_meanwhile);
  g_test_add_func ("/runs-library/show-in-folder", test_show_in_folder);
  return g_test_run ();
}
