/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-multi.c: the commands beyond one GPU on one host.
 *
 *   multi     the sweep on several GPUs at once (optionally each alone
 *             first), per device and aggregate
 *   peer      the device x device peer copy matrix with the topology
 *   portable  one portable pinned buffer vs one per GPU vs a foreign one,
 *             with --out PREFIX also as PREFIX-portable.csv (ms-portable-file.h) */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-output.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-i18n.h"
#include "ms-engine.h"

static const MsCliColumn multi_columns[] = {
  { "gpu", true },      { "mode" },           { "exponent", true },
  { "bytes_per_vector", true }, { "run" },    { "status" },
  { "h2d_gbps", true }, { "d2h_gbps", true }, { "e2e_gbps", true },
  { "message" },
};

static void
put_multi_row (MsCliTable *t, int gpu, MsMode mode, int e, const char *run, const MsCell *c)
{
  bool ok = c && c->status == MS_CELL_OK;
  ms_cli_table_add_row (t);
  ms_cli_table_integer (t, 0, gpu);
  ms_cli_table_text (t, 1, ms_mode_name (mode));
  ms_cli_table_integer (t, 2, e);
  ms_cli_table_integer (t, 3, (long long) ms_exponent_bytes (e));
  ms_cli_table_text (t, 4, run);
  ms_cli_table_text (t, 5, c ? ms_cell_status_name (c->status) : NULL);
  ms_cli_table_number (t, 6, ok ? c->stats.h2d_gbps : NAN, 3);
  ms_cli_table_number (t, 7, ok ? c->stats.d2h_gbps : NAN, 3);
  ms_cli_table_number (t, 8, ok ? c->stats.e2e_gbps : NAN, 3);
  ms_cli_table_text (t, 9, c && !ok ? c->message : NULL);
}

/* The cell of slot's run in r (none where r or that run is NULL). */
static const MsCell *
multi_cell (const MsMultiResults *r, int slot, MsMode mode, int e)
{
  return r && r->per_device[slot] ? ms_results_find (r->per_device[slot], mode, e) : NULL;
}

/* What multi, peer and portable measured as tables, for their --format
 * csv, markdown and json and their exports, long form, as data tools read
 * them: a row per device, mode and size, together and (alone non-NULL,
 * one per device) alone; per method, direction, source and destination
 * (the reference loop as method "reference"); per case and device. */
static MsCliTable *
multi_table (const MsSweep *s, const MsMultiResults *together, MsMultiResults *const *alone)
{
  MsCliTable *t = ms_cli_table_new (multi_columns, sizeof multi_columns / sizeof *multi_columns);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = s->min_exp; s->modes[m] && e <= s->max_exp; e += s->step)
      for (int i = 0; together && i < together->n_devices; i++) {
        put_multi_row (t, together->devices[i], (MsMode) m, e, "together",
                       multi_cell (together, i, (MsMode) m, e));
        if (alone)
          put_multi_row (t, together->devices[i], (MsMode) m, e, "alone",
                         multi_cell (alone[i], 0, (MsMode) m, e));
      }
  return t;
}

static const MsCliColumn peer_columns[] = {
  { "method" }, { "direction" }, { "src_gpu", true }, { "dst_gpu", true },
  { "gbps", true }, { "note" },
};

static void
put_peer_row (MsCliTable *t, const char *method, const char *direction, int src, int dst,
              double gbps, const char *note)
{
  ms_cli_table_add_row (t);
  ms_cli_table_text (t, 0, method);
  ms_cli_table_text (t, 1, direction);
  ms_cli_table_integer (t, 2, src);
  ms_cli_table_integer (t, 3, dst);
  ms_cli_table_number (t, 4, gbps > 0 ? gbps : NAN, 2);
  ms_cli_table_text (t, 5, note);
}

