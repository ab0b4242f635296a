/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memsweep: the command line. info, modes, run and show. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-atomic-file.h"
#include "ms-csv-pair.h"
#include "ms-i18n.h"
#include "ms-cli-json.h"
#include "ms-cli-tables.h"
#include "ms-cli-common.h"
#include "ms-cli-extra.h"
#include "ms-cli-show.h"
#include "ms-cli-compare.h"
#ifdef MS_HAVE_DRAW
#include "ms-cli-draw.h"
#endif

/* Translated where printed; "95% c" is no printf directive here. */
static const char *const run_options =
  /* xgettext:no-c-format */
  MS_N_ ("Options of run:\n"
         "  --modes LIST|all     comma-separated modes (default all)\n"
         "  --min-exp K          smallest size 2^K float32 elements (default 10)\n"
         "  --max-exp K          largest size 2^K, at most 28 (default 20)\n"
         "  --step S             exponent step, 1..28 (default 1)\n"
         "  --reps N             a fixed count of timed repetitions per size, instead\n"
         "                       of the adaptive rule below\n"
         "  --min-reps N         at least N repetitions per size (default 10), then\n"
         "  --ci-target PCT      until the median's 95% confidence interval is within\n"
         "                       +-PCT% of it (default 2)\n"
         "  --cell-budget MS     or MS milliseconds went into the size (default 25)\n"
         "  --warmup N           discarded warm-up runs (default 2)\n"
         "  --streams K          chunks and streams of the streams mode (default 4)\n"
         "  --order depth|breadth  issue order of the streams mode (default depth)\n"
         "  --device I           CUDA device index (default 0)\n"
         "  --rounds N           visit every cell N times, interleaved (default 1)\n"
         "  --out PREFIX         write PREFIX-samples.csv and PREFIX-summary.csv\n"
         "                       (default memsweep)\n"
         "  --quiet              no progress bar\n"
         "  --profile FILE       widen the intervals by the run-to-run spread that\n"
         "                       'memsweep calibrate' measured (default: this GPU's\n"
         "                       profile, when there is one)\n"
         "  --no-profile         within-run intervals only\n"
         "\n"
         "Ctrl+C, SIGTERM or SIGHUP stops the sweep and writes what was measured\n"
         "(exit status 1); a second one ends memsweep at once.\n");

/* A message of its own, so that run_options keeps its translations. */
static const char *const run_format_option =
  MS_N_ ("  --format table|json  what goes to standard output (default table; json:\n"
         "                       docs/json.md)\n");
static const char *const run_knob_options =
  MS_N_ ("  --reuse R            the kernel reads each input R times (1..64) in pinned,\n"
         "                       zero-copy, uva and managed memory (docs/lessons.md)\n"
         "  --stores streamed|ordinary|fresh  how the host writes pinned and\n"
         "                       write-combined inputs (default streamed)\n");

/* run_options with the options added after it, translated. */
static const char *
run_options_text (void)
{
  static char text[8192];
  const char *all = ms_gettext (run_options), *more = ms_gettext (run_format_option);
  const char *knobs = ms_gettext (run_knob_options);
  const char *tail = strstr (all, "\n\n");
  int head = tail ? (int) (tail - all) + 1 : (int) strlen (all);
  snprintf (text, sizeof text, "%.*s%s%s%s", head, all, more, knobs, tail ? tail + 1 : "");
  return text;
}

static void
usage (FILE *out)
{
  fprintf (out,
           ms_gettext ("Usage: memsweep COMMAND [OPTIONS]\n"
                       "\n"
                       "Measures CUDA host<->device memory modes with a verified vector add.\n"
                       "\n"
                       "Commands:\n"
                       "  info [--device I]    device facts and which modes it supports\n"
                       "  modes                each memory mode with a one-line explanation\n"
                       "  run [OPTIONS]        run a sweep, print a table, write CSV files\n"
                       "  show FILE            print the summary of a samples CSV (no GPU needed)\n"
                       "  compare A B          two runs cell by cell: same, faster, slower or\n"
                       "                       ambiguous (exit 1 when a cell differs)\n"
                       "\n"
                       "'memsweep COMMAND --help' describes one command.\n"
                       "\n%s%s"),
           run_options_text (), ms_cli_exit_status ());
  fprintf (out, ms_gettext ("\nBeyond one GPU (COMMAND --help for each):\n"));
  ms_cli_extra_usage (out);
#ifdef MS_HAVE_DRAW
  fprintf (out, ms_gettext ("\nCharts and reports (COMMAND --help for each):\n"));
  ms_cli_draw_usage (out);
#endif
}

