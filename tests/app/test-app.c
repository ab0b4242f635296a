/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app.c: the application as a user would drive it, under Xvfb: start,
 * open a reference run, refuse a broken file without losing data, switch
 * through every view, export CSV and PNG and check them, a lesson's
 * handout, show file names
 * literally in toasts, run and stop sweeps, quit. Every wait is for a
 * condition (a property or a widget), with a generous timeout. Run with
 * G_DEBUG=fatal-criticals so that any critical fails the test. */
#include <glib/gstdio.h>
#include <unistd.h>
#include <adwaita.h>
#include <gtk/gtk.h>

#include "memsweep.h"
#include "ms-application.h"
#include "ms-app-test.h"
#include "ms-runs-library.h"
#include "ms-reference-dialog.h"
#include "ms-reference-runs.h"
#include "ms-reference-test.h"
#include "ms-setting-table.h"
#include "ms-settings-pane.h"
#include "ms-window.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"

static gboolean done;

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

static gboolean
in_schema_range (const char *key, GVariant *value)
{
  g_autoptr (GSettingsSchema) schema =
    g_settings_schema_source_lookup (g_settings_schema_source_get_default (), MS_APPLICATION_ID,
                                     TRUE);
  g_autoptr (GSettingsSchemaKey) k = g_settings_schema_get_key (schema, key);
  g_variant_ref_sink (value);
  gboolean ok = g_settings_schema_key_range_check (k, value);
  g_variant_unref (value);
  return ok;
}

static void
check_files (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 1);

  /* A broken file: a clear error naming file and line, data unchanged. */
  const char *bad = ms_test_tmp_path ("broken.csv");
  g_file_set_contents (bad, "mode,elements,rep,phase,host_start_us,host_us,status\n"
                            "pinned,1024,0,h2d,0,oops,ok\n", -1, NULL);
  g_assert_false (ms_window_load_path (win, bad, &error));
  g_assert_nonnull (strstr (error->message, "broken.csv:2:"));
  g_clear_error (&error);
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 1);
}

