/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-portable-file.c: the portable pinned memory file
 * (ms-portable-file.h): written into memory, then through an atomic file
 * with its sidecar (ms-small-file.h, as the peer matrix); read back
 * strictly, every malformed line refused with its number. */
#define _GNU_SOURCE
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-csv-field.h"
#include "ms-i18n.h"
#include "ms-number.h"
#include "ms-portable-file.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

enum { N_FIELDS = 6 };

static const char *const case_keys[MS_PORTABLE_COUNT] = { "per-gpu", "portable", "foreign" };

const char *
ms_portable_case_key (MsPortableCase c)
{
  return c < MS_PORTABLE_COUNT ? case_keys[c] : "?";
}

void
ms_portable_file_init (MsPortableFile *file, const MsPortableResults *results,
                       const MsDeviceInfo *info, int reps)
{
  memset (file, 0, sizeof *file);
  file->portable = *results;
  for (int i = 0; i < results->n_devices && i < MS_MULTI_MAX_DEVICES; i++)
    file->device[i] = info[i];
  file->reps = reps;
  ms_small_file_stamp (file->date, sizeof file->date, file->host, sizeof file->host,
                       file->version, sizeof file->version);
}

void
ms_portable_file_gpu_name (const MsPortableFile *file, int i, char *out, size_t len)
{
  const char *name = i >= 0 && i < MS_MULTI_MAX_DEVICES ? file->device[i].name : "";
  if (strncmp (name, "NVIDIA ", 7) == 0)
    name += 7;
  if (name[0])
    snprintf (out, len, "%s", name);
  else
    snprintf (out, len, ms_gettext ("GPU %d"), i >= 0 && i < MS_MULTI_MAX_DEVICES
                                                   ? file->portable.devices[i] : i);
}

/* ---- writing ------------------------------------------------------------ */

/* One metadata line; the value kept on one line whatever a name holds. */
static void
put_meta (FILE *f, const char *key, const char *fmt, ...)
{
  char value[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (value, sizeof value, fmt, ap);
  va_end (ap);
  for (char *p = value; *p; p++)
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  fprintf (f, "# %s: %s\n", key, value);
}

static void
write_metadata (FILE *f, const void *data)
{
  const MsPortableFile *file = data;
  const MsPortableResults *r = &file->portable;
  put_meta (f, "format", "1");
  put_meta (f, "memsweep-version", "%s", file->version);
  put_meta (f, "date", "%s", file->date);
  put_meta (f, "host", "%s", file->host);
  /* Unknown (0) for a file read without its sidecar: left out. */
  if (r->bytes)
    put_meta (f, "bytes", "%llu", (unsigned long long) r->bytes);
  if (file->reps)
    put_meta (f, "reps", "%d", file->reps);
  put_meta (f, "devices", "%d", r->n_devices);
  for (int i = 0; i < r->n_devices; i++) {
    const MsDeviceInfo *d = &file->device[i];
    char key[48];
#define GPU_META(what, ...)                                                   \
  snprintf (key, sizeof key, "gpu-%d-%s", i, what);                           \
  put_meta (f, key, __VA_ARGS__)
    GPU_META ("index", "%d", r->devices[i]);
    GPU_META ("name", "%s", d->name);
    GPU_META ("bus-id", "%s", d->pci_bus_id);
    GPU_META ("pcie", "gen%d x%d", d->pcie_gen, d->pcie_width);
    GPU_META ("compute-capability", "%d.%d", d->cc_major, d->cc_minor);
#undef GPU_META
  }
}

static void
put_gbps (FILE *f, bool ok, double v)
{
  if (ok && v > 0 && isfinite (v))
    fprintf (f, "%.3f", v);
  fputc (',', f);
}

static void
write_rows (FILE *f, const void *data)
{
  const MsPortableResults *r = &((const MsPortableFile *) data)->portable;
  for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
    for (int i = 0; i < r->n_devices; i++) {
      const MsPortableCell *c = &r->cell[k][i];
      fprintf (f, "%s,%d,", case_keys[k], r->devices[i]);
      put_gbps (f, c->ok, c->h2d_gbps);
      put_gbps (f, c->ok, c->d2h_gbps);
      fprintf (f, "%d,", c->pinned_path ? 1 : 0);
      char clean[sizeof c->note];
      size_t n = 0;
      for (; c->note[n] && n + 1 < sizeof clean; n++)
        clean[n] = c->note[n] == '\n' || c->note[n] == '\r' ? ' ' : c->note[n];
      clean[n] = '\0';
      if (n)
        ms_csv_field_write (f, clean);
      fputc ('\n', f);
    }
  }
}

static const MsSmallFormat portable_format;

