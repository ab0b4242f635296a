/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-lesson-table.c: what `memsweep lesson NAME` prints after the
 * run: one line per cell (mode, size, variant) and the lesson's finding,
 * computed from the cells shown. */
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-lesson-table.h"
#include "ms-i18n.h"
#include "ms-lessons.h"
#include "ms-cli-tables.h"

static double
median_of (const MsResults *r, MsMode mode, int e, const char *variant)
{
  const MsCell *c = ms_results_find_variant (r, mode, e, variant);
  return c && c->status == MS_CELL_OK ? c->stats.e2e.median : -1;
}

/* A managed cell's unified-memory counts, from its extra counted
 * repetition (CUPTI), under the cell's line. */
static void
print_um_counts (FILE *out, const MsUmCounts *um)
{
  char h2d[32], d2h[32], clean[4 * sizeof um->reason];
  if (um->state == MS_UM_UNAVAILABLE) {
    fprintf (out, ms_gettext ("%18sunified memory not counted: %s\n"), "",
             ms_report_clean (um->reason, clean, sizeof clean));
    return;
  }
  if (um->state == MS_UM_UNKNOWN) {
    fprintf (out, ms_gettext ("%18sunified-memory counts unknown: %s\n"), "",
             ms_report_clean (um->reason, clean, sizeof clean));
    return;
  }
  if (um->state != MS_UM_COUNTED)
    return;
  ms_format_bytes (um->h2d_bytes, h2d, sizeof h2d);
  ms_format_bytes (um->d2h_bytes, d2h, sizeof d2h);
  fprintf (out,
           ms_gettext ("%18scounted repetition: %llu GPU page faults, %llu CPU page faults, "
                       "%s migrated to the device, %s to the host\n"),
           "", (unsigned long long) um->gpu_faults, (unsigned long long) um->cpu_faults, h2d,
           d2h);
}

/* A probe lesson's cell: one figure, and what its timers cost. */
static void
print_probe_cell (FILE *out, const MsCell *c)
{
  /* A cell of one element is a setting of the lesson (K kernels, say),
   * not a size: no "4 B". */
  char size[32] = "-";
  if (c->elements > 1)
    ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
  fprintf (out, "%-16s %9s  %-40s", ms_mode_name (c->mode), size, c->variant);
  if (c->status != MS_CELL_OK && c->status != MS_CELL_PARTIAL) {
    char clean[4 * sizeof c->message];
    fprintf (out, " %s: %s\n", ms_cell_status_name (c->status),
             ms_report_clean (c->message, clean, sizeof clean));
    return;
  }
  fprintf (out, " %12.1f %12.1f %12.1f", c->stats.e2e.median, c->stats.e2e.min,
           c->stats.e2e.max);
  if (c->stats.e2e_instr.n > 0)
    fprintf (out, " %12.1f", c->stats.e2e_instr.median);
  fputc ('\n', out);
}

static void print_cell_numbers (FILE *out, const MsCell *c, bool costs);

static void
print_cell (FILE *out, const MsCell *c, bool costs)
{
  char size[32];
  ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
  fprintf (out, "%-16s %9s  %-40s", ms_mode_name (c->mode), size, c->variant);
  if (!ms_report_has_numbers (c)) {
    char clean[4 * sizeof c->message];
    fprintf (out, " %s: %s\n", ms_cell_status_name (c->status),
             ms_report_clean (c->message, clean, sizeof clean));
    return;
  }
  print_cell_numbers (out, c, costs);
  if (c->status == MS_CELL_PARTIAL) {
    /* Its numbers are from the repetitions it finished: say so below. */
    char clean[4 * sizeof c->message];
    fprintf (out, "  %s: %s\n", ms_cell_status_name (c->status),
             ms_report_clean (c->message, clean, sizeof clean));
  }
}

