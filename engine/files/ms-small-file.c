/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-small-file.c: writing and reading the small result files
 * (ms-small-file.h). */
#define _GNU_SOURCE
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memsweep.h"

#include "devices/ms-topo.h"
#include "ms-atomic-file.h"
#include "ms-csv-number.h"
#include "ms-csv-field.h"
#include "ms-csv-private.h"
#include "ms-csv-writer.h"
#include "ms-i18n.h"
#include "ms-meta.h"
#include "ms-meta-sidecar.h"
#include "ms-modes.h"
#include "ms-number.h"
#include "ms-read-file.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

void
ms_small_file_stamp (char (*date)[40], char (*host)[64], char (*version)[32])
{
  time_t now = time (NULL);
  struct tm tm;
  gmtime_r (&now, &tm);
  strftime (*date, sizeof *date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (gethostname (*host, sizeof *host) != 0)
    (*host)[0] = '\0';
  (*host)[sizeof *host - 1] = '\0';
  snprintf (*version, sizeof *version, "%s", MS_VERSION);
}

/* What put (f, data) prints, in memory in the C locale; NULL when out of
 * memory. */
static char *
render (const MsSmallFormat *format, bool meta, const void *data, size_t *len)
{
  char *text = NULL;
  FILE *f = open_memstream (&text, len);
  if (!f)
    return NULL;
  locale_t old = ms_csv_enter_c_locale ();
  if (meta && format->put_meta) {
    format->put_meta (f, data);
  } else if (meta) {
    MsSmallRun run = format->run ((void *) data); /* read only, as written */
    ms_small_put_run_head (f, &run);
    ms_small_put_run_devices (f, &run, NULL, NULL);
  } else {
    char header[512];
    fprintf (f, "%s\n", ms_small_format_header (format, header, sizeof header));
    format->put_rows (f, format, data);
  }
  ms_csv_leave_c_locale (old);
  bool ok = !ferror (f);
  if (fclose (f) != 0 || !ok) {
    free (text);
    return NULL;
  }
  return text;
}

/* The sidecar of the table at path (table, len bytes) beside it, opened;
 * NULL with a message. */
static MsAtomicFile *
open_sidecar (const char *path, const MsSmallFormat *format, const char *meta, const char *table,
              size_t len, char *err, size_t errlen)
{
  char side_path[4096], run_id[32];
  uint64_t hash = MS_FNV1A_BASIS;
  ms_fnv1a (&hash, table, len);
  ms_meta_sidecar_run_id (meta, hash, run_id);
  MsSidecarFile file = { format->role, path, (long long) len, hash };
  ms_sha256_hex_of (table, len, file.sha256);
  if (!ms_meta_sidecar_path (path, side_path, sizeof side_path)) {
    snprintf (err, errlen, ms_gettext ("%s: cannot write: %s"), path, strerror (ENAMETOOLONG));
    return NULL;
  }
  return ms_meta_sidecar_open (side_path, run_id, meta, &file, 1, err, errlen);
}

bool
ms_small_file_write (const char *path, const MsSmallFormat *format, const void *data,
                     char *err, size_t errlen)
{
  /* A run's devices fill its slots: no more than there are, and as many
   * as its reader wants. */
  MsSmallRun run = format->run ? format->run ((void *) data) : (MsSmallRun){ 0 };
  if (format->run && (*run.n_devices < run.min_devices || *run.n_devices > MS_MULTI_MAX_DEVICES)) {
    snprintf (err, errlen, ms_gettext ("%s: a %s file needs %d to %d devices, not %d"), path,
              format->role, run.min_devices, MS_MULTI_MAX_DEVICES, *run.n_devices);
    return false;
  }
  size_t meta_len = 0, len = 0;
  char *meta = render (format, true, data, &meta_len);
  char *table = meta ? render (format, false, data, &len) : NULL;
  MsAtomicFile *out = table ? ms_atomic_file_open (path, err, errlen) : NULL;
  MsAtomicFile *side = NULL;
  bool ok = false;
  if (!table) {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
  } else if (out && !ms_atomic_file_is_file (out)) {
    /* A failed write is kept for the commit, which says why and cleans up. */
    ms_atomic_file_write (out, format->title, strlen (format->title));
    ms_atomic_file_write (out, "\n", 1);
    ms_atomic_file_write (out, meta, meta_len);
    ms_atomic_file_write (out, table, len);
    ok = ms_atomic_file_commit (out, err, errlen);
  } else if (out && !(side = open_sidecar (path, format, meta, table, len, err, errlen))) {
    ms_atomic_file_abort (out);
  } else if (out) {
    /* The table first, the sidecar last: a crash between the renames
     * leaves a table whose sidecar names another size, which the reader
     * says, never a sidecar that claims a file wrongly. */
    MsAtomicFile *files[] = { out, side };
    ms_atomic_file_write (out, table, len);
    ok = ms_atomic_file_commit_group (files, 2, NULL, err, errlen);
  }
  free (meta);
  free (table);
  return ok;
}

const char *
ms_small_format_header (const MsSmallFormat *format, char *buf, size_t len)
{
  size_t n = 0;
  buf[0] = '\0';
  for (int c = 0; c < format->n_columns && n < len; c++)
    n += (size_t) snprintf (buf + n, len - n, "%s%s", c ? "," : "", format->columns[c].name);
  return buf;
}

/* One column's value of row as the writer puts it. */
static void
put_value (FILE *f, const MsSmallColumn *col, const char *row)
{
  const void *at = row + col->offset;
  double v = col->type == MS_SMALL_RATE || col->type == MS_SMALL_DECIMAL ? *(const double *) at
                                                                          : 0;
  char clean[1024];
  switch (col->type) {
  case MS_SMALL_TEXT:
    snprintf (clean, sizeof clean, "%s", (const char *) at);
    for (char *p = clean; *p; p++)
      if (*p == '\n' || *p == '\r')
        *p = ' ';
    if (clean[0])
      ms_csv_field_write (f, clean);
    break;
  case MS_SMALL_KEY:
    fputs (col->keys[*(const int *) at], f);
    break;
  case MS_SMALL_MODE:
    fputs (ms_mode_name (*(const MsMode *) at), f);
    break;
  case MS_SMALL_INT:
    fprintf (f, "%ld", *(const long *) at);
    break;
  case MS_SMALL_RATE:
    if (v > 0 && isfinite (v))
      fprintf (f, "%.3f", v);
    break;
  case MS_SMALL_DECIMAL:
    fprintf (f, "%.*f", col->digits, v);
    break;
  case MS_SMALL_BOOL:
    fputc (*(const bool *) at ? '1' : '0', f);
    break;
  }
}

void
ms_small_put_row (FILE *f, const MsSmallFormat *format, const void *row)
{
  for (int c = 0; c < format->n_columns; c++) {
    if (c)
      fputc (',', f);
    put_value (f, &format->columns[c], row);
  }
  fputc ('\n', f);
}

void
ms_small_put_stamp (FILE *f, const char *version, const char *date, const char *host)
{
  ms_meta_put (f, "format", "1");
  ms_meta_put (f, "memsweep-version", "%s", version);
  ms_meta_put (f, "date", "%s", date);
  ms_meta_put (f, "host", "%s", host);
}

bool
ms_small_take_stamp (const char *key, const char *value, char (*version)[32], char (*date)[40],
                     char (*host)[64])
{
  char *to = strcmp (key, "date") == 0               ? *date
             : strcmp (key, "host") == 0             ? *host
             : strcmp (key, "memsweep-version") == 0 ? *version
                                                     : NULL;
  size_t size = to == *date ? sizeof *date : to == *host ? sizeof *host : sizeof *version;
  if (to)
    ms_utf8_copy (to, size, value);
  return to != NULL;
}

void
ms_small_run_fill (const MsSmallFormat *format, void *file, const MsDeviceInfo *info, int reps)
{
  MsSmallRun run = format->run (file);
  for (int i = 0; i < *run.n_devices && i < MS_MULTI_MAX_DEVICES; i++)
    run.device[i] = info[i];
  *run.reps = reps;
  ms_small_file_stamp (run.date, run.host, run.version);
}

void
ms_small_put_run_head (FILE *f, const MsSmallRun *run)
{
  ms_small_put_stamp (f, *run->version, *run->date, *run->host);
  /* Unknown (0) for a plain file read without its sidecar: left out, as
   * the reader takes in a plain file's sidecar, describing the run. */
  if (*run->bytes)
    ms_meta_put (f, "bytes", "%llu", (unsigned long long) *run->bytes);
  if (*run->reps)
    ms_meta_put (f, "reps", "%d", *run->reps);
}

void
ms_small_put_run_devices (FILE *f, const MsSmallRun *run, const char (*bus_ids)[32],
                          const char (*serials)[32])
{
  char key[48];
  ms_meta_put (f, "devices", "%d", *run->n_devices);
  /* Slot i's device (CUDA index): index, name, bus id, serial (where
   * given), PCIe link and compute capability. */
  for (int i = 0; i < *run->n_devices; i++) {
    const MsDeviceInfo *d = &run->device[i];
#define GPU_META(what, ...)                                                                        \
  snprintf (key, sizeof key, "gpu-%d-%s", i, what);                                                \
  ms_meta_put (f, key, __VA_ARGS__)
    GPU_META ("index", "%d", run->devices[i]);
    GPU_META ("name", "%s", d->name);
    GPU_META ("bus-id", "%s", bus_ids ? bus_ids[i] : d->pci_bus_id);
    if (serials) {
      GPU_META ("serial", "%s", serials[i]);
    }
    GPU_META ("pcie", "gen%d x%d", d->pcie_gen, d->pcie_width);
    GPU_META ("compute-capability", "%d.%d", d->cc_major, d->cc_minor);
#undef GPU_META
  }
}

/* The value of gpu-I-what into d (index into d->index): false with rd's
 * message where it is malformed, true for a key it does not know (the
 * metadata describes, it does not drive). */
static bool
take_gpu (MsSmallReader *rd, const char *what, const char *value, MsDeviceInfo *d)
{
  long v;
  int end = 0;
  if (strcmp (what, "index") == 0) {
    if (!ms_parse_long (value, 0, 1 << 16, &v))
      return ms_small_reader_fail (rd, ms_gettext ("malformed device index '%s'"), value);
    d->index = (int) v;
  } else if (strcmp (what, "name") == 0) {
    ms_utf8_copy (d->name, sizeof d->name, value);
  } else if (strcmp (what, "bus-id") == 0) {
    ms_utf8_copy (d->pci_bus_id, sizeof d->pci_bus_id, value);
  } else if (strcmp (what, "pcie") == 0) {
    /* Field widths bound the numbers; 0 is unknown, below it nothing. */
    if (sscanf (value, "gen%2d x%2d%n", &d->pcie_gen, &d->pcie_width, &end) != 2 || value[end] ||
        d->pcie_gen < 0 || d->pcie_width < 0)
      return ms_small_reader_fail (rd, ms_gettext ("malformed PCIe link '%s'"), value);
  } else if (strcmp (what, "compute-capability") == 0) {
    if (sscanf (value, "%3d.%3d%n", &d->cc_major, &d->cc_minor, &end) != 2 || value[end] ||
        d->cc_major < 0 || d->cc_minor < 0)
      return ms_small_reader_fail (rd, ms_gettext ("malformed compute capability '%s'"), value);
  }
  return true;
}

/* gpu-I-what: slots below the device count. */
static bool
take_slot (MsSmallReader *rd, MsSmallRun *run, const char *key, const char *value)
{
  char what[40];
  int i;
  if (!*run->n_devices)
    return ms_small_reader_fail (rd, ms_gettext ("%s before the devices line"), key);
  if (sscanf (key, "gpu-%d-%39s", &i, what) != 2)
    return true; /* unknown metadata describes, it does not drive */
  if (i < 0 || i >= *run->n_devices)
    return ms_small_reader_fail (rd, ms_gettext ("gpu %d outside the %d devices"), i,
                                 *run->n_devices);
  if (!take_gpu (rd, what, value, &run->device[i]))
    return false;
  if (strcmp (what, "index") == 0) {
    run->devices[i] = run->device[i].index;
    run->seen_index[i] = true;
  }
  return true;
}

/* key's value when it is one of the run's (any other is left alone, true);
 * false with rd's message where it is malformed. */
static bool
take_run (MsSmallReader *rd, const MsSmallFormat *format, MsSmallRun *run, const char *key,
          const char *value)
{
  long v;
  if (strcmp (key, "format") == 0) {
    if (strcmp (value, "1") != 0)
      return ms_small_reader_fail (rd, ms_gettext ("unknown %s file format '%s'"), format->role,
                                   value);
  } else if (strcmp (key, "devices") == 0) {
    if (*run->n_devices || !ms_parse_long (value, run->min_devices, MS_MULTI_MAX_DEVICES, &v))
      return ms_small_reader_fail (
        rd, ms_gettext ("devices wants one count from %d to %d, not '%s'"), run->min_devices,
        MS_MULTI_MAX_DEVICES, value);
    *run->n_devices = (int) v;
  } else if (strcmp (key, "bytes") == 0 || strcmp (key, "reps") == 0) {
    if (!ms_parse_long (value, 1, 1L << 40, &v))
      return ms_small_reader_fail (rd, ms_gettext ("malformed %s '%s'"), key, value);
    if (key[0] == 'b')
      *run->bytes = (uint64_t) v;
    else
      *run->reps = (int) v;
  } else if (strncmp (key, "gpu-", 4) == 0) {
    return take_slot (rd, run, key, value);
  } else {
    ms_small_take_stamp (key, value, run->version, run->date, run->host);
  }
  return true;
}

/* Once the file is read: every device's index known (those of the rows
 * where the metadata is unknown), and devices enough. */
static bool
check_run (MsSmallReader *rd, MsSmallRun *run)
{
  /* A plain file without its sidecar: the devices are those of the rows,
   * known by their CUDA index only. */
  if (rd->meta_unknown)
    for (int i = 0; i < *run->n_devices; i++) {
      run->device[i].index = run->devices[i];
      run->seen_index[i] = true;
    }
  for (int i = 0; i < *run->n_devices; i++)
    if (!run->seen_index[i])
      return ms_small_reader_fail (rd, ms_gettext ("gpu-%d-index missing"), i);
  if (*run->n_devices < run->min_devices)
    return ms_small_reader_fail (rd, ms_gettext ("no devices line"));
  return true;
}

int
ms_small_slot_of (const MsSmallReader *rd, int *n, int *devices, long index)
{
  for (int i = 0; i < *n; i++)
    if (devices[i] == index)
      return i;
  if (!rd->meta_unknown || *n >= MS_MULTI_MAX_DEVICES)
    return -1;
  devices[*n] = (int) index;
  return (*n)++;
}

bool
ms_small_reader_fail (MsSmallReader *rd, const char *fmt, ...)
{
  if (rd->failed)
    return false;
  char why[320];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  if (rd->line > 0)
    snprintf (rd->err, rd->errlen, "%s:%d: %s", rd->path, rd->line, why);
  else
    snprintf (rd->err, rd->errlen, "%s: %s", rd->path, why);
  rd->failed = true;
  return false;
}

/* A file being parsed: its format, the caller's data and the row parser. */
typedef struct {
  MsSmallReader *rd;
  const MsSmallFormat *format;
  void *data;
  char header[512];
  bool have_header;
} Parse;

/* The fields of a row being split, one after another in text. */
typedef struct {
  char *text;
  size_t used, at[MS_SMALL_MAX_COLUMNS];
  int n_fields;
} Fields;

static void
on_field (void *field, size_t len, void *user)
{
  Fields *p = user;
  if (p->n_fields < MS_SMALL_MAX_COLUMNS) {
    p->at[p->n_fields] = p->used;
    memcpy (p->text + p->used, field, len);
    p->used += len;
    p->text[p->used++] = '\0';
  }
  p->n_fields++;
}

/* One field into its column of row; false with rd's message. */
static bool
take_value (MsSmallReader *rd, const MsSmallColumn *col, const char *text, char *row)
{
  void *at = row + col->offset;
  int k = 0;
  switch (col->type) {
  case MS_SMALL_TEXT:
    snprintf (at, col->size, "%s", ms_csv_field_unguarded (text));
    return true;
  case MS_SMALL_KEY:
    while (col->keys[k] && strcmp (col->keys[k], text) != 0)
      k++;
    *(int *) at = k;
    return col->keys[k] || ms_small_reader_fail (rd, ms_gettext ("unknown %s '%s'"), col->name,
                                                 text);
  case MS_SMALL_MODE:
    return ms_mode_from_name (text, at) ||
           ms_small_reader_fail (rd, ms_gettext ("unknown %s '%s'"), col->name, text);
  case MS_SMALL_INT:
    return ms_parse_long (text, col->min, col->max, at) ||
           ms_small_reader_fail (rd, ms_gettext ("malformed %s '%s'"), col->name, text);
  case MS_SMALL_RATE:
    /* Empty (0), or the samples reader's number rule and a rate the
     * writer's three decimals keep above 0, so that it writes back readable. */
    *(double *) at = 0;
    return !text[0] ||
           (ms_csv_parse_decimal (text, strlen (text), at) && *(double *) at >= 0.001) ||
           ms_small_reader_fail (rd, ms_gettext ("malformed %s '%s'"), col->name, text);
  case MS_SMALL_DECIMAL:
    return (ms_csv_parse_decimal (text, strlen (text), at) && *(double *) at <= col->max) ||
           ms_small_reader_fail (rd, ms_gettext ("malformed %s '%s'"), col->name, text);
  case MS_SMALL_BOOL:
    *(bool *) at = text[0] == '1';
    return ((text[0] == '0' || text[0] == '1') && !text[1]) ||
           ms_small_reader_fail (rd, ms_gettext ("%s wants 0 or 1, not '%s'"), col->name, text);
  }
  return false;
}

bool
ms_small_read_row (MsSmallReader *rd, const MsSmallFormat *format, const char *line, size_t len,
                   void *row)
{
  struct csv_parser csv;
  Fields f = { .text = malloc (len + MS_SMALL_MAX_COLUMNS + 1) };
  if (!f.text || csv_init (&csv, CSV_STRICT) != 0) {
    free (f.text);
    return ms_small_reader_fail (rd, "%s", strerror (ENOMEM));
  }
  if (csv_parse (&csv, line, len, on_field, NULL, &f) != len ||
      csv_fini (&csv, on_field, NULL, &f) != 0)
    ms_small_reader_fail (rd, ms_gettext ("malformed CSV: %s"), csv_strerror (csv_error (&csv)));
  else if (f.n_fields != format->n_columns)
    ms_small_reader_fail (rd, ms_gettext ("%d fields, want %d"), f.n_fields, format->n_columns);
  for (int c = 0; !rd->failed && c < format->n_columns; c++)
    take_value (rd, &format->columns[c], f.text + f.at[c], row);
  csv_free (&csv);
  free (f.text);
  return !rd->failed;
}

/* A metadata line, "# key: value" (any other is a comment): the run's
 * first, for a kind with one, then the kind's. */
static void
take_meta (MsSmallReader *rd, const MsSmallFormat *format, char *line, void *data)
{
  /* line[1] only past a '#': an empty line (the text's last) ends at line[0]. */
  char *key, *value = line[0] == '#' && line[1] == ' ' ? ms_meta_split (line, &key) : NULL;
  if (!value)
    return;
  MsSmallReadState *state = data;
  if ((!format->run || take_run (rd, format, &state->run, key, value)) && format->meta)
    format->meta (rd, key, value, data);
}

/* A row of the table: read into its row struct, then handed to the
 * format's take. */
static void
parse_row (Parse *p, char *line, size_t len)
{
  char *row = calloc (1, p->format->row_size);
  if (!row)
    ms_small_reader_fail (p->rd, "%s", strerror (ENOMEM));
  else if (ms_small_read_row (p->rd, p->format, line, len, row))
    p->format->take (p->rd, row, p->data);
  free (row);
}

/* One line of the older form: the title, metadata, the header or a row. */
static void
parse_line (Parse *p, char *line, size_t len)
{
  MsSmallReader *rd = p->rd;
  if (rd->line == 1) {
    if (strcmp (line, p->format->title) != 0)
      ms_small_reader_fail (rd, ms_gettext ("not a %s file (it starts '%.40s')"),
                            p->format->title + 2, line);
  } else if (len == 0) {
    return;
  } else if (!p->have_header && line[0] == '#') {
    take_meta (rd, p->format, line, p->data);
  } else if (!p->have_header && strcmp (line, p->header) == 0) {
    p->have_header = true;
  } else if (!p->have_header) {
    ms_small_reader_fail (rd, ms_gettext ("no header row"));
  } else {
    parse_row (p, line, len);
  }
}

/* Whether a plain file's line 1 is the format's header (a byte order mark
 * an editor added allowed): checked before the sidecar is, so that another
 * kind of file is refused as such, not for its sidecar's keys. */
static bool
plain_header (Parse *p, const char *text)
{
  if (strncmp (text, "\xEF\xBB\xBF", 3) == 0)
    text += 3;
  size_t n = strcspn (text, "\r\n");
  p->rd->line = 1;
  if (n == strlen (p->header) && strncmp (text, p->header, n) == 0)
    return true;
  return ms_small_reader_fail (p->rd, ms_gettext ("not a %s file: its header is not '%s'"),
                               p->format->title + 2, p->header);
}

/* The metadata of a plain file from its sidecar, refusals naming the
 * sidecar; when it is not there or not this file's, none, and rd says why. */
static void
parse_sidecar (MsSmallReader *rd, size_t bytes, const MsSmallFormat *format, void *data)
{
  char side_path[8192], why[1024];
  char *lines = ms_meta_sidecar_lines (rd->path, (long long) bytes, why, sizeof why);
  if (!lines) {
    rd->meta_unknown = true;
    if (rd->why)
      snprintf (rd->why, rd->whylen, "%s", why);
    return;
  }
  /* Refusals name the file, then its sidecar: "NAME.csv: NAME-meta.json: why". */
  const char *path = rd->path;
  size_t n = (size_t) snprintf (side_path, sizeof side_path, "%s: ", path);
  if (n < sizeof side_path)
    ms_meta_sidecar_path (path, side_path + n, sizeof side_path - n);
  rd->path = side_path;
  rd->line = 0;
  for (char *line = lines, *next; line && !rd->failed; line = next) {
    next = strchr (line, '\n');
    if (next)
      *next++ = '\0';
    take_meta (rd, format, line, data);
  }
  free (lines);
  rd->path = path; /* a refusal above has named the sidecar already */
}

/* The lines of text, the metadata first, then the rows. */
static void
parse_lines (Parse *p, char *text, bool plain)
{
  MsSmallReader *rd = p->rd;
  char *next;
  if (plain && plain_header (p, text))
    parse_sidecar (rd, strlen (text), p->format, p->data);
  rd->line = 0;
  for (char *line = text; line && !rd->failed; line = next) {
    next = strchr (line, '\n');
    if (next)
      *next++ = '\0';
    rd->line++;
    size_t len = strlen (line);
    if (len && line[len - 1] == '\r')
      line[--len] = '\0';
    if (plain && rd->line == 1)
      p->have_header = true; /* checked above */
    else if (plain && len > 0)
      parse_row (p, line, len);
    else if (!plain)
      parse_line (p, line, len);
  }
}

/* Parses text (changed in place; rd->path's whole text, for its sidecar's
 * check). False with rd's message. */
static bool
parse_text (MsSmallReader *rd, char *text, const MsSmallFormat *format, void *data)
{
  Parse p = { .rd = rd, .format = format, .data = data };
  bool plain = !ms_meta_sidecar_inline (text, strlen (text));
  ms_small_format_header (format, p.header, sizeof p.header);
  rd->meta_unknown = false;
  rd->plain = plain;
  if (rd->why && rd->whylen)
    rd->why[0] = '\0';
  /* memsweep ends every line it writes: a last line without its end was
   * cut (a copy stopped part-way, head -c), and its value may be too. */
  size_t len = strlen (text);
  if (len && text[len - 1] != '\n') {
    rd->line = 1;
    for (const char *nl = text; (nl = strchr (nl, '\n')); nl++)
      rd->line++;
    return ms_small_reader_fail (rd, ms_gettext ("its last line is cut: the file ends inside it"));
  }
  locale_t old = ms_csv_enter_c_locale ();
  parse_lines (&p, text, plain);
  ms_csv_leave_c_locale (old);
  if (!rd->failed && !p.have_header && (plain || !format->header_optional))
    ms_small_reader_fail (rd, ms_gettext ("no header row"));
  return !rd->failed;
}

bool
ms_small_file_load (MsSmallReader *rd, const MsSmallFormat *format, void *data)
{
  char *text = ms_small_file_read (rd->path, rd->err, rd->errlen);
  bool ok = text && parse_text (rd, text, format, data);
  free (text);
  return ok;
}

void *
ms_small_file_load_new (const char *path, const MsSmallFormat *format, char *err, size_t errlen)
{
  char *file = calloc (1, format->file_size);
  void *state = format->state_size ? calloc (1, format->state_size) : file;
  MsSmallReader rd = { .path = path, .err = err, .errlen = errlen };
  MsSmallReadState *base = state;
  bool ok = file && state;
  if (ok) {
    if (format->state_size)
      base->file = file;
    if (format->run)
      base->run = format->run (file);
    rd.why = file + format->why_offset;
    rd.whylen = format->why_size;
    ok = ms_small_file_load (&rd, format, state) &&
         (!format->run || check_run (&rd, &base->run)) &&
         (!format->finish || format->finish (&rd, state));
  } else {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
  }
  if (state != file)
    free (state);
  if (!ok) {
    free (file);
    return NULL;
  }
  return file;
}