static void
check_views_and_exports (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  for (int v = 0; v < MS_VIEW_COUNT; v++) {
    ms_window_set_view (win, v);
    int shown;
    g_object_get (win, "view", &shown, NULL);
    g_assert_cmpint (shown, ==, v);
    g_assert_cmpint (ms_window_get_view (win), ==, v);
    g_autofree char *name = g_strdup_printf ("view-%d.png", v);
    const char *png = ms_test_tmp_path (name);
    /* Export Chart writes what the page shows: with one run open, the
     * table, Compare (two runs), GPUs (no heat map) and Lessons (no
     * lesson shown) have nothing to draw, say so and write nothing
     * (they used to write the Bandwidth chart). */
    if (v == MS_VIEW_TABLE || v == MS_VIEW_COMPARE || v == MS_VIEW_DEVICES ||
        v == MS_VIEW_LESSONS) {
      g_assert_false (ms_window_export_chart (win, png, 800, 500, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
      g_clear_error (&error);
      g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
      continue;
    }
    g_assert_true (ms_window_export_chart (win, png, 800, 500, &error));
    g_assert_no_error (error);
    g_autofree char *data = NULL;
    gsize len = 0;
    g_assert_true (g_file_get_contents (png, &data, &len, NULL));
    g_assert_true (len > 2000 && memcmp (data, "\x89PNG", 4) == 0);
  }

  /* The report of the runs shown, as the menu item writes it. */
  for (int html = 0; html < 2; html++) {
    const char *report = ms_test_tmp_path (html ? "r.html" : "r.pdf");
    g_assert_true (ms_window_export_report (win, report, &error));
    g_assert_no_error (error);
    g_autofree char *data = NULL;
    gsize len = 0;
    g_assert_true (g_file_get_contents (report, &data, &len, NULL));
    g_assert_true (len > 10000);
    g_assert_true (html ? g_str_has_prefix (data, "<!DOCTYPE html>") : memcmp (data, "%PDF", 4) == 0);
  }
  g_assert_nonnull (g_action_map_lookup_action (G_ACTION_MAP (win), "export-report"));

  const char *csv = ms_test_tmp_path ("export-samples.csv");
  g_assert_true (ms_window_export_csv (win, csv, FALSE, &error));
  char err[512];
  MsResults *back = ms_run_read_samples (csv, err, sizeof err);
  g_assert_nonnull (back);
  g_autofree char *shown =
    g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_cmpuint (back->n_cells, ==, ms_test_n_cells (shown));
  ms_results_free (back);
  /* A picture, a report or a run's CSV is never written onto a run's file: refused,
   * the run unchanged (the output plan's rules, ms_output_plan_check_file). */
  g_autofree char *kept = NULL;
  gsize kept_len = 0;
  g_assert_true (g_file_get_contents (csv, &kept, &kept_len, NULL));
  ms_window_set_view (win, 0);
  g_assert_false (ms_window_export_chart (win, csv, 800, 500, &error));
  g_assert_nonnull (strstr (error->message, "not replaced"));
  g_clear_error (&error);
  g_assert_false (ms_window_export_report (win, csv, &error));
  g_clear_error (&error);
  /* Nor a run's CSV onto another run's file (here: the run exported). */
  g_assert_false (ms_window_export_csv (win, csv, TRUE, &error));
  g_assert_nonnull (strstr (error->message, "not replaced"));
  g_clear_error (&error);
  g_autofree char *after = NULL;
  gsize after_len = 0;
  g_assert_true (g_file_get_contents (csv, &after, &after_len, NULL));
  g_assert_true (after_len == kept_len && memcmp (after, kept, kept_len) == 0);
  const char *summary = ms_test_tmp_path ("export-summary.csv");
  g_assert_true (ms_window_export_csv (win, summary, TRUE, &error));
  g_assert_false (ms_window_export_csv (win, "/nonexistent-folder/x.csv", FALSE, &error));
  g_assert_nonnull (strstr (error->message, "/nonexistent-folder/x.csv"));
  g_clear_error (&error);

  /* The same file again is not a second comparison. */
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 1);
}

typedef struct {
  GtkWidget *root;
  const char *text;
} LabelSearch;

static gboolean
shows_label (gpointer data)
{
  LabelSearch *s = data;
  for (GtkWidget *w = gtk_widget_get_first_child (s->root); w;) {
    if (GTK_IS_LABEL (w) && gtk_widget_get_mapped (w) &&
        g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), s->text) == 0)
      return TRUE;
    GtkWidget *next = gtk_widget_get_first_child (w);
    while (!next && w && w != s->root) {
      next = gtk_widget_get_next_sibling (w);
      w = gtk_widget_get_parent (w);
    }
    w = next;
  }
  return FALSE;
}

static gboolean
toast_mentions (gpointer win)
{
  const char *text = ms_test_get_string (win, "toast-text");
  return text && strstr (text, "a&b<span>");
}

/* A file whose name holds markup and invalid UTF-8: the toast shows the
 * name literally, with a replacement character for the bad byte. */
static void
check_toast_text (MsWindow *win)
{
  const char *path = ms_test_tmp_path ("a&b<span>\xff.csv");
  g_assert_true (g_file_set_contents (path, "not,a,memsweep\nfile\n", -1, NULL));
  g_autoptr (GFile) file = g_file_new_for_path (path);
  ms_window_open_file (win, file);
  ms_test_wait_until (toast_mentions, win, "a toast names the file");
  const char *text = ms_test_get_string (win, "toast-text");
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (text, "a&b<span>\xef\xbf\xbd.csv"));
  LabelSearch search = { GTK_WIDGET (win), text };
  ms_test_wait_until (shows_label, &search, "the toast shows the text literally");
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 1);
}