static void
print_cell_numbers (FILE *out, const MsCell *c, bool costs)
{
  const MsCellStats *st = &c->stats;
  if (costs) {
    bool reg = c->mode == MS_MODE_REGISTERED;
    double a = st->phase_host[reg ? MS_PHASE_REGISTER : MS_PHASE_ALLOC].median;
    double f = st->phase_host[reg ? MS_PHASE_UNREGISTER : MS_PHASE_FREE].median;
    double mib = ms_vector_bytes (c->elements) / 1048576.0;
    bool sized = strstr (c->variant, "context") == NULL;
    fprintf (out, " %12.1f %12.1f", a, f);
    if (sized)
      fprintf (out, " %12.1f", (a + f) / mib);
    fputc ('\n', out);
    return;
  }
  fprintf (out, " %12.1f %8.2f %8.2f %10.1f %10.1f\n", st->e2e.median, st->h2d_gbps,
           st->d2h_gbps, st->phase[MS_PHASE_KERNEL].median, st->phase[MS_PHASE_VERIFY].median);
  print_um_counts (out, &c->um);
}

/* Reuse: the smallest R at which zero-copy takes longer than pinned. */
static void
reuse_finding (FILE *out, const MsResults *r)
{
  static const int rs[] = { 1, 2, 4, 8, 16 };
  /* The sizes the cells hold, not those the metadata names (a file's
   * word, not its data). */
  for (int e = MS_MIN_EXPONENT; e <= MS_MAX_EXPONENT; e++) {
    char size[32], v[MS_VARIANT_LEN];
    int from = 0, compared = 0;
    ms_format_bytes (ms_exponent_bytes (e), size, sizeof size);
    for (int i = 0; i < 5 && !from; i++) {
      snprintf (v, sizeof v, "R=%d", rs[i]);
      double zc = median_of (r, MS_MODE_ZERO_COPY, e, v), pin = median_of (r, MS_MODE_PINNED, e, v);
      compared += zc > 0 && pin > 0;
      if (zc > 0 && pin > 0 && zc > pin)
        from = rs[i];
    }
    if (compared < 5 && !from)
      continue; /* not every R measured: no finding */
    if (from)
      fprintf (out, ms_gettext ("At %s zero-copy takes longer than pinned from R = %d.\n"), size,
               from);
    else
      fprintf (out, ms_gettext ("At %s zero-copy is not slower than pinned up to R = 16.\n"),
               size);
  }
}

/* Duplex: both directions at once against the two alone. */
static void
duplex_finding (FILE *out, const MsResults *r)
{
  int e = r->sweep.max_exp;
  double both = median_of (r, MS_MODE_PINNED, e, "copy=duplex");
  double h2d = median_of (r, MS_MODE_PINNED, e, "copy=h2d");
  double d2h = median_of (r, MS_MODE_PINNED, e, "copy=d2h");
  if (both > 0 && h2d > 0 && d2h > 0)
    fprintf (out, ms_gettext ("Both directions at once take %.2f of the time of the two copies "
                              "one after the other (1.0: no overlap, 0.5: full duplex).\n"),
             both / (h2d + d2h));
}

/* Issue order: breadth-first against depth-first per queue and K. */
static void
issue_order_finding (FILE *out, const MsResults *r)
{
  static const int ks[] = { 1, 2, 4, 8, 16 };
  int e = r->sweep.max_exp;
  for (int q = 0; q < 2; q++)
    for (int i = 0; i < 5; i++) {
      char vd[MS_VARIANT_LEN], vb[MS_VARIANT_LEN];
      const char *queue = q ? "default" : "single";
      ms_lesson_streams_variant (vd, sizeof vd, !q, MS_ORDER_DEPTH_FIRST, ks[i]);
      ms_lesson_streams_variant (vb, sizeof vb, !q, MS_ORDER_BREADTH_FIRST, ks[i]);
      double d = median_of (r, MS_MODE_STREAMS, e, vd), b = median_of (r, MS_MODE_STREAMS, e, vb);
      if (d > 0 && b > 0)
        fprintf (out, ms_gettext ("queue=%s K=%d: breadth-first takes %.2f of depth-first's "
                                  "time\n"), queue, ks[i], b / d);
    }
}

static double
phase_of (const MsResults *r, MsMode mode, const char *variant, MsPhase p, bool gbps)
{
  const MsCell *c = ms_results_find_variant (r, mode, r->sweep.max_exp, variant);
  if (!c || c->status != MS_CELL_OK)
    return -1;
  return gbps ? c->stats.h2d_gbps : c->stats.phase[p].median;
}

