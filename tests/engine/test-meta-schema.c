/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-meta-schema.c: the sidecar's JSON Schema (data/schema/
 * memsweep-meta.schema.json) describes every metadata key memsweep writes,
 * read from the engine's one key table (ms-meta.c), with the JSON type the
 * sidecar writer gives it: a key the schema lacks is only allowed there as
 * text, so a number (the grade runs' "processes") failed validation. */
#include <glib.h>
#include <string.h>

#include "ms-json.h"
#include "ms-meta.h"

/* The JSON type the schema must give a key of this kind. */
static const char *
schema_type (MsMetaType type)
{
  switch (type) {
  case MS_META_INT:
  case MS_META_FLAG:
  case MS_META_COUNT:
    return "integer";
  case MS_META_NUMBER:
    return "number";
  case MS_META_TEXT:
  case MS_META_FORM:
  default:
    return "string";
  }
}

/* The schema's entry for key: its own property, else the pattern that
 * matches it (run-to-run-sd-MODE). */
static const MsJson *
entry_of (const MsJson *metadata, const char *key)
{
  const MsJson *own = ms_json_member (ms_json_member (metadata, "properties"), key);
  if (own)
    return own;
  const MsJson *patterns = ms_json_member (metadata, "patternProperties");
  for (const MsJsonMember *m = ms_json_first_member (patterns); m; m = ms_json_next_member (m)) {
    g_autoptr (GRegex) re = g_regex_new (ms_json_member_name (m), 0, 0, NULL);
    g_autofree char *example = g_strconcat (key, "pinned", NULL);
    if (re && (g_regex_match (re, key, 0, NULL) || g_regex_match (re, example, 0, NULL)))
      return ms_json_member_value (m);
  }
  return NULL;
}

/* Whether the entry allows values of type: its "type", or a "oneOf"
 * whose first choice is that type (one value, or an array of them). */
static gboolean
allows (const MsJson *entry, const char *type)
{
  const char *own = ms_json_string (ms_json_member (entry, "type"));
  if (own)
    return g_str_equal (own, type) || (g_str_equal (type, "integer") && g_str_equal (own, "number"));
  const MsJson *one_of = ms_json_member (entry, "oneOf");
  const MsJson *first = one_of ? json_object_array_get_idx (one_of, 0) : NULL;
  return first && g_strcmp0 (ms_json_string (ms_json_member (first, "type")), type) == 0;
}

static void
test_every_key (gconstpointer path)
{
  gchar *text;
  gsize len;
  char err[256];
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  MsJson *root = ms_json_parse (text, len, err, sizeof err);
  g_assert_nonnull (root);
  const MsJson *metadata = ms_json_member (ms_json_member (root, "properties"), "metadata");
  g_assert_nonnull (metadata);
  for (int i = 0; i < MS_META_N_KEYS; i++) {
    const MsMetaKey *k = ms_meta_table ((MsMetaId) i);
    /* The run id is the sidecar's own member, outside "metadata". */
    if (i == MS_META_RUN_ID) {
      g_assert_nonnull (ms_json_member (ms_json_member (root, "properties"), k->key));
      continue;
    }
    const MsJson *entry = entry_of (metadata, k->key);
    if (!entry)
      g_error ("%s: the metadata key '%s' is not in the schema", (const char *) path, k->key);
    if (!allows (entry, schema_type (k->type)))
      g_error ("%s: '%s' is not a %s there", (const char *) path, k->key, schema_type (k->type));
  }
  ms_json_free (root);
  g_free (text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpint (argc, ==, 2);
  g_test_add_data_func ("/meta-schema/every-key", argv[1], test_every_key);
  return g_test_run ();
}