static void
check_presentation (MsWindow *win)
{
  double text_scale;
  gboolean presentation;
  g_action_group_activate_action (G_ACTION_GROUP (win), "presentation", NULL);
  g_object_get (win, "presentation", &presentation, "text-scale", &text_scale, NULL);
  g_assert_true (presentation);
  g_assert_cmpfloat (text_scale, ==, 1.6);
  g_action_group_activate_action (G_ACTION_GROUP (win), "text-scale", g_variant_new_int32 (1));
  g_object_get (win, "text-scale", &text_scale, NULL);
  g_assert_cmpfloat_with_epsilon (text_scale, 1.6 * 1.15, 1e-9);
  g_action_group_activate_action (G_ACTION_GROUP (win), "presentation", NULL);
  g_object_get (win, "presentation", &presentation, "text-scale", &text_scale, NULL);
  g_assert_false (presentation);
  g_assert_cmpfloat (text_scale, ==, 1.0);
  g_assert_false (g_variant_get_boolean (
    g_action_group_get_action_state (G_ACTION_GROUP (win), "presentation")));
  /* F8's action hides the next run's settings and shows them again; presenting hides them. */
  GtkWidget *pane = ms_test_find (GTK_WIDGET (win), MS_TYPE_SETTINGS_PANE, NULL);
  g_assert_true (gtk_widget_get_visible (pane));
  g_action_group_activate_action (G_ACTION_GROUP (win), "settings-shown", NULL);
  g_assert_false (gtk_widget_get_visible (pane));
  g_action_group_activate_action (G_ACTION_GROUP (win), "settings-shown", NULL);
  g_assert_true (gtk_widget_get_visible (pane));
  g_action_group_activate_action (G_ACTION_GROUP (win), "presentation", NULL);
  g_assert_false (gtk_widget_get_visible (pane));
  /* Presenting, F8 does nothing: the pane comes back as it was. */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "settings-shown"));
  g_action_group_activate_action (G_ACTION_GROUP (win), "presentation", NULL);
  g_assert_true (gtk_widget_get_visible (pane));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "settings-shown"));
}

/* The Style menu's action sets the key, and the style manager follows. */
static void
check_color_scheme (GApplication *app)
{
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_action_group_activate_action (G_ACTION_GROUP (app), "color-scheme",
                                  g_variant_new_string ("dark"));
  g_autofree char *scheme = g_settings_get_string (settings, "color-scheme");
  g_assert_cmpstr (scheme, ==, "dark");
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_FORCE_DARK);
  g_settings_set_string (settings, "color-scheme", "light");
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_autoptr (GVariant) state =
    g_action_group_get_action_state (G_ACTION_GROUP (app), "color-scheme");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "light");
  g_settings_reset (settings, "color-scheme");
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_DEFAULT);
}

/* Saved settings the engine refuses: a new window shows the engine's
 * message and keeps Run disabled. Values outside the schema's ranges never
 * get that far. */
static void
check_refused_settings (GApplication *app)
{
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_assert_false (in_schema_range ("max-exp", g_variant_new_int32 (29)));
  g_assert_false (in_schema_range ("streams", g_variant_new_int32 (0)));
  g_assert_false (in_schema_range ("reps", g_variant_new_int32 (0)));
  g_assert_false (in_schema_range ("order", g_variant_new_string ("sideways")));
  g_assert_true (in_schema_range ("max-exp", g_variant_new_int32 (28)));
  struct {
    const char *key;
    int value;
    const char *message;
  } refused[] = {
    { "min-exp", 17, "empty size range: minimum exponent 17 is larger than maximum exponent 16" },
    { "streams", 64, "K = 64 streams need at least 64 elements per chunk set, but the smallest "
                     "size 2^4 has only 16: raise the minimum exponent or lower K" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    g_settings_set_int (settings, refused[i].key, refused[i].value);
    if (i == 1) {
      g_settings_set_int (settings, "min-exp", 4);
      const char *with_streams[] = { "host", "streams", NULL };
      g_settings_set_strv (settings, "modes", with_streams);
    }
    MsWindow *other = ms_window_new (ADW_APPLICATION (app));
    g_autofree char *blocker = NULL;
    g_object_get (other, "run-blocker", &blocker, NULL);
    g_assert_cmpstr (blocker, ==, refused[i].message);
    g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (other), "run"));
    gtk_window_destroy (GTK_WINDOW (other));
  }
  g_settings_set_int (settings, "min-exp", 12);
  g_settings_set_int (settings, "streams", 4);
  const char *host_only[] = { "host", NULL };
  g_settings_set_strv (settings, "modes", host_only);
}

