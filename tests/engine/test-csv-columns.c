/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-columns.c: the samples and summary files' one column list
 * (engine/files/ms-csv-column-list.h) against what describes the files
 * elsewhere: the Table Schemas in data/schema/ (every column, in order,
 * with its type) and docs/csv.md (every column named); and the list's own
 * rules (units that agree with the names, the GPU state columns in the
 * order the writer formats them).
 *
 * Arguments: SCHEMA-DIR CSV-MD. */
#include <glib.h>
#include <string.h>

#include "ms-csv-column-table.h"
#include "ms-json.h"

static const char *schema_dir, *csv_md;

static const char *
type_name (MsCsvType type)
{
  switch (type) {
  case MS_CSV_STRING:
    return "string";
  case MS_CSV_INTEGER:
    return "integer";
  case MS_CSV_NUMBER:
    return "number";
  }
  return "?";
}

/* The fields of data/schema/memsweep-KIND.tableschema.json. */
static MsJson *
load_schema (const char *kind)
{
  char *path = g_strdup_printf ("%s/memsweep-%s.tableschema.json", schema_dir, kind), *text;
  gsize len;
  char err[256];
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  MsJson *schema = ms_json_parse (text, len, err, sizeof err);
  if (!schema)
    g_error ("%s: %s", path, err);
  g_free (text);
  g_free (path);
  return schema;
}

typedef struct {
  const MsJson *fields;
  size_t n;
} Compare;

/* The next column of the list against the schema's next field. */
static void
compare_field (const MsCsvColumn *column, const char *name, void *data)
{
  Compare *cmp = data;
  g_assert_cmpuint (cmp->n, <, cmp->fields->n_items);
  const MsJson *field = &cmp->fields->items[cmp->n++];
  g_assert_cmpstr (ms_json_member (field, "name")->text, ==, name);
  g_assert_cmpstr (ms_json_member (field, "type")->text, ==, type_name (column->type));
}

static void
test_samples_schema (void)
{
  MsJson *schema = load_schema ("samples");
  Compare cmp = { ms_json_member (schema, "fields"), 0 };
  for (int i = 0; i < MS_N_SAMPLES_COLUMNS; i++)
    compare_field (&ms_samples_columns[i], ms_samples_columns[i].name, &cmp);
  g_assert_cmpuint (cmp.n, ==, cmp.fields->n_items);
  ms_json_free (schema);
}

static void
test_summary_schema (void)
{
  MsJson *schema = load_schema ("summary");
  Compare cmp = { ms_json_member (schema, "fields"), 0 };
  ms_summary_columns_foreach (compare_field, &cmp);
  g_assert_cmpuint (cmp.n, ==, cmp.fields->n_items);
  ms_json_free (schema);
}

/* Whether docs/csv.md names a column: its name as a word of its own. */
static void
check_named (const MsCsvColumn *column, const char *name, void *text)
{
  size_t len = strlen (name);
  for (const char *p = text; (p = strstr (p, name)); p += len) {
    bool starts = p == text || !(g_ascii_isalnum (p[-1]) || p[-1] == '_');
    bool ends = !(g_ascii_isalnum (p[len]) || p[len] == '_');
    if (starts && ends)
      return;
  }
  g_error ("docs/csv.md does not name the column %s", name);
}

static void
test_docs_name_every_column (void)
{
  char *text;
  g_assert_true (g_file_get_contents (csv_md, &text, NULL, NULL));
  for (int i = 0; i < MS_N_SAMPLES_COLUMNS; i++)
    check_named (&ms_samples_columns[i], ms_samples_columns[i].name, text);
  /* The phases' columns are named once, as <phase>_NAME. */
  for (int i = 0; i < MS_N_SUMMARY_COLUMNS; i++)
    if (i != MS_SUMMARY_PHASES)
      check_named (&ms_summary_columns[i], ms_summary_columns[i].name, text);
  for (int k = 0; k < MS_N_SUMMARY_PHASE_COLUMNS; k++) {
    char *name = g_strdup_printf ("<phase>_%s", ms_summary_phase_columns[k].name);
    g_assert_nonnull (strstr (text, name));
    g_free (name);
  }
  g_free (text);
}

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
  g_assert_cmpstr (column->unit, ==, unit_of_name (name));
  /* A unit is of a number. */
  if (column->unit[0])
    g_assert_cmpint (column->type, !=, MS_CSV_STRING);
}

static void
test_units (void)
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpint (argc, ==, 3);
  schema_dir = argv[1];
  csv_md = argv[2];
  g_test_add_func ("/csv-columns/samples-schema", test_samples_schema);
  g_test_add_func ("/csv-columns/summary-schema", test_summary_schema);
  g_test_add_func ("/csv-columns/docs", test_docs_name_every_column);
  g_test_add_func ("/csv-columns/units", test_units);
  g_test_add_func ("/csv-columns/state-order", test_state_columns_in_order);
  g_test_add_func ("/csv-columns/kept", test_kept_summary_columns);
  return g_test_run ();
}
