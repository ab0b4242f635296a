/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-meta.c: the samples reader's '#' metadata lines. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-reader.h"
#include "ms-health-meta.h"
#include "ms-meta-sidecar.h"
#include "ms-meta.h"
#include "ms-run-to-run-file.h"
#include "ms-sweep.h"
#include "ms-um-counts.h"
#include "ms-utf8.h"

/* The keys with a rule or a form of their own (the measuring CPU and node,
 * the warm-up, the device's words and versions, the link, the order and
 * the modes); false for any other key. Field widths bound the numbers: no
 * overflow from a hostile file. */
static bool
read_own_rule (MsResults *r, MsMetaId id, const char *value)
{
  MsDeviceInfo *d = &r->device;
  int a, b, c, e;
  switch (id) {
  case MS_META_VARY:
    if (strcmp (value, ms_vary_name (MS_VARY_PLACEMENT)) == 0)
      r->sweep.vary = MS_VARY_PLACEMENT;
    break;
  case MS_META_MEASURING_CPU:
    d->pinned = ms_meta_int (MS_META_MEASURING_CPU, value, &d->measuring_cpu)
                && d->measuring_cpu < CPU_SETSIZE;
    if (!d->pinned)
      d->measuring_cpu = 0;
    break;
  case MS_META_MEASURING_NODE:
    d->node_known = ms_meta_int (MS_META_MEASURING_NODE, value, &d->measuring_node);
    if (!d->node_known)
      d->measuring_node = 0;
    break;
  case MS_META_GPU_WARMUP:
    if (sscanf (value, "%7d ms to an SM clock of %6d MHz", &a, &b) == 2 && a >= 0 && b >= 0) {
      d->warmup_ms = a;
      d->steady_sm_mhz = b;
    }
    break;
  case MS_META_DEVICE:
    ms_utf8_copy (d->name, sizeof d->name, value);
    d->present = strcmp (value, "none") != 0;
    break;
  case MS_META_COMPUTE_CAPABILITY:
    if (sscanf (value, "%3d.%3d", &a, &b) == 2 && a >= 0 && b >= 0) {
      d->cc_major = a;
      d->cc_minor = b;
    }
    break;
  case MS_META_DRIVER:
  case MS_META_CUDA_RUNTIME:
    if (sscanf (value, "%4d.%2d", &a, &b) == 2 && a >= 0 && b >= 0)
      *(id == MS_META_DRIVER ? &d->driver_version : &d->runtime_version) = a * 1000 + b * 10;
    break;
  case MS_META_PCIE_LINK:
    if (sscanf (value, "gen%2d x%3d (max gen%2d x%3d)", &a, &b, &c, &e) == 4 && a > 0 && b > 0
        && c > 0 && e > 0) {
      d->pcie_gen = a;
      d->pcie_width = b;
      d->pcie_gen_max = c;
      d->pcie_width_max = e;
    }
    break;
  case MS_META_REPS_RULE:
    if (strcmp (value, "fixed") == 0)
      r->sweep.reps_rule = MS_REPS_FIXED;
    else if (strcmp (value, "adaptive") == 0)
      r->sweep.reps_rule = MS_REPS_ADAPTIVE;
    break;
  case MS_META_ORDER:
    r->sweep.order = strcmp (value, "breadth") == 0 ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST;
    break;
  case MS_META_MODES: {
    char err[128];
    MsSweep tmp = r->sweep;
    if (ms_sweep_set_modes (&tmp, value, err, sizeof err))
      r->sweep = tmp;
    break;
  }
  default:
    return false;
  }
  return true;
}

/* Keys of the table's kinds; a value outside its kind or range is ignored:
 * metadata describes the data, it never drives it. */
