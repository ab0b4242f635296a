/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-um-counts.c: unified-memory counts in the metadata of a results file:
 *   # um-counts: MODE ELEMENTS VARIANT counted GPU_FAULTS CPU_FAULTS H2D_BYTES D2H_BYTES
 *   # um-counts: MODE ELEMENTS VARIANT unavailable REASON...
 * with "-" for an empty variant. Older files have no such lines: their
 * cells keep MS_UM_NONE. */
#include <stdlib.h>
#include <string.h>

#include "ms-um-counts.h"

/* Bounds what a hostile file can make us keep. */
#define MS_UM_MAX_LINES 4096

struct MsUmLine {
  MsMode mode;
  int exponent;
  char variant[MS_VARIANT_LEN];
  MsUmCounts counts;
};

void
ms_um_write_metadata (FILE *f, const MsResults *results)
{
  bool any = false;
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (c->um.state == MS_UM_NONE)
      continue;
    if (!any)
      fprintf (f, "# um-counts-columns: mode elements variant counted gpu_page_faults "
                  "cpu_page_faults h2d_bytes d2h_bytes (or: unavailable reason)\n");
    any = true;
    fprintf (f, "# um-counts: %s %llu %s ", ms_mode_name (c->mode),
             (unsigned long long) c->elements, c->variant[0] ? c->variant : "-");
    if (c->um.state == MS_UM_COUNTED) {
      fprintf (f, "counted %llu %llu %llu %llu\n", (unsigned long long) c->um.gpu_faults,
               (unsigned long long) c->um.cpu_faults, (unsigned long long) c->um.h2d_bytes,
               (unsigned long long) c->um.d2h_bytes);
      continue;
    }
    char reason[sizeof c->um.reason];
    snprintf (reason, sizeof reason, "%s", c->um.reason);
    for (char *p = reason; *p; p++)
      if ((unsigned char) *p < ' ')
        *p = ' '; /* one line, whatever CUPTI said */
    fprintf (f, "unavailable %s\n", reason);
  }
}

static int
exponent_of (unsigned long long elements)
{
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++)
    if (elements == 1ull << e)
      return e;
  return -1;
}

/* One line's value; false when malformed (the line is then ignored). */
static bool
parse_line (const char *value, MsUmLine *out)
{
  char mode[24], variant[MS_VARIANT_LEN], state[16];
  unsigned long long elements, g, c, h, d;
  int used = 0;
  memset (out, 0, sizeof *out);
  if (sscanf (value, "%23s %20llu %47s %15s %n", mode, &elements, variant, state, &used) < 4 ||
      !ms_mode_from_name (mode, &out->mode) || (out->exponent = exponent_of (elements)) < 0)
    return false;
  snprintf (out->variant, sizeof out->variant, "%s", strcmp (variant, "-") ? variant : "");
  if (strcmp (state, "unavailable") == 0) {
    out->counts.state = MS_UM_UNAVAILABLE;
    snprintf (out->counts.reason, sizeof out->counts.reason, "%s", value + used);
    return true;
  }
  if (strcmp (state, "counted") != 0 ||
      sscanf (value + used, "%20llu %20llu %20llu %20llu", &g, &c, &h, &d) != 4)
    return false;
  out->counts = (MsUmCounts){ .state = MS_UM_COUNTED, .gpu_faults = g, .cpu_faults = c,
                              .h2d_bytes = h, .d2h_bytes = d };
  return true;
}

bool
ms_um_pending_take (MsUmPending *pending, const char *line, size_t len)
{
  static const char key[] = "# um-counts: ";
  char value[512];
  if (len < sizeof key - 1 || memcmp (line, key, sizeof key - 1) != 0)
    return false;
  len -= sizeof key - 1;
  if (len >= sizeof value)
    len = sizeof value - 1;
  memcpy (value, line + sizeof key - 1, len);
  value[len] = '\0';
  while (len && (value[len - 1] == '\r' || value[len - 1] == '\n'))
    value[--len] = '\0';
  MsUmLine parsed;
  if (!parse_line (value, &parsed) || pending->n >= MS_UM_MAX_LINES)
    return true;
  if (pending->n == pending->cap) {
    int cap = pending->cap ? 2 * pending->cap : 8;
    MsUmLine *lines = realloc (pending->lines, cap * sizeof *lines);
    if (!lines)
      return true; /* the counts are extra: the file still reads */
    pending->lines = lines;
    pending->cap = cap;
  }
  pending->lines[pending->n++] = parsed;
  return true;
}

void
ms_um_pending_attach (const MsUmPending *pending, MsResults *results)
{
  for (int i = 0; i < pending->n; i++) {
    const MsUmLine *l = &pending->lines[i];
    MsCell *c = (MsCell *) ms_results_find_variant (results, l->mode, l->exponent, l->variant);
    if (c)
      c->um = l->counts;
  }
}

void
ms_um_pending_clear (MsUmPending *pending)
{
  free (pending->lines);
  memset (pending, 0, sizeof *pending);
}
