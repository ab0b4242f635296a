/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi-file.c: the aggregate file of a sweep on several GPUs at once
 * (ms-multi-file.h): written into memory, then through an atomic file;
 * read back strictly. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ms-csv-pair.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-input.h"
#include "ms-meta.h"
#include "ms-modes.h"
#include "ms-multi-file.h"
#include "ms-number.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

void
ms_multi_file_init (MsMultiFile *file, const MsMultiResults *r, const char *prefix)
{
  memset (file, 0, sizeof *file);
  const MsResults *first = NULL;
  const char *slash = strrchr (prefix, '/');
  file->n_devices = r->n_devices;
  for (int i = 0; i < r->n_devices; i++) {
    file->devices[i] = r->devices[i];
    if (r->per_device[i]) {
      snprintf (file->name[i], sizeof file->name[i], "%s", r->per_device[i]->device.name);
      first = first ? first : r->per_device[i];
    }
    /* Beside this file: prefix's base name ("P-gpu1-samples.csv"). */
    snprintf (file->samples[i], sizeof file->samples[i], "%s-gpu%d-samples.csv",
              slash ? slash + 1 : prefix, r->devices[i]);
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
  ms_small_file_stamp (&file->date, &file->host, &file->version);
}

/* One row of the table as it is read and written. */
typedef struct {
  MsMode mode;
  long exponent, bytes, gpus_ok;
  double h2d, d2h, e2e, h2d_slowest, d2h_slowest;
} MultiRow;

static const MsSmallColumn multi_columns[] = {
  { "mode", MS_SMALL_MODE, offsetof (MultiRow, mode) },
  { "exponent", MS_SMALL_INT, offsetof (MultiRow, exponent), .max = MS_MAX_EXPONENT },
  { "bytes", MS_SMALL_INT, offsetof (MultiRow, bytes), .min = 1, .max = LONG_MAX },
  { "gpus_ok", MS_SMALL_INT, offsetof (MultiRow, gpus_ok), .max = MS_MULTI_MAX_DEVICES },
  { "h2d_sum_gbps", MS_SMALL_RATE, offsetof (MultiRow, h2d) },
  { "d2h_sum_gbps", MS_SMALL_RATE, offsetof (MultiRow, d2h) },
  { "e2e_sum_gbps", MS_SMALL_RATE, offsetof (MultiRow, e2e) },
  { "h2d_slowest_gbps", MS_SMALL_RATE, offsetof (MultiRow, h2d_slowest) },
  { "d2h_slowest_gbps", MS_SMALL_RATE, offsetof (MultiRow, d2h_slowest) },
};

static void
write_metadata (FILE *f, const void *data)
{
  const MsMultiFile *file = data;
  ms_small_put_stamp (f, file->version, file->date, file->host);
  ms_meta_put (f, "devices", "%d", file->n_devices);
  for (int i = 0; i < file->n_devices; i++) {
    char key[48];
    snprintf (key, sizeof key, "gpu-%d-index", i);
    ms_meta_put (f, key, "%d", file->devices[i]);
    snprintf (key, sizeof key, "gpu-%d-name", i);
    ms_meta_put (f, key, "%s", file->name[i]);
    snprintf (key, sizeof key, "gpu-%d-samples", i);
    ms_meta_put (f, key, "%s", file->samples[i]);
  }
}

static void
write_rows (FILE *f, const MsSmallFormat *format, const void *data)
{
  const MsMultiFile *file = data;
  for (int k = 0; k < file->n_rows; k++) {
    const MsMultiFileRow *r = &file->rows[k];
    const MsMultiAggregate *a = &r->agg;
    MultiRow row = { r->mode,       r->exponent,       4l << r->exponent, a->n_ok,
                     a->h2d_gbps,   a->d2h_gbps,       a->e2e_gbps,       a->h2d_min_gbps,
                     a->d2h_min_gbps };
    ms_small_put_row (f, format, &row);
  }
}

/* ---- reading ------------------------------------------------------------ */

static bool
parse_meta (MsSmallReader *rd, const char *key, const char *value, void *data)
{
  MsMultiFile *f = data;
  long v;
  int i, end = 0;
  char what[16];
  if (strcmp (key, "format") == 0 && strcmp (value, "1") != 0)
    return ms_small_reader_fail (rd, ms_gettext ("unknown multi file format '%s'"), value);
  if (strcmp (key, "devices") == 0) {
    if (f->n_devices || !ms_parse_long (value, 1, MS_MULTI_MAX_DEVICES, &v))
      return ms_small_reader_fail (rd, ms_gettext ("devices wants one count from 1 to %d, not '%s'"),
                                   MS_MULTI_MAX_DEVICES, value);
    f->n_devices = (int) v;
  } else if (sscanf (key, "gpu-%d-%15[a-z]%n", &i, what, &end) == 2 && !key[end]) {
    if (i < 0 || i >= f->n_devices)
      return ms_small_reader_fail (rd, ms_gettext ("gpu %d outside the %d devices"), i,
                                   f->n_devices);
    if (strcmp (what, "index") == 0 && !ms_parse_long (value, 0, 1 << 16, &v))
      return ms_small_reader_fail (rd, ms_gettext ("malformed device index '%s'"), value);
    if (strcmp (what, "index") == 0)
      f->devices[i] = (int) v;
    else if (strcmp (what, "name") == 0)
      ms_utf8_copy (f->name[i], sizeof f->name[i], value);
    else if (strcmp (what, "samples") == 0 && (strchr (value, '/') || !*value))
      return ms_small_reader_fail (rd, ms_gettext ("a samples file beside this one, not '%s'"),
                                   value);
    else if (strcmp (what, "samples") == 0)
      ms_utf8_copy (f->samples[i], sizeof f->samples[i], value);
  } else {
    ms_small_take_stamp (key, value, &f->version, &f->date, &f->host);
  }
  return true;
}

static bool
take_row (MsSmallReader *rd, const void *data_row, void *data)
{
  const MultiRow *row = data_row;
  MsMultiFile *f = data;
  if (f->n_rows >= MS_MULTI_FILE_MAX_ROWS)
    return ms_small_reader_fail (rd, ms_gettext ("more rows than modes and sizes"));
  if (row->bytes != (long) (4ull << row->exponent) ||
      (!rd->meta_unknown && row->gpus_ok > f->n_devices))
    return ms_small_reader_fail (rd, ms_gettext ("malformed size or GPU count"));
  for (int k = 0; k < f->n_rows; k++)
    if (f->rows[k].mode == row->mode && f->rows[k].exponent == row->exponent)
      return ms_small_reader_fail (rd, ms_gettext ("a second row for %s at 2^%ld"),
                                   ms_mode_name (row->mode), row->exponent);
  MsMultiAggregate agg = { (int) row->gpus_ok, row->h2d, row->d2h, row->e2e, row->h2d_slowest,
                           row->d2h_slowest };
  f->rows[f->n_rows++] = (MsMultiFileRow) { row->mode, (int) row->exponent, agg };
  return true;
}

/* A plain file without its sidecar: the GPUs are those whose samples files
 * lie beside it (PREFIX-gpuN-samples.csv for PREFIX-multi.csv), by index;
 * either may be gzipped, as the shipped runs are (a plain samples file
 * before its .gz). */
static void
devices_beside (MsMultiFile *f, const char *path)
{
  const char *slash = strrchr (path, '/');
  const char *base = slash ? slash + 1 : path;
  size_t stem = ms_csv_name_stem (base, "-multi.csv");
  char dir[4096];
  snprintf (dir, sizeof dir, "%.*s", slash ? (int) (slash - path) : 1, slash ? path : ".");
  DIR *d = stem ? opendir (dir) : NULL;
  for (struct dirent *e; d && (e = readdir (d));) {
    /* N of a name "BASE-gpuN-samples.csv[.gz]"; any other name is passed over. */
    size_t len = ms_csv_name_stem (e->d_name, "-samples.csv");
    char digits[8] = "";
    long device;
    int at = f->n_devices;
    if (len > stem + 4 && len - stem - 4 < sizeof digits && strncmp (e->d_name, base, stem) == 0
        && strncmp (e->d_name + stem, "-gpu", 4) == 0)
      memcpy (digits, e->d_name + stem + 4, len - stem - 4);
    if (!ms_parse_long (digits, 0, 1 << 16, &device) || f->n_devices >= MS_MULTI_MAX_DEVICES)
      continue;
    int same = -1;
    for (int k = 0; k < f->n_devices; k++)
      same = f->devices[k] == device ? k : same;
    if (same >= 0) {
      /* Both forms beside it: the plain one. */
      if (!ms_gzip_is_name (e->d_name))
        snprintf (f->samples[same], sizeof f->samples[same], "%s", e->d_name);
      continue;
    }
    while (at > 0 && f->devices[at - 1] > device) {
      f->devices[at] = f->devices[at - 1];
      memcpy (f->samples[at], f->samples[at - 1], sizeof f->samples[at]);
      at--;
    }
    f->devices[at] = device;
    snprintf (f->samples[at], sizeof f->samples[at], "%s", e->d_name);
    f->n_devices++;
  }
  if (d)
    closedir (d);
}

/* A GPU's samples file named name, beside path, compressed where only its .gz is there: the
 * shipped reference runs are gzipped, their names written before (the app could not open the
 * 4 × H200 run). Looked at as the one reader looks (ms_input_look). */
static void
samples_beside (const char *path, char *name, size_t len)
{
  const char *slash = strrchr (path, '/');
  int dir = slash ? (int) (slash - path + 1) : 0;
  char full[4096];
  struct stat st;
  size_t room = sizeof full - sizeof MS_GZIP_SUFFIX;
  if (snprintf (full, room, "%.*s%s", dir, path, name) >= (int) room
      || strlen (name) + sizeof MS_GZIP_SUFFIX > len)
    return;
  if (ms_input_look (full, &st))
    return;
  strcat (full, MS_GZIP_SUFFIX);
  if (ms_input_look (full, &st) && S_ISREG (st.st_mode))
    strcat (name, MS_GZIP_SUFFIX);
}

static bool
check_read (MsSmallReader *rd, void *data)
{
  MsMultiFile *file = data;
  if (rd->meta_unknown)
    devices_beside (file, rd->path);
  if (rd->meta_unknown && file->n_devices == 0)
    return ms_small_reader_fail (rd, ms_gettext ("no GPU's samples file beside it, and %s"),
                                 file->meta_unknown);
  if (file->n_devices == 0)
    return ms_small_reader_fail (rd, ms_gettext ("no devices line"));
  for (int k = 0; rd->meta_unknown && k < file->n_rows; k++)
    if (file->rows[k].agg.n_ok > file->n_devices)
      return ms_small_reader_fail (
        rd, ms_gettext ("%d GPUs in a row, %d samples files beside it"), file->rows[k].agg.n_ok,
        file->n_devices);
  for (int i = 0; i < file->n_devices; i++)
    if (!file->samples[i][0])
      return ms_small_reader_fail (rd, ms_gettext ("gpu-%d-samples missing"), i);
  for (int i = 0; i < file->n_devices; i++)
    samples_beside (rd->path, file->samples[i], sizeof file->samples[i]);
  return true;
}

const MsSmallFormat ms_multi_file_format = {
  .title = "# memsweep multi-GPU sweep",
  .role = "multi",
  MS_SMALL_TABLE (multi_columns, MultiRow),
  .meta = parse_meta,
  .take = take_row,
  .put_meta = write_metadata,
  .put_rows = write_rows,
  MS_SMALL_FILE_STRUCT (MsMultiFile),
  .finish = check_read,
};
