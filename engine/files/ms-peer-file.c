/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-peer-file.c: the peer matrix file (ms-peer-file.h): written into
 * memory, then through an atomic file; read back strictly, every malformed
 * line refused with its number. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-meta.h"
#include "ms-modes.h"
#include "ms-peer-file.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

#define MS_PEER_REFERENCE MS_PEER_METHOD_COUNT

static const char *const method_keys[MS_PEER_METHOD_COUNT + 2] = {
  "copy-access-on", "copy-access-off", "kernel-read", "staged", "reference", NULL,
};

/* Stable names in the file for PCIe paths (not translated). */
static const char *const path_keys[] = {
  "unknown",     "same-board", "pcie-switch", "pcie-switches",
  "host-bridge", "numa-node",  "system",      NULL,
};

/* The run of file, as the small files keep it: two devices at least. */
static MsSmallRun
peer_run (void *data)
{
  MsPeerFile *file = data;
  return (MsSmallRun) { 2, &file->peer.n_devices, file->peer.devices, file->device,
                        &file->peer.bytes, &file->reps, &file->version, &file->date, &file->host };
}

void
ms_peer_file_init (MsPeerFile *file, const MsPeerResults *results, const MsDeviceInfo *info,
                   int reps)
{
  memset (file, 0, sizeof *file);
  file->peer = *results;
  ms_small_run_fill (&ms_peer_file_format, file, info, reps);
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

/* ---- the table ---------------------------------------------------------- */

static const char *const direction_keys[] = { "uni", "bi", NULL };

/* One row of the table: a method, direction and ordered pair. */
typedef struct {
  int method, bi;
  long src, dst; /* CUDA indices */
  double gbps;
  char note[sizeof ((MsPeerCell *) 0)->note];
} PeerRow;

static const MsSmallColumn peer_columns[] = {
  { "method", MS_SMALL_KEY, offsetof (PeerRow, method), .keys = method_keys },
  { "direction", MS_SMALL_KEY, offsetof (PeerRow, bi), .keys = direction_keys },
  { "src", MS_SMALL_INT, offsetof (PeerRow, src), .max = 1 << 16 },
  { "dst", MS_SMALL_INT, offsetof (PeerRow, dst), .max = 1 << 16 },
  { "gbps", MS_SMALL_RATE, offsetof (PeerRow, gbps) },
  { "note", MS_SMALL_TEXT, offsetof (PeerRow, note), sizeof ((PeerRow *) 0)->note },
};

/* ---- writing ------------------------------------------------------------ */

static void
write_metadata (FILE *f, const void *data)
{
  MsPeerFile *file = (MsPeerFile *) data; /* read only, as every MsSmallRun written */
  const MsPeerResults *r = &file->peer;
  MsSmallRun run = peer_run (file);
  char bus_id[MS_MULTI_MAX_DEVICES][32];
  for (int i = 0; i < r->n_devices; i++)
    snprintf (bus_id[i], sizeof bus_id[i], "%s",
              r->topo.bus_id[i][0] ? r->topo.bus_id[i] : file->device[i].pci_bus_id);
  ms_small_put_run_head (f, &run);
  ms_meta_put (f, "nvml", "%d", r->topo.nvml ? 1 : 0);
  if (r->topo.error[0])
    ms_meta_put (f, "topology-error", "%s", r->topo.error);
  ms_small_put_run_devices (f, &run, (const char (*)[32]) bus_id, r->topo.serial);
  for (int i = 0; i < r->n_devices; i++) {
    for (int j = 0; j < r->n_devices; j++) {
      if (i == j)
        continue;
      char key[48];
      MsLinkPath path = r->topo.pcie_path[i][j];
      snprintf (key, sizeof key, "link-%d-%d", i, j);
      ms_meta_put (f, key, "nvlinks %d, pcie-path %s, peer-access %d", r->topo.nvlinks[i][j],
                   path <= MS_LINK_SYSTEM ? path_keys[path] : "unknown",
                   r->can_access[i][j] ? 1 : 0);
    }
  }
}

static void
write_rows (FILE *f, const MsSmallFormat *format, const void *data)
{
  const MsPeerResults *r = &((const MsPeerFile *) data)->peer;
  for (int m = 0; m <= MS_PEER_REFERENCE; m++)
    for (int bi = 0; bi <= (m < MS_PEER_REFERENCE); bi++)
      for (int i = 0; i < r->n_devices; i++)
        for (int j = 0; j < r->n_devices; j++) {
          if (i == j)
            continue;
          PeerRow row = { m, bi, r->devices[i], r->devices[j] };
          row.gbps = ms_peer_file_value (r, m, bi, i, j);
          /* Why a pair has no figure; a measured one needs none. */
          if (m < MS_PEER_REFERENCE && row.gbps <= 0)
            snprintf (row.note, sizeof row.note, "%s", r->cell[m][i][j].note);
          ms_small_put_row (f, format, &row);
        }
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  MsSmallReadState base; /* its file an MsPeerFile */
  bool seen_row[MS_PEER_REFERENCE + 1][2][MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
} PeerReader;

/* link-I-J, between slots below the device count. */
static bool
parse_link (MsSmallReader *rd, MsPeerResults *r, const char *key, const char *value)
{
  char path[32];
  int i, j, links, access, end = 0;
  if (!r->n_devices)
    return ms_small_reader_fail (rd, ms_gettext ("%s before the devices line"), key);
  if (sscanf (key, "link-%d-%d%n", &i, &j, &end) != 2 || key[end])
    return true; /* unknown metadata describes, it does not drive */
  if (i < 0 || j < 0 || i >= r->n_devices || j >= r->n_devices || i == j)
    return ms_small_reader_fail (rd, ms_gettext ("link %d-%d outside the %d devices"), i, j,
                                 r->n_devices);
  end = 0;
  if (sscanf (value, "nvlinks %d, pcie-path %31[a-z-], peer-access %d%n", &links, path, &access,
              &end) != 3 ||
      value[end] || links < 0 || links > 64 || (access != 0 && access != 1))
    return ms_small_reader_fail (rd, ms_gettext ("malformed link: '%s'"), value);
  int p = 0;
  while (path_keys[p] && strcmp (path_keys[p], path) != 0)
    p++;
  if (!path_keys[p])
    return ms_small_reader_fail (rd, ms_gettext ("unknown PCIe path '%s'"), path);
  r->topo.nvlinks[i][j] = links;
  r->topo.pcie_path[i][j] = (MsLinkPath) p;
  r->can_access[i][j] = access == 1;
  return true;
}

static bool
parse_meta (MsSmallReader *rd, const char *key, const char *value, void *data)
{
  MsPeerFile *file = ((PeerReader *) data)->base.file;
  MsPeerResults *r = &file->peer;
  int i, end = 0;
  if (strcmp (key, "nvml") == 0)
    r->topo.nvml = strcmp (value, "1") == 0;
  else if (strcmp (key, "topology-error") == 0)
    ms_utf8_copy (r->topo.error, sizeof r->topo.error, value);
  else if (strncmp (key, "link-", 5) == 0)
    return parse_link (rd, r, key, value);
  /* The topology's own copy of a GPU's serial (its bus id: check_read). */
  if (sscanf (key, "gpu-%d-serial%n", &i, &end) == 1 && !key[end] && i >= 0 && i < r->n_devices)
    ms_utf8_copy (r->topo.serial[i], sizeof r->topo.serial[i], value);
  return true;
}

static bool
take_row (MsSmallReader *rd, const void *data_row, void *data)
{
  const PeerRow *row = data_row;
  PeerReader *pr = data;
  MsPeerFile *file = pr->base.file;
  MsPeerResults *r = &file->peer;
  int m = row->method, bi = row->bi;
  int i = ms_small_slot_of (rd, &r->n_devices, r->devices, row->src);
  int j = ms_small_slot_of (rd, &r->n_devices, r->devices, row->dst);
  if (bi && m == MS_PEER_REFERENCE)
    return ms_small_reader_fail (rd, ms_gettext ("unknown direction '%s'"), "bi");
  if (i < 0 || j < 0 || i == j)
    return ms_small_reader_fail (rd, ms_gettext ("no pair of the devices: %ld -> %ld"), row->src,
                                 row->dst);
  if (pr->seen_row[m][bi][i][j])
    return ms_small_reader_fail (rd, ms_gettext ("a second row for %s %s %ld -> %ld"),
                                 method_keys[m], direction_keys[bi], row->src, row->dst);
  pr->seen_row[m][bi][i][j] = true;
  if (m == MS_PEER_REFERENCE) {
    r->reference_gbps[i][j] = row->gbps;
    return true;
  }
  MsPeerCell *c = &r->cell[m][i][j];
  *(bi ? &c->bi_gbps : &c->uni_gbps) = row->gbps;
  c->ok = c->uni_gbps > 0 && c->bi_gbps > 0;
  if (row->note[0])
    snprintf (c->note, sizeof c->note, "%s", row->note);
  return true;
}

static bool
check_read (MsSmallReader *rd, void *state)
{
  MsPeerFile *file = ((PeerReader *) state)->base.file;
  file->peer.topo.n_devices = file->peer.n_devices;
  for (int i = 0; i < file->peer.n_devices; i++)
    snprintf (file->peer.topo.bus_id[i], sizeof file->peer.topo.bus_id[i], "%s",
              file->device[i].pci_bus_id);
  /* What the older form always held; a plain file read without its
   * sidecar writes back without them. */
  if (!rd->plain && (!file->peer.bytes || !file->reps))
    return ms_small_reader_fail (rd, ms_gettext ("no bytes or reps line"));
  return true;
}

const MsSmallFormat ms_peer_file_format = {
  .title = "# memsweep peer matrix",
  .role = "peer",
  MS_SMALL_TABLE (peer_columns, PeerRow),
  .meta = parse_meta,
  .take = take_row,
  .put_meta = write_metadata,
  .put_rows = write_rows,
  MS_SMALL_FILE_STRUCT (MsPeerFile),
  .state_size = sizeof (PeerReader),
  .run = peer_run,
  .finish = check_read,
};
