/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-host-link-file.c: the host link file (ms-host-link-file.h): written
 * into memory, then through an atomic file with its sidecar
 * (ms-small-file.h, as the portable run); read back strictly, every
 * malformed line refused with its number. */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-host-link-file.h"
#include "ms-i18n.h"
#include "ms-meta-sidecar.h"
#include "ms-meta.h"
#include "ms-small-file.h"
#include "ms-utf8.h"

/* The gpu column of the total's row. */
#define ALL "all"

/* The run of file, as the small files keep it: one device at least. */
static MsSmallRun
host_link_run (void *data)
{
  MsHostLinkFile *file = data;
  MsHostLinkResults *r = &file->link;
  return (MsSmallRun) { 1, &r->n_devices, r->devices, file->device, &file->bytes,
                        &file->reps, &file->version, &file->date, &file->host };
}

void
ms_host_link_file_init (MsHostLinkFile *file, const MsHostLinkResults *results,
                        const MsDeviceInfo *info, int samples)
{
  memset (file, 0, sizeof *file);
  file->link = *results;
  file->link.error[0] = '\0';
  ms_small_run_fill (&ms_host_link_file_format, file, info, samples);
}

/* ---- the table ---------------------------------------------------------- */

/* One row: a GPU (or all of them) at one size and direction. */
typedef struct {
  int direction;
  long exponent, bytes;
  char gpu[8]; /* CUDA index, or ALL */
  double gbps, alone_gbps, ratio, share;
} HostLinkRow;

static const MsSmallColumn host_link_columns[] = {
  { "direction", MS_SMALL_KEY, offsetof (HostLinkRow, direction),
    .keys = ms_host_link_direction_keys },
  { "exponent", MS_SMALL_INT, offsetof (HostLinkRow, exponent), .min = 0, .max = 40 },
  { "bytes", MS_SMALL_INT, offsetof (HostLinkRow, bytes), .min = 4, .max = 4L << 40 },
  { "gpu", MS_SMALL_TEXT, offsetof (HostLinkRow, gpu), sizeof ((HostLinkRow *) 0)->gpu },
  { "gbps", MS_SMALL_RATE, offsetof (HostLinkRow, gbps) },
  { "alone_gbps", MS_SMALL_RATE, offsetof (HostLinkRow, alone_gbps) },
  { "ratio", MS_SMALL_DECIMAL, offsetof (HostLinkRow, ratio), .max = 1000, .digits = 3 },
  { "share", MS_SMALL_DECIMAL, offsetof (HostLinkRow, share), .max = 1, .digits = 3 },
};

/* num / den, 0 where den is none. */
static double
part (double num, double den)
{
  return den > 0 ? num / den : 0;
}

/* ---- writing ------------------------------------------------------------ */

static void
put_row (FILE *f, const MsSmallFormat *format, HostLinkRow *row, double total)
{
  row->ratio = part (row->gbps, row->alone_gbps);
  row->share = part (row->gbps, total);
  ms_small_put_row (f, format, row);
}

static void
write_rows (FILE *f, const MsSmallFormat *format, const void *data)
{
  const MsHostLinkResults *r = &((const MsHostLinkFile *) data)->link;
  for (int s = 0; s < r->n_sizes; s++)
    for (int d = 0; d < MS_HOST_LINK_COUNT; d++) {
      double total = ms_host_link_total (r, d, s, true);
      HostLinkRow row = { d, r->exps[s], 4L << r->exps[s] };
      for (int i = 0; i < r->n_devices; i++) {
        snprintf (row.gpu, sizeof row.gpu, "%d", r->devices[i]);
        row.gbps = r->together[d][s][i];
        row.alone_gbps = r->alone[d][s][i];
        put_row (f, format, &row, total);
      }
      snprintf (row.gpu, sizeof row.gpu, ALL);
      row.gbps = total;
      row.alone_gbps = ms_host_link_total (r, d, s, false);
      put_row (f, format, &row, total);
    }
}

