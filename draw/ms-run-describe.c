/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run-describe.c: a run in words: its streams settings (a plain sweep
 * has one stream count and order, its metadata; an experiment's cells carry
 * theirs in their variants) and its date, in the one form every view uses. */
#include <glib/gi18n.h>

#include "ms-engine.h"
#include "ms-run-describe.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  int k_min, k_max;
  gboolean order[2]; /* depth, breadth */
  gboolean queue[2]; /* default, single */
  gboolean any;
} StreamSettings;

static void
scan_variants (const MsResults *run, StreamSettings *s)
{
  for (gsize i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    char value[16];
    int k;
    if (!ms_sweep_knob_applies (MS_KNOB_STREAMS, c->mode))
      continue;
    if (ms_variant_get_int (c->variant, "K", &k) && k > 0) {
      s->k_min = s->k_min ? MIN (s->k_min, k) : k;
      s->k_max = MAX (s->k_max, k);
      s->any = TRUE;
    }
    if (ms_variant_get (c->variant, "order", value, sizeof value)) {
      s->order[g_str_equal (value, "breadth")] = TRUE;
      s->any = TRUE;
    }
    if (ms_variant_get (c->variant, "queue", value, sizeof value))
      s->queue[g_str_equal (value, "single")] = TRUE;
  }
}

static const char *
order_text (MsIssueOrder order)
{
  return order == MS_ORDER_BREADTH_FIRST ? _("breadth-first") : _("depth-first");
}

char *
ms_run_describe_streams (const MsResults *run)
{
  gboolean streams = FALSE;
  for (gsize i = 0; run && i < run->n_cells && !streams; i++)
    streams = ms_sweep_knob_applies (MS_KNOB_STREAMS, run->cells[i].mode);
  if (!streams)
    return NULL;
  StreamSettings s = { 0 };
  scan_variants (run, &s);
  if (!s.any) {
    int k = run->sweep.streams;
    return g_strdup_printf (ngettext ("%d stream, %s", "%d streams, %s", k), k,
                            order_text (run->sweep.order));
  }
  if (!s.k_max)
    s.k_min = s.k_max = run->sweep.streams;
  GString *text = g_string_new (NULL);
  if (s.k_min == s.k_max)
    g_string_append_printf (text, ngettext ("%d stream", "%d streams", s.k_max),
                            s.k_max);
  else
    /* TRANSLATORS: a range of stream counts, "1–16 streams". */
    g_string_append_printf (text, _("%d–%d streams"), s.k_min, s.k_max);
  if (s.order[0] && s.order[1])
    g_string_append_printf (text, ", %s", _("depth-first and breadth-first"));
  else
    g_string_append_printf (text, ", %s",
                            order_text (s.order[1]   ? MS_ORDER_BREADTH_FIRST
                                        : s.order[0] ? MS_ORDER_DEPTH_FIRST
                                                     : run->sweep.order));
  if (s.queue[0] && s.queue[1])
    g_string_append_printf (text, ", %s", _("one hardware queue and the default"));
  else if (s.queue[1])
    g_string_append_printf (text, ", %s", _("one hardware queue"));
  return g_string_free (text, FALSE);
}

char *
ms_run_describe_date (const char *iso)
{
  int y, mo, d, h, mi;
  char t, z = 0;
  /* Seconds and the zone letter are optional; anything else stays as is. */
  if (!iso || sscanf (iso, "%4d-%2d-%2d%c%2d:%2d", &y, &mo, &d, &t, &h, &mi) != 6 ||
      (t != 'T' && t != ' '))
    return g_strdup (iso ? iso : "");
  const char *zone = strpbrk (iso + 16, "Z+-");
  if (zone)
    z = *zone;
  return g_strdup_printf ("%04d-%02d-%02d %02d:%02d%s", y, mo, d, h, mi,
                          z == 'Z' ? " UTC" : "");
}

/* One item of the differences: "NUMA node (0 / 1)", when a and b
 * are both known and differ. */
static void
add_difference (GString *s, const char *what, const char *a, const char *b)
{
  if (!a[0] || !b[0] || strcmp (a, b) == 0)
    return;
  if (s->len)
    g_string_append (s, C_("setup differences", ", "));
  /* TRANSLATORS: one setting that differs between runs A and B, e.g.
   * "CPU core of the measuring thread (5 / 1)". */
  g_string_append_printf (s, C_("setup differences", "%s (%s / %s)"), what, a, b);
}

