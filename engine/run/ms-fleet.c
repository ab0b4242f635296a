/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fleet.c: stamping a node's samples file, and the fleet report: every
 * node's key figures against the fleet's median, outliers flagged. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-csv-io.h"
#include "ms-csv-pair.h"
#include "ms-fleet-spread.h"
#include "ms-fleet.h"
#include "ms-i18n.h"
#include "ms-names.h"
#include "ms-input.h"
#include "ms-meta-sidecar.h"
#include "ms-read-file.h"
#include "ms-results.h"
#include "ms-stats.h"

static const char *const stamp_keys[] = { "# node: ", "# gpu-serials: ", "# gpu-pcie-links: ",
                                           "# gpu: ", "# gpu-bus-id: " };
#define N_STAMP_KEYS (sizeof stamp_keys / sizeof *stamp_keys)

static const char *const figure_names[MS_FLEET_N_FIGURES] = {
  "pinned h2d", "pinned d2h", "zero-copy", "host",
};

MS_DEFINE_LOOKUP (ms_fleet_figure_name, const char *, MsFleetFigure, MS_FLEET_N_FIGURES,
                  figure_names[i], "?")

/* The file's plain content whole (a gzipped node file inflated), through
 * the one reader, not as an input: it is about to be rewritten; NULL with
 * "path: why". */
static char *
slurp (const char *path, size_t *len, char *err, size_t errlen)
{
  MsInput *in = ms_input_open (path, false, err, errlen);
  if (!in)
    return NULL;
  bool too_large;
  char *text = ms_input_read_all (in, SIZE_MAX / 4, len, &too_large, err, errlen);
  ms_input_close (in);
  return text;
}

static bool
is_stamp_line (const char *line)
{
  for (size_t k = 0; k < N_STAMP_KEYS; k++)
    if (strncmp (line, stamp_keys[k], strlen (stamp_keys[k])) == 0)
      return true;
  return false;
}

/* The stamp's metadata lines into add, the same keys in a file and in a
 * sidecar: one line each (no line breaks inside a value); the GPU's index
 * and bus id only where a node's GPUs were measured one by one. add holds
 * the longest stamp: MsFleetStamp's fields are far smaller. */
static void
stamp_lines (const MsFleetStamp *s, char *add, size_t size)
{
  const char *values[N_STAMP_KEYS] = { s->node, s->serials[0] ? s->serials : "unknown",
                                       s->links[0] ? s->links : "unknown", s->gpu, s->bus_id };
  size_t used = 0;
  add[0] = '\0';
  for (size_t k = 0; k < N_STAMP_KEYS; k++) {
    if (k >= 3 && !values[k][0])
      continue;
    used += (size_t) snprintf (add + used, size - used, "%s", stamp_keys[k]);
    for (const char *p = values[k]; *p && used + 2 < size; p++)
      add[used++] = *p == '\n' || *p == '\r' ? ' ' : *p;
    used += (size_t) snprintf (add + used, size - used, "\n");
  }
}

/* Through the atomic file as every writer: each write's status counts, the
 * old file stays whole on any failure and the mode stays the file's. */
bool
ms_fleet_stamp (const char *path, const MsFleetStamp *stamp, char *err, size_t errlen)
{
  size_t len;
  char *text = slurp (path, &len, err, errlen);
  if (!text)
    return false;
  char add[2048];
  stamp_lines (stamp, add, sizeof add);
  /* A plain CSV file: the stamp goes into its sidecar (PREFIX-meta.json). */
  if (!ms_meta_sidecar_inline (text, len)) {
    free (text);
    return ms_meta_sidecar_restamp (path, stamp_keys, N_STAMP_KEYS, add, err, errlen);
  }
  MsAtomicFile *file = ms_atomic_file_open (path, err, errlen);
  if (!file) {
    free (text);
    return false;
  }
  /* The metadata block, less any earlier stamp, then the stamp, then the
   * rest as it was. A failed write is kept for the commit's message. */
  char *p = text;
  while (*p == '#') {
    char *eol = strchr (p, '\n');
    char *next = eol ? eol + 1 : p + strlen (p);
    if (!is_stamp_line (p))
      ms_atomic_file_write (file, p, (size_t) (next - p));
    p = next;
  }
  ms_atomic_file_write (file, add, strlen (add));
  ms_atomic_file_write (file, p, len - (size_t) (p - text));
  free (text);
  return ms_atomic_file_commit (file, err, errlen);
}