/* The run's metadata, then the note where there is one. */
static void
write_meta (FILE *f, const void *data)
{
  const MsHostLinkFile *file = data;
  MsSmallRun run = host_link_run ((void *) data);
  ms_small_put_run_head (f, &run);
  if (file->note[0])
    ms_meta_put (f, "note", "%s", file->note);
  ms_small_put_run_devices (f, &run, NULL, NULL);
}

bool
ms_host_link_file_write (const MsHostLinkFile *file, const char *path, char *err, size_t errlen)
{
  /* Its devices as every run's (ms_small_file_write). */
  const MsHostLinkResults *r = &file->link;
  if (r->n_sizes < 1 || r->n_sizes > MS_HOST_LINK_MAX_SIZES) {
    snprintf (err, errlen, ms_gettext ("%s: a host link run needs 1 to %d sizes, not %d"), path,
              MS_HOST_LINK_MAX_SIZES, r->n_sizes);
    return false;
  }
  return ms_small_file_write (path, &ms_host_link_file_format, file, err, errlen);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  MsSmallReadState base; /* its file an MsHostLinkFile */
  bool seen[MS_HOST_LINK_COUNT][MS_HOST_LINK_MAX_SIZES][MS_MULTI_MAX_DEVICES + 1];
  double total[MS_HOST_LINK_COUNT][MS_HOST_LINK_MAX_SIZES][2]; /* the all rows' */
  double share[MS_HOST_LINK_COUNT][MS_HOST_LINK_MAX_SIZES][MS_MULTI_MAX_DEVICES];
} HostLinkReader;

static bool
take_meta (MsSmallReader *rd, const char *key, const char *value, void *data)
{
  (void) rd;
  HostLinkReader *hr = data;
  MsHostLinkFile *file = hr->base.file;
  if (strcmp (key, "note") == 0)
    ms_utf8_copy (file->note, sizeof file->note, value);
  return true;
}

/* The slot of the row's size, a new one for a size not seen yet; -1 past
 * the most. */
static int
size_slot (MsHostLinkResults *r, long exponent)
{
  for (int s = 0; s < r->n_sizes; s++)
    if (r->exps[s] == exponent)
      return s;
  if (r->n_sizes >= MS_HOST_LINK_MAX_SIZES)
    return -1;
  r->exps[r->n_sizes] = (int) exponent;
  return r->n_sizes++;
}

/* Whether a derived column holds num / den as written, to its three
 * decimals (and the rates' own rounding). */
static bool
derived_ok (double value, double num, double den)
{
  return fabs (value - part (num, den)) <= 0.002;
}

static bool
take_row (MsSmallReader *rd, const void *data_row, void *data)
{
  const HostLinkRow *row = data_row;
  HostLinkReader *hr = data;
  MsHostLinkResults *r = &((MsHostLinkFile *) hr->base.file)->link;
  int d = row->direction, s = size_slot (r, row->exponent);
  if (s < 0)
    return ms_small_reader_fail (rd, ms_gettext ("more than %d sizes"), MS_HOST_LINK_MAX_SIZES);
  if (row->bytes != 4L << row->exponent)
    return ms_small_reader_fail (rd, ms_gettext ("bytes %ld is not 2^%ld floats"), row->bytes,
                                 row->exponent);
  /* A GPU's CUDA index among the devices (where the metadata is unknown,
   * the next slot for one not seen yet), or the total of all. */
  char *end;
  long index = strtol (row->gpu, &end, 10);
  int i = strcmp (row->gpu, ALL) == 0 ? MS_MULTI_MAX_DEVICES
          : row->gpu[0] >= '0' && row->gpu[0] <= '9' && !*end && index <= 1 << 16
            ? ms_small_slot_of (rd, &r->n_devices, r->devices, index)
            : -1;
  if (i < 0)
    return ms_small_reader_fail (rd, ms_gettext ("no GPU %s among the devices"), row->gpu);
  if (hr->seen[d][s][i])
    return ms_small_reader_fail (rd, ms_gettext ("a second row for %s, 2^%ld, gpu %s"),
                                 ms_host_link_direction_key (d), row->exponent, row->gpu);
  if (!derived_ok (row->ratio, row->gbps, row->alone_gbps))
    return ms_small_reader_fail (rd, ms_gettext ("ratio %.3f is not gbps / alone_gbps"),
                                 row->ratio);
  hr->seen[d][s][i] = true;
  if (i == MS_MULTI_MAX_DEVICES) {
    hr->total[d][s][0] = row->gbps;
    hr->total[d][s][1] = row->alone_gbps;
    return derived_ok (row->share, row->gbps > 0, 1) ||
           ms_small_reader_fail (rd, ms_gettext ("the total's share is not 1"));
  }
  r->together[d][s][i] = row->gbps;
  r->alone[d][s][i] = row->alone_gbps;
  /* The share's total comes later: checked with it (check_totals). */
  hr->share[d][s][i] = row->share;
  return true;
}

