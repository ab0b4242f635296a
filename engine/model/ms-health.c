/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health.c: the link and clock health of a run, in words and per size,
 * the PCIe counters around it, and their metadata lines (ms-health.h). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ms-gpu-state.h"
#include "ms-health.h"
#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-pcie-aer.h"
#include "ms-rounds.h"

static double
link_rate (int gen, int width)
{
  return ms_pcie_theoretical_gbps (gen, width);
}

bool
ms_cell_link_under_load (const MsCell *cell, int *gen, int *width)
{
  *gen = *width = 0;
  for (int i = 0; i < cell->n_rounds; i++) {
    const MsCellRound *r = &cell->rounds[i];
    if (r->link_gen <= 0 || r->link_width <= 0)
      continue;
    if (*gen == 0 || link_rate (r->link_gen, r->link_width) < link_rate (*gen, *width)) {
      *gen = r->link_gen;
      *width = r->link_width;
    }
  }
  return *gen > 0;
}

static bool
is_gpu_cell (const MsCell *c)
{
  return ms_mode_uses_gpu (c->mode) && c->n_reps > 0 && c->n_rounds > 0;
}

static bool
below_max (int gen, int width, int gen_max, int width_max)
{
  return gen > 0 && ((gen_max > 0 && gen < gen_max) || (width_max > 0 && width < width_max));
}

static bool
cell_state_known (const MsCell *c)
{
  for (int i = 0; i < c->n_rounds; i++)
    if (c->rounds[i].start.valid || c->rounds[i].end.valid)
      return true;
  return false;
}

/* The (gen, width) most rounds of GPU cells read; 0 when none was read. */
static void
most_common_link (const MsResults *results, int *gen, int *width)
{
  int counts[8][33] = { { 0 } };
  int best = 0;
  *gen = *width = 0;
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    for (int k = 0; is_gpu_cell (c) && k < c->n_rounds; k++) {
      int g = c->rounds[k].link_gen, w = c->rounds[k].link_width;
      if (g <= 0 || g >= 8 || w <= 0 || w > 32)
        continue;
      if (++counts[g][w] > best) {
        best = counts[g][w];
        *gen = g;
        *width = w;
      }
    }
  }
}

void
ms_health_compute (const MsResults *results, MsHealth *h)
{
  memset (h, 0, sizeof *h);
  h->gen_max = results->device.pcie_gen_max;
  h->width_max = results->device.pcie_width_max;
  most_common_link (results, &h->gen, &h->width);
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (!is_gpu_cell (c)) {
      h->n_gpu_cells_unread += ms_mode_uses_gpu (c->mode) && results->from_summary;
      continue;
    }
    h->n_gpu_cells++;
    int g, w;
    if (ms_cell_link_under_load (c, &g, &w)) {
      h->n_link_known++;
      h->n_below += below_max (g, w, h->gen_max, h->width_max);
      if (h->slow_gen == 0 || link_rate (g, w) < link_rate (h->slow_gen, h->slow_width)) {
        h->slow_gen = g;
        h->slow_width = w;
      }
    }
    if (cell_state_known (c)) {
      int flags = ms_cell_state_flags (c);
      h->n_state_known++;
      h->n_throttled += (flags & MS_STATE_THROTTLED) != 0;
      h->n_clock_moved += (flags & MS_STATE_CLOCK_CHANGED) != 0;
    }
  }
}

bool
ms_health_warns (const MsHealth *h)
{
  return h->n_below > 0 || h->n_throttled > 0;
}

int
ms_health_points (const MsResults *results, MsHealthPoint *points, int max)
{
  int n = 0;
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT && n < max; e++) {
    MsHealthPoint p = { .exponent = e };
    bool any = false;
    for (size_t i = 0; i < results->n_cells; i++) {
      const MsCell *c = &results->cells[i];
      int g, w;
      if (c->exponent != e || !is_gpu_cell (c))
        continue;
      any = true;
      if (ms_cell_link_under_load (c, &g, &w)
          && (p.gen == 0 || link_rate (g, w) < link_rate (p.gen, p.width))) {
        p.gen = g;
        p.width = w;
      }
      if (cell_state_known (c)) {
        int flags = ms_cell_state_flags (c);
        p.state_known = true;
        p.throttled = p.throttled || (flags & MS_STATE_THROTTLED);
        p.clock_moved = p.clock_moved || (flags & MS_STATE_CLOCK_CHANGED);
      }
    }
    p.below
        = below_max (p.gen, p.width, results->device.pcie_gen_max, results->device.pcie_width_max);
    if (any)
      points[n++] = p;
  }
  return n;
}

void
ms_health_format_link (int gen, int width, char *buf, size_t len)
{
  if (gen > 0 && width > 0)
    snprintf (buf, len, "gen%d x%d", gen, width);
  else
    snprintf (buf, len, "%s", ms_gettext ("unknown"));
}

