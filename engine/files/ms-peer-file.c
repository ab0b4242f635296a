/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-peer-file.c: the peer matrix file (ms-peer-file.h): written into
 * memory, then through an atomic file; read back strictly, every malformed
 * line refused with its number. */
#define _GNU_SOURCE
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-csv-field.h"
#include "ms-csv-private.h"
#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-number.h"
#include "ms-peer-file.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

#define MS_PEER_REFERENCE MS_PEER_METHOD_COUNT

static const char *const method_keys[MS_PEER_METHOD_COUNT + 1] = {
  "copy-access-on", "copy-access-off", "kernel-read", "staged", "reference",
};

static const char *const path_keys[] = {
  "unknown", "same-board", "pcie-switch", "pcie-switches", "host-bridge", "numa-node", "system",
};

const char *
ms_peer_method_key (MsPeerMethod method)
{
  return method <= MS_PEER_REFERENCE ? method_keys[method] : "?";
}

const char *
ms_link_path_key (MsLinkPath path)
{
  return path <= MS_LINK_SYSTEM ? path_keys[path] : "unknown";
}

void
ms_peer_file_init (MsPeerFile *file, const MsPeerResults *results, const MsDeviceInfo *info,
                   int reps)
{
  memset (file, 0, sizeof *file);
  file->peer = *results;
  for (int i = 0; i < results->n_devices && i < MS_MULTI_MAX_DEVICES; i++)
    file->device[i] = info[i];
  file->reps = reps;
  ms_small_file_stamp (file->date, sizeof file->date, file->host, sizeof file->host,
                       file->version, sizeof file->version);
}

double
ms_peer_file_value (const MsPeerResults *r, int method, bool bi, int i, int j)
{
  if (i == j || i < 0 || j < 0 || i >= r->n_devices || j >= r->n_devices)
    return -1;
  if (method == MS_PEER_REFERENCE)
    return !bi && r->reference_gbps[i][j] > 0 ? r->reference_gbps[i][j] : -1;
  if (method < 0 || method > MS_PEER_REFERENCE)
    return -1;
  const MsPeerCell *c = &r->cell[method][i][j];
  double v = bi ? c->bi_gbps : c->uni_gbps;
  return v > 0 ? v : -1; /* one direction may have worked without the other */
}

double
ms_peer_nominal_gbps (const MsPeerResults *r, const MsDeviceInfo *info, int i, int j, char *what,
                      size_t len)
{
  int links = r->topo.nvlinks[i][j];
  if (links > 0) {
    double per_link = info[i].cc_major >= 10 ? 50 : 25;
    snprintf (what, len, ms_gettext ("%d NVLinks x %.0f GB/s"), links, per_link);
    return links * per_link;
  }
  double a = ms_pcie_theoretical_gbps (info[i].pcie_gen, info[i].pcie_width);
  double b = ms_pcie_theoretical_gbps (info[j].pcie_gen, info[j].pcie_width);
  snprintf (what, len, "PCIe (%s)", ms_link_path_name (r->topo.pcie_path[i][j]));
  return a < b ? a : b;
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
  const MsPeerFile *file = data;
  const MsPeerResults *r = &file->peer;
  put_meta (f, "format", "1");
  put_meta (f, "memsweep-version", "%s", file->version);
  put_meta (f, "date", "%s", file->date);
  put_meta (f, "host", "%s", file->host);
  /* Unknown (0) for a plain file read without its sidecar: left out, as
   * the reader takes in a plain file's sidecar, describing the run. */
  if (r->bytes)
    put_meta (f, "bytes", "%llu", (unsigned long long) r->bytes);
  if (file->reps)
    put_meta (f, "reps", "%d", file->reps);
  put_meta (f, "nvml", "%d", r->topo.nvml ? 1 : 0);
  if (r->topo.error[0])
    put_meta (f, "topology-error", "%s", r->topo.error);
  put_meta (f, "devices", "%d", r->n_devices);
  for (int i = 0; i < r->n_devices; i++) {
    const MsDeviceInfo *d = &file->device[i];
    char key[48];
#define GPU_META(what, ...)                                                   \
  snprintf (key, sizeof key, "gpu-%d-%s", i, what);                           \
  put_meta (f, key, __VA_ARGS__)
    GPU_META ("index", "%d", r->devices[i]);
    GPU_META ("name", "%s", d->name);
    GPU_META ("bus-id", "%s", r->topo.bus_id[i][0] ? r->topo.bus_id[i] : d->pci_bus_id);
    GPU_META ("serial", "%s", r->topo.serial[i]);
    GPU_META ("pcie", "gen%d x%d", d->pcie_gen, d->pcie_width);
    GPU_META ("compute-capability", "%d.%d", d->cc_major, d->cc_minor);
#undef GPU_META
  }
  for (int i = 0; i < r->n_devices; i++) {
    for (int j = 0; j < r->n_devices; j++) {
      if (i == j)
        continue;
      char key[48];
      snprintf (key, sizeof key, "link-%d-%d", i, j);
      put_meta (f, key, "nvlinks %d, pcie-path %s, peer-access %d", r->topo.nvlinks[i][j],
                ms_link_path_key (r->topo.pcie_path[i][j]), r->can_access[i][j] ? 1 : 0);
    }
  }
}

