/* memsweep: the command line. info, modes, run and show. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-report.h"
#include "ms-cli-extra.h"

enum {
  EXIT_OK = 0,
  EXIT_RUNTIME = 1,
  EXIT_USAGE = 2,
  EXIT_NO_DEVICE = 3,
};

static atomic_int cancel_flag;

static void
on_sigint (int sig)
{
  (void) sig;
  /* A second Ctrl+C ends the program the ordinary way. */
  if (atomic_exchange (&cancel_flag, 1))
    signal (SIGINT, SIG_DFL);
}

static void
usage (FILE *out)
{
  fprintf (out,
           "Usage: memsweep COMMAND [OPTIONS]\n"
           "\n"
           "Measures CUDA host<->device memory modes with a verified vector add.\n"
           "\n"
           "Commands:\n"
           "  info                 device facts and which modes it supports\n"
           "  modes                each memory mode with a one-line explanation\n"
           "  run [OPTIONS]        run a sweep, print a table, write CSV files\n"
           "  show FILE            print the summary of a samples CSV (no GPU needed)\n"
           "\n"
           "Options of run:\n"
           "  --modes LIST|all     comma-separated modes (default all)\n"
           "  --min-exp K          smallest size 2^K float32 elements (default 10)\n"
           "  --max-exp K          largest size 2^K, at most 28 (default 20)\n"
           "  --step S             exponent step (default 1)\n"
           "  --reps N             a fixed count of timed repetitions per size, instead\n"
           "                       of the adaptive rule below\n"
           "  --min-reps N         at least N repetitions per size (default 10), then\n"
           "  --ci-target PCT      until the median's 95%% confidence interval is within\n"
           "                       +-PCT%% of it (default 2)\n"
           "  --cell-budget MS     or MS milliseconds went into the size (default 500)\n"
           "  --warmup N           discarded warm-up runs (default 2)\n"
           "  --streams K          chunks and streams of the streams mode (default 4)\n"
           "  --order depth|breadth  issue order of the streams mode (default depth)\n"
           "  --device I           CUDA device index (default 0)\n"
           "  --out PREFIX         write PREFIX-samples.csv and PREFIX-summary.csv\n"
           "                       (default memsweep)\n"
           "  --quiet              no progress bar\n"
           "\n"
           "Exit status: 0 success, 1 runtime failure (a failed cell included),\n"
           "2 bad usage or bad input file, 3 no usable CUDA device.\n");
  fprintf (out, "\nBeyond one GPU (COMMAND --help for each):\n");
  ms_cli_extra_usage (out);
}

static bool
parse_int_arg (const char *opt, const char *value, int *out)
{
  char *end;
  errno = 0;
  long v = strtol (value, &end, 10);
  if (errno || end == value || *end || v < INT_MIN || v > INT_MAX) {
    fprintf (stderr, "memsweep: %s: '%s' is not a whole number\n", opt, value);
    return false;
  }
  *out = (int) v;
  return true;
}

static bool
parse_double_arg (const char *opt, const char *value, double *out)
{
  char *end;
  errno = 0;
  double v = strtod (value, &end);
  if (errno || end == value || *end) {
    fprintf (stderr, "memsweep: %s: '%s' is not a number\n", opt, value);
    return false;
  }
  *out = v;
  return true;
}

/* --reps, or the adaptive rule's --min-reps, --ci-target and --cell-budget:
 * one kind or the other. */
static bool
parse_reps_option (int opt, const char *arg, MsSweep *sweep, const char **fixed_opt,
                   const char **adaptive_opt)
{
  bool ok;
  switch (opt) {
  case 'r':
    ok = parse_int_arg ("--reps", arg, &sweep->reps);
    sweep->reps_rule = MS_REPS_FIXED;
    *fixed_opt = "--reps";
    break;
  case 'R':
    ok = parse_int_arg ("--min-reps", arg, &sweep->min_reps);
    *adaptive_opt = "--min-reps";
    break;
  case 'C':
    ok = parse_double_arg ("--ci-target", arg, &sweep->ci_target_pct);
    *adaptive_opt = "--ci-target";
    break;
  default:
    ok = parse_double_arg ("--cell-budget", arg, &sweep->cell_budget_ms);
    *adaptive_opt = "--cell-budget";
    break;
  }
  if (ok && *fixed_opt && *adaptive_opt) {
    fprintf (stderr, "memsweep: %s sets a fixed count, %s belongs to the adaptive rule: "
                     "give one or the other\n", *fixed_opt, *adaptive_opt);
    return false;
  }
  return ok;
}

static int
cmd_modes (void)
{
  for (int m = 0; m < MS_MODE_COUNT; m++)
    printf ("%-17s %s\n", ms_mode_name (m), ms_mode_description (m));
  return EXIT_OK;
}