/* A part of ms_health_describe's sentence. */
static void
describe_link (const MsHealth *h, char *buf, size_t len)
{
  char link[32], max[32], slow[32];
  ms_health_format_link (h->gen, h->width, link, sizeof link);
  ms_health_format_link (h->gen_max, h->width_max, max, sizeof max);
  ms_health_format_link (h->slow_gen, h->slow_width, slow, sizeof slow);
  if (h->n_gpu_cells == 0 && h->n_gpu_cells_unread > 0)
    /* A summary holds each cell's statistics, not the rounds that read
     * the link: unknown from this file, not absent. */
    snprintf (buf, len, "%s",
              ms_gettext ("unknown (a summary file holds no link readings: read its samples "
                          "file)"));
  else if (h->n_gpu_cells == 0)
    snprintf (buf, len, "%s", ms_gettext ("no GPU cells"));
  else if (h->n_link_known == 0)
    snprintf (buf, len, "%s", ms_gettext ("not recorded"));
  else if (h->n_below > 0 && (h->slow_gen != h->gen || h->slow_width != h->width))
    /* TRANSLATORS: the link most cells ran at, the slowest one, in how many
     * cells of how many it ran below the device's maximum, the maximum. */
    snprintf (buf, len, ms_gettext ("%s (slowest %s), below its maximum %s in %d of %d cells"),
              link, slow, max, h->n_below, h->n_link_known);
  else if (h->n_below > 0)
    snprintf (buf, len, ms_gettext ("%s, below its maximum %s in %d of %d cells"), link, max,
              h->n_below, h->n_link_known);
  else if (h->gen_max > 0 && h->width_max > 0)
    snprintf (buf, len, ms_gettext ("%s (its maximum)"), link);
  else
    snprintf (buf, len, ms_gettext ("%s (its maximum unknown)"), link);
}

static void
describe_clocks (const MsHealth *h, char *buf, size_t len)
{
  if (h->n_state_known == 0 && h->n_gpu_cells == 0 && h->n_gpu_cells_unread > 0)
    snprintf (buf, len, "%s", ms_gettext ("clocks unknown (not in a summary file)"));
  else if (h->n_state_known == 0)
    snprintf (buf, len, "%s", ms_gettext ("clocks not recorded"));
  else if (h->n_throttled > 0 && h->n_clock_moved > 0)
    snprintf (buf, len, ms_gettext ("throttled in %d and SM clock moved in %d of %d cells"),
              h->n_throttled, h->n_clock_moved, h->n_state_known);
  else if (h->n_throttled > 0)
    snprintf (buf, len, ms_gettext ("throttled in %d of %d cells"), h->n_throttled,
              h->n_state_known);
  else if (h->n_clock_moved > 0)
    snprintf (buf, len, ms_gettext ("no throttling; SM clock moved in %d of %d cells"),
              h->n_clock_moved, h->n_state_known);
  else
    snprintf (buf, len, "%s", ms_gettext ("no throttling, clocks steady"));
}

static void
describe_counter (const MsLinkCounter *c, char *buf, size_t len)
{
  if (c->state == MS_COUNTER_UNKNOWN)
    snprintf (buf, len, "%s", ms_gettext ("not recorded"));
  else if (c->state == MS_COUNTER_NOT_READABLE)
    snprintf (buf, len, "%s", ms_gettext ("not readable"));
  else if (c->after < c->before)
    snprintf (buf, len, ms_gettext ("reset during the run (%llu before, %llu after)"),
              (unsigned long long)c->before, (unsigned long long)c->after);
  else
    snprintf (buf, len, ms_gettext ("%llu during the run (%llu before)"),
              (unsigned long long)(c->after - c->before), (unsigned long long)c->before);
}

void
ms_health_describe (const MsResults *results, char *buf, size_t len)
{
  MsHealth h;
  char link[160], clocks[120], aer[80], replays[80];
  ms_health_compute (results, &h);
  describe_link (&h, link, sizeof link);
  describe_clocks (&h, clocks, sizeof clocks);
  describe_counter (&results->aer_correctable, aer, sizeof aer);
  describe_counter (&results->replays, replays, sizeof replays);
  /* TRANSLATORS: the link under load, the clocks, the PCIe correctable
   * errors and replays, each described in words. */
  snprintf (buf, len,
            ms_gettext ("PCIe link under load: %s; %s; correctable errors: %s; replays: %s"), link,
            clocks, aer, replays);
}

/* ---- the counters -------------------------------------------------------- */

static void
note_counter (MsLinkCounter *c, bool ok, uint64_t v, bool before)
{
  if (before) {
    c->state = ok ? MS_COUNTER_READ : MS_COUNTER_NOT_READABLE;
    c->before = c->after = ok ? v : 0;
  } else if (c->state == MS_COUNTER_READ) {
    if (ok)
      c->after = v;
    else
      c->state = MS_COUNTER_NOT_READABLE;
  }
}

void
ms_link_counters_read (MsNvml *nvml, const char *pci_bus_id, MsResults *results, bool before)
{
  uint64_t v = 0;
  bool ok = ms_aer_read_correctable (NULL, pci_bus_id, &v);
  note_counter (&results->aer_correctable, ok, v, before);
  v = 0;
  ok = ms_nvml_replays (nvml, &v);
  note_counter (&results->replays, ok, v, before);
}