static void
write_row (FILE *f, const MsPeerResults *r, int method, bool bi, int i, int j)
{
  double v = ms_peer_file_value (r, method, bi, i, j);
  fprintf (f, "%s,%s,%d,%d,", method_keys[method], bi ? "bi" : "uni", r->devices[i],
           r->devices[j]);
  if (v > 0 && isfinite (v))
    fprintf (f, "%.3f", v);
  fputc (',', f);
  const char *note = method < MS_PEER_REFERENCE && v <= 0 ? r->cell[method][i][j].note : "";
  char clean[sizeof r->cell[0][0][0].note];
  size_t n = 0;
  for (; note[n] && n + 1 < sizeof clean; n++)
    clean[n] = note[n] == '\n' || note[n] == '\r' ? ' ' : note[n];
  clean[n] = '\0';
  if (n)
    ms_csv_field_write (f, clean);
  fputc ('\n', f);
}

static void
write_rows (FILE *f, const void *data)
{
  const MsPeerResults *r = &((const MsPeerFile *) data)->peer;
  for (int m = 0; m <= MS_PEER_REFERENCE; m++)
    for (int bi = 0; bi <= (m < MS_PEER_REFERENCE); bi++)
      for (int i = 0; i < r->n_devices; i++)
        for (int j = 0; j < r->n_devices; j++)
          if (i != j)
            write_row (f, r, m, bi, i, j);
}

static const MsSmallFormat peer_format;