static MsCliTable *
peer_table (const MsPeerResults *r)
{
  MsCliTable *t = ms_cli_table_new (peer_columns, sizeof peer_columns / sizeof *peer_columns);
  for (int m = 0; m <= MS_PEER_METHOD_COUNT; m++)
    for (int i = 0; i < r->n_devices; i++)
      for (int j = 0; j < r->n_devices; j++)
        for (int bi = 0; i != j && bi <= (m < MS_PEER_METHOD_COUNT); bi++) {
          const MsPeerCell *c = m < MS_PEER_METHOD_COUNT ? &r->cell[m][i][j] : NULL;
          put_peer_row (t, c ? ms_peer_method_name ((MsPeerMethod) m) : "reference",
                        bi ? "bidirectional" : "unidirectional", r->devices[i], r->devices[j],
                        ms_peer_file_value (r, m, bi, i, j), c && !c->ok ? c->note : NULL);
        }
  return t;
}

static const MsCliColumn portable_columns[] = {
  { "case" }, { "gpu", true }, { "ok" }, { "h2d_gbps", true }, { "d2h_gbps", true },
  { "note" },
};

static MsCliTable *
portable_table (const MsPortableResults *r)
{
  MsCliTable *t =
    ms_cli_table_new (portable_columns, sizeof portable_columns / sizeof *portable_columns);
  for (int k = 0; k < MS_PORTABLE_COUNT; k++)
    for (int i = 0; i < r->n_devices; i++) {
      const MsPortableCell *c = &r->cell[k][i];
      ms_cli_table_add_row (t);
      ms_cli_table_text (t, 0, ms_portable_case_name ((MsPortableCase) k));
      ms_cli_table_integer (t, 1, r->devices[i]);
      ms_cli_table_text (t, 2, c->ok ? "true" : "false");
      ms_cli_table_number (t, 3, c->ok ? c->h2d_gbps : NAN, 2);
      ms_cli_table_number (t, 4, c->ok ? c->d2h_gbps : NAN, 2);
      ms_cli_table_text (t, 5, c->note);
    }
  return t;
}

typedef struct {
  MsSweep sweep;
  const char *devices;
  const char *out;
  bool solo;
  int exp;
  MsCliOutput output;
} MultiArgs;

/* The options of multi, peer and portable, each command's own (argv[0]),
 * first the name of the first file its --out gives (-multi.csv). -1: go
 * on; else exit code. */
