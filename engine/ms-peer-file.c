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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-csv-private.h"
#include "ms-i18n.h"
#include "ms-peer-file.h"

#define MS_PEER_FILE_MAX_BYTES (4 << 20) /* 16 GPUs need some 60 KB */
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
  time_t now = time (NULL);
  struct tm tm;
  gmtime_r (&now, &tm);
  strftime (file->date, sizeof file->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (gethostname (file->host, sizeof file->host) != 0)
    file->host[0] = '\0';
  file->host[sizeof file->host - 1] = '\0';
  snprintf (file->version, sizeof file->version, "%s", MS_VERSION);
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
write_metadata (FILE *f, const MsPeerFile *file)
{
  const MsPeerResults *r = &file->peer;
  fputs ("# memsweep peer matrix\n", f);
  put_meta (f, "format", "1");
  put_meta (f, "memsweep-version", "%s", file->version);
  put_meta (f, "date", "%s", file->date);
  put_meta (f, "host", "%s", file->host);
  put_meta (f, "bytes", "%llu", (unsigned long long) r->bytes);
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
    csv_fwrite (f, clean, n);
  fputc ('\n', f);
}

static void
write_rows (FILE *f, const MsPeerResults *r)
{
  fputs ("method,direction,src,dst,gbps,note\n", f);
  for (int m = 0; m <= MS_PEER_REFERENCE; m++)
    for (int bi = 0; bi <= (m < MS_PEER_REFERENCE); bi++)
      for (int i = 0; i < r->n_devices; i++)
        for (int j = 0; j < r->n_devices; j++)
          if (i != j)
            write_row (f, r, m, bi, i, j);
}

bool
ms_peer_file_write (const MsPeerFile *file, const char *path, char *err, size_t errlen)
{
  const MsPeerResults *r = &file->peer;
  if (r->n_devices < 2 || r->n_devices > MS_MULTI_MAX_DEVICES) {
    snprintf (err, errlen, ms_gettext ("%s: a peer matrix needs 2 to %d devices, not %d"), path,
              MS_MULTI_MAX_DEVICES, r->n_devices);
    return false;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  if (!f) {
    snprintf (err, errlen, "%s: %s", path, strerror (errno));
    return false;
  }
  locale_t old = ms_csv_enter_c_locale ();
  write_metadata (f, file);
  write_rows (f, r);
  ms_csv_leave_c_locale (old);
  bool ok = !ferror (f);
  if (fclose (f) != 0 || !ok) {
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
  MsPeerFile *file;
  const char *path;
  int line;
  char *err;
  size_t errlen;
  bool failed;
  bool seen_index[MS_MULTI_MAX_DEVICES];
  bool seen_row[MS_PEER_REFERENCE + 1][2][MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  /* The row being parsed by libcsv. */
  char field[6][256];
  int n_fields;
} PeerReader;

static bool
fail (PeerReader *rd, const char *fmt, ...)
{
  if (rd->failed)
    return false;
  char why[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  snprintf (rd->err, rd->errlen, "%s:%d: %s", rd->path, rd->line, why);
  rd->failed = true;
  return false;
}

static bool
parse_long (const char *s, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol (s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

static int
key_index (const char *const *keys, int n, const char *key)
{
  for (int i = 0; i < n; i++)
    if (strcmp (keys[i], key) == 0)
      return i;
  return -1;
}

static bool
parse_link (PeerReader *rd, int i, int j, const char *value)
{
  MsPeerResults *r = &rd->file->peer;
  char path[32];
  int links, access, end = 0;
  if (sscanf (value, "nvlinks %d, pcie-path %31[a-z-], peer-access %d%n", &links, path, &access,
              &end) != 3 ||
      value[end] || links < 0 || links > 64 || (access != 0 && access != 1))
    return fail (rd, ms_gettext ("malformed link: '%s'"), value);
  int p = key_index (path_keys, sizeof path_keys / sizeof *path_keys, path);
  if (p < 0)
    return fail (rd, ms_gettext ("unknown PCIe path '%s'"), path);
  r->topo.nvlinks[i][j] = links;
  r->topo.pcie_path[i][j] = (MsLinkPath) p;
  r->can_access[i][j] = access == 1;
  return true;
}

/* gpu-N-what and link-I-J: slots below the device count. */
static bool
parse_slot_meta (PeerReader *rd, const char *key, const char *value)
{
  MsPeerResults *r = &rd->file->peer;
  int i, j, end = 0;
  if (sscanf (key, "link-%d-%d%n", &i, &j, &end) == 2 && !key[end]) {
    if (i < 0 || j < 0 || i >= r->n_devices || j >= r->n_devices || i == j)
      return fail (rd, ms_gettext ("link %d-%d outside the %d devices"), i, j, r->n_devices);
    return parse_link (rd, i, j, value);
  }
  char what[40];
  if (sscanf (key, "gpu-%d-%39s", &i, what) != 2)
    return true; /* unknown metadata describes, it does not drive */
  if (i < 0 || i >= r->n_devices)
    return fail (rd, ms_gettext ("gpu %d outside the %d devices"), i, r->n_devices);
  MsDeviceInfo *d = &rd->file->device[i];
  long v;
  if (strcmp (what, "index") == 0) {
    if (!parse_long (value, 0, 1 << 16, &v))
      return fail (rd, ms_gettext ("malformed device index '%s'"), value);
    r->devices[i] = d->index = (int) v;
    rd->seen_index[i] = true;
  } else if (strcmp (what, "name") == 0) {
    snprintf (d->name, sizeof d->name, "%s", value);
  } else if (strcmp (what, "bus-id") == 0) {
    snprintf (d->pci_bus_id, sizeof d->pci_bus_id, "%s", value);
    snprintf (r->topo.bus_id[i], sizeof r->topo.bus_id[i], "%s", value);
  } else if (strcmp (what, "serial") == 0) {
    snprintf (r->topo.serial[i], sizeof r->topo.serial[i], "%s", value);
  } else if (strcmp (what, "pcie") == 0) {
    if (sscanf (value, "gen%d x%d%n", &d->pcie_gen, &d->pcie_width, &end) != 2 || value[end])
      return fail (rd, ms_gettext ("malformed PCIe link '%s'"), value);
  } else if (strcmp (what, "compute-capability") == 0) {
    if (sscanf (value, "%d.%d%n", &d->cc_major, &d->cc_minor, &end) != 2 || value[end])
      return fail (rd, ms_gettext ("malformed compute capability '%s'"), value);
  }
  return true;
}

static bool
parse_meta (PeerReader *rd, char *line)
{
  MsPeerFile *f = rd->file;
  char *key = line + 1, *value;
  while (*key == ' ')
    key++;
  if (!(value = strstr (key, ": ")))
    return true; /* the title line */
  *value = '\0';
  value += 2;
  long v;
  if (strcmp (key, "format") == 0) {
    if (strcmp (value, "1") != 0)
      return fail (rd, ms_gettext ("unknown peer file format '%s'"), value);
  } else if (strcmp (key, "devices") == 0) {
    if (f->peer.n_devices || !parse_long (value, 2, MS_MULTI_MAX_DEVICES, &v))
      return fail (rd, ms_gettext ("devices wants one count from 2 to %d, not '%s'"),
                   MS_MULTI_MAX_DEVICES, value);
    f->peer.n_devices = f->peer.topo.n_devices = (int) v;
  } else if (strcmp (key, "bytes") == 0 || strcmp (key, "reps") == 0) {
    if (!parse_long (value, 1, 1L << 40, &v))
      return fail (rd, ms_gettext ("malformed %s '%s'"), key, value);
    if (key[0] == 'b')
      f->peer.bytes = (uint64_t) v;
    else
      f->reps = (int) v;
  } else if (strcmp (key, "nvml") == 0) {
    f->peer.topo.nvml = strcmp (value, "1") == 0;
  } else if (strcmp (key, "topology-error") == 0) {
    snprintf (f->peer.topo.error, sizeof f->peer.topo.error, "%s", value);
  } else if (strcmp (key, "date") == 0) {
    snprintf (f->date, sizeof f->date, "%s", value);
  } else if (strcmp (key, "host") == 0) {
    snprintf (f->host, sizeof f->host, "%s", value);
  } else if (strcmp (key, "memsweep-version") == 0) {
    snprintf (f->version, sizeof f->version, "%s", value);
  } else if (strncmp (key, "gpu-", 4) == 0 || strncmp (key, "link-", 5) == 0) {
    if (!f->peer.n_devices)
      return fail (rd, ms_gettext ("%s before the devices line"), key);
    return parse_slot_meta (rd, key, value);
  }
  return true;
}

static int
slot_of (const MsPeerResults *r, const char *text)
{
  long v;
  if (!parse_long (text, 0, 1 << 16, &v))
    return -1;
  for (int i = 0; i < r->n_devices; i++)
    if (r->devices[i] == v)
      return i;
  return -1;
}

static bool
parse_gbps (const char *text, double *out)
{
  if (!*text) {
    *out = 0;
    return true;
  }
  char *end;
  errno = 0;
  double v = strtod (text, &end);
  *out = v;
  return !*end && !errno && isfinite (v) && v > 0;
}

static bool
apply_row (PeerReader *rd)
{
  MsPeerResults *r = &rd->file->peer;
  char (*fd)[256] = rd->field;
  if (rd->n_fields != 6)
    return fail (rd, ms_gettext ("%d fields, want 6"), rd->n_fields);
  int m = key_index (method_keys, MS_PEER_REFERENCE + 1, fd[0]);
  int bi = strcmp (fd[1], "bi") == 0 ? 1 : strcmp (fd[1], "uni") == 0 ? 0 : -1;
  int i = slot_of (r, fd[2]), j = slot_of (r, fd[3]);
  double v;
  if (m < 0)
    return fail (rd, ms_gettext ("unknown method '%s'"), fd[0]);
  if (bi < 0 || (bi && m == MS_PEER_REFERENCE))
    return fail (rd, ms_gettext ("unknown direction '%s'"), fd[1]);
  if (i < 0 || j < 0 || i == j)
    return fail (rd, ms_gettext ("no pair of the devices: %s -> %s"), fd[2], fd[3]);
  if (!parse_gbps (fd[4], &v))
    return fail (rd, ms_gettext ("malformed GB/s '%s'"), fd[4]);
  if (rd->seen_row[m][bi][i][j])
    return fail (rd, ms_gettext ("a second row for %s %s %s -> %s"), fd[0], fd[1], fd[2], fd[3]);
  rd->seen_row[m][bi][i][j] = true;
  if (m == MS_PEER_REFERENCE) {
    r->reference_gbps[i][j] = v;
    return true;
  }
  MsPeerCell *c = &r->cell[m][i][j];
  *(bi ? &c->bi_gbps : &c->uni_gbps) = v;
  c->ok = c->uni_gbps > 0 && c->bi_gbps > 0;
  if (fd[5][0])
    snprintf (c->note, sizeof c->note, "%s", fd[5]);
  return true;
}

static void
on_field (void *data, size_t len, void *user)
{
  PeerReader *rd = user;
  if (rd->n_fields < 6) {
    size_t n = len < sizeof rd->field[0] - 1 ? len : sizeof rd->field[0] - 1;
    memcpy (rd->field[rd->n_fields], data, n);
    rd->field[rd->n_fields][n] = '\0';
  }
  rd->n_fields++;
}

static bool
parse_row (PeerReader *rd, struct csv_parser *parser, const char *line, size_t len)
{
  rd->n_fields = 0;
  if (csv_parse (parser, line, len, on_field, NULL, rd) != len ||
      csv_fini (parser, on_field, NULL, rd) != 0)
    return fail (rd, ms_gettext ("malformed CSV: %s"), csv_strerror (csv_error (parser)));
  return apply_row (rd);
}

/* The lines: metadata, the header, the rows. */
static bool
parse_text (PeerReader *rd, char *text)
{
  struct csv_parser parser;
  if (csv_init (&parser, CSV_STRICT) != 0)
    return fail (rd, "%s", strerror (ENOMEM));
  bool header = false;
  char *save = NULL;
  rd->line = 0;
  for (char *line = text; line && !rd->failed; line = save) {
    save = strchr (line, '\n');
    if (save)
      *save++ = '\0';
    rd->line++;
    size_t len = strlen (line);
    if (len && line[len - 1] == '\r')
      line[--len] = '\0';
    if (rd->line == 1 && strcmp (line, "# memsweep peer matrix") != 0)
      fail (rd, ms_gettext ("not a memsweep peer file (it starts '%.40s')"), line);
    else if (len == 0)
      continue;
    else if (line[0] == '#' && !header)
      parse_meta (rd, line);
    else if (!header && strcmp (line, "method,direction,src,dst,gbps,note") == 0)
      header = true;
    else if (!header)
      fail (rd, ms_gettext ("not a memsweep peer file (no header row)"));
    else
      parse_row (rd, &parser, line, len);
  }
  csv_free (&parser);
  if (!rd->failed && !header)
    fail (rd, ms_gettext ("not a memsweep peer file (no header row)"));
  return !rd->failed;
}

char *
ms_small_file_read (const char *path, char *err, size_t errlen)
{
  FILE *f = fopen (path, "rb");
  struct stat st;
  if (!f || fstat (fileno (f), &st) != 0 || !S_ISREG (st.st_mode) ||
      st.st_size > MS_PEER_FILE_MAX_BYTES) {
    snprintf (err, errlen, "%s: %s", path,
              !f ? strerror (errno)
                 : !S_ISREG (st.st_mode) ? ms_gettext ("not a regular file")
                                         : ms_gettext ("too large for a memsweep result file"));
    if (f)
      fclose (f);
    return NULL;
  }
  char *text = malloc ((size_t) st.st_size + 1);
  size_t n = text ? fread (text, 1, (size_t) st.st_size, f) : 0;
  bool bad = !text || ferror (f) || memchr (text, '\0', n);
  fclose (f);
  if (bad) {
    snprintf (err, errlen, "%s: %s", path,
              text ? ms_gettext ("read error or binary data") : strerror (ENOMEM));
    free (text);
    return NULL;
  }
  text[n] = '\0';
  return text;
}

MsPeerFile *
ms_peer_file_read (const char *path, char *err, size_t errlen)
{
  char *text = ms_small_file_read (path, err, errlen);
  if (!text)
    return NULL;
  PeerReader *rd = calloc (1, sizeof *rd);
  MsPeerFile *file = calloc (1, sizeof *file);
  bool ok = rd && file;
  if (ok) {
    *rd = (PeerReader) { .file = file, .path = path, .err = err, .errlen = errlen };
    locale_t old = ms_csv_enter_c_locale ();
    ok = parse_text (rd, text);
    ms_csv_leave_c_locale (old);
    for (int i = 0; ok && i < file->peer.n_devices; i++)
      if (!rd->seen_index[i])
        ok = fail (rd, ms_gettext ("gpu-%d-index missing"), i);
    if (ok && file->peer.n_devices < 2)
      ok = fail (rd, ms_gettext ("no devices line"));
  } else {
    snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
  }
  free (rd);
  free (text);
  if (!ok) {
    free (file);
    return NULL;
  }
  return file;
}