/* One metadata line of a stamp, from the file or its sidecar; of the
 * others, the run-to-run profile's are noted in seen. Of the links, the
 * worst of the node's GPUs. */
static void
read_stamp_line (char *line, MsFleetNode *node, MsFleetProfileLines *seen)
{
  /* Where each key's value goes, in stamp_keys' order; the links are read
   * below. */
  char *field[N_STAMP_KEYS] = { node->node, node->serials, NULL, node->gpu, node->bus_id };
  size_t size[N_STAMP_KEYS] = { sizeof node->node, sizeof node->serials, 0, sizeof node->gpu,
                                sizeof node->bus_id };
  line[strcspn (line, "\r\n")] = '\0';
  ms_fleet_profile_line (line, seen);
  for (size_t k = 0; k < N_STAMP_KEYS; k++)
    if (field[k] && strncmp (line, stamp_keys[k], strlen (stamp_keys[k])) == 0)
      snprintf (field[k], size[k], "%s", line + strlen (stamp_keys[k]));
  if (strncmp (line, stamp_keys[2], strlen (stamp_keys[2])) == 0) {
    const char *p = line + strlen (stamp_keys[2]);
    int gen, width, used;
    while (sscanf (p, "gen%dx%d%n", &gen, &width, &used) == 2) {
      if (node->pcie_gen == 0 || gen < node->pcie_gen)
        node->pcie_gen = gen;
      if (node->pcie_width == 0 || width < node->pcie_width)
        node->pcie_width = width;
      p += used;
      p += *p == ',';
    }
  }
}

static void
read_stamp (const char *path, MsFleetNode *node, MsFleetProfileLines *seen)
{
  char line[1024];
  /* Through the one reader: a gzipped node file as its plain content, a
   * plain CSV file's stamp from its sidecar. */
  char *lines = ms_csv_meta_lines (path);
  for (char *p = lines, *eol; p && (eol = strchr (p, '\n')); p = eol + 1) {
    snprintf (line, sizeof line, "%.*s", (int) (eol - p), p);
    read_stamp_line (line, node, seen);
  }
  free (lines);
}

/* A rate and its interval from the time it was computed from: bytes /
 * time, so the time's upper bound is the rate's lower one. */
static void
set_figure (MsFleetNode *node, MsFleetFigure f, int e, double gbps, const MsStat *time)
{
  node->at[f][e] = gbps;
  if (gbps > 0 && time->median > 0 && time->ci_low > 0 && time->ci_high > 0) {
    node->at_lo[f][e] = gbps * time->median / time->ci_high;
    node->at_hi[f][e] = gbps * time->median / time->ci_low;
    node->at_valid[f][e] = time->ci_valid;
  }
}

static void
read_node (const char *dir, const char *name, MsFleetNode *node)
{
  snprintf (node->file, sizeof node->file, "%s", name);
  /* The node's name is the file's unless the stamp says otherwise. */
  snprintf (node->node, sizeof node->node, "%.*s", (int) ms_csv_name_stem (name, "-samples.csv"),
            name);
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  MsResults *r = ms_csv_read_samples (path, node->error, sizeof node->error);
  if (!r)
    return;
  node->readable = true;
  snprintf (node->metadata_unknown, sizeof node->metadata_unknown, "%.511s", r->metadata_unknown);
  snprintf (node->device, sizeof node->device, "%.127s", r->device.name);
  MsFleetProfileLines seen = { false, 0 };
  read_stamp (path, node, &seen);
  ms_fleet_node_profile (node, r, &seen);
  if (node->pcie_gen == 0) {
    node->pcie_gen = r->device.pcie_gen;
    node->pcie_width = r->device.pcie_width;
  }
  for (size_t i = 0; i < r->n_cells; i++) {
    const MsCell *c = &r->cells[i];
    if (c->status != MS_CELL_OK || c->exponent < 0 || c->exponent > MS_MAX_EXPONENT)
      continue;
    const MsCellStats *st = &c->stats;
    if (c->mode == MS_MODE_PINNED) {
      set_figure (node, MS_FLEET_PINNED_H2D, c->exponent, st->h2d_gbps, &st->phase[MS_PHASE_H2D]);
      set_figure (node, MS_FLEET_PINNED_D2H, c->exponent, st->d2h_gbps, &st->phase[MS_PHASE_D2H]);
    } else if (c->mode == MS_MODE_ZERO_COPY) {
      set_figure (node, MS_FLEET_ZERO_COPY, c->exponent, st->e2e_gbps, &st->e2e);
    } else if (c->mode == MS_MODE_HOST) {
      set_figure (node, MS_FLEET_HOST, c->exponent, st->e2e_gbps, &st->e2e);
    }
  }
  ms_results_free (r);
}