static int
parse_multi_args (int argc, char **argv, MultiArgs *a, const char *first)
{
  const MsCliBind binds[] = { { 'D', &a->devices },       { 'o', &a->out },
                              { 'S', &a->solo },          { 'a', &a->sweep.min_exp },
                              { 'b', &a->sweep.max_exp }, { 's', &a->sweep.step },
                              { 'r', &a->sweep.reps },    { 'w', &a->sweep.warmup },
                              { 'e', &a->exp },           { 0 } };
  MsCliArgs args;
  char err[256];
  int c;
  ms_cli_args_init (&args, argv[0], argc, argv);
  while ((c = ms_cli_args_next_bound (&args, &a->output, binds)) != -1) {
    if (c != 'm')
      return 2; /* '?' */
    if (!ms_sweep_set_modes (&a->sweep, args.value, err, sizeof err)) {
      ms_cli_error ("--modes: %s\n", err);
      return 2;
    }
  }
  /* A prefix names several files, and a file with its sidecar. */
  if (!ms_cli_prefix_names_files ("--out", a->out, first) || !ms_cli_output_ready (&a->output))
    return 2;
  /* The aggregate file names each GPU's by its plain name: --compress is
   * for the exports here, and refused rather than ignored with --out. */
  if (a->out && ms_cli_compress ()) {
    ms_cli_error (ms_gettext ("--compress: the --out files of multi, peer and "
                              "portable name each other and are written plain; --compress "
                              "is for their CSV exports\n"));
    return 2;
  }
  a->sweep.reps_rule = MS_REPS_FIXED;
  if (!ms_sweep_validate (&a->sweep, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    return 2;
  }
  return -1;
}

/* peer and portable: one size (--exp, default 2^26) and --reps (default
 * 10); with --out, PREFIX + suffix and its sidecar in the output plan,
 * into path, before the devices are even looked at. -1: go on; else the
 * exit code. */
static int
parse_experiment_args (int argc, char **argv, MultiArgs *a, const char *suffix, MsFileKind kind,
                       char *path,
                       size_t len, int *devices, int *n)
{
  *a = (MultiArgs) { .exp = 26 };
  ms_sweep_init_default (&a->sweep);
  a->sweep.reps = 10;
  int rc = parse_multi_args (argc, argv, a, suffix);
  if (rc >= 0)
    return rc;
  const char *paths[] = { path };
  ms_atomic_file_output_name (a->out ? a->out : "", suffix, path, len);
  if (a->out && !ms_cli_outputs_ok ("--out", paths, &kind, 1))
    return 2;
  return ms_cli_resolve_devices ("memsweep", a->devices, 1, devices, n, NULL);
}

static void
print_cell (FILE *f, const MsCell *c)
{
  if (c && c->status == MS_CELL_OK)
    fprintf (f, "  %8.2f %8.2f %8.2f", c->stats.h2d_gbps, c->stats.d2h_gbps, c->stats.e2e_gbps);
  else
    fprintf (f, "  %-26s", c ? ms_cell_status_name (c->status) : "-");
}

/* One block per (mode, size): each device together (and alone), the sum. */
static void
print_multi (FILE *f, const MultiArgs *a, MsMultiResults *together, MsMultiResults **alone)
{
  const MsSweep *s = &a->sweep;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    for (int e = s->min_exp; s->modes[m] && e <= s->max_exp; e += s->step) {
      char size[32];
      ms_format_bytes (ms_exponent_bytes (e), size, sizeof size);
      fprintf (f, ms_gettext ("\n%s, 2^%d (%s per vector)    GB/s: h2d, d2h, e2e%s\n"),
              ms_mode_name (m), e, size,
              alone ? ms_gettext ("; alone, then together / alone (h2d, d2h)") : "");
      for (int i = 0; i < together->n_devices; i++) {
        const MsCell *c = multi_cell (together, i, m, e);
        fprintf (f, "  gpu %-3d", together->devices[i]);
        print_cell (f, c);
        const MsCell *c1 = alone ? multi_cell (alone[i], 0, m, e) : NULL;
        if (alone) {
          print_cell (f, c1);
          if (c && c1 && c->status == MS_CELL_OK && c1->status == MS_CELL_OK &&
              c1->stats.h2d_gbps > 0 && c1->stats.d2h_gbps > 0)
            fprintf (f, "   %.3f %.3f", c->stats.h2d_gbps / c1->stats.h2d_gbps,
                    c->stats.d2h_gbps / c1->stats.d2h_gbps);
        }
        if (c && c->status != MS_CELL_OK && c->message[0])
          fprintf (f, "  %s", c->message);
        fprintf (f, "\n");
      }
      MsMultiAggregate agg;
      if (ms_multi_aggregate (together, m, e, &agg))
        fprintf (f, ms_gettext ("  sum of %d  %8.2f %8.2f %8.2f   (slowest device %.2f / %.2f)\n"),
                agg.n_ok, agg.h2d_gbps, agg.d2h_gbps, agg.e2e_gbps, agg.h2d_min_gbps,
                agg.d2h_min_gbps);
    }
  }
}

/* Each GPU's samples file, PREFIX-gpuN-samples.csv, checked before the
 * measurement as the aggregate is. */
static bool
device_files_ok (const char *prefix, const int *devices, int n)
{
  for (int i = 0; i < n; i++) {
    char path[4096], suffix[64];
    snprintf (suffix, sizeof suffix, "-gpu%d-samples.csv", devices[i]);
    const char *paths[] = { path };
    if (!ms_atomic_file_output_name (prefix, suffix, path, sizeof path) ||
        !ms_cli_outputs_ok ("--out", paths, MS_CLI_RUN_PAIR, 1))
      return false;
  }
  return true;
}

static int
write_multi (const char *prefix, const MsMultiResults *r)
{
  for (int i = 0; i < r->n_devices; i++) {
    char path[4096], err[512], suffix[64];
    snprintf (suffix, sizeof suffix, "-gpu%d-samples.csv", r->devices[i]);
    /* A device or a pipe as the prefix (/dev/null) gets every file. */
    ms_atomic_file_output_name (prefix, suffix, path, sizeof path);
    if (!ms_csv_write_samples (r->per_device[i], path, err, sizeof err))
      return ms_cli_wrote_or_say (false, path, err);
    ms_cli_wrote (path);
  }
  /* The aggregate, and which samples file is which GPU's. */
  MsMultiFile *file = malloc (sizeof *file);
  char path[4096], err[512];
  if (!file)
    return 1;
  ms_multi_file_init (file, r, prefix);
  ms_atomic_file_output_name (prefix, "-multi.csv", path, sizeof path);
  bool ok = ms_multi_file_write (file, path, err, sizeof err);
  free (file);
  return ms_cli_wrote_or_say (ok, path, err);
}