/* Cache state: the copy rate per way of writing, and reading WC memory. */
static void
cache_state_finding (FILE *out, const MsResults *r)
{
  double s = phase_of (r, MS_MODE_PINNED, "stores=streamed", MS_PHASE_H2D, true);
  double o = phase_of (r, MS_MODE_PINNED, "stores=ordinary", MS_PHASE_H2D, true);
  double f = phase_of (r, MS_MODE_PINNED, "stores=fresh", MS_PHASE_H2D, true);
  double v = phase_of (r, MS_MODE_WRITE_COMBINED, "stores=streamed", MS_PHASE_VERIFY, false);
  double vwc = phase_of (r, MS_MODE_WRITE_COMBINED, "stores=streamed/read=wc", MS_PHASE_VERIFY,
                         false);
  if (s > 0 && o > 0 && f > 0)
    fprintf (out, ms_gettext ("Pinned copies to the device: %.2f GB/s after streaming stores, "
                              "%.2f after ordinary stores, %.2f from fresh buffers.\n"), s, o, f);
  if (v > 0 && vwc > 0)
    /* A ratio, not "slower": in the lent VMs it came out below 1. */
    fprintf (out, ms_gettext ("The CPU reading the result from write-combined memory takes %.2f "
                              "of the time it takes from cached memory (the material expects "
                              "far more than 1).\n"), vwc / v);
}

/* Managed: the kernel on first touch, on resident pages, after prefetch. */
static void
managed_finding (FILE *out, const MsResults *r)
{
  double f = phase_of (r, MS_MODE_MANAGED, "touch=first", MS_PHASE_KERNEL, false);
  double res = phase_of (r, MS_MODE_MANAGED, "touch=resident", MS_PHASE_KERNEL, false);
  double pre = phase_of (r, MS_MODE_MANAGED_PREFETCH, "touch=first", MS_PHASE_KERNEL, false);
  if (f > 0 && res > 0)
    fprintf (out, ms_gettext ("The kernel takes %.1f us on first touch, %.1f us on resident "
                              "pages.\n"), f, res);
  if (pre > 0)
    fprintf (out, ms_gettext ("After a prefetch it takes %.1f us.\n"), pre);
}

void
ms_cli_lesson_table (FILE *out, const MsResults *r)
{
  bool costs = strcmp (r->experiment, "costs") == 0;
  bool probe = ms_lesson_is_probe (r->experiment);
  fputc ('\n', out);
  if (probe) {
    fprintf (out, "%-16s %9s  %-40s %12s %12s %12s %12s\n", ms_gettext ("mode"),
             ms_gettext ("size"), ms_gettext ("variant"),
             ms_gettext ("median us"), ms_gettext ("min us"), ms_gettext ("max us"),
             ms_gettext ("timed us"));
    for (size_t i = 0; i < r->n_cells; i++)
      print_probe_cell (out, &r->cells[i]);
  } else if (costs)
    fprintf (out, "%-16s %9s  %-40s %12s %12s %12s\n", ms_gettext ("mode"), ms_gettext ("size"),
             ms_gettext ("variant"), ms_gettext ("alloc us"), ms_gettext ("free us"),
             ms_gettext ("us per MiB"));
  else
    fprintf (out, "%-16s %9s  %-40s %12s %8s %8s %10s %10s\n", ms_gettext ("mode"),
             ms_gettext ("size"), ms_gettext ("variant"), ms_gettext ("e2e us"),
             ms_gettext ("to GB/s"), ms_gettext ("back GB/s"), ms_gettext ("kernel us"),
             ms_gettext ("verify us"));
  for (size_t i = 0; i < r->n_cells && !probe; i++)
    print_cell (out, &r->cells[i], costs);
  fputc ('\n', out);
  MsLessonTopic topic = ms_lesson_topic_for_experiment (r->experiment);
  char caption[2048];
  if (topic != MS_TOPIC_COUNT && probe) {
    ms_lesson_caption (topic, r, -1, caption, sizeof caption);
    fprintf (out, "%s\n", caption);
  }
  if (strcmp (r->experiment, "reuse") == 0)
    reuse_finding (out, r);
  else if (strcmp (r->experiment, "duplex") == 0)
    duplex_finding (out, r);
  else if (strcmp (r->experiment, "issue-order") == 0)
    issue_order_finding (out, r);
  else if (strcmp (r->experiment, "cache-state") == 0)
    cache_state_finding (out, r);
  else if (strcmp (r->experiment, "managed-touch") == 0)
    managed_finding (out, r);
}
