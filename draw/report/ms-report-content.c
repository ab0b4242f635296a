/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-content.c: facts, table rows and captions from a run. */
#include "ms-run-describe.h"
#include "ms-report-content.h"

#include <glib/gi18n.h>

#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-lessons.h"
#include "ms-report-views.h"

/* The installed envelope file, read once (NULL when there is none). */
static const MsEnvelopes *
report_envelopes (void)
{
  static gsize done;
  static MsEnvelopes *env;
  if (g_once_init_enter (&done)) {
    char path[1024], err[1024];
    if (ms_envelopes_default_path (path, sizeof path))
      env = ms_envelopes_read (path, err, sizeof err);
    g_once_init_leave (&done, 1);
  }
  return env;
}

/* g_strv_builder_take is newer than GLib 2.74. */
static void
take (GStrvBuilder *b, char *sentence)
{
  g_strv_builder_add (b, sentence);
  g_free (sentence);
}

static void
add_fact (GStrvBuilder *b, const char *key, char *value)
{
  g_strv_builder_add (b, key);
  take (b, value);
}

GStrv
ms_report_facts (const MsResults *run)
{
  const MsDeviceInfo *d = &run->device;
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  char drv[16], rt[16], mem[32];
  ms_format_version (d->driver_version, drv, sizeof drv);
  ms_format_version (d->runtime_version, rt, sizeof rt);
  ms_format_bytes (d->total_mem, mem, sizeof mem);
  /* Its sidecar missing, damaged or another run's: the device and the
   * settings a report would show are the reader's defaults, not this
   * run's (show and compare say so too). */
  if (run->metadata_unknown[0]) {
    add_fact (b, _("Device"), g_strdup_printf (_("unknown: %s"), run->metadata_unknown));
  } else if (!d->present || !d->name[0]) {
    /* Without a GPU its facts would read "0.0", "0 B", "0": none are shown. */
    add_fact (b, _("Device"), g_strdup (_("no GPU: CPU baseline")));
  } else {
    add_fact (b, _("Device"), g_strdup (d->name));
    add_fact (b, _("Compute capability"), g_strdup_printf ("%d.%d", d->cc_major, d->cc_minor));
    add_fact (b, _("Memory"), g_strdup (mem));
    add_fact (b, _("PCIe link"),
              d->pcie_gen > 0 ? g_strdup_printf (_("gen%d x%d (max gen%d x%d)"), d->pcie_gen,
                                                 d->pcie_width, d->pcie_gen_max, d->pcie_width_max)
                              : g_strdup (_("unknown")));
    add_fact (b, _("Driver"),
              g_strdup_printf (_("%s (CUDA driver %s, runtime %s)"),
                               d->driver_release[0] ? d->driver_release : _("unknown"), drv, rt));
    add_fact (b, _("Copy engines"), g_strdup_printf ("%d", d->async_engine_count));
    char health[1024];
    MsEnvJudgement j;
    ms_health_describe (run, health, sizeof health);
    add_fact (b, _("Health"), g_strdup (health));
    ms_envelope_judge (report_envelopes (), run, &j);
    add_fact (b, _("Envelope"), g_strdup (j.summary));
  }
  add_fact (b, _("Settings"), ms_report_settings_text (run));
  add_fact (b, _("Measured"), run->date[0] ? ms_run_describe_date (run->date) : g_strdup (_("unknown")));
  add_fact (b, _("memsweep version"), g_strdup (run->version[0] ? run->version : _("unknown")));
  if (run->from_summary)
    add_fact (b, _("Source"), g_strdup (_("a summary file: statistics only, no timeline")));
  /* The run's own note (the window's, or read from its file). */
  if (run->note[0])
    add_fact (b, _("Note"), g_strdup (run->note));
  return g_strv_builder_end (b);
}

const char *
ms_report_table_heading (guint column)
{
  static const char *const headings[MS_REPORT_TABLE_COLUMNS] = {
    N_ ("Mode"),         N_ ("Size"),       N_ ("Status"),     N_ ("Reps"),      N_ ("Median µs"),
    /* xgettext: no-c-format */
    N_ ("95% interval ±%"),    N_ ("E2E GB/s"),   N_ ("H2D GB/s"),   N_ ("D2H GB/s"),
  };
  return column < MS_REPORT_TABLE_COLUMNS ? _(headings[column]) : "";
}

static char *
gbps (double v, gboolean ok)
{
  return ok && v > 0 ? g_strdup_printf ("%.2f", v) : g_strdup ("–");
}