/* Runs are the user's: renamed (never to another run's name), annotated
 * (the note goes into the exported CSV and reads back), closed. */
static void
check_run_names_and_notes (MsWindow *win)
{
  const MsResults *first = ms_test_window_run (win, 1);
  ms_test_window_rename_run (win, 1, "before the BIOS update");
  g_assert_cmpstr (first->label, ==, "before the BIOS update");
  ms_test_window_rename_run (win, 2, "before the BIOS update");
  g_assert_cmpstr (ms_test_window_run (win, 2)->label, ==, "before the BIOS update #2");
  ms_run_set_note (ms_session_get_run (ms_test_window_session (win), 2),
                   "fan at 100%,\nroom 21 °C");
  /* A long name is kept whole up to the field's size, cut on a character. */
  g_autofree char *long_name = g_strnfill (100, 'x');
  ms_test_window_rename_run (win, 2, long_name);
  g_assert_cmpstr (ms_test_window_run (win, 2)->label, ==, long_name);
  GString *wide = g_string_new (NULL);
  for (int i = 0; i < 100; i++)
    g_string_append (wide, "é");
  ms_test_window_rename_run (win, 2, wide->str);
  const char *cut = ms_test_window_run (win, 2)->label;
  g_assert_true (g_utf8_validate (cut, -1, NULL));
  g_assert_cmpuint (strlen (cut), ==, 158); /* 79 characters of 2 bytes */
  /* The same long name for the other run: numbered, still apart. */
  ms_test_window_rename_run (win, 1, wide->str);
  g_assert_cmpstr (ms_test_window_run (win, 1)->label, !=, cut);
  g_assert_true (g_str_has_suffix (ms_test_window_run (win, 1)->label, " #2"));
  g_string_free (wide, TRUE);
  ms_test_window_rename_run (win, 1, "before the BIOS update");
  ms_test_window_rename_run (win, 2, "before the BIOS update");

  g_autoptr (GError) error = NULL;
  const char *csv = ms_test_tmp_path ("noted-samples.csv");
  g_assert_true (ms_window_export_csv (win, csv, FALSE, &error));
  char err[512];
  MsResults *back = ms_run_read_samples (csv, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpstr (back->note, ==, "fan at 100%, room 21 °C");
  g_assert_cmpstr (back->label, ==, "before the BIOS update #2");
  ms_results_free (back);
  /* Any run open, not only the newest, by its place. */
  const char *chosen = ms_test_tmp_path ("chosen-samples.csv");
  g_assert_true (ms_window_export_run_csv (win, 1, chosen, FALSE, &error));
  back = ms_run_read_samples (chosen, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpstr (back->label, ==, "before the BIOS update");
  ms_results_free (back);
  g_assert_false (ms_window_export_run_csv (win, 99, chosen, FALSE, &error));
  g_clear_error (&error);

  /* Closing the first sweep keeps the second; closing the live one too. */
  g_assert_true (ms_window_close_run (win, 1));
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 2);
  g_assert_cmpstr (ms_test_window_run (win, 1)->label, ==, "before the BIOS update #2");
  g_assert_true (ms_window_close_run (win, 1));
  g_assert_null (ms_test_window_live (win));
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 1);
}

/* A live sweep of the CPU baseline (the one mode every machine has): cells
 * arrive on the main thread while the worker runs. */
