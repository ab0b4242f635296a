/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-setup-differences.c: the sentence of ms-setup-differences.h, built
 * item by item: each fact both files record, compared as text. */
#define _GNU_SOURCE /* asprintf */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-i18n.h"
#include "ms-modes.h"
#include "ms-setup-differences.h"

typedef struct {
  char text[1024];
  size_t len;
  int items;
} Differences;

static void
append (Differences *d, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  int n = vsnprintf (d->text + d->len, sizeof d->text - d->len, format, ap);
  va_end (ap);
  if (n > 0)
    d->len = d->len + (size_t) n < sizeof d->text ? d->len + (size_t) n : sizeof d->text - 1;
}

/* One item, "NUMA node (0 / 1)", when a and b are both known and differ. */
static void
add_difference (Differences *d, const char *what, const char *a, const char *b)
{
  if (!a[0] || !b[0] || strcmp (a, b) == 0)
    return;
  if (d->items++)
    append (d, "%s", ms_pgettext ("setup differences", ", "));
  /* TRANSLATORS: one setting that differs between runs A and B, e.g.
   * "CPU core of the measuring thread (5 / 1)". */
  append (d, ms_pgettext ("setup differences", "%s (%s / %s)"), what, a, b);
}

static void
add_int_difference (Differences *d, const char *what, bool known, int a, int b)
{
  char ta[16], tb[16];
  if (!known || a == b)
    return;
  snprintf (ta, sizeof ta, "%d", a);
  snprintf (tb, sizeof tb, "%d", b);
  add_difference (d, what, ta, tb);
}

static void
link_text (const MsDeviceInfo *info, char *buf, size_t size)
{
  buf[0] = '\0';
  if (info->pcie_gen > 0)
    snprintf (buf, size, "gen%d x%d", info->pcie_gen, info->pcie_width);
}

static void
version_text (int version, char *buf, size_t size)
{
  buf[0] = '\0';
  if (version > 0)
    ms_format_version (version, buf, size);
}

/* The host's side as the files record it: driver, CUDA, link, CPUs. */
static void
host_differences (Differences *d, const MsDeviceInfo *a, const MsDeviceInfo *b)
{
  char ta[32], tb[32];
  add_difference (d, ms_gettext ("NVIDIA driver"), a->driver_release, b->driver_release);
  version_text (a->runtime_version, ta, sizeof ta);
  version_text (b->runtime_version, tb, sizeof tb);
  add_difference (d, ms_gettext ("CUDA runtime"), ta, tb);
  link_text (a, ta, sizeof ta);
  link_text (b, tb, sizeof tb);
  add_difference (d, ms_gettext ("PCIe link"), ta, tb);
  add_difference (d, ms_gettext ("CPUs allowed"), a->host_cpu_affinity, b->host_cpu_affinity);
  add_int_difference (d, ms_gettext ("CPU core of the measuring thread"), a->pinned && b->pinned,
                      a->measuring_cpu, b->measuring_cpu);
  add_int_difference (d, ms_gettext ("NUMA node"), a->node_known && b->node_known,
                      a->measuring_node, b->measuring_node);
  /* A file that does not say was written by one thread. */
  add_int_difference (d, ms_gettext ("threads writing large inputs"), true,
                      a->prep_threads > 1 ? a->prep_threads : 1,
                      b->prep_threads > 1 ? b->prep_threads : 1);
  add_difference (d, ms_gettext ("experiment switches"),
                  a->experiment_switches[0] ? a->experiment_switches : "–",
                  b->experiment_switches[0] ? b->experiment_switches : "–");
}

static const char *
order_text (MsIssueOrder order)
{
  return order == MS_ORDER_BREADTH_FIRST ? ms_gettext ("breadth-first")
                                         : ms_gettext ("depth-first");
}

/* The sweep's settings that change a cell's figure (the sizes and modes
 * only change which cells there are). */
static void
settings_differences (Differences *d, const MsResults *a, const MsResults *b)
{
  add_int_difference (d, ms_gettext ("streams"), true, a->sweep.streams, b->sweep.streams);
  add_difference (d, ms_gettext ("issue order"), order_text (a->sweep.order),
                  order_text (b->sweep.order));
  add_int_difference (d, ms_gettext ("warm-up runs"), true, a->sweep.warmup, b->sweep.warmup);
  add_difference (d, ms_gettext ("run-to-run profile"),
                  a->run_to_run.valid ? ms_gettext ("yes") : ms_gettext ("no"),
                  b->run_to_run.valid ? ms_gettext ("yes") : ms_gettext ("no"));
}

static const char *
gpu_name (const MsResults *run)
{
  const char *name = run->device.name;
  return strncmp (name, "NVIDIA ", 7) == 0 ? name + 7 : name;
}

char *
ms_setup_differences (const MsResults *a, const MsResults *b)
{
  Differences d = { .len = 0 };
  bool other_gpu = strcmp (gpu_name (a), gpu_name (b)) != 0;
  add_difference (&d, ms_gettext ("GPU"), gpu_name (a), gpu_name (b));
  add_difference (&d, ms_gettext ("PCI bus"), a->device.pci_bus_id, b->device.pci_bus_id);
  host_differences (&d, &a->device, &b->device);
  settings_differences (&d, a, b);
  if (!d.items)
    return NULL;
  char *sentence = NULL;
  int n;
  /* The files name neither the host nor its CPU and memory: with two GPUs
   * the hosts may differ too, and every end-to-end time includes them. */
  if (other_gpu)
    n = asprintf (&sentence,
                  ms_ngettext ("Not the same setup: %s differs (A / B). The files do not name "
                               "the host or its CPU, and end-to-end times include the host's "
                               "part: a difference may be the host's, not the GPU's.",
                               "Not the same setup: %s differ (A / B). The files do not name the "
                               "host or its CPU, and end-to-end times include the host's part: "
                               "a difference may be the host's, not the GPU's.",
                               (unsigned long) d.items),
                  d.text);
  else
    /* TRANSLATORS: %s lists what differs, e.g. "experiment switches
     * (– / inject=20)". */
    n = asprintf (&sentence,
                  ms_ngettext ("Not the same setup: %s differs (A / B): a difference may be due "
                               "to it, not to the GPU.",
                               "Not the same setup: %s differ (A / B): a difference may be "
                               "theirs, not the GPU's.",
                               (unsigned long) d.items),
                  d.text);
  return n < 0 ? NULL : sentence;
}