static void
read_key (MsResults *r, MsMetaId id, const char *value)
{
  const MsMetaKey *k = ms_meta_table (id);
  void *field = k->size ? (char *)r + k->offset : NULL;
  if (field && k->type == MS_META_TEXT)
    ms_utf8_copy (field, k->size, k->empty && strcmp (value, k->empty) == 0 ? "" : value);
  else if (field && k->type == MS_META_INT)
    ms_meta_int (id, value, field);
  else if (field && k->type == MS_META_NUMBER)
    ms_meta_number (id, value, field);
  else if (field && k->type == MS_META_FLAG)
    ms_meta_flag (value, field);
  else if (field && k->type == MS_META_COUNT)
    ms_csv_parse_count (value, strlen (value), field);
}

void
ms_csv_take_metadata_line (MsReader *rd, MsResults *r, const char *line, size_t len)
{
  char buf[512], *key, *value;
  /* Cut before a character, never inside one (the reader may have cut the
   * line to its buffer already). */
  if (len >= sizeof buf)
    len = sizeof buf - 1;
  len = ms_utf8_prefix (line, len);
  memcpy (buf, line, len);
  buf[len] = '\0';
  while (len && (buf[len - 1] == '\r' || buf[len - 1] == '\n'))
    buf[--len] = '\0';
  /* A CR-only file's lines may hold LF (and the other way round): one line
   * as the writer will write it, read as it will be read again. */
  for (char *p = buf; (p = strpbrk (p, "\r\n"));)
    *p = ' ';
  char whole[sizeof buf];
  memcpy (whole, buf, len + 1);
  if (!(value = ms_meta_split (buf, &key)))
    return; /* a title line: the writer writes its own */

  MsMetaId id = ms_meta_lookup (key);
  /* Lines naming cells wait in rd for the rows to make them; a summary
   * (no rd) has no use for them. */
  if (rd &&
      (ms_um_pending_take (&rd->um, id, value) || ms_link_pending_take (&rd->link, id, value)))
    return;
  if (id == MS_META_N_KEYS) {
    /* Not memsweep's own (a fleet node's, a newer version's): kept and
     * written back as it was, while the bound on kept lines allows. */
    size_t used = strlen (r->kept_metadata);
    if (used + len + 2 <= sizeof r->kept_metadata)
      snprintf (r->kept_metadata + used, sizeof r->kept_metadata - used, "%s\n", whole);
    return;
  }
  r->settings_stated = r->settings_stated || id == MS_META_WARMUP;
  /* Counted, so that nothing shows the settings of a file that states
   * impossible ones. */
  const MsMetaKey *k = ms_meta_table (id);
  int i;
  double v;
  bool flag;
  if ((k->type == MS_META_INT && !ms_meta_int (id, value, &i)) ||
      (k->type == MS_META_NUMBER && !ms_meta_number (id, value, &v)) ||
      (k->type == MS_META_FLAG && !ms_meta_flag (value, &flag)))
    ms_meta_refuse (r, key);
  if (read_own_rule (r, id, value) || ms_health_read_metadata (r, key, value) ||
      ms_run_to_run_read_metadata (&r->run_to_run, key, value))
    return;
  read_key (r, id, value);
}

bool
ms_csv_take_sidecar (MsReader *rd, MsResults *r, const char *path, const char *head, size_t len,
                     uint64_t size, MsSidecarHash *pending, char *err, size_t errlen)
{
  if (len == 0 || ms_meta_sidecar_inline (head, len))
    return true;
  /* A byte order mark an editor added is no change to the data. */
  if (len >= 3 && memcmp (head, "\xEF\xBB\xBF", 3) == 0)
    size -= 3;
  char *lines = pending ? ms_meta_sidecar_lines_on_trust (pending, r->metadata_unknown,
                                                          sizeof r->metadata_unknown)
                        : ms_meta_sidecar_lines (path, (long long) size, r->metadata_unknown,
                                                 sizeof r->metadata_unknown);
  /* A sidecar there but unread for want of a descriptor or memory: the
   * read fails with that error, not a run whose metadata is unknown. */
  if (!lines && ms_meta_sidecar_unread (path, err, errlen))
    return false;
  for (char *p = lines, *eol; p && (eol = strchr (p, '\n')); p = eol + 1)
    ms_csv_take_metadata_line (rd, r, p, (size_t) (eol - p));
  free (lines);
  return true;
}