static void
add_int_difference (GString *s, const char *what, gboolean known, int a, int b)
{
  if (!known || a == b)
    return;
  char ta[16], tb[16];
  g_snprintf (ta, sizeof ta, "%d", a);
  g_snprintf (tb, sizeof tb, "%d", b);
  add_difference (s, what, ta, tb);
}

static char *
link_text (const MsDeviceInfo *d)
{
  return d->pcie_gen > 0 ? g_strdup_printf ("gen%d x%d", d->pcie_gen, d->pcie_width)
                         : g_strdup ("");
}

static char *
version_text (int version)
{
  char buf[32] = "";
  if (version > 0)
    ms_format_version (version, buf, sizeof buf);
  return g_strdup (buf);
}

/* The host's side as the files record it: driver, CUDA, link, CPUs. */
static void
host_differences (GString *s, const MsDeviceInfo *a, const MsDeviceInfo *b)
{
  add_difference (s, _("NVIDIA driver"), a->driver_release, b->driver_release);
  g_autofree char *cuda_a = version_text (a->runtime_version);
  g_autofree char *cuda_b = version_text (b->runtime_version);
  add_difference (s, _("CUDA runtime"), cuda_a, cuda_b);
  g_autofree char *link_a = link_text (a);
  g_autofree char *link_b = link_text (b);
  add_difference (s, _("PCIe link"), link_a, link_b);
  add_difference (s, _("CPUs allowed"), a->host_cpu_affinity, b->host_cpu_affinity);
  add_int_difference (s, _("CPU core of the measuring thread"), a->pinned && b->pinned,
                      a->measuring_cpu, b->measuring_cpu);
  add_int_difference (s, _("NUMA node"), a->node_known && b->node_known, a->measuring_node,
                      b->measuring_node);
  /* A file that does not say was written by one thread. */
  add_int_difference (s, _("threads writing large inputs"), TRUE, MAX (a->prep_threads, 1),
                      MAX (b->prep_threads, 1));
  add_difference (s, _("experiment switches"), a->experiment_switches[0] ? a->experiment_switches
                                                                        : "–",
                  b->experiment_switches[0] ? b->experiment_switches : "–");
}

/* The sweep's settings that change a cell's figure (the sizes and modes
 * only change which cells there are). */
static void
settings_differences (GString *s, const MsResults *a, const MsResults *b)
{
  add_int_difference (s, _("streams"), TRUE, a->sweep.streams, b->sweep.streams);
  add_difference (s, _("issue order"), order_text (a->sweep.order), order_text (b->sweep.order));
  add_int_difference (s, _("warm-up runs"), TRUE, a->sweep.warmup, b->sweep.warmup);
  add_difference (s, _("run-to-run profile"), a->run_to_run.valid ? _("yes") : _("no"),
                  b->run_to_run.valid ? _("yes") : _("no"));
}

char *
ms_run_describe_setup_differences (const MsResults *a, const MsResults *b)
{
  g_autoptr (GString) s = g_string_new (NULL);
  const char *gpu_a = g_str_has_prefix (a->device.name, "NVIDIA ") ? a->device.name + 7
                                                                   : a->device.name;
  const char *gpu_b = g_str_has_prefix (b->device.name, "NVIDIA ") ? b->device.name + 7
                                                                   : b->device.name;
  gboolean other_gpu = strcmp (gpu_a, gpu_b) != 0;
  add_difference (s, _("GPU"), gpu_a, gpu_b);
  add_difference (s, _("PCI bus"), a->device.pci_bus_id, b->device.pci_bus_id);
  host_differences (s, &a->device, &b->device);
  settings_differences (s, a, b);
  if (!s->len)
    return NULL;
  /* The files name neither the host nor its CPU and memory: with two GPUs
   * the hosts may differ too, and every end-to-end time includes them. */
  if (other_gpu)
    return g_strdup_printf (_("Not the same setup: %s differ (A / B). The files do not name the "
                              "host or its CPU, and end-to-end times include the host's part: "
                              "a difference may be the host's, not the GPU's."),
                            s->str);
  return g_strdup_printf (_("Not the same setup: %s differ (A / B): a difference may be theirs, "
                            "not the GPU's."),
                          s->str);
}