/* Each total against its GPUs' rows (their rates as written: 3 decimals
 * each), and their shares of it. */
static bool
check_totals (MsSmallReader *rd, HostLinkReader *hr, const MsHostLinkResults *r, int d, int s)
{
  double slack = 0.001 * (r->n_devices + 1);
  for (int i = 0; i < r->n_devices; i++)
    if (!derived_ok (hr->share[d][s][i], r->together[d][s][i], hr->total[d][s][0]))
      return ms_small_reader_fail (rd, ms_gettext ("the share of GPU %d, %s at 2^%d, is not its "
                                                   "part of the total"),
                                   r->devices[i], ms_host_link_direction_key (d), r->exps[s]);
  if (fabs (hr->total[d][s][0] - ms_host_link_total (r, d, s, true)) > slack ||
      fabs (hr->total[d][s][1] - ms_host_link_total (r, d, s, false)) > slack)
    return ms_small_reader_fail (rd, ms_gettext ("the total of %s at 2^%d is not its GPUs' sum"),
                                 ms_host_link_direction_key (d), r->exps[s]);
  return true;
}

/* What a whole file holds, checked once it is read: every GPU and the
 * total at every size and direction, so that no bar is missing unsaid.
 * False with rd's message. */
static bool
check_read (MsSmallReader *rd, void *state)
{
  HostLinkReader *hr = state;
  MsHostLinkFile *file = hr->base.file;
  const MsHostLinkResults *r = &file->link;
  if (!rd->meta_unknown && !file->reps)
    return ms_small_reader_fail (rd, ms_gettext ("no reps line"));
  for (int s = 0; s < r->n_sizes; s++)
    for (int d = 0; d < MS_HOST_LINK_COUNT; d++) {
      for (int i = 0; i < r->n_devices; i++)
        if (!hr->seen[d][s][i])
          return ms_small_reader_fail (rd, ms_gettext ("no row for %s at 2^%d on GPU %d"),
                                       ms_host_link_direction_key (d), r->exps[s], r->devices[i]);
      if (!hr->seen[d][s][MS_MULTI_MAX_DEVICES])
        return ms_small_reader_fail (rd, ms_gettext ("no total for %s at 2^%d"),
                                     ms_host_link_direction_key (d), r->exps[s]);
      if (!check_totals (rd, hr, r, d, s))
        return false;
    }
  return true;
}

const MsSmallFormat ms_host_link_file_format = {
  .title = "# memsweep host link",
  .role = MS_META_SIDECAR_HOST_LINK_ROLE,
  MS_SMALL_TABLE (host_link_columns, HostLinkRow),
  .meta = take_meta,
  .take = take_row,
  .put_meta = write_meta,
  .put_rows = write_rows,
  MS_SMALL_FILE_STRUCT (MsHostLinkFile),
  .state_size = sizeof (HostLinkReader),
  .run = host_link_run,
  .finish = check_read,
};