static int
cmd_info (int argc, char **argv)
{
  int device = 0;
  static const struct option opts[] = { { "device", required_argument, NULL, 'd' },
                                        { NULL, 0, NULL, 0 } };
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    if (c != 'd' || !parse_int_arg ("--device", optarg, &device)) {
      if (c != 'd')
        fprintf (stderr, "Try 'memsweep --help'.\n");
      return EXIT_USAGE;
    }
  }
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  bool ok = ms_backend_query_device (backend, device, &info);
  ms_report_device (stdout, &info);
  if (ok) {
    printf ("\nModes:\n");
    for (int m = 0; m < MS_MODE_COUNT; m++) {
      char why[256] = "";
      bool sup = ms_backend_supports (backend, &info, m, why, sizeof why);
      printf ("  %-17s %s%s\n", ms_mode_name (m), sup ? "supported" : "unsupported: ",
              sup ? "" : why);
    }
  }
  ms_backend_free (backend);
  if (!ok) {
    fprintf (stderr, "memsweep: no usable CUDA device: %s\n", info.error);
    return EXIT_NO_DEVICE;
  }
  return EXIT_OK;
}

typedef struct {
  bool bar;
  double start_us;
} Progress;

static void
on_progress (int index, int n, const MsCell *cell, void *user)
{
  Progress *p = user;
  if (!p->bar)
    return;
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  double now = ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
  double elapsed = (now - p->start_us) * 1e-6;
  double left = index + 1 < n ? elapsed / (index + 1) * (n - index - 1) : 0;
  const int width = 30;
  int done = (index + 1) * width / n;
  fprintf (stderr, "\r[%.*s%.*s] %d/%d %-16s 2^%-2d  %.1fs left   ", done,
           "##############################", width - done,
           "..............................", index + 1, n, ms_mode_name (cell->mode),
           cell->exponent, left);
  if (index + 1 == n)
    fputc ('\n', stderr);
  fflush (stderr);
}