/* --help of one command. */
static int
command_help (const char *command)
{
  if (strcmp (command, "run") == 0)
    printf (ms_gettext ("Usage: memsweep run [OPTIONS]\n\nRuns a sweep, prints a table of sizes "
                        "by modes and writes the samples and summary CSV files.\n\n%s%s"),
            run_options_text (), ms_cli_exit_status ());
  else if (strcmp (command, "show") == 0)
    ms_cli_show_help ();
  else if (strcmp (command, "info") == 0)
    printf (ms_gettext ("Usage: memsweep info [--device I]\n\nPrints the facts of CUDA device I "
                        "(default 0) and which memory modes it supports.\n%s"),
            ms_cli_exit_status ());
  else
    printf (ms_gettext ("Usage: memsweep modes\n\nLists every memory mode with a one-line "
                        "explanation.\n%s"), ms_cli_exit_status ());
  return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
}

static int
bad_usage (const char *command)
{
  fprintf (stderr, ms_gettext ("Try 'memsweep %s --help'.\n"), command);
  return EXIT_USAGE;
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
    ok = ms_cli_parse_int ("--reps", arg, &sweep->reps);
    sweep->reps_rule = MS_REPS_FIXED;
    *fixed_opt = "--reps";
    break;
  case 'R':
    ok = ms_cli_parse_int ("--min-reps", arg, &sweep->min_reps);
    *adaptive_opt = "--min-reps";
    break;
  case 'C':
    ok = ms_cli_parse_double ("--ci-target", arg, &sweep->ci_target_pct);
    *adaptive_opt = "--ci-target";
    break;
  default:
    ok = ms_cli_parse_double ("--cell-budget", arg, &sweep->cell_budget_ms);
    *adaptive_opt = "--cell-budget";
    break;
  }
  if (ok && *fixed_opt && *adaptive_opt) {
    fprintf (stderr, ms_gettext ("memsweep: %s sets a fixed count, %s belongs to the adaptive "
                                 "rule: give one or the other\n"), *fixed_opt, *adaptive_opt);
    return false;
  }
  return ok;
}

static int
cmd_modes (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "--help") == 0)
    return command_help ("modes");
  if (argc != 1) {
    fprintf (stderr, ms_gettext ("memsweep: modes takes no arguments\n"));
    return bad_usage ("modes");
  }
  for (int m = 0; m < MS_MODE_COUNT; m++)
    printf ("%-17s %s\n", ms_mode_name (m), ms_mode_description (m));
  return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
}

static void
report_modes (MsBackend *backend, const MsDeviceInfo *info)
{
  printf (ms_gettext ("\nModes:\n"));
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    char why[256] = "", clean[1024];
    bool sup = ms_backend_supports (backend, info, m, why, sizeof why);
    ms_report_clean (why, clean, sizeof clean);
    printf ("  %-17s %s%s\n", ms_mode_name (m),
            sup ? ms_gettext ("supported") : ms_gettext ("unsupported: "), clean);
  }
}