typedef struct {
  const MultiArgs *a;
  MsMultiResults *together, **alone;
  const int *devices;
  int n;
} MultiView;

/* multi's table for people: the devices, then a block per mode and size. */
static void
multi_text (FILE *f, void *user)
{
  const MultiView *v = user;
  fprintf (f, ms_gettext ("%d devices at once:"), v->n);
  for (int i = 0; v->together && i < v->n; i++) {
    const MsDeviceInfo *d = &v->together->per_device[i]->device;
    fprintf (f, "%s gpu %d %s (gen%d x%d)", i ? "," : "", v->devices[i], d->name, d->pcie_gen,
             d->pcie_width);
  }
  fputc ('\n', f);
  if (v->together)
    print_multi (f, v->a, v->together, v->alone);
}

int
ms_cli_multi (int argc, char **argv)
{
  MultiArgs a = { .exp = -1 };
  ms_sweep_init_default (&a.sweep);
  memset (a.sweep.modes, 0, sizeof a.sweep.modes);
  a.sweep.modes[MS_MODE_PINNED] = true;
  int rc = parse_multi_args (argc, argv, &a, "-multi.csv");
  int devices[MS_MULTI_MAX_DEVICES], n = 0;
  char out[4096];
  if (rc >= 0)
    return rc;
  /* A missing folder is said before the measurement, not after it. */
  const char *outs[] = { out };
  if (a.out && (!ms_atomic_file_output_name (a.out, "-multi.csv", out, sizeof out) ||
                !ms_cli_outputs_ok ("--out", outs, &(MsFileKind) { MS_FILE_KIND_MULTI }, 1)))
    return 2;
  if ((rc = ms_cli_resolve_devices ("memsweep", a.devices, 1, devices, &n, NULL)) >= 0)
    return rc;
  if (a.out && !device_files_ok (a.out, devices, n))
    return 2;
  MsBackend *backend = ms_backend_new_system ();
  MsMultiResults *alone[MS_MULTI_MAX_DEVICES] = { 0 }, *together = NULL;
  char err[512] = "";
  for (int i = 0; a.solo && i < n; i++)
    ms_multi_run (&a.sweep, &devices[i], 1, backend, NULL, NULL, NULL, &alone[i], err,
                  sizeof err);
  MsRunStatus st = ms_multi_run (&a.sweep, devices, n, backend, NULL, NULL, NULL, &together,
                                 err, sizeof err);
  MultiView view = { &a, together, a.solo ? alone : NULL, devices, n };
  int status = ms_cli_output_send (&a.output, multi_table (&a.sweep, together, view.alone),
                                   multi_text, NULL, &view);
  if (err[0])
    ms_cli_error ("%s\n", err);
  rc = st == MS_RUN_OK ? status : st == MS_RUN_NO_DEVICE ? 3 : 1;
  if (together && a.out && write_multi (a.out, together) != 0)
    rc = EXIT_WRITE;
  for (int i = 0; i < n; i++)
    ms_multi_results_free (alone[i]);
  ms_multi_results_free (together);
  ms_backend_free (backend);
  return rc;
}

/* The matrix of method (MS_PEER_METHOD_COUNT: the reference loop), one
 * way or both. */
static void
print_matrix (FILE *f, const MsPeerResults *r, const char *title, int method, bool bi)
{
  fprintf (f, ms_gettext ("\n%s (row: source, column: destination)\n%-8s"), title, "");
  for (int j = 0; j < r->n_devices; j++)
    fprintf (f, " %9s%-2d", "gpu", r->devices[j]);
  fprintf (f, "\n");
  for (int i = 0; i < r->n_devices; i++) {
    fprintf (f, "gpu %-4d", r->devices[i]);
    for (int j = 0; j < r->n_devices; j++) {
      double v = ms_peer_file_value (r, method, bi, i, j);
      if (v > 0)
        fprintf (f, " %11.1f", v);
      else
        fprintf (f, " %11s", i == j ? "-" : "n/a");
    }
    fprintf (f, "\n");
  }
}

