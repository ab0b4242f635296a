/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-setting-table.c MEMSWEEP CLI_MD: the engine's setting table is the
 * one home of each sweep setting's default and range: the engine's
 * defaults, the compiled GSettings schema, `memsweep run --help` and
 * docs/cli.md all say what it says. */
#include <gio/gio.h>
#include <math.h>

#include "memsweep.h"
#include "ms-modes.h"
#include "ms-setting-table.h"
#include "ms-sweep.h"

static const char *memsweep_path, *cli_md_path;

static char *
format_default (const MsSetting *setting)
{
  char text[64];
  ms_setting_format (setting, setting->def, text, sizeof text);
  return g_strdup (text);
}

static void
test_engine_defaults (void)
{
  MsSweep sweep;
  char err[256];
  ms_sweep_init_default (&sweep);
  g_assert_true (ms_sweep_validate (&sweep, err, sizeof err));
  for (int m = 0; m < MS_MODE_COUNT; m++)
    g_assert_true (sweep.modes[m]);
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    g_test_message ("%s", setting->option ? setting->option : setting->key);
    g_assert_true (setting->option || setting->key);
    g_assert_nonnull (setting->title);
    g_assert_nonnull (setting->help);
    g_assert_true (ms_setting_in_range (setting, setting->def));
    if (setting->kind != MS_SETTING_MODES)
      g_assert_cmpfloat (ms_setting_get (setting, &sweep), ==,
                         setting->default_is_off ? 0 : setting->def);
    /* Every setting is found by its names; a shared key agrees on its value. */
    if (setting->option)
      g_assert_true (ms_setting_find (setting->option) == setting);
    const MsSetting *first = ms_setting_find (setting->key);
    if (setting->key && first != setting) {
      g_assert_cmpfloat (first->def, ==, setting->def);
      g_assert_cmpfloat (first->min, ==, setting->min);
      g_assert_cmpfloat (first->max, ==, setting->max);
      g_assert_cmpint (first->kind, ==, setting->kind);
    }
  }
}

/* A value out of a new setting's range is refused with the table's
 * message; the fields with messages of their own keep them. */
static void
test_range_check (void)
{
  MsSweep sweep;
  char err[256];
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    if (setting->kind == MS_SETTING_MODES || setting->max >= G_MAXINT)
      continue;
    ms_sweep_init_default (&sweep);
    ms_setting_set (setting, &sweep, setting->kind == MS_SETTING_CHOICE
                                        ? ms_setting_n_choices (setting)
                                        : setting->max + 1);
    g_test_message ("%s", setting->key ? setting->key : setting->option);
    g_assert_false (ms_sweep_validate (&sweep, err, sizeof err));
  }
}

static void
check_schema_key (GSettingsSchema *schema, const MsSetting *setting)
{
  g_test_message ("key %s", setting->key);
  g_assert_true (g_settings_schema_has_key (schema, setting->key));
  g_autoptr (GSettingsSchemaKey) key = g_settings_schema_get_key (schema, setting->key);
  g_autoptr (GVariant) def = g_settings_schema_key_get_default_value (key);
  g_autoptr (GVariant) range = g_settings_schema_key_get_range (key);
  const char *kind;
  g_autoptr (GVariant) detail = NULL;
  g_variant_get (range, "(&sv)", &kind, &detail);
  switch (setting->kind) {
  case MS_SETTING_MODES:
    g_assert_cmpuint (g_variant_n_children (def), ==, MS_MODE_COUNT);
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      g_autoptr (GVariant) name = g_variant_get_child_value (def, (gsize) m);
      g_assert_cmpstr (g_variant_get_string (name, NULL), ==, ms_mode_name (m));
    }
    break;
  case MS_SETTING_CHOICE:
    g_assert_cmpstr (kind, ==, "enum");
    g_assert_cmpstr (g_variant_get_string (def, NULL), ==, setting->choices[(int) setting->def]);
    g_assert_cmpuint (g_variant_n_children (detail), ==, ms_setting_n_choices (setting));
    for (int i = 0; setting->choices[i]; i++) {
      g_autoptr (GVariant) name = g_variant_get_child_value (detail, (gsize) i);
      g_assert_cmpstr (g_variant_get_string (name, NULL), ==, setting->choices[i]);
    }
    break;
  case MS_SETTING_DOUBLE: {
    double min, max;
    g_assert_cmpstr (kind, ==, "range");
    g_variant_get (detail, "(dd)", &min, &max);
    g_assert_cmpfloat (min, ==, setting->min);
    g_assert_cmpfloat (max, ==, setting->max);
    g_assert_cmpfloat (g_variant_get_double (def), ==, setting->def);
    break;
  }
  default: {
    int min, max;
    g_assert_cmpstr (kind, ==, "range");
    g_variant_get (detail, "(ii)", &min, &max);
    g_assert_cmpint (min, ==, (int) setting->min);
    g_assert_cmpint (max, ==, (int) setting->max);
    g_assert_cmpint (g_variant_get_int32 (def), ==, (int) setting->def);
  }
  }
}