bool
ms_portable_file_write (const MsPortableFile *file, const char *path, char *err, size_t errlen)
{
  const MsPortableResults *r = &file->portable;
  if (r->n_devices < 1 || r->n_devices > MS_MULTI_MAX_DEVICES) {
    snprintf (err, errlen, ms_gettext ("%s: a portable run needs 1 to %d devices, not %d"), path,
              MS_MULTI_MAX_DEVICES, r->n_devices);
    return false;
  }
  return ms_small_file_write (path, &portable_format, file, err, errlen);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  MsPortableFile *file;
  bool seen_index[MS_MULTI_MAX_DEVICES];
  bool seen_row[MS_PORTABLE_COUNT][MS_MULTI_MAX_DEVICES];
  struct csv_parser parser;
  /* The row being parsed by libcsv. */
  char field[N_FIELDS][256];
  int n_fields;
} PortableReader;

/* gpu-N-what: slots below the device count. */
static bool
parse_gpu_meta (MsSmallReader *rd, PortableReader *pr, const char *key, const char *value)
{
  MsPortableResults *r = &pr->file->portable;
  char what[40];
  int i, end = 0;
  if (sscanf (key, "gpu-%d-%39s", &i, what) != 2)
    return true; /* unknown metadata describes, it does not drive */
  if (i < 0 || i >= r->n_devices)
    return ms_small_reader_fail (rd, ms_gettext ("gpu %d outside the %d devices"), i,
                                 r->n_devices);
  MsDeviceInfo *d = &pr->file->device[i];
  long v;
  if (strcmp (what, "index") == 0) {
    if (!ms_parse_long (value, 0, 1 << 16, &v))
      return ms_small_reader_fail (rd, ms_gettext ("malformed device index '%s'"), value);
    r->devices[i] = d->index = (int) v;
    pr->seen_index[i] = true;
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

static bool
parse_meta (MsSmallReader *rd, const char *key, const char *value, void *data)
{
  PortableReader *pr = data;
  MsPortableFile *f = pr->file;
  long v;
  if (strcmp (key, "format") == 0) {
    if (strcmp (value, "1") != 0)
      return ms_small_reader_fail (rd, ms_gettext ("unknown portable file format '%s'"), value);
  } else if (strcmp (key, "devices") == 0) {
    if (f->portable.n_devices || !ms_parse_long (value, 1, MS_MULTI_MAX_DEVICES, &v))
      return ms_small_reader_fail (rd, ms_gettext ("devices wants one count from 1 to %d, not '%s'"),
                                   MS_MULTI_MAX_DEVICES, value);
    f->portable.n_devices = (int) v;
  } else if (strcmp (key, "bytes") == 0 || strcmp (key, "reps") == 0) {
    if (!ms_parse_long (value, 1, 1L << 40, &v))
      return ms_small_reader_fail (rd, ms_gettext ("malformed %s '%s'"), key, value);
    if (key[0] == 'b')
      f->portable.bytes = (uint64_t) v;
    else
      f->reps = (int) v;
  } else if (strcmp (key, "date") == 0) {
    ms_utf8_copy (f->date, sizeof f->date, value);
  } else if (strcmp (key, "host") == 0) {
    ms_utf8_copy (f->host, sizeof f->host, value);
  } else if (strcmp (key, "memsweep-version") == 0) {
    ms_utf8_copy (f->version, sizeof f->version, value);
  } else if (strncmp (key, "gpu-", 4) == 0) {
    if (!f->portable.n_devices)
      return ms_small_reader_fail (rd, ms_gettext ("%s before the devices line"), key);
    return parse_gpu_meta (rd, pr, key, value);
  }
  return true;
}

/* The slot of a CUDA index; with the metadata unknown, an index not seen
 * yet takes the next slot (the writer's rows come in slot order). */
static int
slot_of (const MsSmallReader *rd, MsPortableResults *r, const char *text)
{
  long v;
  if (!ms_parse_long (text, 0, 1 << 16, &v))
    return -1;
  for (int i = 0; i < r->n_devices; i++)
    if (r->devices[i] == v)
      return i;
  if (!rd->meta_unknown || r->n_devices >= MS_MULTI_MAX_DEVICES)
    return -1;
  r->devices[r->n_devices] = (int) v;
  return r->n_devices++;
}

static int
case_of (const char *key)
{
  for (int k = 0; k < MS_PORTABLE_COUNT; k++)
    if (strcmp (case_keys[k], key) == 0)
      return k;
  return -1;
}

static bool
apply_row (MsSmallReader *rd, PortableReader *pr)
{
  MsPortableResults *r = &pr->file->portable;
  char (*fd)[256] = pr->field;
  if (pr->n_fields != N_FIELDS)
    return ms_small_reader_fail (rd, ms_gettext ("%d fields, want %d"), pr->n_fields, N_FIELDS);
  int k = case_of (fd[0]);
  if (k < 0)
    return ms_small_reader_fail (rd, ms_gettext ("unknown buffer '%s'"), fd[0]);
  int i = slot_of (rd, r, fd[1]);
  if (i < 0)
    return ms_small_reader_fail (rd, ms_gettext ("no GPU %s among the devices"), fd[1]);
  double h2d, d2h;
  if (!ms_small_parse_gbps (fd[2], &h2d) || !ms_small_parse_gbps (fd[3], &d2h))
    return ms_small_reader_fail (rd, ms_gettext ("malformed GB/s '%s' or '%s'"), fd[2], fd[3]);
  if ((h2d > 0) != (d2h > 0))
    return ms_small_reader_fail (rd, ms_gettext ("one rate without the other"));
  if (strcmp (fd[4], "0") != 0 && strcmp (fd[4], "1") != 0)
    return ms_small_reader_fail (rd, ms_gettext ("pinned wants 0 or 1, not '%s'"), fd[4]);
  if (pr->seen_row[k][i])
    return ms_small_reader_fail (rd, ms_gettext ("a second row for %s on GPU %s"), fd[0], fd[1]);
  pr->seen_row[k][i] = true;
  MsPortableCell *c = &r->cell[k][i];
  c->ok = h2d > 0;
  c->h2d_gbps = h2d;
  c->d2h_gbps = d2h;
  c->pinned_path = fd[4][0] == '1';
  snprintf (c->note, sizeof c->note, "%s", ms_csv_field_unguarded (fd[5]));
  return true;
}

static void
on_field (void *data, size_t len, void *user)
{
  PortableReader *pr = user;
  if (pr->n_fields < N_FIELDS) {
    size_t n = len < sizeof pr->field[0] - 1 ? len : sizeof pr->field[0] - 1;
    memcpy (pr->field[pr->n_fields], data, n);
    pr->field[pr->n_fields][n] = '\0';
  }
  pr->n_fields++;
}

static bool
parse_row (MsSmallReader *rd, char *line, size_t len, void *data)
{
  PortableReader *pr = data;
  pr->n_fields = 0;
  if (csv_parse (&pr->parser, line, len, on_field, NULL, pr) != len ||
      csv_fini (&pr->parser, on_field, NULL, pr) != 0)
    return ms_small_reader_fail (rd, ms_gettext ("malformed CSV: %s"),
                                 csv_strerror (csv_error (&pr->parser)));
  return apply_row (rd, pr);
}

static const MsSmallFormat portable_format = {
  .title = "# memsweep portable pinned memory",
  .header = MS_PORTABLE_FILE_HEADER,
  .role = "portable",
  .meta = parse_meta,
  .row = parse_row,
  .put_meta = write_metadata,
  .put_rows = write_rows,
};

/* What a whole file holds, checked once it is read; false with rd's
 * message. */
static bool
check_read (MsSmallReader *rd, PortableReader *pr)
{
  MsPortableFile *file = pr->file;
  MsPortableResults *r = &file->portable;
  if (rd->meta_unknown)
    for (int i = 0; i < r->n_devices; i++) {
      file->device[i].index = r->devices[i];
      pr->seen_index[i] = true;
    }
  for (int i = 0; i < r->n_devices; i++)
    if (!pr->seen_index[i])
      return ms_small_reader_fail (rd, ms_gettext ("gpu-%d-index missing"), i);
  if (r->n_devices < 1)
    return ms_small_reader_fail (rd, ms_gettext ("no devices line"));
  if (!rd->meta_unknown && (!r->bytes || !file->reps))
    return ms_small_reader_fail (rd, ms_gettext ("no bytes or reps line"));
  /* Every buffer on every GPU, so that no bar is missing unsaid. */
  for (int k = 0; k < MS_PORTABLE_COUNT; k++)
    for (int i = 0; i < r->n_devices; i++)
      if (!pr->seen_row[k][i])
        return ms_small_reader_fail (rd, ms_gettext ("no row for %s on GPU %d"), case_keys[k],
                                     r->devices[i]);
  return true;
}

MsPortableFile *
ms_portable_file_read (const char *path, char *err, size_t errlen)
{
  PortableReader *pr = calloc (1, sizeof *pr);
  MsPortableFile *file = calloc (1, sizeof *file);
  MsSmallReader rd = { .path = path, .err = err, .errlen = errlen };
  bool ok = pr && file && csv_init (&pr->parser, CSV_STRICT) == 0;
  if (ok) {
    pr->file = file;
    rd.why = file->meta_unknown;
    rd.whylen = sizeof file->meta_unknown;
    ok = ms_small_file_load (&rd, &portable_format, pr);
    csv_free (&pr->parser);
    ok = ok && check_read (&rd, pr);
  } else {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
  }
  free (pr);
  if (!ok) {
    free (file);
    return NULL;
  }
  return file;
}