static void
check_sweeps (MsWindow *win)
{
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  g_assert_true (ms_test_window_sweeping (win));
  ms_test_wait_until (ms_test_is_not_sweeping, win, "the sweep ends");
  const MsResults *live = ms_test_window_live (win);
  g_assert_nonnull (live);
  g_assert_cmpuint (live->n_cells, ==, 5); /* host at 2^12..2^16 */
  for (size_t i = 0; i < live->n_cells; i++)
    g_assert_cmpint (live->cells[i].status, ==, MS_CELL_OK);
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 2);
  g_assert_cmpstr (ms_test_get_string (win, "toast-text"), ==, "Sweep finished");

  /* Stop part-way: what was measured stays, as a run of its own beside
   * the first sweep, under another name. */
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  g_assert_false (ms_window_close_run (win, 2)); /* a sweep fills it */
  g_action_group_activate_action (G_ACTION_GROUP (win), "stop", NULL);
  ms_test_wait_until (ms_test_is_not_sweeping, win, "the stopped sweep ends");
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 3);
  const MsResults *first = ms_test_window_run (win, 1), *second = ms_test_window_run (win, 2);
  g_assert_true (second == ms_test_window_live (win));
  g_assert_cmpstr (first->label, !=, second->label);
  g_assert_nonnull (strstr (first->label, "sweep 1"));
  g_assert_nonnull (strstr (second->label, "sweep 2"));
  check_run_names_and_notes (win);
}

/* The pane's fixed count reaches the runner: every cell of the next sweep
 * takes exactly that many repetitions (adaptive ones take at least as
 * many, often more). */
static void
check_fixed_reps (MsWindow *win)
{
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_settings_set_int (settings, "reps", 3);
  GtkWidget *fixed =
    ms_test_find (GTK_WIDGET (win), GTK_TYPE_CHECK_BUTTON, "E_xactly this many repetitions");
  g_assert_nonnull (fixed);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (fixed), TRUE);
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  ms_test_wait_until (ms_test_is_not_sweeping, win, "the fixed-count sweep ends");
  const MsResults *live = ms_test_window_live (win);
  g_assert_cmpint (live->sweep.reps_rule, ==, MS_REPS_FIXED);
  g_assert_cmpuint (live->n_cells, ==, 5);
  for (size_t i = 0; i < live->n_cells; i++) {
    g_assert_cmpint (live->cells[i].status, ==, MS_CELL_OK);
    g_assert_cmpint (live->cells[i].n_reps, ==, 3);
  }
  gtk_check_button_set_active (GTK_CHECK_BUTTON (fixed), FALSE);
  g_autofree char *rule = g_settings_get_string (settings, "reps-rule");
  g_assert_cmpstr (rule, ==, "adaptive");
  g_settings_set_int (settings, "reps", 200);
}

/* Settings the pane shows from the engine's table reach the runner: the
 * instrumented repetitions and the rounds set in the pane are the next
 * sweep's. */
static void
check_table_settings (MsWindow *win)
{
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  const char *keys[] = { "instrumented-reps", "rounds" };
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++) {
    GtkWidget *label = ms_test_find_label (GTK_WIDGET (win), ms_setting_find (keys[i])->title);
    g_assert_nonnull (label);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (gtk_label_get_mnemonic_widget (GTK_LABEL (label))),
                               2);
  }
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  ms_test_wait_until (ms_test_is_not_sweeping, win, "the sweep with two rounds ends");
  const MsResults *live = ms_test_window_live (win);
  g_assert_cmpint (live->sweep.instr_reps, ==, 2);
  g_assert_cmpint (live->sweep.rounds, ==, 2);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
}

static void
answer (const char *label)
{
  g_assert_true (ms_test_click_button (ms_test_find_question (), label));
}

/* Keeps the loop running until nothing has been dispatched for 0.5 s. */
static void
drain (void)
{
  gint64 quiet_since = g_get_monotonic_time ();
  gint64 deadline = quiet_since + 60 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () - quiet_since < G_USEC_PER_SEC / 2 &&
         g_get_monotonic_time () < deadline) {
    if (g_main_context_iteration (NULL, FALSE))
      quiet_since = g_get_monotonic_time ();
    g_usleep (1000);
  }
}

static void
on_painted (MsWindow *win)
{
  /* The files wait for the first frame: none is in yet. */
  gboolean painted;
  g_object_get (win, "painted", &painted, NULL);
  g_assert_true (painted);
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 0);
}

static gboolean
has_a_run (gpointer win)
{
  return ms_test_window_n_runs (win) > 0;
}

/* A window given a file before it shows draws its first frame, then opens
 * the file. */