/* NODE-samples.csv, or NODE-samples.csv.gz as fleet-node writes it under
 * --compress: a node left out here would be left out without a word. */
static bool
is_samples_file (const char *name)
{
  return ms_csv_name_stem (name, "-samples.csv") > 0 && name[0] != '.';
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static char **
list_samples (const char *dir, size_t *n, char *err, size_t errlen)
{
  DIR *d = opendir (dir);
  if (!d) {
    snprintf (err, errlen, "%s: %s", dir, strerror (errno));
    return NULL;
  }
  char **names = NULL;
  size_t cap = 0;
  *n = 0;
  struct dirent *de;
  while ((de = readdir (d))) {
    if (!is_samples_file (de->d_name))
      continue;
    if (*n == cap) {
      char **bigger = realloc (names, (cap = 2 * cap + 64) * sizeof *names);
      if (!bigger)
        break;
      names = bigger;
    }
    if (!(names[*n] = strdup (de->d_name)))
      break;
    (*n)++;
  }
  closedir (d);
  if (*n == 0) {
    snprintf (err, errlen, ms_gettext ("%s: no *-samples.csv or *-samples.csv.gz file"), dir);
    free (names);
    return NULL;
  }
  qsort (names, *n, sizeof *names, compare_names);
  return names;
}

/* Files are read on several threads: a default sweep's samples file takes
 * tens of milliseconds to read, and a fleet has a thousand of them. */
#define MS_FLEET_MAX_READERS 16

typedef struct {
  const char *dir;
  char **names;
  MsFleetNode *nodes;
  size_t n;
  atomic_size_t next;
} Readers;

static void *
reader_thread (void *data)
{
  Readers *r = data;
  size_t i;
  while ((i = atomic_fetch_add (&r->next, 1)) < r->n)
    read_node (r->dir, r->names[i], &r->nodes[i]);
  return NULL;
}

static void
read_nodes (const char *dir, char **names, MsFleetNode *nodes, size_t n)
{
  Readers r = { .dir = dir, .names = names, .nodes = nodes, .n = n };
  atomic_init (&r.next, 0);
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);
  size_t want = cpus < 1 ? 1 : cpus > MS_FLEET_MAX_READERS ? MS_FLEET_MAX_READERS : (size_t) cpus;
  if (want > n)
    want = n;
  pthread_t tids[MS_FLEET_MAX_READERS];
  size_t started = 0;
  while (started + 1 < want && pthread_create (&tids[started], NULL, reader_thread, &r) == 0)
    started++;
  reader_thread (&r); /* this thread reads too, and alone if none started */
  for (size_t k = 0; k < started; k++)
    pthread_join (tids[k], NULL);
}

/* Whether file is one fleet-node writes for node: NODE-samples.csv, or
 * NODE-GPU-samples.csv for one of its GPUs. */
static bool
is_own_file (const MsFleetNode *node)
{
  size_t n = strlen (node->node);
  return strncmp (node->file, node->node, n) == 0 && node->file[n] == '-';
}

/* One entry per node and GPU. */
static bool
same_entry (const MsFleetNode *a, const MsFleetNode *b)
{
  return strcmp (a->node, b->node) == 0 && strcmp (a->gpu, b->gpu) == 0;
}

/* Keeps one file per node name; the others move to report->copies. */
static void
drop_copies (MsFleetReport *report)
{
  size_t kept = 0;
  for (size_t i = 0; i < report->n_nodes; i++) {
    MsFleetNode *node = &report->nodes[i];
    size_t k = 0;
    while (k < kept && !(node->readable && report->nodes[k].readable &&
                         same_entry (&report->nodes[k], node)))
      k++;
    if (k == kept) {
      memmove (&report->nodes[kept++], node, sizeof *node);
      continue;
    }
    MsFleetNode *first = &report->nodes[k];
    if (is_own_file (node) && !is_own_file (first)) {
      MsFleetNode swap = *first;
      *first = *node;
      *node = swap;
    }
    MsFleetCopy *copy = report->copies ? &report->copies[report->n_copies++] : NULL;
    if (copy) {
      snprintf (copy->file, sizeof copy->file, "%s", node->file);
      snprintf (copy->node, sizeof copy->node, "%s", node->node);
      snprintf (copy->kept, sizeof copy->kept, "%s", first->file);
    }
  }
  report->n_nodes = kept;
}