/* One pair's line: the link as `nvidia-smi topo -m` names it, and its
 * nominal rate, unless a copy ran faster than that link allows: then the
 * topology is in doubt, and the line says so instead of the rate. */
static void
print_pair (FILE *f, const MsPeerResults *r, const MsDeviceInfo *info, int i, int j)
{
  char what[96], code[16];
  double nominal = ms_peer_nominal_gbps (r, info, i, j, what, sizeof what);
  fprintf (f, ms_gettext ("    to gpu %d: %s, %d NVLinks, PCIe path %s, peer access %s; "),
           r->devices[j], ms_topology_pair_code (&r->topo, i, j, code, sizeof code),
           r->topo.nvlinks[i][j], ms_link_path_name (r->topo.pcie_path[i][j]),
           r->can_access[i][j] ? ms_gettext ("yes") : ms_gettext ("no"));
  if (ms_peer_link_in_doubt (r, info, i, j))
    fprintf (f, ms_gettext ("topology in doubt: a copy ran at %.0f GB/s, faster than this "
                            "link allows\n"),
             ms_peer_best_gbps (r, i, j));
  else
    fprintf (f, ms_gettext ("nominal %.0f GB/s per direction (%s)\n"), nominal, what);
}

static void
print_topology (FILE *f, const MsPeerResults *r, const MsDeviceInfo *info)
{
  fprintf (f, ms_gettext ("topology (NVML%s):\n"), r->topo.nvml ? "" : ms_gettext (": not available"));
  for (int i = 0; i < r->n_devices; i++) {
    fprintf (f, ms_gettext ("  gpu %d %s, %s, serial %s, PCIe gen%d x%d, %d NVLinks active%s\n"),
             r->devices[i], info[i].name, info[i].pci_bus_id,
             r->topo.serial[i][0] ? r->topo.serial[i] : ms_gettext ("unknown"),
             info[i].pcie_gen, info[i].pcie_width, r->topo.active_nvlinks[i],
             r->topo.nvswitch[i] ? ms_gettext (" (to NVSwitches)") : "");
    for (int j = 0; j < r->n_devices; j++)
      if (j != i)
        print_pair (f, r, info, i, j);
  }
  int doubted = ms_peer_pairs_in_doubt (r, info);
  if (doubted > 0)
    fprintf (f, ms_gettext ("topology in doubt for %d pairs: the links named cannot carry the "
                            "copies measured\n"),
             doubted);
}

/* PREFIX-peer.csv (path, as planned): the matrices with the topology, for
 * the app. */
static int
write_peer (const char *path, const MsPeerResults *r, const MsDeviceInfo *info, int reps)
{
  MsPeerFile *file = malloc (sizeof *file);
  char err[512];
  if (!file)
    return 1;
  ms_peer_file_init (file, r, info, reps);
  bool ok = ms_peer_file_write (file, path, err, sizeof err);
  free (file);
  return ms_cli_wrote_or_say (ok, path, err);
}

typedef struct {
  const MsPeerResults *r;
  const MsDeviceInfo *info;
  int reps;
} PeerView;

/* peer's tables for people: the topology, a matrix per method and way. */
static void
peer_text (FILE *f, void *user)
{
  const PeerView *v = user;
  const MsPeerResults *r = v->r;
  char size[32];
  ms_format_bytes (r->bytes, size, sizeof size);
  fprintf (f, ms_gettext ("peer copies of %s, median of %d, GB/s (1e9 B/s; bidirectional counts "
                          "both ways)\n"),
           size, v->reps);
  print_topology (f, r, v->info);
  for (int m = 0; m < MS_PEER_METHOD_COUNT; m++) {
    char title[128];
    snprintf (title, sizeof title, ms_gettext ("%s, unidirectional"), ms_peer_method_name (m));
    print_matrix (f, r, title, m, false);
    snprintf (title, sizeof title, ms_gettext ("%s, bidirectional"), ms_peer_method_name (m));
    print_matrix (f, r, title, m, true);
  }
  print_matrix (f, r,
                ms_gettext ("reference: cudaMemcpyPeerAsync x10 per event pair, unidirectional"),
                MS_PEER_METHOD_COUNT, false);
  for (int m = 0; m < MS_PEER_METHOD_COUNT; m++)
    for (int i = 0; i < r->n_devices; i++)
      for (int j = 0; j < r->n_devices; j++)
        if (i != j && !r->cell[m][i][j].ok && r->cell[m][i][j].note[0])
          fprintf (f, "%s, gpu %d -> %d: %s\n", ms_peer_method_name (m), r->devices[i],
                   r->devices[j], r->cell[m][i][j].note);
}