static int
cmd_info (int argc, char **argv)
{
  int device = 0;
  static const struct option opts[] = { { "device", required_argument, NULL, 'd' },
                                        { "help", no_argument, NULL, 'h' },
                                        { NULL, 0, NULL, 0 } };
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    if (c == 'h')
      return command_help ("info");
    if (c != 'd')
      return bad_usage ("info");
    if (!ms_cli_parse_int ("--device", optarg, &device))
      return EXIT_USAGE;
  }
  if (optind < argc) {
    fprintf (stderr, ms_gettext ("memsweep: info: unexpected argument '%s'\n"), argv[optind]);
    return bad_usage ("info");
  }
  if (device < 0) {
    fprintf (stderr, ms_gettext ("memsweep: device index must be 0 or more (got %d)\n"), device);
    return EXIT_USAGE;
  }
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo info;
  bool ok = ms_backend_query_device (backend, device, &info);
  ms_report_device (stdout, &info);
  if (ok)
    report_modes (backend, &info);
  ms_backend_free (backend);
  if (!ms_cli_stdout_ok ())
    return EXIT_RUNTIME;
  if (!ok) {
    char error[1024];
    ms_report_clean (info.error, error, sizeof error);
    fprintf (stderr, ms_gettext ("memsweep: no usable CUDA device: %s\n"), error);
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
  fprintf (stderr, "\r[%.*s%.*s] %d/%d %-16s 2^%-2d  ", done,
           "##############################", width - done,
           "..............................", index + 1, n, ms_mode_name (cell->mode),
           cell->exponent);
  fprintf (stderr, ms_gettext ("%.1fs left"), left);
  fputs ("   ", stderr);
  if (index + 1 == n)
    fputc ('\n', stderr);
  fflush (stderr);
}

typedef struct {
  MsSweep sweep;
  const char *prefix;
  bool quiet;
  bool json;
  const char *fixed_opt, *adaptive_opt; /* the repetition rule's options given */
  const char *profile; /* --profile FILE */
  MsRunToRun profile_rr; /* its contents, read once by parse_run */
  char profile_device[256];
  bool no_profile;
  char samples_path[PATH_MAX];
  char summary_path[PATH_MAX];
} RunOptions;

static bool
parse_run_option (RunOptions *o, int c, const char *arg)
{
  char err[512];
  switch (c) {
  case 'm':
    if (ms_sweep_set_modes (&o->sweep, arg, err, sizeof err))
      return true;
    fprintf (stderr, "memsweep: --modes: %s\n", err);
    return false;
  case 'a': return ms_cli_parse_int ("--min-exp", arg, &o->sweep.min_exp);
  case 'b': return ms_cli_parse_int ("--max-exp", arg, &o->sweep.max_exp);
  case 's': return ms_cli_parse_int ("--step", arg, &o->sweep.step);
  case 'r': case 'R': case 'C': case 'B':
    return parse_reps_option (c, arg, &o->sweep, &o->fixed_opt, &o->adaptive_opt);
  case 'w': return ms_cli_parse_int ("--warmup", arg, &o->sweep.warmup);
  case 'k': return ms_cli_parse_int ("--streams", arg, &o->sweep.streams);
  case 'd': return ms_cli_parse_int ("--device", arg, &o->sweep.device);
  case 'U': return ms_cli_parse_int ("--rounds", arg, &o->sweep.rounds);
  case 'o':
    if (strcmp (arg, "depth") == 0 || strcmp (arg, "breadth") == 0) {
      o->sweep.order = arg[0] == 'b' ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST;
      return true;
    }
    fprintf (stderr, ms_gettext ("memsweep: --order: '%s' is neither depth nor breadth\n"), arg);
    return false;
  case 'O':
    o->prefix = arg;
    if (*arg)
      return true;
    fprintf (stderr, ms_gettext ("memsweep: --out: empty prefix\n"));
    return false;
  case 'q': o->quiet = true; return true;
  case 'e': return ms_cli_parse_reuse (arg, &o->sweep.knobs.reuse);
  case 'S':
    if (ms_sweep_stores_from_name (arg, &o->sweep.knobs.stores))
      return true;
    fprintf (stderr,
             ms_gettext ("memsweep: --stores: '%s' is not streamed, ordinary or fresh\n"), arg);
    return false;
  case 'P': o->profile = arg; return true;
  case 'N': o->no_profile = true; return true;
  case 'F': return ms_cli_parse_format (arg, &o->json);
  default: return false;
  }
}

/* Options, validation and the output files, all before anything is
 * measured. Returns -1 to go on, or the exit status. */