/* Whether the report has an entry for node (any GPU when gpu is NULL). */
static bool
has_entry (const MsFleetReport *report, size_t n, const char *node, const char *gpu)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (report->nodes[i].node, node) == 0 &&
        (!gpu || strcmp (report->nodes[i].gpu, gpu) == 0))
      return true;
  return false;
}

static bool
append_missing (MsFleetReport *report, size_t *cap, const char *node, const char *gpu)
{
  if (report->n_nodes == *cap) {
    MsFleetNode *bigger = realloc (report->nodes, (*cap = 2 * *cap + 16) * sizeof *bigger);
    if (!bigger)
      return false;
    report->nodes = bigger;
  }
  MsFleetNode *entry = &report->nodes[report->n_nodes++];
  memset (entry, 0, sizeof *entry);
  snprintf (entry->node, sizeof entry->node, "%s", node);
  snprintf (entry->gpu, sizeof entry->gpu, "%s", gpu);
  entry->missing = true;
  snprintf (entry->error, sizeof entry->error, "%s", ms_gettext ("never reported"));
  return true;
}

static int
compare_entries (const void *a, const void *b)
{
  const MsFleetNode *x = a, *y = b;
  int by_node = strcmp (x->node, y->node);
  if (by_node != 0)
    return by_node;
  return atoi (x->gpu) != atoi (y->gpu) ? (atoi (x->gpu) < atoi (y->gpu) ? -1 : 1)
                                        : strcmp (x->gpu, y->gpu);
}

/* An entry, marked missing, for every node or GPU that the folder's
 * MS_FLEET_EXPECTED_FILE lists and no file reported; then all sorted by
 * node and GPU. False only when out of memory. */
static bool
add_missing (MsFleetReport *report, const char *dir)
{
  char path[4096], line[512], node[128], job[32];
  snprintf (path, sizeof path, "%s/%s", dir, MS_FLEET_EXPECTED_FILE);
  FILE *f = fopen (path, "r");
  if (f)
    ms_atomic_file_note_read (fileno (f)); /* an input, as the samples files */
  size_t cap = report->n_nodes, found = report->n_nodes;
  bool ok = true;
  while (f && ok && fgets (line, sizeof line, f)) {
    int gpus;
    if (sscanf (line, "%127s %d %31s", node, &gpus, job) != 3 || gpus < 0 || gpus > 4096)
      continue;
    if (gpus == 0 && !has_entry (report, found, node, NULL))
      ok = append_missing (report, &cap, node, "");
    for (int k = 0; k < gpus && ok; k++) {
      char gpu[16];
      snprintf (gpu, sizeof gpu, "%d", k);
      if (!has_entry (report, found, node, gpu))
        ok = append_missing (report, &cap, node, gpu);
    }
  }
  if (f)
    fclose (f);
  qsort (report->nodes, report->n_nodes, sizeof *report->nodes, compare_entries);
  return ok;
}

bool
ms_fleet_write_expected (const char *dir, const MsFleetExpected *expected, size_t n, char *err,
                         size_t errlen)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, MS_FLEET_EXPECTED_FILE);
  MsAtomicFile *file = ms_atomic_file_open (path, err, errlen);
  if (!file)
    return false;
  for (size_t i = 0; i < n; i++) {
    char line[256];
    int len = snprintf (line, sizeof line, "%s %d %s\n", expected[i].node, expected[i].gpus,
                        expected[i].job[0] ? expected[i].job : "-");
    ms_atomic_file_write (file, line, (size_t) len < sizeof line ? (size_t) len : sizeof line - 1);
  }
  return ms_atomic_file_commit (file, err, errlen);
}

