/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-numa.c: the NUMA-placement lesson (docs/lessons.md): pinned
 * host-to-device and device-to-host copies of one size with the host
 * buffer on one NUMA node and the measuring thread on another, for each
 * pairing of the host's nodes. The topology comes from sysfs (ms-numa.c);
 * on a host of one node the cells say so instead of measuring. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "ms-gpu-state.h"
#include "ms-i18n.h"
#include "ms-lesson-caption-private.h"
#include "ms-lesson-record.h"
#include "ms-numa.h"

#define NAME "numa"

/* arg[] of the probe, read by kernels/lesson-numa.cu. */
enum { ARG_DIR, ARG_BUF_NODE, ARG_THR_NODE };
enum { DIR_H2D, DIR_D2H };

static const MsLessonOption options[] = {
  { "exp", 24, 16, 28, true, MS_N_ ("the copy's size: 2^exp floats") },
  { "buffer-node", -1, -1, MS_NUMA_MAX_NODES - 1, true,
    MS_N_ ("the NUMA node of the host buffer; -1: each node in turn") },
  { "thread-node", -1, -1, MS_NUMA_MAX_NODES - 1, true,
    MS_N_ ("the NUMA node of the measuring thread; -1: each node in turn") },
  { NULL },
};

/* The reason of a host with one node's cells, read back by the caption in
 * any language. */
#define ONE_NODE MS_N_ ("this host has one NUMA node")

static const char *const dirs[] = { "h2d", "d2h" };

/* The nodes an option picks: the one given, or every node. */
static int
picked (const MsNumaTopology *t, int option, int *ids)
{
  if (option >= 0 || t->n == 0) {
    ids[0] = option >= 0 ? option : 0;
    return 1;
  }
  for (int i = 0; i < t->n; i++)
    ids[i] = t->nodes[i].id;
  return t->n;
}

static int
cells (const MsSweep *sweep, int part, MsProbeCell *out, int max)
{
  (void)part;
  static MsNumaTopology topo;
  ms_numa_read (ms_numa_root (), &topo);
  int exp = (int)ms_lesson_option_in (options, sweep->options, "exp");
  int bufs[MS_NUMA_MAX_NODES], thrs[MS_NUMA_MAX_NODES];
  int nb = picked (&topo, (int)ms_lesson_option_in (options, sweep->options, "buffer-node"), bufs);
  int nt = picked (&topo, (int)ms_lesson_option_in (options, sweep->options, "thread-node"), thrs);
  int n = 0;
  for (int d = 0; d < 2; d++)
    for (int b = 0; b < nb; b++)
      for (int t = 0; t < nt && n < max; t++) {
        MsProbeCell *c = ms_probe_cell_set (&out[n++], MS_MODE_PINNED, exp, "dir=%s/buf=%d/thr=%d",
                                            dirs[d], bufs[b], thrs[t]);
        c->arg[ARG_DIR] = d;
        c->arg[ARG_BUF_NODE] = bufs[b];
        c->arg[ARG_THR_NODE] = thrs[t];
      }
  return n;
}

/* The thread's CPUs before the cell (one measuring thread at a time). */
static _Thread_local cpu_set_t saved_cpus;
static _Thread_local bool bound;