static void
check_first_frame_before_files (GApplication *app)
{
  MsWindow *win = ms_window_new (ADW_APPLICATION (app));
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (ref);
  ms_window_open_file (win, file);
  gboolean painted = TRUE;
  g_object_get (win, "painted", &painted, NULL);
  g_assert_false (painted);
  g_signal_connect (win, "notify::painted", G_CALLBACK (on_painted), NULL);
  gtk_window_present (GTK_WINDOW (win));
  ms_test_wait_until (has_a_run, win, "the file opens after the first frame");
  g_object_get (win, "painted", &painted, NULL);
  g_assert_true (painted);
  g_object_add_weak_pointer (G_OBJECT (win), (gpointer *) &win);
  gtk_window_destroy (GTK_WINDOW (win));
  ms_test_wait_until (ms_test_is_null, &win, "the second window is finalized");
}

static gboolean
has_three_runs (gpointer win)
{
  return ms_test_window_n_runs (win) >= 3;
}

static void
count_opened_toasts (MsWindow *win, GParamSpec *pspec, guint *n)
{
  const char *text = ms_test_get_string (win, "toast-text");
  *n += text && g_str_has_prefix (text, "Opened ");
}

/* Files opened together are read in parallel but join in the order given
 * (the large file, read last, first), each with a short name of its own
 * (the GPU's model and the day) and a description in full: the lesson's
 * title for a lesson, the sizes where they are not the default. One toast
 * sums them up, naming the first. */
static void
check_files_in_order (GApplication *app)
{
  MsWindow *win = ms_window_new (ADW_APPLICATION (app));
  guint opened_toasts = 0;
  g_signal_connect (win, "notify::toast-text", G_CALLBACK (count_opened_toasts), &opened_toasts);
  const char *names[] = { "h100-large-samples.csv.gz", "h100-lesson-duplex-samples.csv.gz",
                          "h200-default-samples.csv.gz" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    g_autofree char *path = g_build_filename (ms_reference_dir (), names[i], NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    ms_window_open_file (win, file);
  }
  gtk_window_present (GTK_WINDOW (win));
  ms_test_wait_until (has_three_runs, win, "the three files open");
  g_assert_cmpint (ms_test_window_run (win, 0)->sweep.max_exp, ==, 28);
  g_assert_cmpstr (ms_test_window_run (win, 1)->experiment, ==, "duplex");
  g_assert_nonnull (strstr (ms_test_window_run (win, 2)->device.name, "H200"));
  MsSession *session = (MsSession *) ms_test_get_pointer (win, "session");
  const char *large = ms_run_get_description (ms_session_get_run (session, 0));
  g_assert_nonnull (strstr (large, " · sweep · "));
  g_assert_nonnull (strstr (large, "…2^28"));
  g_assert_nonnull (strstr (ms_run_get_description (ms_session_get_run (session, 1)),
                            "Copies in both directions"));
  g_assert_null (strstr (ms_run_get_description (ms_session_get_run (session, 2)), "2^"));
  /* Short names, apart: the two H100 files of one day numbered. */
  g_assert_true (g_str_has_prefix (ms_test_window_run (win, 0)->label, "H100 "));
  g_assert_true (g_str_has_prefix (ms_test_window_run (win, 2)->label, "H200 "));
  for (guint i = 0; i < 3; i++) {
    g_assert_null (strstr (ms_test_window_run (win, i)->label, " · "));
    for (guint j = 0; j < i; j++)
      g_assert_cmpstr (ms_test_window_run (win, i)->label, !=, ms_test_window_run (win, j)->label);
  }
  g_autofree char *summary =
    g_strdup_printf ("Opened 3 runs, the first %s", ms_test_window_run (win, 0)->label);
  g_assert_cmpstr (ms_test_get_string (win, "toast-text"), ==, summary);
  g_assert_cmpuint (opened_toasts, ==, 1);
  /* Close Opened Runs says so, with an Undo on its toast that brings them back where they were;
   * a second close's toast undoes its own runs, the first's its own. */
  char labels[3][256];
  for (guint i = 0; i < 3; i++)
    g_strlcpy (labels[i], ms_test_window_run (win, i)->label, sizeof labels[i]);
  AdwToast *all = ms_window_close_runs (win);
  g_assert_nonnull (all);
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 0);
  g_assert_cmpstr (ms_test_get_string (win, "toast-text"), ==, "3 runs closed");
  g_assert_null (ms_window_close_runs (win));
  g_signal_emit_by_name (all, "button-clicked");
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (ms_test_window_run (win, i)->label, ==, labels[i]);
  g_assert_true (ms_window_close_run (win, 1));
  AdwToast *rest = ms_window_close_runs (win);
  g_signal_emit_by_name (all, "button-clicked"); /* done once: nothing again */
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 0);
  g_signal_emit_by_name (rest, "button-clicked");
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, 2);
  g_assert_cmpstr (ms_test_window_run (win, 1)->label, ==, labels[2]);
  /* The toast on screen, its animation running, while its window goes:
   * nothing may outlive it. */
  gint64 end = g_get_monotonic_time () + 300 * 1000;
  while (g_get_monotonic_time () < end) {
    g_main_context_iteration (NULL, FALSE);
    g_usleep (1000);
  }
  g_object_add_weak_pointer (G_OBJECT (win), (gpointer *) &win);
  gtk_window_destroy (GTK_WINDOW (win));
  ms_test_wait_until (ms_test_is_null, &win, "the window is finalized");
}