MsFleetReport *
ms_fleet_report_dir (const char *dir, double threshold, char *err, size_t errlen)
{
  size_t n = 0;
  char **names = list_samples (dir, &n, err, errlen);
  /* A fleet none of whose nodes reported is still a report: of the
   * missing. */
  char expected[4096];
  snprintf (expected, sizeof expected, "%s/%s", dir, MS_FLEET_EXPECTED_FILE);
  if (!names && (n != 0 || access (expected, R_OK) != 0))
    return NULL;
  MsFleetReport *report = calloc (1, sizeof *report);
  bool ok = report && (report->nodes = calloc (n + 1, sizeof *report->nodes)) &&
            (report->copies = calloc (n + 1, sizeof *report->copies));
  if (ok) {
    report->n_nodes = n;
    report->threshold = threshold;
    read_nodes (dir, names, report->nodes, n);
    drop_copies (report);
    ok = add_missing (report, dir);
  }
  if (!ok) {
    snprintf (err, errlen, ms_gettext ("out of memory for %zu nodes"), n);
    ms_fleet_report_free (report);
    report = NULL;
  }
  if (report)
    ms_fleet_report_compute (report);
  for (size_t i = 0; i < n; i++)
    free (names[i]);
  free (names);
  return report;
}

void
ms_fleet_report_free (MsFleetReport *report)
{
  if (!report)
    return;
  free (report->nodes);
  free (report->copies);
  free (report);
}

/* The largest size every node that has figure f has, or -1. */
static int
common_exponent (const MsFleetReport *report, MsFleetFigure f)
{
  for (int e = MS_MAX_EXPONENT; e >= 0; e--) {
    bool seen = false, all = true;
    for (size_t i = 0; i < report->n_nodes && all; i++) {
      const MsFleetNode *node = &report->nodes[i];
      bool has_any = false;
      for (int k = 0; k <= MS_MAX_EXPONENT && !has_any; k++)
        has_any = node->at[f][k] > 0;
      if (!has_any)
        continue;
      seen = true;
      all = node->at[f][e] > 0;
    }
    if (seen && all)
      return e;
  }
  return -1;
}

/* The most common of the known (> 0) values; a tie goes to the larger. */
static int
most_common (const MsFleetReport *report, bool width)
{
  int counts[64] = { 0 }, best = 0;
  for (size_t i = 0; i < report->n_nodes; i++) {
    int v = width ? report->nodes[i].pcie_width : report->nodes[i].pcie_gen;
    if (v > 0 && v < 64)
      counts[v]++;
  }
  for (int v = 1; v < 64; v++)
    if (counts[v] > 0 && counts[v] >= counts[best])
      best = v;
  return best;
}

/* The figure's size, every entry's value there, the fleet's median and
 * each entry's deviation; then the verdicts (ms-fleet-spread.c). */
static void
compare_figure (MsFleetReport *report, MsFleetFigure f, double *scratch)
{
  int e = report->exponent[f] = common_exponent (report, f);
  int n = 0;
  for (size_t i = 0; i < report->n_nodes; i++) {
    MsFleetNode *node = &report->nodes[i];
    node->value[f] = e >= 0 ? node->at[f][e] : 0;
    node->deviation[f] = 0;
    if (node->value[f] > 0)
      scratch[n++] = node->value[f];
  }
  double median = report->median[f] = ms_median (scratch, n);
  report->n_values[f] = n;
  for (size_t i = 0; i < report->n_nodes && median > 0; i++) {
    MsFleetNode *node = &report->nodes[i];
    if (node->value[f] > 0)
      node->deviation[f] = node->value[f] / median - 1;
  }
  ms_fleet_judge_figure (report, f, scratch);
}

void
ms_fleet_report_compute (MsFleetReport *report)
{
  double *scratch = malloc ((report->n_nodes + 1) * sizeof *scratch);
  report->n_outliers = report->n_unreadable = report->n_missing = report->n_no_spread = 0;
  for (size_t i = 0; i < report->n_nodes; i++)
    report->nodes[i].flags = 0;
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++) {
    if (scratch)
      compare_figure (report, (MsFleetFigure) f, scratch);
  }
  free (scratch);
  report->common_gen = most_common (report, false);
  report->common_width = most_common (report, true);
  for (size_t i = 0; i < report->n_nodes; i++) {
    MsFleetNode *node = &report->nodes[i];
    if ((node->pcie_gen > 0 && node->pcie_gen < report->common_gen) ||
        (node->pcie_width > 0 && node->pcie_width < report->common_width))
      node->flags |= MS_FLEET_FLAG_LINK;
    report->n_outliers += node->flags != 0;
    bool no_spread = false;
    for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
      no_spread |= node->why[f] == MS_WHY_NO_SPREAD;
    report->n_no_spread += no_spread;
    report->n_unreadable += !node->readable && !node->missing;
    report->n_missing += node->missing;
  }
}