/* The schema the app reads (GSETTINGS_SCHEMA_DIR: the build's): every key
 * of the table with the table's type, range and default. */
static void
test_schema (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema =
    source ? g_settings_schema_source_lookup (source, "io.github.memsweep.Memsweep", TRUE) : NULL;
  if (!schema) {
    g_test_skip ("no compiled schema (a build without the app)");
    return;
  }
  for (int i = 0; i < ms_setting_count (); i++)
    if (ms_setting_nth (i)->key)
      check_schema_key (schema, ms_setting_nth (i));
}

/* `memsweep run --help` has a line for each option, ending (after any
 * continuation lines) with its default. */
static void
test_usage (void)
{
  g_autofree char *out = NULL;
  int status;
  char *argv[] = { (char *) memsweep_path, "run", "--help", NULL };
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, argv, (char *[]){ "LC_ALL=C", "LANGUAGE=", NULL },
                               G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    if (!setting->option)
      continue;
    g_autofree char *head = g_strdup_printf ("\n  --%s ", setting->option);
    g_autofree char *def = format_default (setting);
    g_autofree char *want = g_strdup_printf ("(default %s)\n", def);
    const char *line = strstr (out, head);
    g_assert_nonnull (line);
    /* An entry ends at the next option or, for the last, at the blank
     * line before the notes that follow the options. */
    const char *next = strstr (line + 1, "\n  --");
    const char *blank = strstr (line + 1, "\n\n");
    if (blank && (!next || blank < next))
      next = blank;
    g_autofree char *entry = next ? g_strndup (line, (gsize) (next - line + 1)) : g_strdup (line);
    g_test_message ("%s", entry);
    g_assert_true (g_str_has_suffix (entry, want));
  }
}

/* docs/cli.md leaves the defaults to `memsweep run --help`; where it names
 * one anyway ("[--OPTION VALUE]" in a synopsis, "`--OPTION ARG` ...
 * (default VALUE" in prose), it is the table's. */
static void
test_cli_doc (void)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (cli_md_path, &text, NULL, NULL));
  static const char *const patterns[] = {
    "\\[--([a-z-]+) ([a-z0-9.]+)[]|]",
    "`--([a-z-]+) [A-Z]+`[^(`]{0,80}\\(default ([a-z0-9.]+)",
  };
  g_assert_nonnull (strstr (text, "`memsweep run --help`"));
  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++) {
    g_autoptr (GRegex) regex = g_regex_new (patterns[p], 0, 0, NULL);
    g_autoptr (GMatchInfo) match = NULL;
    for (g_regex_match (regex, text, 0, &match); g_match_info_matches (match);
         g_match_info_next (match, NULL)) {
      g_autofree char *option = g_match_info_fetch (match, 1);
      g_autofree char *value = g_match_info_fetch (match, 2);
      const MsSetting *setting = ms_setting_find (option);
      if (!setting || !setting->option || setting->kind == MS_SETTING_CHOICE)
        continue;
      g_autofree char *def = format_default (setting);
      g_test_message ("docs/cli.md: --%s %s", option, value);
      g_assert_cmpstr (value, ==, def);
    }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpint (argc, ==, 3);
  memsweep_path = argv[1];
  cli_md_path = argv[2];
  g_test_add_func ("/setting-table/engine-defaults", test_engine_defaults);
  g_test_add_func ("/setting-table/range-check", test_range_check);
  g_test_add_func ("/setting-table/schema", test_schema);
  g_test_add_func ("/setting-table/usage", test_usage);
  g_test_add_func ("/setting-table/cli-doc", test_cli_doc);
  return g_test_run ();
}