static int
parse_run (RunOptions *o, int argc, char **argv)
{
  static const struct option opts[] = {
    { "modes", required_argument, NULL, 'm' }, { "min-exp", required_argument, NULL, 'a' },
    { "max-exp", required_argument, NULL, 'b' }, { "step", required_argument, NULL, 's' },
    { "reps", required_argument, NULL, 'r' },   { "warmup", required_argument, NULL, 'w' },
    { "streams", required_argument, NULL, 'k' }, { "order", required_argument, NULL, 'o' },
    { "device", required_argument, NULL, 'd' }, { "out", required_argument, NULL, 'O' },
    { "quiet", no_argument, NULL, 'q' },        { "help", no_argument, NULL, 'h' },
    { "min-reps", required_argument, NULL, 'R' }, { "ci-target", required_argument, NULL, 'C' },
    { "cell-budget", required_argument, NULL, 'B' }, { "rounds", required_argument, NULL, 'U' },
    { "profile", required_argument, NULL, 'P' }, { "no-profile", no_argument, NULL, 'N' },
    { "format", required_argument, NULL, 'F' }, { "reuse", required_argument, NULL, 'e' },
    { "stores", required_argument, NULL, 'S' }, { NULL, 0, NULL, 0 },
  };
  char err[PATH_MAX + 256], clean[4 * sizeof err];
  int c;
  ms_sweep_init_default (&o->sweep);
  o->prefix = "memsweep";
  o->fixed_opt = o->adaptive_opt = NULL;
  o->profile = NULL;
  o->no_profile = false;
  o->json = false;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    if (c == 'h')
      return command_help ("run");
    if (c == '?' || c == ':')
      return bad_usage ("run");
    if (!parse_run_option (o, c, optarg))
      return EXIT_USAGE;
  }
  if (optind < argc) {
    fprintf (stderr, ms_gettext ("memsweep: run: unexpected argument '%s'\n"), argv[optind]);
    return bad_usage ("run");
  }
  if (!ms_sweep_validate (&o->sweep, err, sizeof err)) {
    fprintf (stderr, "memsweep: %s\n", err);
    return EXIT_USAGE;
  }
  /* The CPU baseline touches no GPU: say so rather than ignore the index. */
  if (o->sweep.device != 0 && ms_sweep_n_modes (&o->sweep) == 1 && o->sweep.modes[MS_MODE_HOST])
    fprintf (stderr, ms_gettext ("memsweep: note: --device %d has no effect: the host mode runs "
                                 "on the CPU only\n"),
             o->sweep.device);
  if (o->profile && !ms_run_to_run_read_profile (&o->profile_rr, o->profile, o->profile_device,
                                                 sizeof o->profile_device, err, sizeof err)) {
    fprintf (stderr, "memsweep: --profile: %s\n", ms_report_clean (err, clean, sizeof clean));
    return EXIT_USAGE;
  }
  if (o->profile)
    ms_cli_protect_input (o->profile);
  /* A device or a pipe as the prefix (/dev/null) gets both files. */
  if (!ms_atomic_file_output_name (o->prefix, "-samples.csv", o->samples_path,
                                   sizeof o->samples_path) ||
      !ms_atomic_file_output_name (o->prefix, "-summary.csv", o->summary_path,
                                   sizeof o->summary_path)) {
    fprintf (stderr, ms_gettext ("memsweep: --out: prefix too long\n"));
    return EXIT_USAGE;
  }
  /* A sweep can take minutes: find a missing folder or a bad name now. */
  if (!ms_atomic_file_check (o->samples_path, err, sizeof err) ||
      !ms_atomic_file_check (o->summary_path, err, sizeof err)) {
    fprintf (stderr, "memsweep: --out: %s\n", ms_report_clean (err, clean, sizeof clean));
    return EXIT_USAGE;
  }
  return -1;
}

/* Whether arg is option, or an abbreviation of it getopt_long would take
 * (at least min characters, "=VALUE" aside). */
static bool
is_abbreviation (const char *arg, const char *option, size_t min)
{
  size_t n = strcspn (arg, "=");
  return n >= min && n <= strlen (option) && strncmp (arg, option, n) == 0;
}

