/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-widget-settings-pane.c: MsSettingsPane follows GSettings both ways,
 * and shows the sweep's size or the engine's reason to refuse it. */
#include "ms-application.h"
#include "ms-setting-table.h"
#include "ms-settings-pane.h"
#include "ms-sweep.h"
#include "ms-widget-test.h"

/* The settings the pane shows and changes ("sweep-settings"). */
static MsSweepSettings *
pane_settings (MsSettingsPane *pane)
{
  return (MsSweepSettings *) ms_test_get_pointer (pane, "sweep-settings");
}

static void
count_changed (MsSettingsPane *pane, guint *count)
{
  (*count)++;
}

static void
test_bindings (void)
{
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_settings_set_int (settings, "reps", 7);
  const char *two[] = { "host", "pinned", NULL };
  g_settings_set_strv (settings, "modes", two);
  MsSettingsPane *pane = MS_SETTINGS_PANE (g_object_new (MS_TYPE_SETTINGS_PANE, NULL));
  guint changed = 0, summary_n;
  g_signal_connect (pane, "changed", G_CALLBACK (count_changed), &changed);
  ms_test_watch (pane, "summary", &summary_n);

  MsSweep s;
  char err[256];
  g_assert_true (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err, sizeof err));
  g_assert_cmpint (s.reps, ==, 7);
  g_assert_true (s.modes[MS_MODE_HOST] && s.modes[MS_MODE_PINNED]);
  g_assert_false (s.modes[MS_MODE_PAGEABLE]);
  /* Adaptive by default, as the command line: the count is the least. */
  g_assert_cmpint (s.reps_rule, ==, MS_REPS_ADAPTIVE);
  g_assert_cmpint (s.min_reps, ==, 7);
  g_assert_cmpstr (ms_settings_pane_get_summary (pane), ==,
                   "11 sizes × 2 modes = 22 cells, at least 7 timed runs each (more until the "
                   "median is known within 2%)");
  g_settings_set_string (settings, "reps-rule", "fixed");
  g_assert_cmpstr (ms_settings_pane_get_summary (pane), ==,
                   "11 sizes × 2 modes = 22 cells, 7 timed runs each");
  g_settings_reset (settings, "reps-rule");

  /* Settings to widgets. */
  g_settings_set_string (settings, "order", "breadth");
  g_settings_set_int (settings, "max-exp", 12);
  g_assert_true (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err, sizeof err));
  g_assert_cmpint (s.order, ==, MS_ORDER_BREADTH_FIRST);
  g_assert_cmpint (s.max_exp, ==, 12);
  g_assert_cmpuint (changed, >=, 2);
  g_assert_cmpuint (summary_n, >=, 1);

  /* The lessons' knobs: R from 2 on and the host stores reach the sweep; R
   * with none of its modes is refused with the engine's reason. */
  g_settings_set_int (settings, "reuse", 4);
  g_settings_set_string (settings, "host-stores", "ordinary");
  g_assert_true (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err, sizeof err));
  g_assert_cmpint (s.knobs.reuse, ==, 4);
  g_assert_cmpint (s.knobs.stores, ==, MS_STORES_ORDINARY);
  g_settings_set_strv (settings, "modes", (const char *const[]){ "host", NULL });
  g_assert_false (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err, sizeof err));
  g_assert_nonnull (strstr (ms_settings_pane_get_summary (pane), "select one of them"));
  g_settings_set_strv (settings, "modes", (const char *const[]){ "pinned", "host", NULL });
  g_settings_reset (settings, "reuse");
  g_settings_reset (settings, "host-stores");
  g_assert_true (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err, sizeof err));
  g_assert_cmpint (s.knobs.reuse, ==, 0);
  g_assert_cmpint (s.knobs.stores, ==, MS_STORES_STREAMED);

  /* Refused by the engine: the summary says why. */
  g_settings_set_int (settings, "min-exp", 13);
  g_assert_false (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err, sizeof err));
  g_assert_cmpstr (ms_settings_pane_get_summary (pane), ==, err);
  g_settings_set_int (settings, "min-exp", 10);

  /* Widgets to settings: a mode check adds its mode in the engine's order. */
  GtkWindow *window = ms_test_show (GTK_WIDGET (pane), 320, 900);
  GtkWidget *check = ms_test_find (GTK_WIDGET (pane), GTK_TYPE_CHECK_BUTTON, "Pageable");
  g_assert_nonnull (check);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_auto (GStrv) modes = g_settings_get_strv (settings, "modes");
  g_autofree char *joined = g_strjoinv (",", modes);
  g_assert_cmpstr (joined, ==, "pageable,pinned,host");

  /* Without a GPU: the GPU modes read as off and cannot be ticked, so the
   * sweep is the host baseline; the saved choice stays for a GPU. */
  MsSweepSettings *sweep = pane_settings (pane);
  g_object_set (sweep, "gpu-present", FALSE, NULL);
  g_assert_true (ms_sweep_settings_get_sweep (sweep, &s, err, sizeof err));
  g_assert_cmpint (ms_sweep_n_modes (&s), ==, 1);
  g_assert_true (s.modes[MS_MODE_HOST]);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_false (gtk_widget_get_sensitive (check));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (check), "needs a GPU"));
  GtkWidget *host = ms_test_find (GTK_WIDGET (pane), GTK_TYPE_CHECK_BUTTON, "Host CPU");
  g_assert_true (gtk_widget_get_sensitive (host));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (host), FALSE);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (host), TRUE);
  g_auto (GStrv) kept = g_settings_get_strv (settings, "modes");
  g_autofree char *kept_joined = g_strjoinv (",", kept);
  g_assert_cmpstr (kept_joined, ==, "pageable,pinned,host");
  g_object_set (sweep, "gpu-present", TRUE, NULL);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  ms_test_destroy (window, GTK_WIDGET (pane));
  g_settings_reset (settings, "modes");
}

