/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi-file.c: the aggregate file of a sweep on several GPUs at once
 * (ms-multi-file.h): written into memory, then through an atomic file;
 * read back strictly. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-csv-private.h"
#include "ms-i18n.h"
#include "ms-multi-file.h"
#include "ms-peer-file.h"

static const char title[] = "# memsweep multi-GPU sweep";
static const char header[] = "mode,exponent,bytes,gpus_ok,h2d_sum_gbps,d2h_sum_gbps,"
                             "e2e_sum_gbps,h2d_slowest_gbps,d2h_slowest_gbps";

void
ms_multi_file_samples_name (const char *prefix, int device, char *out, size_t len)
{
  const char *slash = strrchr (prefix, '/');
  snprintf (out, len, "%s-gpu%d-samples.csv", slash ? slash + 1 : prefix, device);
}

void
ms_multi_file_init (MsMultiFile *file, const MsMultiResults *r, const char *prefix)
{
  memset (file, 0, sizeof *file);
  const MsResults *first = NULL;
  file->n_devices = r->n_devices;
  for (int i = 0; i < r->n_devices; i++) {
    file->devices[i] = r->devices[i];
    if (r->per_device[i]) {
      snprintf (file->name[i], sizeof file->name[i], "%s", r->per_device[i]->device.name);
      first = first ? first : r->per_device[i];
    }
    ms_multi_file_samples_name (prefix, r->devices[i], file->samples[i], sizeof file->samples[i]);
  }
  for (int m = 0; first && m < MS_MODE_COUNT; m++) {
    const MsSweep *s = &first->sweep;
    for (int e = s->min_exp; s->modes[m] && s->step > 0 && e <= s->max_exp; e += s->step) {
      MsMultiFileRow *row = &file->rows[file->n_rows++];
      row->mode = (MsMode) m;
      row->exponent = e;
      if (!ms_multi_aggregate (r, m, e, &row->agg))
        memset (&row->agg, 0, sizeof row->agg);
    }
  }
  time_t now = time (NULL);
  struct tm tm;
  gmtime_r (&now, &tm);
  strftime (file->date, sizeof file->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (gethostname (file->host, sizeof file->host) != 0)
    file->host[0] = '\0';
  file->host[sizeof file->host - 1] = '\0';
  snprintf (file->version, sizeof file->version, "%s", MS_VERSION);
}

static void
one_line (char *s)
{
  for (; *s; s++)
    if (*s == '\n' || *s == '\r')
      *s = ' ';
}

static void
put_gbps (FILE *f, double v, bool last)
{
  if (v > 0 && isfinite (v))
    fprintf (f, "%.3f", v);
  fputc (last ? '\n' : ',', f);
}

static void
write_text (FILE *f, const MsMultiFile *file)
{
  MsMultiFile *copy = malloc (sizeof *copy);
  if (!copy)
    return;
  *copy = *file; /* names kept on one line */
  one_line (copy->host);
  fprintf (f, "%s\n# format: 1\n# memsweep-version: %s\n# date: %s\n# host: %s\n# devices: %d\n",
           title, copy->version, copy->date, copy->host, copy->n_devices);
  for (int i = 0; i < copy->n_devices; i++) {
    one_line (copy->name[i]);
    one_line (copy->samples[i]);
    fprintf (f, "# gpu-%d-index: %d\n# gpu-%d-name: %s\n# gpu-%d-samples: %s\n", i,
             copy->devices[i], i, copy->name[i], i, copy->samples[i]);
  }
  fprintf (f, "%s\n", header);
  for (int k = 0; k < copy->n_rows; k++) {
    const MsMultiFileRow *row = &copy->rows[k];
    fprintf (f, "%s,%d,%llu,%d,", ms_mode_name (row->mode), row->exponent,
             4ull << row->exponent, row->agg.n_ok);
    put_gbps (f, row->agg.h2d_gbps, false);
    put_gbps (f, row->agg.d2h_gbps, false);
    put_gbps (f, row->agg.e2e_gbps, false);
    put_gbps (f, row->agg.h2d_min_gbps, false);
    put_gbps (f, row->agg.d2h_min_gbps, true);
  }
  free (copy);
}

bool
ms_multi_file_write (const MsMultiFile *file, const char *path, char *err, size_t errlen)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  if (!f) {
    snprintf (err, errlen, "%s: %s", path, strerror (errno));
    return false;
  }
  locale_t old = ms_csv_enter_c_locale ();
  write_text (f, file);
  ms_csv_leave_c_locale (old);
  bool ok = !ferror (f);
  if (fclose (f) != 0 || !ok || !strstr (text, header)) {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
    free (text);
    return false;
  }
  MsAtomicFile *out = ms_atomic_file_open (path, err, errlen);
  if (out) {
    /* A failed write is kept for the commit, which says why and cleans up. */
    ms_atomic_file_write (out, text, len);
    ok = ms_atomic_file_commit (out, err, errlen);
  }
  free (text);
  return out && ok;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  MsMultiFile *file;
  const char *path;
  int line;
  char *err;
  size_t errlen;
  bool failed;
} Reader;