int
ms_cli_check_run_options (const char *command, const char *prefix, bool allow_profile, int argc,
                          char **argv)
{
  enum { MAX_RUN_ARGS = 64 };
  char *args[MAX_RUN_ARGS + 4] = { "run", "--out", (char *) prefix };
  RunOptions o;
  if (argc > MAX_RUN_ARGS) {
    fprintf (stderr, ms_gettext ("memsweep %s: too many run options\n"), command);
    return EXIT_USAGE;
  }
  for (int i = 0; i < argc; i++) {
    /* --help, or any abbreviation getopt would take for it. */
    if (is_abbreviation (argv[i], "--help", 3)) {
      fprintf (stderr, ms_gettext ("memsweep %s: %s is no run option here: see 'memsweep %s "
                                   "--help'\n"), command, argv[i], command);
      return EXIT_USAGE;
    }
    /* Said before the profile is read. */
    if (!allow_profile &&
        (is_abbreviation (argv[i], "--profile", 4) || is_abbreviation (argv[i], "--no-profile", 4))) {
      fprintf (stderr, ms_gettext ("memsweep %s: %s belongs to run\n"), command,
               argv[i][2] == 'p' ? "--profile" : "--no-profile");
      return EXIT_USAGE;
    }
    args[3 + i] = argv[i];
  }
  int saved_optind = optind;
  int rc = parse_run (&o, argc + 3, args);
  optind = saved_optind;
  if (rc >= 0)
    return rc == EXIT_OK ? EXIT_USAGE : rc;
  if (o.prefix != prefix) {
    fprintf (stderr, ms_gettext ("memsweep %s: --out is set by %s itself, not a run option\n"),
             command, command);
    return EXIT_USAGE;
  }
  return -1;
}

static bool
any_cell_failed (const MsResults *results)
{
  for (size_t i = 0; i < results->n_cells; i++)
    if (results->cells[i].status == MS_CELL_FAILED ||
        results->cells[i].status == MS_CELL_VERIFY_FAILED)
      return true;
  return false;
}

/* Files first (a closed stdout must not cost the measurements), then the
 * table, then what went wrong. */
static int
save_and_report (const RunOptions *o, const MsResults *results, MsRunStatus st,
                 const char *run_err)
{
  char err[PATH_MAX + 256], clean[4 * sizeof err], clean2[4 * PATH_MAX];
  int rc = EXIT_OK, stop_signal;
  ms_cli_block_stop_signals (true);
  bool saved = ms_csv_write_pair (results, o->samples_path, o->summary_path, err, sizeof err);
  ms_cli_block_stop_signals (false);
  if (!saved) {
    fprintf (stderr, "memsweep: %s\n", ms_report_clean (err, clean, sizeof clean));
    rc = EXIT_RUNTIME;
  }
  if (o->json) {
    ms_json_write (stdout, results);
  } else {
    ms_report_header (stdout, results, true);
    ms_report_table (stdout, results);
  }
  if (!ms_cli_stdout_ok ())
    rc = EXIT_RUNTIME;
  if (saved)
    fprintf (stderr, ms_gettext ("memsweep: wrote %s and %s\n"),
             ms_report_clean (o->samples_path, clean, sizeof clean),
             ms_report_clean (o->summary_path, clean2, sizeof clean2));
  stop_signal = ms_cli_stop_signal ();
  if (st == MS_RUN_CANCELLED) {
    if (stop_signal)
      fprintf (stderr, ms_gettext ("memsweep: %s: %s; partial results kept\n"),
               ms_cli_signal_name (stop_signal), run_err);
    else
      fprintf (stderr, ms_gettext ("memsweep: %s; partial results kept\n"), run_err);
    rc = EXIT_RUNTIME;
  } else if (stop_signal) {
    fprintf (stderr, ms_gettext ("memsweep: %s after the sweep had finished; results kept\n"),
             ms_cli_signal_name (stop_signal));
    rc = EXIT_RUNTIME;
  }
  return any_cell_failed (results) ? EXIT_RUNTIME : rc;
}

/* The run-to-run spread measured by `memsweep calibrate` widens the
 * intervals (ms-run-to-run.c): the one given, or this device's default when
 * it exists and names the same GPU (ms_run_to_run_load_default, as the
 * window does). */
