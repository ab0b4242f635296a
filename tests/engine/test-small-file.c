/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-small-file.c: the small files' one row reader and writer, driven by
 * a kind's columns: every type read into its place in a row struct and
 * written back as it was read; each refusal names the file, the line and
 * the column; and the header row of every small kind (its columns' names)
 * is the field list of its published Table Schema. */
#define _GNU_SOURCE
#include <glib.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-json.h"
#include "ms-multi-file.h"
#include "ms-peer-file.h"
#include "ms-host-link-file.h"
#include "ms-portable-file.h"
#include "ms-run-to-run-file.h"
#include "ms-small-file.h"

typedef struct {
  int key;
  MsMode mode;
  long count;
  double rate, share;
  bool on;
  char note[32];
} Row;

static const char *const colours[] = { "red", "green", NULL };

static const MsSmallColumn columns[] = {
  { "colour", MS_SMALL_KEY, offsetof (Row, key), .keys = colours },
  { "mode", MS_SMALL_MODE, offsetof (Row, mode) },
  { "count", MS_SMALL_INT, offsetof (Row, count), .min = 1, .max = 10 },
  { "rate", MS_SMALL_RATE, offsetof (Row, rate) },
  { "share", MS_SMALL_DECIMAL, offsetof (Row, share), .max = 1, .digits = 2 },
  { "on", MS_SMALL_BOOL, offsetof (Row, on) },
  { "note", MS_SMALL_TEXT, offsetof (Row, note), sizeof ((Row *) 0)->note },
};

static const MsSmallFormat format = {
  .columns = columns,
  .n_columns = G_N_ELEMENTS (columns),
  .row_size = sizeof (Row),
};

/* line read as format's row: true, or false with err. */
static bool
read_line (const char *line, Row *row, char *err, size_t errlen)
{
  MsSmallReader rd = { .path = "t.csv", .line = 7, .err = err, .errlen = errlen };
  memset (row, 0, sizeof *row);
  err[0] = '\0';
  return ms_small_read_row (&rd, &format, line, strlen (line), row);
}

/* What ms_small_put_row writes of row. */
static char *
written (const Row *row)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  ms_small_put_row (f, &format, row);
  fclose (f);
  return text;
}

static void
test_round_trip (void)
{
  static const char *const lines[] = {
    "green,pinned,3,12.345,0.50,1,\"two, words\"",
    "red,pageable,10,,1.00,0,",
    /* A guarded formula reads back as the formula, and is guarded again. */
    "red,device,1,0.001,0.00,0,\"'=1+1\"",
  };
  char err[256], header[256];
  g_assert_cmpstr (ms_small_format_header (&format, header, sizeof header), ==,
                   "colour,mode,count,rate,share,on,note");
  for (size_t k = 0; k < G_N_ELEMENTS (lines); k++) {
    Row row;
    g_assert_true (read_line (lines[k], &row, err, sizeof err));
    g_autofree char *want = g_strconcat (lines[k], "\n", NULL);
    char *back = written (&row);
    g_assert_cmpstr (back, ==, want);
    free (back);
  }
  Row row;
  g_assert_true (read_line (lines[0], &row, err, sizeof err));
  g_assert_cmpint (row.key, ==, 1);
  g_assert_cmpint (row.mode, ==, MS_MODE_PINNED);
  g_assert_cmpint (row.count, ==, 3);
  g_assert_cmpfloat (row.rate, ==, 12.345);
  g_assert_true (row.on);
  g_assert_cmpstr (row.note, ==, "two, words");
  g_assert_true (read_line (lines[2], &row, err, sizeof err));
  g_assert_cmpstr (row.note, ==, "=1+1");
}

static void
test_refusals (void)
{
  static const struct {
    const char *line, *says;
  } cases[] = {
    { "blue,pinned,3,1.000,0.5,1,", "t.csv:7: unknown colour 'blue'" },
    { "red,pinnned,3,1.000,0.5,1,", "t.csv:7: unknown mode 'pinnned'" },
    { "red,pinned,11,1.000,0.5,1,", "t.csv:7: malformed count '11'" },
    { "red,pinned,0,1.000,0.5,1,", "t.csv:7: malformed count '0'" },
    { "red,pinned,3,1e3,0.5,1,", "t.csv:7: malformed rate '1e3'" },
    { "red,pinned,3,0.0001,0.5,1,", "t.csv:7: malformed rate '0.0001'" },
    { "red,pinned,3,1.000,1.5,1,", "t.csv:7: malformed share '1.5'" },
    { "red,pinned,3,1.000,0.5,yes,", "t.csv:7: on wants 0 or 1, not 'yes'" },
    { "red,pinned,3,1.000,0.5,1", "t.csv:7: 6 fields, want 7" },
    { "red,pinned,3,1.000,0.5,1,,", "t.csv:7: 8 fields, want 7" },
    { "red,pinned,3,1.000,0.5,1,no\"te", "t.csv:7: malformed CSV" },
  };
  for (size_t k = 0; k < G_N_ELEMENTS (cases); k++) {
    Row row;
    char err[256];
    if (read_line (cases[k].line, &row, err, sizeof err))
      g_test_message ("read: %s", cases[k].line);
    g_assert_true (err[0]);
    if (!g_str_has_prefix (err, cases[k].says))
      g_test_message ("%s: %s", cases[k].line, err);
    g_assert_true (g_str_has_prefix (err, cases[k].says));
  }
}

/* The header row a small kind writes is the field list of its Table
 * Schema under data/schema, in order: the two say one format. */
static void
test_schemas (void)
{
  static const struct {
    const MsSmallFormat *format;
    const char *schema;
  } kinds[] = {
    { &ms_peer_file_format, "memsweep-peer.tableschema.json" },
    { &ms_portable_file_format, "memsweep-portable.tableschema.json" },
    { &ms_host_link_file_format, "memsweep-host-link.tableschema.json" },
    { &ms_multi_file_format, "memsweep-multi.tableschema.json" },
    { &ms_run_to_run_profile_format, "memsweep-profile.tableschema.json" },
  };
  for (size_t k = 0; k < G_N_ELEMENTS (kinds); k++) {
    g_autofree char *path = g_build_filename (MS_REFERENCE_DIR, "..", "schema", kinds[k].schema,
                                              NULL);
    g_autofree char *text = NULL;
    gsize len = 0;
    char err[256], header[512];
    g_assert_true (g_file_get_contents (path, &text, &len, NULL));
    MsJson *root = ms_json_parse (text, len, err, sizeof err);
    g_assert_nonnull (root);
    MsJson *fields = ms_json_member (root, "fields");
    GString *names = g_string_new (NULL);
    for (size_t i = 0; fields && i < json_object_array_length (fields); i++)
      g_string_append_printf (names, "%s%s", i ? "," : "",
                              ms_json_string (ms_json_member (
                                json_object_array_get_idx (fields, i), "name")));
    g_assert_cmpstr (ms_small_format_header (kinds[k].format, header, sizeof header), ==,
                     names->str);
    g_string_free (names, TRUE);
    ms_json_free (root);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/small-file/round-trip", test_round_trip);
  g_test_add_func ("/small-file/refusals", test_refusals);
  g_test_add_func ("/small-file/schemas", test_schemas);
  return g_test_run ();
}