static gboolean
library_lists (gpointer path)
{
  MsRunsLibrary *library = ms_runs_library_get_default ();
  gboolean loading;
  g_object_get (library, "loading", &loading, NULL);
  return !loading && ms_runs_library_find (library, path);
}

/* A kept run renamed in Recent Runs (the runs library) while the window
 * shows it takes the new name in the window, and its new file. */
static void
check_library_rename (MsWindow *win)
{
  MsRunsLibrary *library = ms_runs_library_get_default ();
  const char *folder = ms_runs_library_get_folder (library);
  g_autofree char *base = g_strdup_printf ("kept-%d-samples.csv", (int) getpid ());
  g_autofree char *path = g_build_filename (folder, base, NULL);
  g_autofree char *ref =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h100-default-samples.csv.gz", NULL);
  /* The library keeps what the app writes, plain CSV: the shipped run's
   * text, not its gzip bytes under a .csv name. */
  const char *argv[] = { "gzip", "-dc", ref, NULL };
  g_autofree char *text = NULL;
  int status = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &text, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  gsize len = strlen (text);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, len, NULL));
  g_autoptr (GError) error = NULL;
  guint n = ms_test_window_n_runs (win);
  g_assert_true (ms_window_load_path (win, path, &error));
  g_assert_cmpuint (ms_test_window_n_runs (win), ==, n + 1);
  ms_runs_library_reload (library);
  ms_test_wait_until (library_lists, path, "the runs library lists the file");

  g_autofree char *name = g_strdup_printf ("renamed-%d", (int) getpid ());
  g_assert_true (ms_runs_library_rename (library, ms_runs_library_find (library, path), name,
                                         &error));
  g_assert_no_error (error);
  g_assert_cmpstr (ms_test_window_run (win, n)->label, ==, name);
  g_autofree char *new_base = g_strconcat (name, "-samples.csv", NULL);
  g_autofree char *new_path = g_build_filename (folder, new_base, NULL);
  g_assert_true (ms_window_close_run (win, n));
  g_assert_cmpint (g_unlink (new_path), ==, 0);
}

static gboolean
has_more_runs (gpointer data)
{
  gpointer *args = data;
  return ms_test_window_n_runs (args[0]) > GPOINTER_TO_UINT (args[1]);
}

static gboolean
has_reference_dialog (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++) {
    g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);
    if (MS_IS_REFERENCE_DIALOG (w) && gtk_widget_get_visible (w)) {
      *(gpointer *) data = w;
      return TRUE;
    }
  }
  return FALSE;
}

/* Reference Runs opens its dialog, and what the dialog opens joins the
 * window: a file whose name is not UTF-8 too, with no critical warning
 * (G_DEBUG=fatal-criticals). */
