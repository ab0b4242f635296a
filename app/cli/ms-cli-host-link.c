/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-host-link.c: `memsweep host-link`, the host link under every GPU
 * at once (engine/run/ms-host-link.c): for each size and direction, the
 * total of all GPUs copying at once against the sum of each alone, and
 * each GPU's rate, share of the total and ratio to itself alone; with
 * --out PREFIX, also PREFIX-host-link.csv and its sidecar
 * (engine/files/ms-host-link-file.h), planned before any work. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-cli-output.h"
#include "ms-engine.h"
#include "ms-i18n.h"

static bool
parse (int argc, char **argv, const char **list, const char **out, int *exps, int *n_exps, int *rc)
{
  int lo = 22, hi = 28, step = 2;
  const MsCliBind binds[]
      = { { 'D', list }, { 'o', out }, { 'a', &lo }, { 'b', &hi }, { 's', &step }, { 0 } };
  MsCliArgs args;
  ms_cli_args_init (&args, "host-link", argc, argv);
  *rc = EXIT_USAGE;
  if (ms_cli_args_next_bound (&args, NULL, binds) != -1)
    return false;
  if (lo > hi) {
    ms_cli_error (ms_gettext ("--min-exp %d is above --max-exp %d\n"), lo, hi);
    return ms_cli_bad_usage ("host-link"), false;
  }
  *n_exps = 0;
  for (int e = lo; e <= hi && *n_exps < MS_HOST_LINK_MAX_SIZES; e += step)
    exps[(*n_exps)++] = e;
  return true;
}

/* PREFIX-host-link.csv and its sidecar into path, in the output plan
 * before any work; true without --out. */
static bool
plan_out (const char *out, char *path, size_t len)
{
  MsFileKind kind = MS_FILE_KIND_HOST_LINK;
  const char *paths[] = { path };
  return !out || (ms_cli_prefix_names_files ("--out", out, "-host-link.csv") &&
                  ms_atomic_file_output_name (out, "-host-link.csv", path, len) &&
                  ms_cli_outputs_ok ("--out", paths, &kind, 1));
}

/* The file of the finished run r, at path as planned: the exit status. */
static int
write_out (const char *path, const MsHostLinkResults *r)
{
  MsHostLinkFile *file = malloc (sizeof *file);
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES] = { 0 };
  char err[PATH_MAX + 256];
  if (!file)
    return EXIT_RUNTIME;
  ms_cli_query_devices (r->devices, r->n_devices, info);
  ms_host_link_file_init (file, r, info, MS_HOST_LINK_SAMPLES);
  bool ok = ms_host_link_file_write (file, path, err, sizeof err);
  free (file);
  return ms_cli_wrote_or_say (ok, path, err);
}

static void
print_size (const MsHostLinkResults *r, int s)
{
  for (int d = 0; d < MS_HOST_LINK_COUNT; d++) {
    double all = ms_host_link_total (r, d, s, true), alone = ms_host_link_total (r, d, s, false);
    printf (ms_gettext ("2^%d floats (%.0f MiB) %-4s  all at once %7.1f GB/s, alone summed %7.1f "
                        "(%.2f)\n"),
            r->exps[s], (double) (4ull << r->exps[s]) / (1 << 20),
            ms_host_link_direction_key (d), all, alone, alone > 0 ? all / alone : 0);
    for (int i = 0; i < r->n_devices; i++) {
      double t = r->together[d][s][i], a = r->alone[d][s][i];
      printf (ms_gettext ("    gpu %-2d %7.1f GB/s at once (%4.1f%% of the total), alone %7.1f, "
                          "ratio %.2f\n"),
              r->devices[i], t, all > 0 ? 100 * t / all : 0, a, a > 0 ? t / a : 0);
    }
  }
}

int
ms_cli_host_link (int argc, char **argv)
{
  const char *list = "all", *out = NULL;
  char path[PATH_MAX];
  int exps[MS_HOST_LINK_MAX_SIZES], n_exps = 0, rc;
  if (!parse (argc, argv, &list, &out, exps, &n_exps, &rc))
    return rc;
  if (!plan_out (out, path, sizeof path))
    return EXIT_USAGE;
  int devices[MS_MULTI_MAX_DEVICES], n = 0;
  MsDeviceInfo first;
  if ((rc = ms_cli_resolve_devices ("memsweep host-link", list, 1, devices, &n, &first)) >= 0)
    return rc;
  MsHostLinkResults *r = calloc (1, sizeof *r);
  if (!r)
    return EXIT_RUNTIME;
  bool ok = ms_host_link_run (devices, n, exps, n_exps, r);
  if (ok) {
    printf (ms_gettext ("host link under %d GPUs (%s): median of %d samples a cell\n"), n,
            first.name, MS_HOST_LINK_SAMPLES);
    for (int s = 0; s < r->n_sizes; s++)
      print_size (r, s);
  } else {
    ms_cli_error ("%s\n", r->error);
  }
  rc = !ok ? EXIT_RUNTIME : out ? write_out (path, r) : EXIT_OK;
  free (r);
  return rc != EXIT_OK ? rc : ms_cli_stdout_status ();
}