int
ms_cli_peer (int argc, char **argv)
{
  MultiArgs a;
  int devices[MS_MULTI_MAX_DEVICES], n = 0;
  char path[4096];
  int rc = parse_experiment_args (argc, argv, &a, "-peer.csv", MS_FILE_KIND_PEER, path, sizeof path, devices, &n);
  if (rc >= 0)
    return rc;
  MsPeerResults *r = calloc (1, sizeof *r);
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES] = { 0 };
  if (!r)
    return 1;
  if (!ms_peer_run (devices, n, ms_exponent_bytes (a.exp), a.sweep.reps, r)) {
    ms_cli_error ("%s\n", r->error);
    free (r);
    return n < 2 ? 2 : 1;
  }
  ms_cli_query_devices (devices, n, info);
  PeerView view = { r, info, a.sweep.reps };
  int status = ms_cli_output_send (&a.output, peer_table (r), peer_text, NULL, &view);
  rc = a.out ? write_peer (path, r, info, a.sweep.reps) : 0;
  free (r);
  return rc ? rc : status;
}

typedef struct {
  const MsPortableResults *r;
  int reps;
} PortableView;

/* portable's table for people: a block per case, a line per GPU. */
static void
portable_text (FILE *f, void *user)
{
  const PortableView *v = user;
  const MsPortableResults *r = v->r;
  char size[32];
  ms_format_bytes (r->bytes, size, sizeof size);
  fprintf (f, ms_gettext ("pinned host memory across GPUs: copies of %s, each GPU alone, median "
                          "of %d, GB/s\n"),
           size, v->reps);
  for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
    fprintf (f, "\n%s\n", ms_portable_case_name (k));
    for (int i = 0; i < r->n_devices; i++) {
      const MsPortableCell *c = &r->cell[k][i];
      if (c->ok)
        fprintf (f, "  gpu %-3d h2d %8.2f  d2h %8.2f  %s\n", r->devices[i], c->h2d_gbps,
                 c->d2h_gbps, c->note);
      else
        fprintf (f, ms_gettext ("  gpu %-3d failed: %s\n"), r->devices[i], c->note);
    }
  }
}

/* PREFIX-portable.csv (path, as planned): the three buffers on each GPU,
 * for the lesson. */
static int
write_portable (const char *path, const MsPortableResults *r, int reps)
{
  MsPortableFile *file = malloc (sizeof *file);
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES] = { 0 };
  char err[512];
  if (!file)
    return 1;
  ms_cli_query_devices (r->devices, r->n_devices, info);
  ms_portable_file_init (file, r, info, reps);
  bool ok = ms_portable_file_write (file, path, err, sizeof err);
  free (file);
  return ms_cli_wrote_or_say (ok, path, err);
}

int
ms_cli_portable (int argc, char **argv)
{
  MultiArgs a;
  int devices[MS_MULTI_MAX_DEVICES], n = 0;
  char path[4096];
  int rc = parse_experiment_args (argc, argv, &a, "-portable.csv", MS_FILE_KIND_PORTABLE, path, sizeof path, devices,
                                  &n);
  if (rc >= 0)
    return rc;
  MsPortableResults *r = calloc (1, sizeof *r);
  if (!r)
    return 1;
  if (!ms_portable_run (devices, n, ms_exponent_bytes (a.exp), a.sweep.reps, r)) {
    ms_cli_error ("%s\n", r->error);
    free (r);
    return 1;
  }
  PortableView view = { r, a.sweep.reps };
  int status
      = ms_cli_output_send (&a.output, portable_table (r), portable_text, NULL, &view);
  rc = a.out ? write_portable (path, r, a.sweep.reps) : 0;
  free (r);
  return rc ? rc : status;
}