bool
ms_peer_file_write (const MsPeerFile *file, const char *path, char *err, size_t errlen)
{
  const MsPeerResults *r = &file->peer;
  if (r->n_devices < 2 || r->n_devices > MS_MULTI_MAX_DEVICES) {
    snprintf (err, errlen, ms_gettext ("%s: a peer matrix needs 2 to %d devices, not %d"), path,
              MS_MULTI_MAX_DEVICES, r->n_devices);
    return false;
  }
  return ms_small_file_write (path, &peer_format, file, err, errlen);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  MsPeerFile *file;
  bool seen_index[MS_MULTI_MAX_DEVICES];
  bool seen_row[MS_PEER_REFERENCE + 1][2][MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  struct csv_parser parser;
  /* The row being parsed by libcsv. */
  char field[6][256];
  int n_fields;
} PeerReader;

static int
key_index (const char *const *keys, int n, const char *key)
{
  for (int i = 0; i < n; i++)
    if (strcmp (keys[i], key) == 0)
      return i;
  return -1;
}

static bool
parse_link (MsSmallReader *rd, MsPeerResults *r, int i, int j, const char *value)
{
  char path[32];
  int links, access, end = 0;
  if (sscanf (value, "nvlinks %d, pcie-path %31[a-z-], peer-access %d%n", &links, path, &access,
              &end) != 3 ||
      value[end] || links < 0 || links > 64 || (access != 0 && access != 1))
    return ms_small_reader_fail (rd, ms_gettext ("malformed link: '%s'"), value);
  int p = key_index (path_keys, sizeof path_keys / sizeof *path_keys, path);
  if (p < 0)
    return ms_small_reader_fail (rd, ms_gettext ("unknown PCIe path '%s'"), path);
  r->topo.nvlinks[i][j] = links;
  r->topo.pcie_path[i][j] = (MsLinkPath) p;
  r->can_access[i][j] = access == 1;
  return true;
}

/* gpu-N-what and link-I-J: slots below the device count. */
static bool
parse_slot_meta (MsSmallReader *rd, PeerReader *pr, const char *key, const char *value)
{
  MsPeerResults *r = &pr->file->peer;
  int i, j, end = 0;
  if (sscanf (key, "link-%d-%d%n", &i, &j, &end) == 2 && !key[end]) {
    if (i < 0 || j < 0 || i >= r->n_devices || j >= r->n_devices || i == j)
      return ms_small_reader_fail (rd, ms_gettext ("link %d-%d outside the %d devices"), i, j,
                                   r->n_devices);
    return parse_link (rd, r, i, j, value);
  }
  char what[40];
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
    ms_utf8_copy (r->topo.bus_id[i], sizeof r->topo.bus_id[i], value);
  } else if (strcmp (what, "serial") == 0) {
    ms_utf8_copy (r->topo.serial[i], sizeof r->topo.serial[i], value);
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
  PeerReader *pr = data;
  MsPeerFile *f = pr->file;
  long v;
  if (strcmp (key, "format") == 0) {
    if (strcmp (value, "1") != 0)
      return ms_small_reader_fail (rd, ms_gettext ("unknown peer file format '%s'"), value);
  } else if (strcmp (key, "devices") == 0) {
    if (f->peer.n_devices || !ms_parse_long (value, 2, MS_MULTI_MAX_DEVICES, &v))
      return ms_small_reader_fail (rd, ms_gettext ("devices wants one count from 2 to %d, not '%s'"),
                                   MS_MULTI_MAX_DEVICES, value);
    f->peer.n_devices = f->peer.topo.n_devices = (int) v;
  } else if (strcmp (key, "bytes") == 0 || strcmp (key, "reps") == 0) {
    if (!ms_parse_long (value, 1, 1L << 40, &v))
      return ms_small_reader_fail (rd, ms_gettext ("malformed %s '%s'"), key, value);
    if (key[0] == 'b')
      f->peer.bytes = (uint64_t) v;
    else
      f->reps = (int) v;
  } else if (strcmp (key, "nvml") == 0) {
    f->peer.topo.nvml = strcmp (value, "1") == 0;
  } else if (strcmp (key, "topology-error") == 0) {
    ms_utf8_copy (f->peer.topo.error, sizeof f->peer.topo.error, value);
  } else if (strcmp (key, "date") == 0) {
    ms_utf8_copy (f->date, sizeof f->date, value);
  } else if (strcmp (key, "host") == 0) {
    ms_utf8_copy (f->host, sizeof f->host, value);
  } else if (strcmp (key, "memsweep-version") == 0) {
    ms_utf8_copy (f->version, sizeof f->version, value);
  } else if (strncmp (key, "gpu-", 4) == 0 || strncmp (key, "link-", 5) == 0) {
    if (!f->peer.n_devices)
      return ms_small_reader_fail (rd, ms_gettext ("%s before the devices line"), key);
    return parse_slot_meta (rd, pr, key, value);
  }
  return true;
}

/* The slot of a CUDA index; with the metadata unknown, an index not seen
 * yet takes the next slot (the writer's rows come in slot order). */
static int
slot_of (const MsSmallReader *rd, MsPeerResults *r, const char *text)
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
  r->topo.n_devices = r->n_devices + 1;
  return r->n_devices++;
}

