/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-run-options.c: the options of `memsweep run`: their help, their
 * parsing and checks before anything is measured, and the same checks for
 * the run options that calibrate, fleet and fleet-node hand on to run. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-atomic-file.h"
#include "ms-cli-common.h"
#include "ms-cli-run-options.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"

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
         "  --cell-budget MS     or MS milliseconds went into the size (default 20)\n"
         "  --instrumented-reps N  the first N repetitions of each size also run\n"
         "                       with timers, for phases and timelines (default 3;\n"
         "                       0: every one)\n"
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
const char *
ms_cli_run_options_text (void)
{
  static char text[8192];
  const char *all = ms_gettext (run_options), *more = ms_gettext (run_format_option);
  const char *knobs = ms_gettext (run_knob_options);
  const char *tail = strstr (all, "\n\n");
  int head = tail ? (int) (tail - all) + 1 : (int) strlen (all);
  snprintf (text, sizeof text, "%.*s%s%s%s", head, all, more, knobs, tail ? tail + 1 : "");
  return text;
}

void
ms_cli_run_help (void)
{
  printf (ms_gettext ("Usage: memsweep run [OPTIONS]\n\nRuns a sweep, prints a table of sizes "
                      "by modes and writes the samples and summary CSV files.\n\n%s%s"),
          ms_cli_run_options_text (), ms_cli_exit_status ());
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

static bool
parse_run_option (MsCliRunOptions *o, int c, const char *arg)
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
  case 'T': return ms_cli_parse_int ("--instrumented-reps", arg, &o->sweep.instr_reps);
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

int
ms_cli_run_options_parse (MsCliRunOptions *o, int argc, char **argv)
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
    { "stores", required_argument, NULL, 'S' },
    { "instrumented-reps", required_argument, NULL, 'T' }, { NULL, 0, NULL, 0 },
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
    if (c == 'h') {
      ms_cli_run_help ();
      return ms_cli_stdout_ok () ? EXIT_OK : EXIT_RUNTIME;
    }
    if (c == '?' || c == ':')
      return ms_cli_bad_usage ("run");
    if (!parse_run_option (o, c, optarg))
      return EXIT_USAGE;
  }
  if (optind < argc) {
    fprintf (stderr, ms_gettext ("memsweep: run: unexpected argument '%s'\n"), argv[optind]);
    return ms_cli_bad_usage ("run");
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
  /* The table goes there after the sweep: said before it. */
  if (!ms_cli_stdout_not_input ())
    return EXIT_USAGE;
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
  MsCliRunOptions o;
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
  int rc = ms_cli_run_options_parse (&o, argc + 3, args);
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
