/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-um-counts.c: unified-memory counts in the metadata of a results file:
 *   # um-counts: MODE ELEMENTS VARIANT counted GPU_FAULTS CPU_FAULTS H2D_BYTES D2H_BYTES
 *   # um-counts: MODE ELEMENTS VARIANT unknown GPU_FAULTS CPU_FAULTS H2D_BYTES D2H_BYTES REASON...
 *   # um-counts: MODE ELEMENTS VARIANT unavailable REASON...
 * with "-" for an empty variant. Older files have no such lines: their
 * cells keep MS_UM_NONE; older readers skip "unknown" lines. Counts that
 * cannot be true (ms_um_counts_judge) read as unknown, also from files
 * written before the rule. */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-meta.h"
#include "ms-modes.h"
#include "ms-results.h"
#include "ms-um-counts.h"
#include "ms-variant.h"

void
ms_um_counts_judge (MsMode mode, uint64_t n, bool resident, MsUmCounts *um)
{
  if (um->state != MS_UM_COUNTED || ms_mode_memory (mode) != MS_MEMORY_MANAGED)
    return;
  /* Without a phase that moves them, the inputs reach the device by faults
   * alone. */
  bool by_faults = ms_mode_to_device_phase (mode) == MS_PHASE_COUNT;
  char moved[32], back[32], inputs_text[32], result_text[32];
  uint64_t inputs = 2 * ms_vector_bytes (n); /* a and b, last written by the host */
  uint64_t result = ms_vector_bytes (n);     /* c, written on the device, read on the host */
  ms_format_bytes (um->h2d_bytes, moved, sizeof moved);
  ms_format_bytes (um->d2h_bytes, back, sizeof back);
  ms_format_bytes (inputs, inputs_text, sizeof inputs_text);
  ms_format_bytes (result, result_text, sizeof result_text);
  if (!resident && by_faults && um->gpu_faults == 0 && um->h2d_bytes > 0)
    snprintf (um->reason, sizeof um->reason,
              ms_gettext ("CUPTI counted no GPU page faults while %s moved to the device, "
                          "which only faults move here: records were lost"),
              moved);
  else if (!resident && um->h2d_bytes < inputs)
    snprintf (um->reason, sizeof um->reason,
              ms_gettext ("CUPTI counted %s moved to the device where the kernel reads %s "
                          "from the host: records were lost"),
              moved, inputs_text);
  else if (um->d2h_bytes < result)
    snprintf (um->reason, sizeof um->reason,
              ms_gettext ("CUPTI counted %s moved to the host where the host reads a %s "
                          "result made on the device: records were lost"),
              back, result_text);
  else
    return;
  um->state = MS_UM_UNKNOWN;
}

typedef struct {
  MsMode mode;
  int exponent;
  char variant[MS_VARIANT_LEN];
  MsUmCounts counts;
} MsUmLine;

void
ms_um_write_metadata (FILE *f, const MsResults *results)
{
  bool any = false;
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (c->um.state == MS_UM_NONE)
      continue;
    if (!any)
      ms_meta_printf (f, MS_META_UM_COUNTS_COLUMNS,
                      "mode elements variant counted gpu_page_faults cpu_page_faults "
                      "h2d_bytes d2h_bytes (or: unknown, the same four and why; or: "
                      "unavailable reason)");
    any = true;
    fprintf (f, "# %s: %s %llu %s ", ms_meta_table (MS_META_UM_COUNTS)->key,
             ms_mode_name (c->mode), (unsigned long long) c->elements, c->variant[0] ? c->variant : "-");
    if (c->um.state == MS_UM_COUNTED || c->um.state == MS_UM_UNKNOWN)
      fprintf (f, "%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
               c->um.state == MS_UM_COUNTED ? "counted" : "unknown", c->um.gpu_faults,
               c->um.cpu_faults, c->um.h2d_bytes, c->um.d2h_bytes);
    else
      fputs ("unavailable", f);
    if (c->um.state == MS_UM_COUNTED) {
      fputc ('\n', f);
      continue;
    }
    char reason[sizeof c->um.reason];
    snprintf (reason, sizeof reason, "%s", c->um.reason);
    for (char *p = reason; *p; p++)
      if ((unsigned char) *p < ' ')
        *p = ' '; /* one line, whatever CUPTI said */
    fprintf (f, " %s\n", reason);
  }
}