static bool
before_cell (const MsDeviceInfo *device, const MsProbeCell *cell, char *note, size_t len)
{
  static _Thread_local MsNumaTopology topo;
  ms_numa_read (ms_numa_root (), &topo);
  bound = false;
  if (topo.n < 2) {
    snprintf (note, len, "%s", ms_gettext (ONE_NODE));
    return false;
  }
  int gpu = ms_numa_device_node (ms_numa_root (), device->pci_bus_id);
  int buf = cell->arg[ARG_BUF_NODE], thr = cell->arg[ARG_THR_NODE];
  if (!ms_numa_find (&topo, buf) || !ms_numa_find (&topo, thr)) {
    snprintf (note, len, ms_gettext ("this host has no NUMA node %d"),
              ms_numa_find (&topo, buf) ? thr : buf);
    return false;
  }
  /* "gpu-node=N;" first: the caption reads it back. */
  if (!ms_numa_root_is_host ()) {
    snprintf (note, len, "gpu-node=%d;", gpu);
    ms_caption_append (note, len, ms_gettext ("topology from %s, not bound"), ms_numa_root ());
    return true;
  }
  if (!ms_numa_bind (&topo, thr, buf, &saved_cpus, note, len))
    return false;
  bound = true;
  cpu_set_t now;
  char cpus[128] = "?";
  if (sched_getaffinity (0, sizeof now, &now) == 0)
    ms_format_cpu_set (&now, cpus, sizeof cpus);
  snprintf (note, len, "gpu-node=%d;", gpu);
  ms_caption_append (note, len, ms_gettext ("thread on CPUs %s, buffer memory bound to node %d"),
                     cpus, buf);
  return true;
}

static void
after_cell (const MsProbeCell *cell)
{
  (void)cell;
  if (bound)
    ms_numa_unbind (&saved_cpus);
  bound = false;
}

/* The rate of one of the lesson's cells in GB/s, or 0. */
static double
rate (const MsCell *c)
{
  return strncmp (c->variant, "dir=", 4) == 0 && c->status == MS_CELL_OK && c->n_reps > 0
                 && c->stats.e2e.median > 0
             ? (double) ms_vector_bytes (c->elements) / c->stats.e2e.median / 1e3
             : 0;
}

/* Appends the direction's best and worst pairing; returns how much lower
 * the worst is, in per cent (-1: none measured). */
static double
direction_sentence (const MsResults *r, int d, char *buf, size_t len)
{
  const MsCell *best = NULL, *worst = NULL;
  int bb = 0, bt = 0, wb = 0, wt = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    char dir[8];
    int b, t;
    if (!(rate (c) > 0) || sscanf (c->variant, "dir=%3[a-z2]/buf=%d/thr=%d", dir, &b, &t) != 3
        || strcmp (dir, dirs[d]) != 0)
      continue;
    if (!best || rate (c) > rate (best))
      best = c, bb = b, bt = t;
    if (!worst || rate (c) < rate (worst))
      worst = c, wb = b, wt = t;
  }
  if (!best)
    return -1;
  double drop = 100 * (1 - rate (worst) / rate (best));
  if (d == DIR_H2D)
    ms_caption_append (buf, len,
                       ms_gettext ("Host to device: %.1f GB/s at best (buffer on node %d, thread "
                                   "on node %d), %.1f GB/s at worst (buffer on node %d, thread on "
                                   "node %d), %.0f %% lower."),
                       rate (best), bb, bt, rate (worst), wb, wt, drop);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("Device to host: %.1f GB/s at best (buffer on node %d, thread "
                                   "on node %d), %.1f GB/s at worst (buffer on node %d, thread on "
                                   "node %d), %.0f %% lower."),
                       rate (best), bb, bt, rate (worst), wb, wt, drop);
  return drop;
}

/* Whether cell was left out because the host has one NUMA node (the
 * message as written, or as translated when the run was made). */
static bool
one_node_cell (const MsCell *c)
{
  return c->status == MS_CELL_UNSUPPORTED
         && (strcmp (c->message, ONE_NODE) == 0 || strcmp (c->message, ms_gettext (ONE_NODE)) == 0);
}