void
ms_report_table_row (const MsResults *run, guint i, char *cols[MS_REPORT_TABLE_COLUMNS])
{
  const MsCell *c = &run->cells[i];
  const MsStat *e = &c->stats.e2e;
  gboolean ok = c->status == MS_CELL_OK && e->n > 0;
  char size[32];
  ms_format_bytes (ms_vector_bytes (c->elements), size, sizeof size);
  cols[0] = g_strdup (ms_mode_name (c->mode));
  cols[1] = g_strdup (size);
  cols[2] = g_strdup (ms_cell_status_name (c->status));
  cols[3] = g_strdup_printf ("%d", e->n);
  cols[4] = ok ? g_strdup_printf (e->median < 100 ? "%.2f" : "%.1f", e->median) : g_strdup ("–");
  cols[5] = ok && e->ci_valid && e->median > 0
              ? g_strdup_printf ("%.1f", 100 * MAX (e->ci_high - e->median, e->median - e->ci_low) /
                                           e->median)
              : g_strdup ("–");
  cols[6] = gbps (c->stats.e2e_gbps, ok);
  cols[7] = gbps (c->stats.h2d_gbps, ok);
  cols[8] = gbps (c->stats.d2h_gbps, ok);
}

void
ms_report_table_row_clear (char *cols[MS_REPORT_TABLE_COLUMNS])
{
  for (int i = 0; i < MS_REPORT_TABLE_COLUMNS; i++)
    g_clear_pointer (&cols[i], g_free);
}

static const MsCell *
ok_cell (const MsResults *run, MsMode mode, int exponent)
{
  const MsCell *c = ms_results_find (run, mode, exponent);
  return c && c->status == MS_CELL_OK && c->stats.e2e.n > 0 ? c : NULL;
}

/* The largest size at which both modes have data, or -1. */
static int
shared_exponent (const MsResults *run, MsMode a, MsMode b)
{
  for (int e = MS_MAX_EXPONENT; e >= MS_MIN_EXPONENT; e--)
    if (ok_cell (run, a, e) && ok_cell (run, b, e))
      return e;
  return -1;
}

static char *
size_text (int exponent)
{
  char buf[32];
  ms_format_bytes (ms_exponent_bytes (exponent), buf, sizeof buf);
  return g_strdup (buf);
}

static void
caption_pinned (GStrvBuilder *b, const MsResults *run)
{
  int e = shared_exponent (run, MS_MODE_PINNED, MS_MODE_PAGEABLE);
  if (e < 0)
    return;
  const MsCell *p = ok_cell (run, MS_MODE_PINNED, e), *q = ok_cell (run, MS_MODE_PAGEABLE, e);
  if (p->stats.h2d_gbps <= 0 || q->stats.h2d_gbps <= 0)
    return;
  g_autofree char *size = size_text (e);
  take (
    b, g_strdup_printf (_("Pinned host-to-device copies are %.1f × pageable ones at %s per "
                          "vector (%.2f GB/s against %.2f GB/s): pageable memory goes through a "
                          "staging buffer first."),
                        p->stats.h2d_gbps / q->stats.h2d_gbps, size, p->stats.h2d_gbps,
                        q->stats.h2d_gbps));
}

/* The fastest and slowest mode end to end at the largest size, among those
 * that move data between host and device. */
static void
caption_fastest (GStrvBuilder *b, const MsResults *run)
{
  int e = ms_report_run_largest_exponent (run);
  const MsCell *best = NULL, *worst = NULL;
  for (int m = 0; e >= 0 && m < MS_MODE_COUNT; m++) {
    const MsCell *c = ok_cell (run, m, e);
    MsModeMemory memory = ms_mode_memory (m);
    if (!c || memory == MS_MEMORY_DEVICE || memory == MS_MEMORY_HOST || c->stats.e2e_gbps <= 0)
      continue;
    if (!best || c->stats.e2e_gbps > best->stats.e2e_gbps)
      best = c;
    if (!worst || c->stats.e2e_gbps < worst->stats.e2e_gbps)
      worst = c;
  }
  if (!best || best == worst)
    return;
  g_autofree char *size = size_text (e);
  take (
    b, g_strdup_printf (_("At %s per vector the fastest mode end to end is %s (%.2f GB/s) and the "
                          "slowest %s (%.2f GB/s), %.1f × apart."),
                        size, ms_mode_title (best->mode), best->stats.e2e_gbps,
                        ms_mode_title (worst->mode), worst->stats.e2e_gbps,
                        best->stats.e2e_gbps / worst->stats.e2e_gbps));
}