/* The fixed count: the check follows the key both ways, and the sweep the
 * runner gets takes exactly that many. */
static void
test_fixed_reps (void)
{
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_settings_set_int (settings, "reps", 7);
  MsSettingsPane *pane = MS_SETTINGS_PANE (g_object_new (MS_TYPE_SETTINGS_PANE, NULL));
  GtkWindow *window = ms_test_show (GTK_WIDGET (pane), 320, 900);
  MsSweep s;
  char err[256];
  GtkWidget *fixed =
    ms_test_find (GTK_WIDGET (pane), GTK_TYPE_CHECK_BUTTON, "E_xactly this many repetitions");
  g_assert_nonnull (fixed);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (fixed)));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (fixed), TRUE);
  g_autofree char *rule = g_settings_get_string (settings, "reps-rule");
  g_assert_cmpstr (rule, ==, "fixed");
  g_assert_true (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err,
                                              sizeof err));
  g_assert_cmpint (s.reps_rule, ==, MS_REPS_FIXED);
  g_assert_cmpint (s.reps, ==, 7);
  g_assert_nonnull (strstr (ms_settings_pane_get_summary (pane), "7 timed runs each"));
  g_settings_reset (settings, "reps-rule");
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (fixed)));
  ms_test_destroy (window, GTK_WIDGET (pane));
  g_settings_reset (settings, "reps");
}

/* The settings the template has no control for (the adaptive rule's
 * target and budget, the instrumented repetitions, the rounds) get a row
 * from the engine's table: its title, its help as the tooltip, its range;
 * what the control sets reaches the key and the sweep. Every control's
 * range is the table's. */
static void
test_table_rows (void)
{
  static const struct { const char *key; double value; } set[] = {
    { "instrumented-reps", 7 }, { "cell-budget", 35.5 }, { "ci-target", 1.5 }, { "rounds", 2 },
  };
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  MsSettingsPane *pane = MS_SETTINGS_PANE (g_object_new (MS_TYPE_SETTINGS_PANE, NULL));
  GtkWindow *window = ms_test_show (GTK_WIDGET (pane), 320, 900);
  for (guint i = 0; i < G_N_ELEMENTS (set); i++) {
    const MsSetting *setting = ms_setting_find (set[i].key);
    GtkWidget *label = ms_test_find_label (GTK_WIDGET (pane), setting->title);
    g_assert_nonnull (label);
    GtkWidget *spin = gtk_label_get_mnemonic_widget (GTK_LABEL (label));
    g_assert_true (GTK_IS_SPIN_BUTTON (spin));
    g_assert_nonnull (gtk_widget_get_tooltip_text (spin));
    GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (spin));
    g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, setting->max);
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, setting->def);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), set[i].value);
  }
  g_assert_cmpint (g_settings_get_int (settings, "instrumented-reps"), ==, 7);
  g_assert_cmpfloat (g_settings_get_double (settings, "cell-budget"), ==, 35.5);
  MsSweep s;
  char err[256];
  g_assert_true (ms_sweep_settings_get_sweep (pane_settings (pane), &s, err,
                                              sizeof err));
  g_assert_cmpint (s.instr_reps, ==, 7);
  g_assert_cmpfloat (s.cell_budget_ms, ==, 35.5);
  g_assert_cmpfloat (s.ci_target_pct, ==, 1.5);
  g_assert_cmpint (s.rounds, ==, 2);
  /* The adaptive rule's own settings rest under a fixed count. */
  GtkWidget *budget =
    gtk_label_get_mnemonic_widget (GTK_LABEL (ms_test_find_label (GTK_WIDGET (pane),
                                                          ms_setting_find ("cell-budget")->title)));
  g_assert_true (gtk_widget_get_sensitive (budget));
  g_settings_set_string (settings, "reps-rule", "fixed");
  g_assert_false (gtk_widget_get_sensitive (budget));
  g_settings_reset (settings, "reps-rule");
  /* The template's controls take the table's range too. */
  GtkWidget *max_exp = gtk_label_get_mnemonic_widget (
    GTK_LABEL (ms_test_find_label (GTK_WIDGET (pane), "To 2^")));
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_spin_button_get_adjustment (
                       GTK_SPIN_BUTTON (max_exp))), ==, ms_setting_find ("max-exp")->max);
  ms_test_destroy (window, GTK_WIDGET (pane));
  for (guint i = 0; i < G_N_ELEMENTS (set); i++)
    g_settings_reset (settings, set[i].key);
}

int
main (int argc, char **argv)
{
  ms_widget_test_init (&argc, &argv);
  g_test_add_func ("/settings-pane/bindings", test_bindings);
  g_test_add_func ("/settings-pane/fixed-reps", test_fixed_reps);
  g_test_add_func ("/settings-pane/table-rows", test_table_rows);
  return g_test_run ();
}