static bool
caption (const MsResults *r, int exponent, char *buf, size_t len)
{
  (void)exponent;
  int measured = 0, one_node = 0, gpu = -1;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    measured += rate (c) > 0;
    one_node += one_node_cell (c);
    if (gpu < 0 && sscanf (c->message, "gpu-node=%d;", &gpu) != 1)
      gpu = -1;
  }
  const char *gpu_name = ms_caption_device (r);
  if (!measured && one_node) {
    buf[0] = '\0';
    ms_caption_append (buf, len,
                       ms_gettext ("Nothing measured: the host of this run's %s has one NUMA "
                                   "node (Non-Uniform Memory Access: a socket's CPUs with the "
                                   "memory wired to them), so every buffer is near the GPU. On a "
                                   "host of two or more sockets the lesson times a copy from a "
                                   "buffer on each node, near the GPU and far from it."),
                       gpu_name);
    return false;
  }
  if (!measured)
    return false;
  char details[1024] = "";
  if (gpu >= 0)
    ms_caption_append (details, sizeof details, ms_gettext ("The GPU is attached to node %d."),
                       gpu);
  double h2d = direction_sentence (r, DIR_H2D, details, sizeof details);
  double d2h = direction_sentence (r, DIR_D2H, details, sizeof details);
  double drop = h2d > d2h ? h2d : d2h;
  buf[0] = '\0';
  /* The finding first: whether the socket matters on the run's host. */
  if (drop >= 10)
    ms_caption_append (buf, len,
                       ms_gettext ("On the host of this run's %s, the placement matters: the "
                                   "NUMA node (a socket's CPUs with the memory wired to them) of "
                                   "the buffer and the thread cut the copy rate by up to %.0f %%."),
                       gpu_name, drop);
  else
    ms_caption_append (buf, len,
                       ms_gettext ("On the host of this run's %s, the NUMA node (a socket's "
                                   "CPUs with the memory wired to them) of the buffer and the "
                                   "thread changed the copy rate by less than a tenth."),
                       gpu_name);
  ms_caption_append (buf, len, "%s", details);
  return true;
}

/* One node: the host cannot show the lesson, and the line says what host
 * would. */
static MsTakeaway
takeaway (const MsResults *r, char *buf, size_t len)
{
  int measured = 0, one_node = 0;
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    measured += rate (c) > 0;
    one_node += one_node_cell (c);
  }
  if (!measured && one_node) {
    /* "this one" read as the slide's reference run, under a header that
     * says it was not measured here. */
    snprintf (buf, len, "%s",
              ms_gettext ("Needs two NUMA nodes; the run's host has one: nothing measured"));
    return MS_TAKEAWAY_NOT_HERE;
  }
  if (!measured)
    return MS_TAKEAWAY_MISSING;
  char details[1024] = "";
  double h2d = direction_sentence (r, DIR_H2D, details, sizeof details);
  double d2h = direction_sentence (r, DIR_D2H, details, sizeof details);
  double drop = h2d > d2h ? h2d : d2h;
  if (drop >= 10)
    snprintf (buf, len,
              ms_gettext ("Buffers on the far NUMA node cut the copy rate by up to %.0f %%"), drop);
  else
    snprintf (buf, len,
              ms_gettext ("The NUMA node of the buffers changed the copy rate by less than a "
                          "tenth (%.0f %% at most)"),
              drop > 0 ? drop : 0);
  return MS_TAKEAWAY_DECIDED;
}

const MsLesson ms_lesson_numa = {
  .card = { .name = NAME,
            .modes = "pinned",
            .title = MS_N_ ("Which socket your buffers live on"),
            .question = MS_N_ ("Does the NUMA node of the host buffers change the copy rate?"),
            .reason = MS_N_ ("Pinned copies of one size, host to device and device to host, with "
                             "the host buffer's memory on one NUMA node and the measuring thread "
                             "on the CPUs of another, for each pairing of the host's nodes (sysfs "
                             "gives the nodes, their CPUs and the GPU's node). Compare the rates "
                             "of the pairings, and the pairing whose buffer sits on the GPU's own "
                             "node with the others. A host with one node has nothing to compare, "
                             "and the lesson says so.") },
  .settings = "pinned (registered) copies of 2^exp floats, h2d and d2h, host buffer bound to "
              "buffer-node and measuring thread on thread-node's CPUs, each pairing of nodes",
  MS_PROBE_LESSON_FIELDS,
  .missing = MS_N_ ("The run has no measured copy."),
  .takeaway = takeaway,
  .before_cell = before_cell,
  .after_cell = after_cell,
};
