/* test-app.c: the application as a user would drive it, under Xvfb: start,
 * open a reference run, refuse a broken file without losing data, switch
 * through every view, export CSV and PNG and check them, quit. Run with
 * G_DEBUG=fatal-criticals so that any critical fails the test. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "memsweep.h"
#include "ms-application.h"
#include "ms-window.h"

static char *tmpdir;
static gboolean done;

static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
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
on_activate (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  g_assert_nonnull (win);
  spin (200);

  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ms_window_get_n_runs (win), ==, 1);

  /* A broken file: a clear error naming file and line, data unchanged. */
  g_autofree char *bad = g_build_filename (tmpdir, "broken.csv", NULL);
  g_file_set_contents (bad, "mode,elements,rep,phase,host_start_us,host_us,status\n"
                            "pinned,1024,0,h2d,0,oops,ok\n", -1, NULL);
  g_assert_false (ms_window_load_path (win, bad, &error));
  g_assert_nonnull (strstr (error->message, "broken.csv:2:"));
  g_clear_error (&error);
  g_assert_cmpuint (ms_window_get_n_runs (win), ==, 1);

  for (int v = 0; v < MS_VIEW_COUNT; v++) {
    ms_window_set_view (win, v);
    spin (150);
    g_assert_cmpint (ms_window_get_view (win), ==, v);
    if (v != MS_VIEW_TABLE) {
      g_autofree char *name = g_strdup_printf ("view-%d.png", v);
      g_autofree char *png = g_build_filename (tmpdir, name, NULL);
      g_assert_true (ms_window_export_chart (win, png, 800, 500, &error));
      g_assert_no_error (error);
      g_autofree char *data = NULL;
      gsize len = 0;
      g_assert_true (g_file_get_contents (png, &data, &len, NULL));
      g_assert_true (len > 2000 && memcmp (data, "\x89PNG", 4) == 0);
    }
  }

  g_autofree char *csv = g_build_filename (tmpdir, "export-samples.csv", NULL);
  g_assert_true (ms_window_export_csv (win, csv, FALSE, &error));
  char err[512];
  MsResults *back = ms_csv_read_samples (csv, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_cells, ==, 11 * MS_MODE_COUNT);
  ms_results_free (back);
  g_autofree char *summary = g_build_filename (tmpdir, "export-summary.csv", NULL);
  g_assert_true (ms_window_export_csv (win, summary, TRUE, &error));
  g_assert_false (ms_window_export_csv (win, "/nonexistent-folder/x.csv", FALSE, &error));
  g_assert_nonnull (strstr (error->message, "/nonexistent-folder/x.csv"));
  g_clear_error (&error);

  /* The same file again is not a second comparison. */
  g_assert_true (ms_window_load_path (win, ref, &error));
  g_assert_cmpuint (ms_window_get_n_runs (win), ==, 1);

  g_action_group_activate_action (G_ACTION_GROUP (win), "presentation", NULL);
  spin (200);
  g_action_group_activate_action (G_ACTION_GROUP (win), "text-scale", g_variant_new_int32 (1));
  g_action_group_activate_action (G_ACTION_GROUP (win), "presentation", NULL);
  spin (100);

  /* Device discovery runs off the main thread; then Run is enabled for
   * the host-only settings. */
  for (;;) {
    g_autofree char *blocker = ms_window_dup_run_blocker (win);
    if (!blocker || g_get_monotonic_time () > deadline)
      break;
    spin (50);
  }
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "run"));

  /* Saved settings the engine refuses: a new window shows the engine's
   * message and keeps Run disabled. Values outside the schema's ranges
   * never get that far. */
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
    spin (100);
    g_autofree char *blocker = ms_window_dup_run_blocker (other);
    g_assert_cmpstr (blocker, ==, refused[i].message);
    g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (other), "run"));
    gtk_window_destroy (GTK_WINDOW (other));
  }
  g_settings_set_int (settings, "min-exp", 12);
  g_settings_set_int (settings, "streams", 4);
  const char *host_only[] = { "host", NULL };
  g_settings_set_strv (settings, "modes", host_only);

  /* A live sweep of the CPU baseline (the one mode every machine has):
   * cells arrive on the main thread while the worker runs. */
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  g_assert_true (ms_window_is_sweeping (win));
  while (ms_window_is_sweeping (win) && g_get_monotonic_time () < deadline)
    spin (20);
  g_assert_false (ms_window_is_sweeping (win));
  const MsResults *live = ms_window_get_live (win);
  g_assert_nonnull (live);
  g_assert_cmpuint (live->n_cells, ==, 5); /* host at 2^12..2^16 */
  for (size_t i = 0; i < live->n_cells; i++)
    g_assert_cmpint (live->cells[i].status, ==, MS_CELL_OK);
  g_assert_cmpuint (ms_window_get_n_runs (win), ==, 2);

  /* Stop part-way: what was measured stays. */
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (win), "stop", NULL);
  while (ms_window_is_sweeping (win) && g_get_monotonic_time () < deadline)
    spin (20);
  g_assert_false (ms_window_is_sweeping (win));
  g_assert_cmpuint (ms_window_get_n_runs (win), ==, 2);

  /* Closing during a sweep cancels it; the worker must not touch the
   * window afterwards (checked by running the loop on for a while). */
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  gtk_window_close (GTK_WINDOW (win));
  spin (1500);
  done = TRUE;
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("memsweep-app-XXXXXX", NULL);
  /* A sweep this machine can always run: the host baseline, small sizes. */
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  const char *host_only[] = { "host", NULL };
  g_settings_set_strv (settings, "modes", host_only);
  g_settings_set_int (settings, "min-exp", 12);
  g_settings_set_int (settings, "max-exp", 16);
  g_settings_set_int (settings, "reps", 200);
  g_autoptr (MsApplication) app = ms_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  g_signal_connect_after (app, "activate", G_CALLBACK (on_activate), NULL);
  char *args[] = { argv[0], NULL };
  int rc = g_application_run (G_APPLICATION (app), 1, args);
  g_assert_cmpint (rc, ==, 0);
  g_assert_true (done);
  g_autofree char *cmd = g_strdup_printf ("rm -rf %s", tmpdir);
  g_assert_cmpint (system (cmd), ==, 0);
  return 0;
}
