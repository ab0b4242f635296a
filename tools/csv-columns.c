/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csv-columns.c: writes what describes the samples and summary files'
 * columns elsewhere from their one list (engine/files/ms-csv-column-list.h):
 * the "fields" of the two Table Schemas in data/schema/ and the column
 * tables of docs/csv.md, between their marker lines. The rest of each file
 * is its authors'.
 *
 *   csv-columns write SOURCE-ROOT   rewrites the files that differ
 *   csv-columns check SOURCE-ROOT   exits 1 naming each stale file
 *
 * `ninja -C build update-csv-docs` runs the first, the csv-docs test the
 * second. Plain C over the engine's column table; the schemas' fields
 * are json-c trees (ms-json.h), as every JSON memsweep writes. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-csv-column-table.h"
#include "ms-json.h"
#include "ms-modes.h"

#define FIX_COMMAND "ninja -C build update-csv-docs"

/* A growing string. */
typedef struct {
  char *text;
  size_t len, cap;
} Text;

static void
add (Text *t, const char *s, size_t n)
{
  if (t->len + n + 1 > t->cap) {
    t->cap = (t->len + n + 1) * 2;
    t->text = realloc (t->text, t->cap);
    if (!t->text)
      abort ();
  }
  memcpy (t->text + t->len, s, n);
  t->len += n;
  t->text[t->len] = '\0';
}

static void
add_str (Text *t, const char *s)
{
  add (t, s, strlen (s));
}

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

/* The columns that name a row's cell: present in every row. */
static bool
is_required (const char *name)
{
  return strcmp (name, "mode") == 0 || strcmp (name, "elements") == 0 ||
         strcmp (name, "bytes_per_vector") == 0;
}

/* The constraints member of a field, if it has one. */
static void
set_constraints (MsJson *field, const char *name)
{
  MsJson *constraints = ms_json_object_new ();
  if (is_required (name)) {
    ms_json_set_bool (constraints, "required", true);
  } else if (strcmp (name, "status") == 0) {
    MsJson *values = ms_json_array_new ();
    for (int s = 0; s < MS_CELL_STATUS_COUNT; s++)
      ms_json_append (values, ms_json_string_new (ms_cell_status_name ((MsCellStatus) s)));
    ms_json_set (constraints, "enum", values);
  } else {
    ms_json_free (constraints);
    return;
  }
  ms_json_set (field, "constraints", constraints);
}

/* One field of a schema's "fields" array, a json-c tree laid out as the
 * sidecar is (two spaces a level, as Python's json.dumps (indent=2) writes
 * it too), each line indented to its place in the array. */
static void
add_field (Text *t, const MsCsvColumn *column, const char *name, const char *description)
{
  MsJson *field = ms_json_object_new ();
  ms_json_set_string (field, "name", name);
  ms_json_set_string (field, "type", type_name (column->type));
  ms_json_set_string (field, "description", description);
  set_constraints (field, name);
  if (t->len)
    add_str (t, ",\n");
  for (const char *line = ms_json_text (field, MS_JSON_INDENTED); *line;) {
    size_t n = strcspn (line, "\n");
    add_str (t, "    ");
    add (t, line, n);
    line += n;
    if (*line) {
      add_str (t, "\n");
      line++;
    }
  }
  ms_json_free (field);
}

/* A column of either file with its full name and description. */
typedef void (*ColumnFunc) (const MsCsvColumn *column, const char *name, const char *description,
                            const char *phase_name, void *data);

static void
foreach_samples_column (ColumnFunc fn, void *data)
{
  for (int i = 0; i < MS_N_SAMPLES_COLUMNS; i++)
    fn (&ms_samples_columns[i], ms_samples_columns[i].name, ms_samples_columns[i].description,
        NULL, data);
}

/* The summary's columns; each phase's columns once per phase (expand), or
 * once as "<phase>_NAME". */
static void
foreach_summary_column (bool expand, ColumnFunc fn, void *data)
{
  char name[64], description[512], phase_name[64];
  for (int i = 0; i < MS_N_SUMMARY_COLUMNS; i++) {
    const MsCsvColumn *column = &ms_summary_columns[i];
    if (i != MS_SUMMARY_PHASES) {
      fn (column, column->name, column->description, NULL, data);
      continue;
    }
    for (int k = 0; k < MS_N_SUMMARY_PHASE_COLUMNS; k++) {
      snprintf (phase_name, sizeof phase_name, "<phase>_%s", ms_summary_phase_columns[k].name);
      fn (&ms_summary_phase_columns[k], phase_name, ms_summary_phase_columns[k].description, NULL,
          data);
    }
    for (int p = 0; expand && p < MS_PHASE_COUNT; p++)
      for (int k = 0; k < MS_N_SUMMARY_PHASE_COLUMNS; k++) {
        ms_summary_phase_column_name (k, (MsPhase) p, name, sizeof name);
        ms_summary_phase_column_description (k, (MsPhase) p, description, sizeof description);
        fn (&ms_summary_phase_columns[k], name, description, ms_phase_name ((MsPhase) p), data);
      }
  }
}

/* Into a schema: the columns as written, so not the "<phase>_" rows. */
static void
schema_field (const MsCsvColumn *column, const char *name, const char *description,
              const char *phase_name, void *data)
{
  if (strncmp (name, "<phase>_", 8) != 0)
    add_field (data, column, name, description);
}