static bool
fail (Reader *rd, const char *fmt, ...)
{
  if (rd->failed)
    return false;
  char why[300];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  snprintf (rd->err, rd->errlen, "%s:%d: %s", rd->path, rd->line, why);
  rd->failed = true;
  return false;
}

static bool
parse_int (const char *s, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol (s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

static bool
parse_meta (Reader *rd, char *line)
{
  MsMultiFile *f = rd->file;
  char *key = line + 2, *value = strstr (key, ": ");
  if (line[1] != ' ' || !value)
    return true;
  *value = '\0';
  value += 2;
  long v;
  int i, end = 0;
  char what[16];
  if (strcmp (key, "format") == 0 && strcmp (value, "1") != 0)
    return fail (rd, ms_gettext ("unknown multi file format '%s'"), value);
  if (strcmp (key, "devices") == 0) {
    if (f->n_devices || !parse_int (value, 1, MS_MULTI_MAX_DEVICES, &v))
      return fail (rd, ms_gettext ("devices wants one count from 1 to %d, not '%s'"),
                   MS_MULTI_MAX_DEVICES, value);
    f->n_devices = (int) v;
  } else if (sscanf (key, "gpu-%d-%15[a-z]%n", &i, what, &end) == 2 && !key[end]) {
    if (i < 0 || i >= f->n_devices)
      return fail (rd, ms_gettext ("gpu %d outside the %d devices"), i, f->n_devices);
    if (strcmp (what, "index") == 0 && !parse_int (value, 0, 1 << 16, &v))
      return fail (rd, ms_gettext ("malformed device index '%s'"), value);
    if (strcmp (what, "index") == 0)
      f->devices[i] = (int) v;
    else if (strcmp (what, "name") == 0)
      snprintf (f->name[i], sizeof f->name[i], "%s", value);
    else if (strcmp (what, "samples") == 0 && (strchr (value, '/') || !*value))
      return fail (rd, ms_gettext ("a samples file beside this one, not '%s'"), value);
    else if (strcmp (what, "samples") == 0)
      snprintf (f->samples[i], sizeof f->samples[i], "%s", value);
  } else if (strcmp (key, "date") == 0) {
    snprintf (f->date, sizeof f->date, "%s", value);
  } else if (strcmp (key, "host") == 0) {
    snprintf (f->host, sizeof f->host, "%s", value);
  } else if (strcmp (key, "memsweep-version") == 0) {
    snprintf (f->version, sizeof f->version, "%s", value);
  }
  return true;
}

static bool
parse_gbps (const char *s, double *out)
{
  char *end;
  *out = 0;
  if (!*s)
    return true;
  errno = 0;
  *out = strtod (s, &end);
  return !*end && !errno && isfinite (*out) && *out > 0;
}

static bool
parse_row (Reader *rd, char *line)
{
  MsMultiFile *f = rd->file;
  char *field[10];
  int n = 0;
  for (char *p = line; n < 10; p++) {
    field[n++] = p;
    if (!(p = strchr (p, ',')))
      break;
    *p = '\0';
  }
  if (n != 9)
    return fail (rd, ms_gettext ("%d fields, want 9"), n);
  if (f->n_rows >= MS_MULTI_FILE_MAX_ROWS)
    return fail (rd, ms_gettext ("more rows than modes and sizes"));
  MsMultiFileRow *row = &f->rows[f->n_rows];
  long e, bytes, ok;
  if (!ms_mode_from_name (field[0], &row->mode))
    return fail (rd, ms_gettext ("unknown mode '%s'"), field[0]);
  if (!parse_int (field[1], 0, MS_MAX_EXPONENT, &e) || !parse_int (field[2], 1, LONG_MAX, &bytes) ||
      bytes != (long) (4ull << e) || !parse_int (field[3], 0, f->n_devices, &ok))
    return fail (rd, ms_gettext ("malformed size or GPU count"));
  row->exponent = (int) e;
  row->agg.n_ok = (int) ok;
  double *values[] = { &row->agg.h2d_gbps, &row->agg.d2h_gbps, &row->agg.e2e_gbps,
                       &row->agg.h2d_min_gbps, &row->agg.d2h_min_gbps };
  for (int k = 0; k < 5; k++)
    if (!parse_gbps (field[4 + k], values[k]))
      return fail (rd, ms_gettext ("malformed GB/s '%s'"), field[4 + k]);
  for (int k = 0; k < f->n_rows; k++)
    if (f->rows[k].mode == row->mode && f->rows[k].exponent == row->exponent)
      return fail (rd, ms_gettext ("a second row for %s at 2^%ld"), field[0], e);
  f->n_rows++;
  return true;
}

static bool
parse_text (Reader *rd, char *text)
{
  bool have_header = false;
  char *next;
  for (char *line = text; line && !rd->failed; line = next) {
    next = strchr (line, '\n');
    if (next)
      *next++ = '\0';
    rd->line++;
    size_t len = strlen (line);
    if (len && line[len - 1] == '\r')
      line[--len] = '\0';
    if (rd->line == 1 && strcmp (line, title) != 0)
      fail (rd, ms_gettext ("not a memsweep multi-GPU file (it starts '%.40s')"), line);
    else if (len == 0)
      continue;
    else if (!have_header && line[0] == '#')
      parse_meta (rd, line);
    else if (!have_header && strcmp (line, header) == 0)
      have_header = true;
    else if (!have_header)
      fail (rd, ms_gettext ("no header row"));
    else
      parse_row (rd, line);
  }
  if (!rd->failed && (!have_header || rd->file->n_devices == 0))
    fail (rd, ms_gettext ("no header row or no devices line"));
  for (int i = 0; !rd->failed && i < rd->file->n_devices; i++)
    if (!rd->file->samples[i][0])
      fail (rd, ms_gettext ("gpu-%d-samples missing"), i);
  return !rd->failed;
}

MsMultiFile *
ms_multi_file_read (const char *path, char *err, size_t errlen)
{
  char *text = ms_small_file_read (path, err, errlen);
  if (!text)
    return NULL;
  MsMultiFile *file = calloc (1, sizeof *file);
  Reader rd = { .file = file, .path = path, .err = err, .errlen = errlen };
  bool ok = file != NULL;
  if (ok) {
    locale_t old = ms_csv_enter_c_locale ();
    ok = parse_text (&rd, text);
    ms_csv_leave_c_locale (old);
  } else {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
  }
  free (text);
  if (!ok) {
    free (file);
    return NULL;
  }
  return file;
}
