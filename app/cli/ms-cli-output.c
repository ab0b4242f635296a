/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-output.c: the output options every table command shares, and the
 * one writer per format of a table (ms-cli-output.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ms-engine.h"
#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-output.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"
#include "ms-setting-table.h"

/* Each format's name as --format takes it. */
static const char *const format_names[] = { "table", "json", "csv", "markdown" };

/* --format's value, one of the words its line of the table gives (the
 * parser checked it): text, the name the table had first, is the table. */
static MsCliFormat
output_format (const char *arg)
{
  for (int i = 0; i < (int) (sizeof format_names / sizeof *format_names); i++)
    if (strcmp (arg, format_names[i]) == 0)
      return (MsCliFormat) i;
  return MS_CLI_FORMAT_TEXT;
}

/* ---- The table ---- */

struct MsCliTable {
  const MsCliColumn *columns;
  int n_columns, n_rows, room;
  char **values; /* n_rows x n_columns, NULL: empty */
};

MsCliTable *
ms_cli_table_new (const MsCliColumn *columns, int n_columns)
{
  MsCliTable *t = calloc (1, sizeof *t);
  if (t) {
    t->columns = columns;
    t->n_columns = n_columns;
  }
  return t;
}

void
ms_cli_table_free (MsCliTable *t)
{
  if (!t)
    return;
  for (int i = 0; i < t->n_rows * t->n_columns; i++)
    free (t->values[i]);
  free (t->values);
  free (t);
}

void
ms_cli_table_add_row (MsCliTable *t)
{
  if (t->n_rows == t->room) {
    int room = t->room ? 2 * t->room : 16;
    char **v = realloc (t->values, (size_t) room * (size_t) t->n_columns * sizeof *v);
    if (!v)
      abort (); /* as GLib does: a table of a few thousand cells */
    t->values = v;
    t->room = room;
  }
  memset (t->values + (size_t) t->n_rows * (size_t) t->n_columns, 0,
          (size_t) t->n_columns * sizeof *t->values);
  t->n_rows++;
}

static char **
last_row_value (MsCliTable *t, int column)
{
  return &t->values[(size_t) (t->n_rows - 1) * (size_t) t->n_columns + (size_t) column];
}

void
ms_cli_table_text (MsCliTable *t, int column, const char *text)
{
  char **v = last_row_value (t, column);
  free (*v);
  *v = text && *text ? strdup (text) : NULL;
}

void
ms_cli_table_number (MsCliTable *t, int column, double value, int decimals)
{
  char buf[64];
  if (!isfinite (value)) {
    ms_cli_table_text (t, column, NULL);
    return;
  }
  if (decimals < 0)
    snprintf (buf, sizeof buf, "%.10g", value);
  else
    snprintf (buf, sizeof buf, "%.*f", decimals, value);
  /* The C locale's decimal point: a locale's decimal comma is the only
   * comma these formats write. */
  char *comma = strchr (buf, ',');
  if (comma)
    *comma = '.';
  ms_cli_table_text (t, column, buf);
}

void
ms_cli_table_integer (MsCliTable *t, int column, long long value)
{
  char buf[32];
  snprintf (buf, sizeof buf, "%lld", value);
  ms_cli_table_text (t, column, buf);
}

static const char *
value_at (const MsCliTable *t, int row, int column)
{
  return t->values[(size_t) row * (size_t) t->n_columns + (size_t) column];
}

/* ---- One writer per format ---- */

/* text without control characters (a line break would break the row). */
static void
put_flat (FILE *f, const char *s)
{
  for (; s && *s; s++)
    fputc ((unsigned char) *s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

static void
put_padded (FILE *f, const char *s, int width, bool right)
{
  int pad = width - ms_cli_text_width (s);
  if (right)
    fprintf (f, "%*s", pad > 0 ? pad : 0, "");
  put_flat (f, s);
  if (!right)
    fprintf (f, "%*s", pad > 0 ? pad : 0, "");
}

static void
write_text (FILE *f, const MsCliTable *t)
{
  int width[64] = { 0 };
  int n = t->n_columns < 64 ? t->n_columns : 64;
  for (int c = 0; c < n; c++) {
    width[c] = ms_cli_text_width (t->columns[c].name);
    for (int r = 0; r < t->n_rows; r++) {
      int w = ms_cli_text_width (value_at (t, r, c));
      width[c] = w > width[c] ? w : width[c];
    }
  }
  for (int r = -1; r < t->n_rows; r++) {
    for (int c = 0; c < n; c++) {
      const char *v = r < 0 ? t->columns[c].name : value_at (t, r, c);
      if (c)
        fputs ("  ", f);
      /* The last column unpadded: no blanks at the ends of lines. */
      put_padded (f, v ? v : "", c + 1 < n || t->columns[c].number ? width[c] : 0,
                  t->columns[c].number);
    }
    fputc ('\n', f);
  }
}

static void
write_json (FILE *f, const MsCliTable *t)
{
  MsJson *rows = ms_json_array_new ();
  for (int r = 0; r < t->n_rows; r++) {
    MsJson *row = ms_json_object_new ();
    for (int c = 0; c < t->n_columns; c++) {
      const char *v = value_at (t, r, c);
      ms_json_set (row, t->columns[c].name,
                   !v                       ? NULL
                   : t->columns[c].number ? ms_json_number_new_text (v)
                                          : ms_json_string_new (v));
    }
    ms_json_append (rows, row);
  }
  ms_json_print (f, rows);
}

/* A number column with no value in any row is left out of CSV. */
static bool
csv_keeps (const MsCliTable *t, int column)
{
  if (!t->columns[column].number)
    return true;
  for (int r = 0; r < t->n_rows; r++)
    if (value_at (t, r, column))
      return true;
  return false;
}

static void
write_csv (FILE *f, const MsCliTable *t)
{
  for (int r = -1; r < t->n_rows; r++) {
    bool first = true;
    for (int c = 0; c < t->n_columns; c++) {
      if (!csv_keeps (t, c))
        continue;
      if (!first)
        fputc (',', f);
      first = false;
      /* The names are ours and numbers bare; text by the one rule of every
       * CSV written (ms-csv-field.h): quoted, a formula made inert. */
      if (r < 0 || t->columns[c].number)
        fputs (r < 0 ? t->columns[c].name : value_at (t, r, c) ? value_at (t, r, c) : "", f);
      else
        ms_csv_field_write (f, value_at (t, r, c));
    }
    fputc ('\n', f);
  }
}

static void
put_markdown_cell (FILE *f, const char *s)
{
  fputc (' ', f);
  for (; s && *s; s++) {
    if (*s == '|' || *s == '\\')
      fputc ('\\', f);
    fputc ((unsigned char) *s < 0x20 || *s == 0x7f ? ' ' : *s, f);
  }
  fputs (" |", f);
}

static void
write_markdown (FILE *f, const MsCliTable *t)
{
  fputc ('|', f);
  for (int c = 0; c < t->n_columns; c++)
    put_markdown_cell (f, t->columns[c].name);
  fputs ("\n|", f);
  for (int c = 0; c < t->n_columns; c++)
    fputs (t->columns[c].number ? " ---: |" : " --- |", f);
  fputc ('\n', f);
  for (int r = 0; r < t->n_rows; r++) {
    fputc ('|', f);
    for (int c = 0; c < t->n_columns; c++)
      put_markdown_cell (f, value_at (t, r, c));
    fputc ('\n', f);
  }
}

bool
ms_cli_table_write (FILE *f, const MsCliTable *t, MsCliFormat format)
{
  switch (format) {
  case MS_CLI_FORMAT_TEXT: write_text (f, t); break;
  case MS_CLI_FORMAT_JSON: write_json (f, t); break;
  case MS_CLI_FORMAT_CSV: write_csv (f, t); break;
  case MS_CLI_FORMAT_MARKDOWN: write_markdown (f, t); break;
  }
  return !ferror (f);
}

/* ---- The options ---- */

static enum { LEVEL_NORMAL, LEVEL_QUIET, LEVEL_VERBOSE } level;

bool
ms_cli_quiet (void)
{
  return level == LEVEL_QUIET;
}

bool
ms_cli_verbose (void)
{
  return level == LEVEL_VERBOSE;
}

void
ms_cli_say (const char *format, ...)
{
  if (level != LEVEL_VERBOSE)
    return;
  va_list ap;
  va_start (ap, format);
  ms_cli_error_v (format, ap);
  fputc ('\n', stderr);
  va_end (ap);
}

/* What a --quiet command wrote, said only if a later write fails: exit 4
 * alone would leave the user unsure whether the measurements landed. */
#define MS_CLI_HELD_WROTE 8
static char *held_wrote[MS_CLI_HELD_WROTE];
static int n_held_wrote;

static void
say_wrote (const char *path)
{
  char clean[4 * PATH_MAX];
  ms_cli_error (ms_gettext ("wrote %s\n"), ms_report_clean (path, clean, sizeof clean));
}

void
ms_cli_wrote (const char *path)
{
  if (level != LEVEL_QUIET)
    say_wrote (path);
  else if (n_held_wrote < MS_CLI_HELD_WROTE)
    held_wrote[n_held_wrote++] = strdup (path);
}

int
ms_cli_wrote_or_say (bool ok, const char *path, const char *err)
{
  if (!ok) {
    ms_cli_error ("%s\n", err);
    return EXIT_WRITE;
  }
  ms_cli_wrote (path);
  return EXIT_OK;
}

void
ms_cli_wrote_pair (const char *samples, const char *summary)
{
  char clean[4 * PATH_MAX], clean2[4 * PATH_MAX];
  if (level == LEVEL_QUIET) {
    ms_cli_wrote (samples);
    ms_cli_wrote (summary);
    return;
  }
  ms_cli_error (ms_gettext ("wrote %s and %s\n"), ms_report_clean (samples, clean, sizeof clean),
                ms_report_clean (summary, clean2, sizeof clean2));
}

/* A write failed (said by the caller): what the command did write is said
 * now, --quiet or not. */
static void
wrote_flush (void)
{
  for (int i = 0; i < n_held_wrote; i++) {
    if (held_wrote[i])
      say_wrote (held_wrote[i]);
    free (held_wrote[i]);
  }
  n_held_wrote = 0;
}

static bool compress;

bool
ms_cli_compress (void)
{
  return compress;
}

const char *
ms_cli_compressed_name (const char *path)
{
  if (!compress || !path || ms_gzip_is_name (path) || ms_output_plan_is_stdout (path) ||
      ms_atomic_file_in_place (path))
    return path;
  size_t len = strlen (path) + sizeof MS_GZIP_SUFFIX;
  char *named = malloc (len);
  if (!named)
    return path;
  snprintf (named, len, "%s%s", path, MS_GZIP_SUFFIX);
  return named; /* the process's, as argv */
}

bool
ms_cli_output_name (const char *prefix, const char *suffix, char *out, size_t len)
{
  char gz[64];
  size_t n = strlen (suffix);
  if (compress && n >= 4 && strcmp (suffix + n - 4, ".csv") == 0 &&
      snprintf (gz, sizeof gz, "%s%s", suffix, MS_GZIP_SUFFIX) < (int) sizeof gz)
    suffix = gz;
  return ms_atomic_file_output_name (prefix, suffix, out, len);
}

bool
ms_cli_pair_ok (const char *option, const char *prefix, char *samples, char *summary)
{
  const char *paths[] = { samples, summary };
  if (ms_cli_output_name (prefix, "-samples.csv", samples, PATH_MAX) &&
      ms_cli_output_name (prefix, "-summary.csv", summary, PATH_MAX))
    return ms_cli_outputs_ok (option, paths, MS_CLI_RUN_PAIR, 2);
  ms_cli_error (ms_gettext ("%s: prefix too long\n"), option);
  return false;
}

/* --quiet or --verbose (key): 1 taken, 0 neither, -1 refused (both given). */
static int
progress_option (int key)
{
  if (key != MS_CLI_KEY_QUIET && key != MS_CLI_KEY_VERBOSE)
    return 0;
  if (level != LEVEL_NORMAL && level != (key == MS_CLI_KEY_QUIET ? LEVEL_QUIET : LEVEL_VERBOSE)) {
    ms_cli_error (ms_gettext ("--quiet and --verbose exclude each other\n"));
    return -1;
  }
  level = key == MS_CLI_KEY_QUIET ? LEVEL_QUIET : LEVEL_VERBOSE;
  return 1;
}

/* Whether value is one of the words ('|' between them). */
static bool
is_one_of (const char *value, const char *words)
{
  for (const char *p = words; *p; p += strcspn (p, "|"), p += *p == '|')
    if (strcspn (p, "|") == strlen (value) && strncmp (p, value, strlen (value)) == 0)
      return true;
  return false;
}

/* Whether the option read, where its value is one of the words the table
 * gives, is one of them: false after a message. */
static bool
choice_ok (const MsCliArgs *a)
{
  char clean[256], opt[64];
  if (!a->option || a->option->kind != MS_CLI_CHOICE || is_one_of (a->value, a->option->value))
    return true;
  snprintf (opt, sizeof opt, "--%s", a->name);
  ms_cli_error (ms_gettext ("%s: '%s' is none of %s\n"), opt,
                ms_report_clean (a->value, clean, sizeof clean), a->option->value);
  return false;
}

/* One option: 1 taken, 0 not an output option, -1 refused after a message
 * (a file's name that says another format, too many exports). --quiet
 * and --verbose set the process's level. */
static int output_option (MsCliOutput *out, int key, const char *arg);

/* The next key of the command's own options, its output options taken. */
static int
args_next_own (MsCliArgs *a, MsCliOutput *out)
{
  int key;
  while ((key = ms_cli_args_next (a)) != -1 && key != '?') {
    int taken = !choice_ok (a) ? -1
                : out          ? output_option (out, key, a->value)
                               : progress_option (key);
    /* Run's options handed on by another command (fleet-node's after "--")
     * are refused as their settings are, without the command's Try line:
     * its --help does not list them. */
    if (taken < 0 && ms_cli_command () && a->keys == ms_cli_option_keys (ms_cli_command ()))
      ms_cli_bad_usage (ms_cli_command ());
    if (taken < 0)
      return '?';
    if (taken == 0)
      return key;
  }
  return key;
}

/* The value of the option a read into field, as its line of the table
 * says: false after its message. */
static bool
store_bound (const MsCliArgs *a, void *field)
{
  const MsCliOption *o = a->option;
  char opt[64];
  long long n = MS_CLI_ALL;
  snprintf (opt, sizeof opt, "--%s", a->name);
  if (!o->value)
    return *(bool *) field = true;
  switch (o->kind) {
  case MS_CLI_TEXT:
  case MS_CLI_INPUT:
  case MS_CLI_OUTPUT:
  case MS_CLI_PREFIX:
  case MS_CLI_HANDED_ON:
  case MS_CLI_CHOICE: /* checked as it was read */
    *(const char **) field = a->value;
    return true;
  case MS_CLI_DEVICES:
    *(const char **) field = a->value;
    return ms_cli_devices_ok (opt, a->value, o->min);
  case MS_CLI_COUNT_OR_ALL:
    if (strcmp (a->value, "all") != 0 && !ms_cli_whole_number (a->value, o->min, o->max, &n)) {
      ms_cli_error (ms_gettext ("%s: '%s' is neither 'all' nor a whole number from %d to %d\n"),
                    opt, a->value, o->min, o->max);
      return false;
    }
    *(int *) field = (int) n;
    return true;
  case MS_CLI_SETTING:;
    const MsSetting *s = ms_setting_find (a->name);
    return ms_cli_parse_count (opt, a->value, (int) s->min + s->above_min,
                               s->max >= INT_MAX ? INT_MAX : (int) s->max, field);
  case MS_CLI_COUNT:
    return ms_cli_parse_count (opt, a->value, o->min, o->max, field);
  default:;
    double *v = field;
    bool ok = ms_cli_parse_double (opt, a->value, v);
    if (ok && o->range && !(*v > o->min && (o->max <= o->min || *v < o->max))) {
      ms_cli_error (ms_gettext ("%s: '%s' is out of range: %s\n"), opt, a->value,
                    ms_gettext (o->range));
      ok = false;
    }
    return ok;
  }
}

int
ms_cli_args_next_bound (MsCliArgs *a, MsCliOutput *out, const MsCliBind *binds)
{
  int key;
  if (out && !out->command)
    out->command = ms_cli_command ();
  while ((key = args_next_own (a, out)) != -1 && key != '?') {
    const MsCliBind *b = binds;
    while (b->key && b->key != key)
      b++;
    if (!b->key)
      return key;
    if (!store_bound (a, b->field))
      return '?';
    a->bound = a->name;
  }
  return key;
}

/* The format a file's name says, in any case (.CSV too; its .gz left
 * aside); false for one that says none (FILE.txt, a name without an
 * extension, -). */
static bool
format_of_name (const char *path, MsCliFormat *format)
{
  static const struct {
    const char *ext;
    MsCliFormat format;
  } names[] = { { ".json", MS_CLI_FORMAT_JSON },
                { ".csv", MS_CLI_FORMAT_CSV },
                { ".md", MS_CLI_FORMAT_MARKDOWN } };
  size_t n = ms_gzip_stem_len (path);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    size_t e = strlen (names[i].ext);
    if (n > e && strncasecmp (path + n - e, names[i].ext, e) == 0) {
      *format = names[i].format;
      return true;
    }
  }
  return false;
}

static int
add_export (MsCliOutput *out, MsCliFormat format, const char *option, const char *path)
{
  if (!ms_cli_name_is_format (option, path, format, NULL))
    return -1;
  if (out->n_exports == MS_CLI_MAX_EXPORTS) {
    ms_cli_error (ms_gettext ("at most %d exports\n"), MS_CLI_MAX_EXPORTS);
    return -1;
  }
  out->exports[out->n_exports].format = format;
  out->exports[out->n_exports].option = option;
  out->exports[out->n_exports++].path = path;
  return 1;
}

int
ms_cli_output_only_to (MsCliOutput *out, const char *option, const char *path)
{
  char clean[4 * PATH_MAX];
  MsCliFormat named;
  out->stdout_off = true;
  if (path && format_of_name (path, &named)) {
    if (out->format_given && out->format != named) {
      ms_cli_error (ms_gettext ("%s %s: the name says %s, --format says %s\n"), option,
                    ms_report_clean (path, clean, sizeof clean), format_names[named],
                    format_names[out->format]);
      return -1;
    }
    out->format = named;
  }
  return add_export (out, out->format, option, path);
}

/* X of X.csv.gz or X.gz. */
static size_t
prefix_stem_len (const char *prefix)
{
  size_t n = ms_gzip_stem_len (prefix);
  return n > 4 && strncmp (prefix + n - 4, ".csv", 4) == 0 ? n - 4 : n;
}

/* The extension of path's name, its .gz left aside ("svg" of plot.svg,
 * "json" of X.json.gz), into ext; false for a name without one (X, .hidden,
 * run-1.5: a number is no extension). */
static bool
extension_of (const char *path, char *ext, size_t len)
{
  const char *slash = strrchr (path, '/');
  const char *base = slash ? slash + 1 : path;
  size_t n = ms_gzip_stem_len (path) - (size_t) (base - path);
  const char *dot = NULL;
  for (size_t i = 1; i < n; i++)
    dot = base[i] == '.' ? base + i : dot;
  size_t k = dot ? n - (size_t) (dot + 1 - base) : 0;
  if (!dot || k == 0 || k >= len || k > 8)
    return false;
  bool letter = false;
  for (size_t i = 0; i < k; i++) {
    char c = dot[1 + i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
    letter = letter || !(c >= '0' && c <= '9');
  }
  snprintf (ext, len, "%.*s", (int) k, dot + 1);
  return letter;
}

/* Whether a name's extension is the format's (.json, .csv, .md or
 * .markdown, .txt or .table for the text table), or one that says no kind
 * of file (.out, .log): a picture's, a document's or another table's
 * (.svg, .pdf, .html, .xlsx, .tsv...) is another format's. */
static bool
extension_fits (const char *path, MsCliFormat format, char *ext, size_t len)
{
  static const char *const own[][3] = { { "txt", "table", "text" },
                                        { "json", NULL, NULL },
                                        { "csv", NULL, NULL },
                                        { "md", "markdown", NULL } };
  static const char *const kinds[] = { "svg", "png", "pdf", "jpg", "jpeg", "gif", "webp",
                                       "tif", "tiff", "bmp", "eps", "ps", "html", "htm",
                                       "xml", "yaml", "yml", "toml", "tex", "odt", "docx",
                                       "xlsx", "xls", "ods", "tsv", "parquet", "feather",
                                       "arrow", "h5", "hdf5", "npy", "npz", "pkl", "prom",
                                       "zip", "tar", "txt", "json", "csv", "md" };
  MsCliFormat named;
  if (format_of_name (path, &named)) {
    snprintf (ext, len, "%s", format_names[named]);
    return named == format;
  }
  if (!extension_of (path, ext, len))
    return true;
  for (size_t i = 0; i < 3; i++)
    if (own[format][i] && strcasecmp (ext, own[format][i]) == 0)
      return true;
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (strcasecmp (ext, kinds[i]) == 0)
      return false;
  return true;
}

bool
ms_cli_name_is_format (const char *option, const char *path, MsCliFormat format,
                       const char *writes)
{
  char clean[4 * PATH_MAX], ext[16];
  /* Standard output, a device, a pipe, a descriptor: no name to say. */
  if (!path || ms_output_plan_is_stdout (path) || ms_atomic_file_in_place (path) ||
      extension_fits (path, format, ext, sizeof ext))
    return true;
  /* --export-json plot.svg would replace a picture with JSON that every
   * viewer then fails to open. */
  ms_cli_error (ms_gettext ("%s %s: the name says %s, and %s writes %s\n"), option,
                ms_report_clean (path, clean, sizeof clean), ext, option,
                writes ? writes : format_names[format]);
  return false;
}

bool
ms_cli_prefix_names_files (const char *option, const char *prefix, const char *first)
{
  char clean[4 * PATH_MAX];
  size_t n = prefix ? strlen (prefix) : 0;
  if (prefix)
    ms_report_clean (prefix, clean, sizeof clean);
  /* By any of its names (/dev/stdout, /dev/fd/1): the prefix is what the
   * user gave, and what to blame. */
  if (prefix && ms_output_plan_is_stdout (prefix)) {
    ms_cli_error (ms_gettext ("%s %s: a prefix names files (PREFIX%s and those beside it), which "
                              "standard output cannot hold: give a name (--format json prints "
                              "the results on standard output)\n"),
                  option, clean, first);
    return false;
  }
  /* o/ would write o/-samples.csv: a folder's name is no prefix. */
  if (n > 0 && prefix[n - 1] == '/') {
    ms_cli_error (ms_gettext ("%s %s: a prefix, to which the files' own names are added "
                              "(PREFIX%s), ends in '/': give a name in that folder (%sNAME)\n"),
                  option, clean, first, clean);
    return false;
  }
  /* X.csv would write X.csv-samples.csv: an extension of a file's kind
   * is no prefix's. */
  char ext[16];
  static const char *const kinds = " csv json md txt tsv html pdf png svg ";
  char word[20];
  snprintf (word, sizeof word, " %s ", extension_of (prefix ? prefix : "", ext, sizeof ext)
                                          ? ext : "-");
  for (char *c = word; *c; c++) /* X.CSV is a file's name too */
    *c = (char) tolower ((unsigned char) *c);
  if (prefix && !ms_gzip_is_name (prefix) && strstr (kinds, word)) {
    ms_cli_error (ms_gettext ("%s %s: a prefix, to which the files' own names are added "
                              "(PREFIX%s), ends in .%s, which would write %s%s: give %s %.*s\n"),
                  option, clean, first, ext, clean, first, option,
                  (int) (strlen (prefix) - strlen (ext) - 1), prefix);
    return false;
  }
  if (!prefix || !ms_gzip_is_name (prefix))
    return true;
  ms_cli_error (ms_gettext ("%s %s: a prefix, to which the files' own names are added "
                            "(PREFIX%s), does not end in .gz; for gzip-compressed files give %s "
                            "%.*s --compress\n"),
                option, clean, first, option, (int) prefix_stem_len (prefix), prefix);
  return false;
}

static int
output_option (MsCliOutput *out, int key, const char *arg)
{
  switch (key) {
  case MS_CLI_KEY_FORMAT:
    /* Given already: by compare's --json, its other name. */
    if (out->format_given && out->format != output_format (arg)) {
      ms_cli_error (ms_gettext ("--json and --format: one format, given twice\n"));
      return -1;
    }
    out->format_given = true;
    out->format = output_format (arg);
    return 1;
  case MS_CLI_KEY_EXPORT_JSON:
  case MS_CLI_KEY_EXPORT_CSV:
  case MS_CLI_KEY_EXPORT_MARKDOWN: {
    static const char *const options[] = { "--export-json", "--export-csv", "--export-markdown" };
    return add_export (out, (MsCliFormat) (MS_CLI_FORMAT_JSON + (key - MS_CLI_KEY_EXPORT_JSON)),
                       options[key - MS_CLI_KEY_EXPORT_JSON], arg);
  }
  case MS_CLI_KEY_COMPRESS: compress = true; return 1;
  default: return progress_option (key);
  }
}

/* Standard output's document, where no export takes its place: planned
 * so that no second one (show --out -, a picture) and no other run's file
 * it is appended to (`>> X-meta.json`) is written. */
#define MS_CLI_STDOUT_GIVEN_BY "--format"

/* --compress acts on the CSV files a command writes: those it always
 * writes (its --compress needs no other option in the table: run, lesson,
 * calibrate), else a CSV export or --out into a file. */
static bool
compress_acts (const MsCliOutput *out)
{
  const MsCliCommand *c = ms_cli_command_find (out->command);
  if (out->own_csv)
    return true;
  for (const MsCliOption *o = c ? c->options : NULL; o && o->name; o++)
    if (o->key == MS_CLI_KEY_COMPRESS && !o->needs)
      return true;
  for (int i = 0; i < out->n_exports; i++)
    if (out->exports[i].format == MS_CLI_FORMAT_CSV &&
        !ms_output_plan_is_stdout (out->exports[i].path))
      return true;
  return false;
}

bool
ms_cli_output_ready (MsCliOutput *out)
{
  char clean[4 * PATH_MAX];
  int to_stdout = -1;
  if (compress && !compress_acts (out)) {
    ms_cli_error (ms_gettext ("--compress: no CSV file is written here, so it would compress "
                              "nothing\n"));
    return false;
  }
  for (int i = 0; i < out->n_exports; i++) {
    if (out->exports[i].format == MS_CLI_FORMAT_CSV)
      out->exports[i].path = ms_cli_compressed_name (out->exports[i].path);
    const char *path = out->exports[i].path, *option = out->exports[i].option;
    for (int j = 0; j < i; j++)
      if (strcmp (out->exports[j].path, path) == 0) {
        ms_cli_error (ms_gettext ("%s %s: that file is already an export\n"), option,
                      ms_report_clean (path, clean, sizeof clean));
        return false;
      }
    /* Every file of the command, standard output by any name included,
     * is checked against the others, the inputs and other runs' files. */
    if (!ms_cli_plan_file (option, path))
      return false;
    if (ms_output_plan_is_stdout (path))
      to_stdout = i;
  }
  /* Standard output holds one document: an export's there and another
   * --format would drop one of them. */
  if (to_stdout >= 0 && out->format_given &&
      out->format != out->exports[to_stdout].format) {
    ms_cli_error (ms_gettext ("%s - and --format %s both name standard output, which holds "
                              "one document: give one of them\n"),
                  out->exports[to_stdout].option, format_names[out->format]);
    return false;
  }
  if (to_stdout >= 0) {
    /* Standard output holds one document: the export's, in place of the
     * table (hyperfine's --export-json - does the same). */
    out->format = out->exports[to_stdout].format;
    out->exports[to_stdout] = out->exports[--out->n_exports];
    out->stdout_off = false; /* show --out FILE --export-csv -: CSV there too */
    return true;
  }
  if (!out->stdout_off && ms_output_plan_stdout_closed ()) {
    /* No option named it: the table goes there by default. */
    ms_cli_error ("%s", ms_gettext ("standard output is closed, and the table goes "
                                    "there: give it one (>/dev/null to drop the table)\n"));
    return false;
  }
  return out->stdout_off || ms_cli_plan_file (MS_CLI_STDOUT_GIVEN_BY, MS_CLI_STDIO);
}

static void
write_document (FILE *f, const MsCliDocument *doc, MsCliFormat format)
{
  if (format == MS_CLI_FORMAT_TEXT && doc->text)
    doc->text (f, doc->user);
  else if (format == MS_CLI_FORMAT_JSON && doc->json)
    doc->json (f, doc->user);
  else if (doc->table)
    ms_cli_table_write (f, doc->table, format);
}

/* One export: the document in memory, then through an atomic file. */
static bool
write_export (const MsCliDocument *doc, MsCliFormat format, const char *path)
{
  char err[PATH_MAX + 256], clean[4 * sizeof err], *data = NULL;
  size_t len = 0;
  ms_cli_say (ms_gettext ("%s: the %s export"), ms_report_clean (path, clean, sizeof clean),
              format_names[format]);
  FILE *mem = open_memstream (&data, &len);
  if (!mem) {
    ms_cli_error ("%s: %s\n", path, strerror (errno));
    return false;
  }
  write_document (mem, doc, format);
  bool ok = fclose (mem) == 0;
  MsAtomicFile *file = ok ? ms_atomic_file_open (path, err, sizeof err) : NULL;
  if (file) {
    ms_atomic_file_write (file, data, len);
    ok = ms_atomic_file_commit (file, err, sizeof err);
  } else if (ok) {
    ok = false;
  } else {
    snprintf (err, sizeof err, "%s: %s", path, strerror (ENOMEM));
  }
  free (data);
  if (!ok) {
    ms_cli_error ("%s\n", ms_report_clean (err, clean, sizeof clean));
    wrote_flush ();
    return false;
  }
  ms_cli_wrote (path);
  return true;
}

bool
ms_cli_output_write (const MsCliOutput *out, const MsCliDocument *doc)
{
  bool ok = true;
  for (int i = 0; i < out->n_exports; i++)
    ok &= write_export (doc, out->exports[i].format, out->exports[i].path);
  if (!out->stdout_off) {
    ms_cli_say (ms_gettext ("%s: the %s on standard output"), out->command,
                format_names[out->format]);
    write_document (stdout, doc, out->format);
  }
  return ok;
}

int
ms_cli_output_send (const MsCliOutput *out, MsCliTable *table, void (*text) (FILE *, void *),
                    void (*json) (FILE *, void *), void *user)
{
  MsCliDocument doc = { text, json, table, user };
  bool written = ms_cli_output_write (out, &doc);
  ms_cli_table_free (table);
  return ms_cli_output_status (written);
}