/* Where the fixed cost and the transfer take equally long. */
static void
caption_latency (GStrvBuilder *b, const MsResults *run)
{
  MsFit fit = ms_results_fit (run, MS_MODE_PINNED, MS_PHASE_COUNT);
  if (!fit.valid || !fit.describes_data || fit.bandwidth_gbps <= 0 || fit.latency_us <= 0)
    return;
  char bytes[32];
  /* latency = bytes / bandwidth, three vectors moved in all. */
  ms_format_bytes ((uint64_t) (fit.latency_us * 1e3 * fit.bandwidth_gbps / 3.0), bytes,
                   sizeof bytes);
  take (
    b, g_strdup_printf (_("Pinned transfers cost a fixed %.1f µs and then move %.2f GB/s (fit R² "
                          "%.3f): below about %s per vector the fixed cost is most of the time."),
                        fit.latency_us, fit.bandwidth_gbps, fit.r2, bytes));
}

static void
caption_prefetch (GStrvBuilder *b, const MsResults *run)
{
  int e = shared_exponent (run, MS_MODE_MANAGED, MS_MODE_MANAGED_PREFETCH);
  if (e < 0)
    return;
  const MsCell *m = ok_cell (run, MS_MODE_MANAGED, e);
  const MsCell *p = ok_cell (run, MS_MODE_MANAGED_PREFETCH, e);
  g_autofree char *size = size_text (e);
  double ratio = m->stats.e2e.median / p->stats.e2e.median;
  take (
    b, g_strdup_printf (ratio >= 1 ? _("Managed memory without a prefetch takes %.1f × the time "
                                       "of a prefetched one at %s per vector (%.1f µs against "
                                       "%.1f µs).")
                                   : _("Managed memory without a prefetch takes %.1f × the time "
                                       "of a prefetched one at %s per vector (%.1f µs against "
                                       "%.1f µs): here the prefetch does not pay."),
                        ratio, size, m->stats.e2e.median, p->stats.e2e.median));
}

static void
caption_pcie (GStrvBuilder *b, const MsResults *run)
{
  const MsDeviceInfo *d = &run->device;
  double link = ms_pcie_theoretical_gbps (d->pcie_gen, d->pcie_width);
  double best = 0;
  const MsCell *at = NULL;
  for (size_t i = 0; i < run->n_cells; i++)
    if (run->cells[i].mode == MS_MODE_PINNED && run->cells[i].status == MS_CELL_OK &&
        run->cells[i].stats.h2d_gbps > best)
      best = run->cells[i].stats.h2d_gbps, at = &run->cells[i];
  if (link <= 0 || best <= 0)
    return;
  /* The copies alone, as the chart's "Host → device copy": not the
   * end-to-end rate, which is lower. */
  char size[32];
  ms_format_bytes (ms_vector_bytes (at->elements), size, sizeof size);
  take (b, g_strdup_printf (_("The PCIe link runs at gen%d x%d, %.1f GB/s per direction in "
                              "theory; the best pinned host-to-device copy (the median of the "
                              "copies alone, at %s) reached %.1f GB/s (%.0f %%)."),
                            d->pcie_gen, d->pcie_width, link, size, best, 100 * best / link));
}

/* Each key figure the run measured against its envelope
 * (docs/envelopes.md). */
static void
caption_envelope (GStrvBuilder *b, const MsResults *run)
{
  MsEnvJudgement j;
  if (!run->device.present || !run->device.name[0])
    return;
  ms_envelope_judge (report_envelopes (), run, &j);
  for (int f = 0; f < MS_ENV_N_FIGURES; f++)
    if (j.v[f].kind != MS_ENV_NOT_MEASURED)
      g_strv_builder_add (b, j.v[f].text);
}

/* The lessons this run answers, in the words of their cards
 * (ms-lesson-caption.c): only sentences stated from measured numbers. */
static void
caption_lessons (GStrvBuilder *b, const MsResults *run)
{
  char sentence[MS_LESSON_CAPTION_MAX];
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic ((MsLessonTopic) t);
    if (!ms_lesson_topic_matches ((MsLessonTopic) t, run) ||
        !ms_lesson_caption ((MsLessonTopic) t, run, -1, sentence, sizeof sentence))
      continue;
    /* TRANSLATORS: a lesson's title, then its caption. */
    take (b, g_strdup_printf (_("Lesson, %s: %s"), ms_gettext (info->title), sentence));
  }
}

GStrv
ms_report_captions (const MsResults *run)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  caption_pinned (b, run);
  caption_fastest (b, run);
  caption_latency (b, run);
  caption_prefetch (b, run);
  caption_pcie (b, run);
  caption_envelope (b, run);
  caption_lessons (b, run);
  return g_strv_builder_end (b);
}