static bool
apply_row (MsSmallReader *rd, PeerReader *pr)
{
  MsPeerResults *r = &pr->file->peer;
  char (*fd)[256] = pr->field;
  if (pr->n_fields != 6)
    return ms_small_reader_fail (rd, ms_gettext ("%d fields, want 6"), pr->n_fields);
  int m = key_index (method_keys, MS_PEER_REFERENCE + 1, fd[0]);
  int bi = strcmp (fd[1], "bi") == 0 ? 1 : strcmp (fd[1], "uni") == 0 ? 0 : -1;
  int i = slot_of (rd, r, fd[2]), j = slot_of (rd, r, fd[3]);
  double v;
  if (m < 0)
    return ms_small_reader_fail (rd, ms_gettext ("unknown method '%s'"), fd[0]);
  if (bi < 0 || (bi && m == MS_PEER_REFERENCE))
    return ms_small_reader_fail (rd, ms_gettext ("unknown direction '%s'"), fd[1]);
  if (i < 0 || j < 0 || i == j)
    return ms_small_reader_fail (rd, ms_gettext ("no pair of the devices: %s -> %s"), fd[2],
                                 fd[3]);
  if (!ms_small_parse_gbps (fd[4], &v))
    return ms_small_reader_fail (rd, ms_gettext ("malformed GB/s '%s'"), fd[4]);
  if (pr->seen_row[m][bi][i][j])
    return ms_small_reader_fail (rd, ms_gettext ("a second row for %s %s %s -> %s"), fd[0],
                                 fd[1], fd[2], fd[3]);
  pr->seen_row[m][bi][i][j] = true;
  if (m == MS_PEER_REFERENCE) {
    r->reference_gbps[i][j] = v;
    return true;
  }
  MsPeerCell *c = &r->cell[m][i][j];
  *(bi ? &c->bi_gbps : &c->uni_gbps) = v;
  c->ok = c->uni_gbps > 0 && c->bi_gbps > 0;
  if (fd[5][0])
    snprintf (c->note, sizeof c->note, "%s", ms_csv_field_unguarded (fd[5]));
  return true;
}

static void
on_field (void *data, size_t len, void *user)
{
  PeerReader *pr = user;
  if (pr->n_fields < 6) {
    size_t n = len < sizeof pr->field[0] - 1 ? len : sizeof pr->field[0] - 1;
    memcpy (pr->field[pr->n_fields], data, n);
    pr->field[pr->n_fields][n] = '\0';
  }
  pr->n_fields++;
}

static bool
parse_row (MsSmallReader *rd, char *line, size_t len, void *data)
{
  PeerReader *pr = data;
  pr->n_fields = 0;
  if (csv_parse (&pr->parser, line, len, on_field, NULL, pr) != len ||
      csv_fini (&pr->parser, on_field, NULL, pr) != 0)
    return ms_small_reader_fail (rd, ms_gettext ("malformed CSV: %s"),
                                 csv_strerror (csv_error (&pr->parser)));
  return apply_row (rd, pr);
}

static const MsSmallFormat peer_format = {
  .title = "# memsweep peer matrix",
  .header = MS_PEER_FILE_HEADER,
  .role = "peer",
  .meta = parse_meta,
  .row = parse_row,
  .put_meta = write_metadata,
  .put_rows = write_rows,
};

/* A plain file without its sidecar: the devices are those of the rows,
 * known by their CUDA index only. */
static void
devices_from_rows (PeerReader *pr)
{
  MsPeerFile *file = pr->file;
  for (int i = 0; i < file->peer.n_devices; i++) {
    file->device[i].index = file->peer.devices[i];
    pr->seen_index[i] = true;
  }
}

MsPeerFile *
ms_peer_file_read (const char *path, char *err, size_t errlen)
{
  PeerReader *pr = calloc (1, sizeof *pr);
  MsPeerFile *file = calloc (1, sizeof *file);
  MsSmallReader rd = { .path = path, .err = err, .errlen = errlen };
  bool ok = pr && file && csv_init (&pr->parser, CSV_STRICT) == 0;
  if (ok) {
    pr->file = file;
    rd.why = file->meta_unknown;
    rd.whylen = sizeof file->meta_unknown;
    ok = ms_small_file_load (&rd, &peer_format, pr);
    csv_free (&pr->parser);
    if (ok && rd.meta_unknown)
      devices_from_rows (pr);
    for (int i = 0; ok && i < file->peer.n_devices; i++)
      if (!pr->seen_index[i])
        ok = ms_small_reader_fail (&rd, ms_gettext ("gpu-%d-index missing"), i);
    if (ok && file->peer.n_devices < 2)
      ok = ms_small_reader_fail (&rd, ms_gettext ("no devices line"));
    /* What the older form always held; a plain file read without its
     * sidecar writes back without them. */
    if (ok && !rd.plain && (!file->peer.bytes || !file->reps))
      ok = ms_small_reader_fail (&rd, ms_gettext ("no bytes or reps line"));
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
