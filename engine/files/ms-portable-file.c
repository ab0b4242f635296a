/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-portable-file.c: the portable pinned memory file
 * (ms-portable-file.h): written into memory, then through an atomic file
 * with its sidecar (ms-small-file.h, as the peer matrix); read back
 * strictly, every malformed line refused with its number. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-portable-file.h"
#include "ms-small-file.h"

static const char *const case_keys[MS_PORTABLE_COUNT + 1] = { "per-gpu", "portable", "foreign",
                                                             NULL };

/* The run of file, as the small files keep it: one device at least. */
static MsSmallRun
portable_run (void *data)
{
  MsPortableFile *file = data;
  MsPortableResults *r = &file->portable;
  return (MsSmallRun) { 1, &r->n_devices, r->devices, file->device, &r->bytes,
                        &file->reps, &file->version, &file->date, &file->host };
}

void
ms_portable_file_init (MsPortableFile *file, const MsPortableResults *results,
                       const MsDeviceInfo *info, int reps)
{
  memset (file, 0, sizeof *file);
  file->portable = *results;
  ms_small_run_fill (&ms_portable_file_format, file, info, reps);
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

/* ---- the table ---------------------------------------------------------- */

/* One row of the table: a buffer as one GPU copied through it. */
typedef struct {
  int buffer;
  long gpu; /* CUDA index */
  double h2d_gbps, d2h_gbps;
  bool pinned;
  char note[sizeof ((MsPortableCell *) 0)->note];
} PortableRow;

static const MsSmallColumn portable_columns[] = {
  { "buffer", MS_SMALL_KEY, offsetof (PortableRow, buffer), .keys = case_keys },
  { "gpu", MS_SMALL_INT, offsetof (PortableRow, gpu), .max = 1 << 16 },
  { "h2d_gbps", MS_SMALL_RATE, offsetof (PortableRow, h2d_gbps) },
  { "d2h_gbps", MS_SMALL_RATE, offsetof (PortableRow, d2h_gbps) },
  { "pinned", MS_SMALL_BOOL, offsetof (PortableRow, pinned) },
  { "note", MS_SMALL_TEXT, offsetof (PortableRow, note), sizeof ((PortableRow *) 0)->note },
};

/* ---- writing ------------------------------------------------------------ */

static void
write_rows (FILE *f, const MsSmallFormat *format, const void *data)
{
  const MsPortableResults *r = &((const MsPortableFile *) data)->portable;
  for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
    for (int i = 0; i < r->n_devices; i++) {
      const MsPortableCell *c = &r->cell[k][i];
      /* The rates of a failed copy are empty, whatever the cell held. */
      PortableRow row = { k, r->devices[i], c->ok ? c->h2d_gbps : 0, c->ok ? c->d2h_gbps : 0,
                          c->pinned_path };
      snprintf (row.note, sizeof row.note, "%s", c->note);
      ms_small_put_row (f, format, &row);
    }
  }
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
  MsSmallReadState base; /* its file an MsPortableFile */
  bool seen_row[MS_PORTABLE_COUNT][MS_MULTI_MAX_DEVICES];
} PortableReader;

static bool
take_row (MsSmallReader *rd, const void *data_row, void *data)
{
  const PortableRow *row = data_row;
  PortableReader *pr = data;
  MsPortableFile *file = pr->base.file;
  MsPortableResults *r = &file->portable;
  int k = row->buffer;
  int i = ms_small_slot_of (rd, &r->n_devices, r->devices, row->gpu);
  if (i < 0)
    return ms_small_reader_fail (rd, ms_gettext ("no GPU %ld among the devices"), row->gpu);
  if ((row->h2d_gbps > 0) != (row->d2h_gbps > 0))
    return ms_small_reader_fail (rd, ms_gettext ("one rate without the other"));
  if (pr->seen_row[k][i])
    return ms_small_reader_fail (rd, ms_gettext ("a second row for %s on GPU %ld"),
                                 case_keys[k], row->gpu);
  pr->seen_row[k][i] = true;
  MsPortableCell *c = &r->cell[k][i];
  c->ok = row->h2d_gbps > 0;
  c->h2d_gbps = row->h2d_gbps;
  c->d2h_gbps = row->d2h_gbps;
  c->pinned_path = row->pinned;
  snprintf (c->note, sizeof c->note, "%s", row->note);
  return true;
}

static bool
check_read (MsSmallReader *rd, void *state)
{
  PortableReader *pr = state;
  MsPortableFile *file = pr->base.file;
  MsPortableResults *r = &file->portable;
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

const MsSmallFormat ms_portable_file_format = {
  .title = "# memsweep portable pinned memory",
  .role = "portable",
  MS_SMALL_TABLE (portable_columns, PortableRow),
  .take = take_row,
  .put_rows = write_rows,
  MS_SMALL_FILE_STRUCT (MsPortableFile),
  .state_size = sizeof (PortableReader),
  .run = portable_run,
  .finish = check_read,
};