/* A decimal count at *p after blanks, up to a blank or the end: no sign,
 * no overflow (sscanf's %llu takes "-1" and wraps, saturates past 2^64
 * and splits a long number in two). */
static bool
read_count (const char **p, uint64_t *out)
{
  const char *s = *p;
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s < '0' || *s > '9')
    return false;
  uint64_t v = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    unsigned digit = (unsigned) (*s - '0');
    if (v > (UINT64_MAX - digit) / 10)
      return false;
    v = v * 10 + digit;
  }
  if (*s && *s != ' ' && *s != '\t')
    return false;
  *p = s;
  *out = v;
  return true;
}

/* One line's value; false when malformed (the line is then ignored). */
static bool
parse_line (const char *value, MsUmLine *out)
{
  char mode[24], variant[MS_VARIANT_LEN], state[16];
  uint64_t elements, n[4];
  int used = 0, rest = 0;
  memset (out, 0, sizeof *out);
  if (sscanf (value, "%23s%n", mode, &used) != 1 || !ms_mode_from_name (mode, &out->mode))
    return false;
  value += used;
  if (!read_count (&value, &elements) || (out->exponent = ms_exponent_of_elements (elements)) < 0 ||
      sscanf (value, "%47s %15s %n", variant, state, &rest) < 2)
    return false;
  value += rest;
  snprintf (out->variant, sizeof out->variant, "%s", strcmp (variant, "-") ? variant : "");
  if (strcmp (state, "unavailable") == 0) {
    out->counts.state = MS_UM_UNAVAILABLE;
    snprintf (out->counts.reason, sizeof out->counts.reason, "%s", value);
    return true;
  }
  bool unknown = strcmp (state, "unknown") == 0;
  if (!unknown && strcmp (state, "counted") != 0)
    return false;
  for (int i = 0; i < 4; i++)
    if (!read_count (&value, &n[i]))
      return false;
  value += strspn (value, " \t");
  if (unknown ? *value == '\0' : *value != '\0')
    return false; /* counted: more than four counts; unknown: no reason */
  out->counts = (MsUmCounts){ .state = unknown ? MS_UM_UNKNOWN : MS_UM_COUNTED,
                              .gpu_faults = n[0], .cpu_faults = n[1], .h2d_bytes = n[2],
                              .d2h_bytes = n[3] };
  if (unknown)
    snprintf (out->counts.reason, sizeof out->counts.reason, "%s", value);
  return true;
}

bool
ms_um_pending_take (MsMetaPending *pending, MsMetaId id, const char *value)
{
  MsUmLine parsed;
  if (id != MS_META_UM_COUNTS)
    return false;
  if (parse_line (value, &parsed))
    ms_meta_pending_add (pending, &parsed, sizeof parsed);
  return true;
}

void
ms_um_pending_attach (const MsMetaPending *pending, MsResults *results)
{
  for (int i = 0; i < pending->n; i++) {
    const MsUmLine *l = (const MsUmLine *) pending->items + i;
    MsCell *c = (MsCell *) ms_results_find_variant (results, l->mode, l->exponent, l->variant);
    if (!c)
      continue;
    char touch[16];
    bool resident = ms_variant_get (c->variant, "touch", touch, sizeof touch) &&
                    strcmp (touch, "resident") == 0;
    c->um = l->counts;
    /* Files written before the rule carry such counts as counted. */
    ms_um_counts_judge (c->mode, c->elements, resident, &c->um);
  }
}
