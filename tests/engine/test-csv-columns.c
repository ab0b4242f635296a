/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-columns.c: the samples and summary files' one column list
 * (engine/files/ms-csv-column-list.h) and its own rules: units that agree
 * with the names, a description for every column, the GPU state columns in
 * the order the writer formats them, the summary's kept columns. (The
 * Table Schemas and docs/csv.md are written from the list; the csv-docs
 * test checks that they are current.) */
#include <glib.h>
#include <string.h>

#include "model/ms-rounds-private.h"
#include "ms-csv-column-table.h"

/* A unit agrees with the name: times end in _us, rates in _gbps, clocks
 * say _mhz_, temperatures temp_c_, and bytes are bytes. */
static const char *
unit_of_name (const char *name)
{
  if (g_str_has_suffix (name, "_us"))
    return "us";
  if (g_str_has_suffix (name, "_gbps"))
    return "GB/s";
  if (strstr (name, "_mhz_"))
    return "MHz";
  if (g_str_has_prefix (name, "temp_c_"))
    return "C";
  if (strcmp (name, "bytes") == 0 || g_str_has_prefix (name, "bytes_"))
    return "bytes";
  return "";
}

static void
check_unit (const MsCsvColumn *column, const char *name, void *data)
{
  /* One sentence that the schema and docs/csv.md show. */
  g_assert_nonnull (column->description);
  g_assert_true (g_str_has_suffix (column->description, "."));
  g_assert_null (strchr (column->description, '\n'));
  g_assert_cmpstr (column->unit, ==, unit_of_name (name));
  /* A unit is of a number. */
  if (column->unit[0])
    g_assert_cmpint (column->type, !=, MS_CSV_STRING);
}

static void
test_units_and_descriptions (void)
{
  for (int i = 0; i < MS_N_SAMPLES_COLUMNS; i++)
    check_unit (&ms_samples_columns[i], ms_samples_columns[i].name, NULL);
  ms_summary_columns_foreach (check_unit, NULL);
}

/* The writer formats the GPU state as one run, in MS_STATE_COL_ order. */
static void
test_state_columns_in_order (void)
{
  int next = 0, first = -1;
  for (int i = 0; i < MS_N_SAMPLES_COLUMNS; i++) {
    if (ms_samples_columns[i].state < 0)
      continue;
    if (first < 0)
      first = i;
    g_assert_cmpint (i, ==, first + next);
    g_assert_cmpint (ms_samples_columns[i].state, ==, next);
    g_assert_cmpstr (ms_state_column_name (next), ==, ms_samples_columns[i].name);
    next++;
  }
  g_assert_cmpint (next, ==, MS_N_STATE_COLUMNS);
  g_assert_cmpint (first, >, 0);
}

/* Those the summary reader needs stay in every file. */
static void
test_kept_summary_columns (void)
{
  static const char *const needed[] = { "mode", "elements", "bytes_per_vector", "status", "reps",
                                        "e2e_median_us" };
  int kept = 0;
  for (int i = 0; i < MS_N_SUMMARY_COLUMNS; i++)
    kept += ms_summary_columns[i].always;
  g_assert_cmpint (kept, ==, G_N_ELEMENTS (needed));
  for (size_t k = 0; k < G_N_ELEMENTS (needed); k++) {
    bool found = false;
    for (int i = 0; i < MS_N_SUMMARY_COLUMNS; i++)
      found = found || (ms_summary_columns[i].always &&
                        g_strcmp0 (ms_summary_columns[i].name, needed[k]) == 0);
    g_assert_true (found);
  }
}

/* The summary reader finds a statistic's columns from its median's name
 * as a phase's are named: e2e's and parts_sum's stand in the list so. */
static void
test_stat_columns_named_as_a_phase (void)
{
  static const int stat[][MS_N_SUMMARY_PHASE_COLUMNS] = {
    { MS_SUMMARY_COLUMN_E2E_MEDIAN_US, MS_SUMMARY_COLUMN_E2E_MIN_US, MS_SUMMARY_COLUMN_E2E_MAX_US,
      MS_SUMMARY_COLUMN_E2E_CI_LOW_US, MS_SUMMARY_COLUMN_E2E_CI_HIGH_US, -1 },
    { MS_SUMMARY_COLUMN_PARTS_SUM_MEDIAN_US, -1, -1, MS_SUMMARY_COLUMN_PARTS_SUM_CI_LOW_US,
      MS_SUMMARY_COLUMN_PARTS_SUM_CI_HIGH_US, -1 },
  };
  for (size_t s = 0; s < G_N_ELEMENTS (stat); s++) {
    const char *median = ms_summary_columns[stat[s][MS_SUMMARY_PHASE_COLUMN_MEDIAN_US]].name;
    const char *suffix = ms_summary_phase_columns[MS_SUMMARY_PHASE_COLUMN_MEDIAN_US].name;
    g_assert_true (g_str_has_suffix (median, suffix));
    for (int k = 0; k < MS_N_SUMMARY_PHASE_COLUMNS; k++) {
      if (stat[s][k] < 0)
        continue;
      g_autofree char *name = g_strdup_printf ("%.*s%s", (int)(strlen (median) - strlen (suffix)),
                                               median, ms_summary_phase_columns[k].name);
      g_assert_cmpstr (ms_summary_columns[stat[s][k]].name, ==, name);
    }
  }
  g_assert_cmpstr (ms_summary_columns[MS_SUMMARY_COLUMN_E2E_CI_95].name, ==, "e2e_ci_95");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv-columns/units-and-descriptions", test_units_and_descriptions);
  g_test_add_func ("/csv-columns/state-order", test_state_columns_in_order);
  g_test_add_func ("/csv-columns/kept", test_kept_summary_columns);
  g_test_add_func ("/csv-columns/stats-named-as-a-phase", test_stat_columns_named_as_a_phase);
  return g_test_run ();
}