static int
cmd_run (int argc, char **argv)
{
  MsSweep sweep;
  char err[512];
  const char *prefix = "memsweep";
  bool quiet = false;
  const char *fixed_opt = NULL, *adaptive_opt = NULL; /* the rule's options given */
  ms_sweep_init_default (&sweep);

  static const struct option opts[] = {
    { "modes", required_argument, NULL, 'm' }, { "min-exp", required_argument, NULL, 'a' },
    { "max-exp", required_argument, NULL, 'b' }, { "step", required_argument, NULL, 's' },
    { "reps", required_argument, NULL, 'r' },   { "warmup", required_argument, NULL, 'w' },
    { "streams", required_argument, NULL, 'k' }, { "order", required_argument, NULL, 'o' },
    { "device", required_argument, NULL, 'd' }, { "out", required_argument, NULL, 'O' },
    { "quiet", no_argument, NULL, 'q' },        { "min-reps", required_argument, NULL, 'R' },
    { "ci-target", required_argument, NULL, 'C' }, { "cell-budget", required_argument, NULL, 'B' },
    { NULL, 0, NULL, 0 },
  };
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    bool ok = true;
    switch (c) {
    case 'm':
      ok = ms_sweep_set_modes (&sweep, optarg, err, sizeof err);
      if (!ok)
        fprintf (stderr, "memsweep: --modes: %s\n", err);
      break;
    case 'a': ok = parse_int_arg ("--min-exp", optarg, &sweep.min_exp); break;
    case 'b': ok = parse_int_arg ("--max-exp", optarg, &sweep.max_exp); break;
    case 's': ok = parse_int_arg ("--step", optarg, &sweep.step); break;
    case 'r': case 'R': case 'C': case 'B':
      ok = parse_reps_option (c, optarg, &sweep, &fixed_opt, &adaptive_opt);
      break;
    case 'w': ok = parse_int_arg ("--warmup", optarg, &sweep.warmup); break;
    case 'k': ok = parse_int_arg ("--streams", optarg, &sweep.streams); break;
    case 'd': ok = parse_int_arg ("--device", optarg, &sweep.device); break;
    case 'o':
      if (strcmp (optarg, "depth") == 0)
        sweep.order = MS_ORDER_DEPTH_FIRST;
      else if (strcmp (optarg, "breadth") == 0)
        sweep.order = MS_ORDER_BREADTH_FIRST;
      else {
        fprintf (stderr, "memsweep: --order: '%s' is neither depth nor breadth\n", optarg);
        ok = false;
      }
      break;
    case 'O':
      if (!*optarg) {
        fprintf (stderr, "memsweep: --out: empty prefix\n");
        ok = false;
      }
      prefix = optarg;
      break;
    case 'q': quiet = true; break;
    default:
      fprintf (stderr, "Try 'memsweep --help'.\n");
      return EXIT_USAGE;
    }
    if (!ok)
      return EXIT_USAGE;
  }
  if (optind < argc) {
    fprintf (stderr, "memsweep: run: unexpected argument '%s'\n", argv[optind]);
    return EXIT_USAGE;
  }
  if (!ms_sweep_validate (&sweep, err, sizeof err)) {
    fprintf (stderr, "memsweep: %s\n", err);
    return EXIT_USAGE;
  }

  char samples_path[PATH_MAX], summary_path[PATH_MAX];
  if (snprintf (samples_path, sizeof samples_path, "%s-samples.csv", prefix) >=
        (int) sizeof samples_path ||
      snprintf (summary_path, sizeof summary_path, "%s-summary.csv", prefix) >=
        (int) sizeof summary_path) {
    fprintf (stderr, "memsweep: --out: prefix too long\n");
    return EXIT_USAGE;
  }

  struct sigaction sa = { 0 };
  sa.sa_handler = on_sigint;
  sigaction (SIGINT, &sa, NULL);

  MsBackend *backend = ms_backend_new_system ();
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  Progress progress = { .bar = !quiet && isatty (STDERR_FILENO),
                        .start_us = ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3 };
  MsResults *results = NULL;
  MsRunStatus st =
    ms_sweep_run (&sweep, backend, on_progress, &progress, &cancel_flag, &results, err, sizeof err);
  ms_backend_free (backend);

  if (st == MS_RUN_INVALID) {
    fprintf (stderr, "memsweep: %s\n", err);
    ms_results_free (results);
    return EXIT_USAGE;
  }
  if (st == MS_RUN_NO_DEVICE) {
    fprintf (stderr, "memsweep: %s\n", err);
    fprintf (stderr, "memsweep: 'memsweep run --modes host' still runs the CPU baseline\n");
    ms_results_free (results);
    return EXIT_NO_DEVICE;
  }
  if (progress.bar && st == MS_RUN_CANCELLED)
    fputc ('\n', stderr);

  ms_report_header (stdout, results);
  ms_report_table (stdout, results);

  int rc = EXIT_OK;
  if (!ms_csv_write_samples (results, samples_path, err, sizeof err) ||
      !ms_csv_write_summary (results, summary_path, err, sizeof err)) {
    fprintf (stderr, "memsweep: %s\n", err);
    rc = EXIT_RUNTIME;
  } else {
    fprintf (stderr, "memsweep: wrote %s and %s\n", samples_path, summary_path);
  }
  if (st == MS_RUN_CANCELLED) {
    fprintf (stderr, "memsweep: %s; partial results kept\n", err);
    rc = EXIT_RUNTIME;
  }
  for (size_t i = 0; i < results->n_cells; i++)
    if (results->cells[i].status == MS_CELL_FAILED ||
        results->cells[i].status == MS_CELL_VERIFY_FAILED)
      rc = EXIT_RUNTIME;
  ms_results_free (results);
  return rc;
}

static int
cmd_show (int argc, char **argv)
{
  if (argc != 2) {
    fprintf (stderr, "memsweep: show needs exactly one FILE (a samples CSV)\n");
    return EXIT_USAGE;
  }
  char err[512];
  MsResults *results = ms_csv_read_samples (argv[1], err, sizeof err);
  if (!results) {
    fprintf (stderr, "memsweep: %s\n", err);
    return EXIT_USAGE;
  }
  ms_report_header (stdout, results);
  ms_report_table (stdout, results);
  ms_results_free (results);
  return EXIT_OK;
}

int
main (int argc, char **argv)
{
  if (argc < 2) {
    usage (stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0) {
    usage (stdout);
    return EXIT_OK;
  }
  if (strcmp (cmd, "--version") == 0) {
    printf ("memsweep %s\n", MS_VERSION);
    return EXIT_OK;
  }
  if (strcmp (cmd, "modes") == 0)
    return argc == 2 ? cmd_modes () : (fprintf (stderr, "memsweep: modes takes no arguments\n"), EXIT_USAGE);
  if (strcmp (cmd, "info") == 0)
    return cmd_info (argc - 1, argv + 1);
  if (strcmp (cmd, "run") == 0)
    return cmd_run (argc - 1, argv + 1);
  if (strcmp (cmd, "show") == 0)
    return cmd_show (argc - 1, argv + 1);
  int extra_rc;
  if (ms_cli_extra_dispatch (argc, argv, &extra_rc))
    return extra_rc;
  fprintf (stderr, "memsweep: unknown command '%s'\nTry 'memsweep --help'.\n", cmd);
  return EXIT_USAGE;
}