static void
check_reference_bytes (MsWindow *win)
{
  g_autofree char *ref =
    g_build_filename (g_getenv ("MEMSWEEP_REFERENCE_DIR"), "h100-default-samples.csv.gz", NULL);
  const char *latin1 = ms_test_tmp_path ("r\xe9" "f-samples.csv");
  g_autofree char *text = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (ref, &text, &len, NULL));
  g_assert_true (g_file_set_contents (latin1, text, len, NULL));
  guint n = ms_test_window_n_runs (win);
  g_action_group_activate_action (G_ACTION_GROUP (win), "reference-runs", NULL);
  gpointer dialog = NULL;
  ms_test_wait_until (has_reference_dialog, &dialog, "the Reference Runs dialog shows");
  const char *paths[] = { latin1, NULL };
  g_signal_emit_by_name (dialog, "open", paths);
  gpointer args[] = { win, GUINT_TO_POINTER (n) };
  ms_test_wait_until (has_more_runs, args, "the file with a Latin-1 name opens");
  g_assert_true (ms_window_close_run (win, n));
  gtk_window_destroy (dialog);
}

static gboolean
handout_enabled (gpointer win)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (win), "export-handout");
}

/* Export Handout: off without a lesson's run in front; on with the Lessons
 * page showing one, when it writes a one-page PDF; off again on another
 * page, and the export then refused. */
static void
check_handout (MsWindow *win)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (win), "export-handout"));
  ms_window_set_view (win, MS_VIEW_BANDWIDTH);
  g_assert_false (handout_enabled (win));
  guint n = ms_test_window_n_runs (win);
  g_autofree char *path =
    g_build_filename (ms_reference_dir (), "h100-lesson-duplex-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, path, &error));
  g_assert_true (ms_window_open_lesson (win, "duplex", FALSE));
  ms_test_wait_until (handout_enabled, win, "Export Handout is on for the lesson shown");
  const char *pdf = ms_test_tmp_path ("duplex-handout.pdf");
  g_assert_true (ms_window_export_handout (win, pdf, &error));
  g_assert_no_error (error);
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (pdf, &data, &len, NULL));
  g_assert_true (len > 5000 && memcmp (data, "%PDF", 4) == 0);
  ms_window_set_view (win, MS_VIEW_BANDWIDTH);
  g_assert_false (handout_enabled (win));
  g_assert_false (ms_window_export_handout (win, ms_test_tmp_path ("none.pdf"), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_false (g_file_test (ms_test_tmp_path ("none.pdf"), G_FILE_TEST_EXISTS));
  g_assert_true (ms_window_close_run (win, n));
}

static void
on_activate (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (win);
  ms_test_wait_until (is_mapped, win, "the window shows");
  check_library_rename (win);
  check_reference_bytes (win);
  check_files (win);
  check_views_and_exports (win);
  check_toast_text (win);
  check_presentation (win);
  check_color_scheme (app);
  check_first_frame_before_files (app);
  check_files_in_order (app);
  /* Device discovery runs off the main thread; then Run is enabled for
   * the host-only settings. */
  ms_test_wait_until (ms_test_can_run, win, "device discovery ends and Run is enabled");
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "run"));
  check_handout (win);
  check_refused_settings (app);
  check_sweeps (win);
  check_fixed_reps (win);
  check_table_settings (win);

  /* Closing during a sweep asks; stopping closes the window once the sweep
   * has ended; the worker must not touch the window afterwards (checked by
   * running the loop on until the window is gone and the worker's last
   * callbacks have run). */
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  g_object_add_weak_pointer (G_OBJECT (win), (gpointer *) &win);
  gtk_window_close (GTK_WINDOW (win));
  ms_test_wait_until (ms_test_has_question, NULL, "closing asks whether to stop the sweep");
  answer ("_Stop and Quit");
  ms_test_wait_until (ms_test_is_null, &win, "the closed window is finalized");
  drain ();
  done = TRUE;
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  /* A sweep this machine can always run: the host baseline, small sizes. */
  ms_test_app_set_host_sweep (16, 200);
  ms_test_app_run_checked (on_activate, &done);
  return 0;
}