/* Into docs/csv.md: one table row, the "<phase>_" rows standing for
 * every phase. */
static void
docs_row (const MsCsvColumn *column, const char *name, const char *description,
          const char *phase_name, void *data)
{
  Text *t = data;
  if (phase_name)
    return;
  add_str (t, "| `");
  add_str (t, name);
  add_str (t, "` | ");
  add_str (t, type_name (column->type));
  add_str (t, " | ");
  add_str (t, column->unit);
  add_str (t, " | ");
  for (const char *s = description; *s; s++)
    add (t, *s == '|' ? "\\|" : s, *s == '|' ? 2 : 1);
  add_str (t, " |\n");
}

static void
docs_table (Text *t, bool summary)
{
  add_str (t, "| Column | Type | Unit | Meaning |\n|---|---|---|---|\n");
  if (summary)
    foreach_summary_column (false, docs_row, t);
  else
    foreach_samples_column (docs_row, t);
  if (!summary)
    return;
  add_str (t, "\n`<phase>` is each phase in turn:");
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    add_str (t, p ? ", `" : " `");
    add_str (t, ms_phase_name ((MsPhase) p));
    add_str (t, "` (");
    add_str (t, ms_phase_description ((MsPhase) p));
    add_str (t, ")");
  }
  add_str (t, ".\n");
}

static char *
read_all (const char *path)
{
  FILE *f = fopen (path, "rb");
  Text t = { 0 };
  char buf[8192];
  size_t n;
  if (!f) {
    perror (path);
    exit (2);
  }
  add (&t, "", 0);
  while ((n = fread (buf, 1, sizeof buf, f)) > 0)
    add (&t, buf, n);
  fclose (f);
  return t.text;
}

/* text with the lines after the first line that starts with begin, up to
 * the next that starts with end, replaced by body; NULL without them. */
static char *
replace_between (const char *text, const char *begin, const char *end, const char *body)
{
  const char *from = strstr (text, begin);
  if (!from || (from != text && from[-1] != '\n') || !(from = strchr (from, '\n')))
    return NULL;
  from++;
  const char *to = from;
  while (*to && strncmp (to, end, strlen (end)) != 0) {
    const char *next = strchr (to, '\n');
    to = next ? next + 1 : to + strlen (to);
  }
  if (!*to)
    return NULL;
  Text t = { 0 };
  add (&t, text, (size_t) (from - text));
  add_str (&t, body);
  add_str (&t, to);
  return t.text;
}

/* Writes or checks one file; false when it is stale (check) or broken. */
static bool
update (const char *root, const char *file, const char *begin, const char *end,
        const char *body, bool write)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", root, file);
  char *old = read_all (path);
  char *new = replace_between (old, begin, end, body);
  bool ok = true;
  if (!new) {
    fprintf (stderr, "%s: no lines \"%s\" ... \"%s\" to fill\n", path, begin, end);
    ok = false;
  } else if (strcmp (old, new) != 0) {
    if (!write) {
      fprintf (stderr, "%s: stale: its CSV columns differ from "
                       "engine/files/ms-csv-column-list.h; run `" FIX_COMMAND "`\n", path);
      ok = false;
    } else {
      FILE *f = fopen (path, "wb");
      ok = f && fputs (new, f) >= 0;
      ok = f && fclose (f) == 0 && ok;
      if (!ok)
        perror (path);
      else
        printf ("%s: written\n", path);
    }
  }
  free (old);
  free (new);
  return ok;
}

/* The schema of one file: its fields from the list. */
static bool
update_schema (const char *root, bool summary, bool write)
{
  Text fields = { 0 };
  if (summary)
    foreach_summary_column (true, schema_field, &fields);
  else
    foreach_samples_column (schema_field, &fields);
  add_str (&fields, "\n");
  bool ok = update (root,
                    summary ? "data/schema/memsweep-summary.tableschema.json"
                            : "data/schema/memsweep-samples.tableschema.json",
                    "  \"fields\"", "  ]", fields.text, write);
  free (fields.text);
  return ok;
}

/* docs/csv.md's table of one file, between its marker comments. */
static bool
update_docs (const char *root, bool summary, bool write)
{
  const char *which = summary ? "summary" : "samples";
  char begin[128], end[128];
  snprintf (begin, sizeof begin, "<!-- %s columns:", which);
  snprintf (end, sizeof end, "<!-- end of %s columns", which);
  Text table = { 0 };
  docs_table (&table, summary);
  bool ok = update (root, "docs/csv.md", begin, end, table.text, write);
  free (table.text);
  return ok;
}

int
main (int argc, char **argv)
{
  if (argc != 3 || (strcmp (argv[1], "write") != 0 && strcmp (argv[1], "check") != 0)) {
    fprintf (stderr, "usage: csv-columns write|check SOURCE-ROOT\n");
    return 2;
  }
  bool write = strcmp (argv[1], "write") == 0, ok = true;
  for (int summary = 0; summary < 2; summary++) {
    ok = update_schema (argv[2], summary, write) && ok;
    ok = update_docs (argv[2], summary, write) && ok;
  }
  return ok ? 0 : 1;
}