static void
apply_profile (const RunOptions *o, MsResults *results)
{
  char path[PATH_MAX], clean[4 * PATH_MAX];
  const char *expected = results->device.present ? results->device.name : "none";
  if (!o->profile) {
    if (!ms_run_to_run_load_default (&results->run_to_run, &results->device, path, sizeof path))
      return;
  } else {
    /* Read and checked by parse_run, before the sweep. */
    snprintf (path, sizeof path, "%s", o->profile);
    if (strcmp (o->profile_device, expected) != 0) {
      fprintf (stderr, ms_gettext ("memsweep: %s was measured on %s, not %s: not used\n"),
               ms_report_clean (path, clean, sizeof clean), o->profile_device, expected);
      return;
    }
    results->run_to_run = o->profile_rr;
  }
  fprintf (stderr,
           ms_gettext ("memsweep: intervals include the run-to-run spread of %s (%d runs, %s)\n"),
           ms_report_clean (path, clean, sizeof clean), results->run_to_run.runs,
           results->run_to_run.date);
}

static int
cmd_run (int argc, char **argv)
{
  RunOptions o;
  char err[512];
  /* Before anything else, so that only the process start is unguarded. */
  atomic_int *cancel = ms_cli_stop_on_signals ();
  int rc = parse_run (&o, argc, argv);
  if (rc >= 0)
    return rc;

  MsBackend *backend = ms_backend_new_system ();
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  Progress progress = { .bar = !o.quiet && isatty (STDERR_FILENO),
                        .start_us = ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3 };
  MsResults *results = NULL;
  MsRunStatus st = ms_sweep_run (&o.sweep, backend, on_progress, &progress, cancel,
                                 &results, err, sizeof err);
  ms_backend_free (backend);
  if (results && !o.no_profile)
    apply_profile (&o, results);

  if (st == MS_RUN_INVALID || st == MS_RUN_NO_DEVICE) {
    fprintf (stderr, "memsweep: %s\n", err);
    if (st == MS_RUN_NO_DEVICE)
      fprintf (stderr,
               ms_gettext ("memsweep: 'memsweep run --modes host' still runs the CPU baseline\n"));
    ms_results_free (results);
    return st == MS_RUN_INVALID ? EXIT_USAGE : EXIT_NO_DEVICE;
  }
  if (progress.bar && st == MS_RUN_CANCELLED)
    fputc ('\n', stderr);
  rc = save_and_report (&o, results, st, err);
  ms_results_free (results);
  return rc;
}

static int
run_command (int argc, char **argv)
{
  if (argc < 2) {
    usage (stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0) {
    usage (stdout);
    return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
  }
  if (strcmp (cmd, "--version") == 0) {
    if (argc > 2) {
      fprintf (stderr, ms_gettext ("memsweep: --version takes no arguments\n"));
      return EXIT_USAGE;
    }
    printf ("memsweep %s\n", MS_VERSION);
    return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
  }
  if (strcmp (cmd, "modes") == 0)
    return cmd_modes (argc - 1, argv + 1);
  if (strcmp (cmd, "info") == 0)
    return cmd_info (argc - 1, argv + 1);
  if (strcmp (cmd, "run") == 0)
    return cmd_run (argc - 1, argv + 1);
  if (strcmp (cmd, "show") == 0)
    return ms_cli_show (argc - 1, argv + 1);
  if (strcmp (cmd, "compare") == 0)
    return ms_cli_compare (argc - 1, argv + 1);
#ifdef MS_HAVE_DRAW
  if (strcmp (cmd, "plot") == 0)
    return ms_cli_plot (argc - 1, argv + 1);
  if (strcmp (cmd, "report") == 0)
    return ms_cli_report (argc - 1, argv + 1);
#endif
  int extra_rc;
  if (ms_cli_extra_dispatch (argc, argv, &extra_rc))
    return extra_rc;
  fprintf (stderr, ms_gettext ("memsweep: unknown command '%s'\nTry 'memsweep --help'.\n"), cmd);
  return EXIT_USAGE;
}

int
main (int argc, char **argv)
{
  /* Messages and character widths follow the user's locale; numbers stay in
   * the C locale so that tables print '.' like the files do. */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  /* A closed pipe is reported as an output error, after the files. */
  signal (SIGPIPE, SIG_IGN);
  /* No command leaves a temporary file behind when a signal ends it; run
   * and the commands that stop on a signal install their own handlers. */
  ms_atomic_file_clean_up_on_signals ();
  int rc = run_command (argc, argv);
  /* Every command's output, help and dry runs included, must arrive. */
  if (!ms_cli_stdout_ok () && rc == EXIT_OK)
    rc = EXIT_RUNTIME;
  return rc;
}
