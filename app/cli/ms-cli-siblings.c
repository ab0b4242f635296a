/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-siblings.c: `memsweep siblings`, the card that differs from its
 * siblings: the check an operator runs after a card, a cable or a BIOS
 * setting changed. The same sweep (the default one unless --run says
 * otherwise) on every GPU of the host, as compare-grade processes that
 * take turns (GPU 0 1 2 3, then 1 2 3 0, ...: a drift of the machine meets
 * every GPU alike, as compare --live does for two sides), until every
 * pair's per-mode verdict is decided or the budget is spent. Each GPU is
 * then judged against the others (engine/run/ms-siblings.c); a table a
 * person reads in five seconds, or a JSON document
 * (data/schema/memsweep-siblings.json). Exit 1 when a card differs. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ms-cli-common.h"
#include "ms-cli-entries.h"
#include "ms-cli-live.h"
#include "ms-cli-options.h"
#include "ms-cli-output.h"
#include "ms-cli-parse.h"
#include "ms-cli-processes.h"
#include "ms-cli-run-options.h"
#include "ms-cli-tables.h"
#include "ms-engine.h"
#include "ms-i18n.h"

#define SIBLINGS_SCHEMA "memsweep-siblings"
#define SIBLINGS_SCHEMA_VERSION 1
#define MIN_PROCESSES 3
#define MAX_WORDS 64

typedef struct {
  const char *devices, *run, *experiment;
  int experiment_gpu;
  double budget_s, threshold;
  MsCliOutput output;
} Options;

typedef struct {
  int n, devices[MS_MULTI_MAX_DEVICES];
  MsDeviceInfo info[MS_MULTI_MAX_DEVICES];
  MsSweep sweep[MS_MULTI_MAX_DEVICES];
  MsResults *runs[MS_MULTI_MAX_DEVICES];
  char dir[PATH_MAX];
  int processes;
  double seconds;
  MsSiblingVerdicts verdicts;
  MsSiblingFinding finding;
  const Options *o;
} Check;

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
usage (FILE *f, int rc)
{
  fprintf (f,
           ms_gettext ("Usage: memsweep siblings [--devices LIST|all] [--run OPTIONS] [--budget "
                       "SECONDS]\n"
                       "                         [--threshold PCT] [--format table|json]\n"
                       "The same sweep on every GPU of this host, in processes that take turns;\n"
                       "each GPU judged against the others mode by mode. Names the GPU that\n"
                       "differs from its siblings.\n"
                       "  --devices LIST       the GPUs to check (default all; two or more)\n"
                       "  --run OPTIONS        each GPU's run options (default: the default "
                       "sweep)\n"
                       "  --budget SECONDS     stop before a turn would overrun it (default %d)\n"
                       "  --threshold PCT      the difference that matters (default %g)\n"
                       "  --gpu-experiment I:X MEMSWEEP_EXPERIMENT X on GPU I alone (to prove "
                       "the check)\n"),
           MS_CLI_LIVE_DEFAULT_BUDGET, MS_COMPARE_DEFAULT_THRESHOLD_PCT);
  return rc;
}

static bool
parse_gpu_experiment (const char *arg, Options *o)
{
  char *end = NULL;
  long g = strtol (arg, &end, 10);
  char err[256];
  MsExperiment x;
  if (end == arg || *end != ':' || g < 0 || g >= MS_MULTI_MAX_DEVICES ||
      !ms_experiment_parse (end + 1, &x, err, sizeof err)) {
    fprintf (stderr, ms_gettext ("memsweep siblings: --gpu-experiment wants I:SWITCHES (%s)\n"),
             arg);
    return false;
  }
  o->experiment_gpu = (int) g;
  o->experiment = end + 1;
  return true;
}

static bool
parse_one (int c, const char *arg, Options *o, int *rc)
{
  char err[256];
  MsCompareOptions cmp;
  int budget;
  switch (c) {
  case 'D':
    o->devices = arg;
    return ms_cli_devices_ok ("--devices", arg, 2) || (*rc = EXIT_USAGE, false);
  case 'R': o->run = arg; return true;
  case 'X': return parse_gpu_experiment (arg, o) || (*rc = EXIT_USAGE, false);
  case 'u':
    /* Whole seconds, as the usage and its default say. */
    o->budget_s = budget = 0;
    if (!ms_cli_parse_count ("--budget", arg, 1, 86400, &budget))
      return *rc = EXIT_USAGE, false;
    o->budget_s = budget;
    return true;
  case 't':
    ms_compare_options_init (&cmp);
    if (ms_compare_options_parse_threshold (&cmp, arg, err, sizeof err)) {
      o->threshold = cmp.threshold_pct / 100;
      return true;
    }
    fprintf (stderr, ms_gettext ("memsweep siblings: --threshold: %s\n"), err);
    return *rc = EXIT_USAGE, false;
  case 'h': *rc = usage (stdout, EXIT_OK); return false;
  default: break;
  }
  int taken = c == '?' ? -1 : ms_cli_output_option (&o->output, c, arg);
  if (taken > 0)
    return true;
  *rc = EXIT_USAGE;
  return false;
}

static bool
parse_options (int argc, char **argv, Options *o, int *rc)
{
  MsCompareOptions cmp;
  ms_compare_options_init (&cmp);
  *o = (Options){ .budget_s = MS_CLI_LIVE_DEFAULT_BUDGET, .threshold = cmp.threshold_pct / 100,
                  .experiment_gpu = -1 };
  ms_cli_output_init (&o->output, "siblings");
  MsCliArgs args;
  int c;
  ms_cli_args_init (&args, "siblings", argc, argv);
  *rc = EXIT_OK;
  while ((c = ms_cli_args_next (&args)) != -1)
    if (!parse_one (c, args.value, o, rc))
      return false;
  if (args.operand != argc) {
    ms_cli_error (ms_gettext ("unexpected argument '%s'\n"), argv[args.operand]);
    return *rc = ms_cli_bad_usage ("siblings"), false;
  }
  return ms_cli_output_ready (&o->output) || (*rc = EXIT_USAGE, false);
}

/* GPU slot's sweep: run --grade with the options given and --device. */
static bool
parse_sweep (const Options *o, int device, const char *prefix, MsSweep *sweep)
{
  char copy[4096], dev[16], *words[MAX_WORDS + 9], *save = NULL;
  int n = 0;
  snprintf (dev, sizeof dev, "%d", device);
  const char *fixed[] = { "run", "--grade", "--rounds", MS_CLI_LIVE_ROUNDS, "--out", prefix,
                          "--device", dev };
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    words[n++] = (char *) fixed[i];
  snprintf (copy, sizeof copy, "%s", o->run ? o->run : "");
  for (char *w = strtok_r (copy, " \t", &save); w && n < MAX_WORDS; w = strtok_r (NULL, " \t", &save))
    words[n++] = w;
  words[n] = NULL;
  MsCliRunOptions ro;
  int saved = optind;
  ms_cli_plan_pause (true);
  int rc = ms_cli_run_options_parse (&ro, n, words);
  ms_cli_plan_pause (false);
  optind = saved;
  if (rc >= 0)
    return false;
  *sweep = ro.sweep;
  return true;
}

/* --run's options, checked as each GPU's run will read them, before any
 * GPU is asked: a bad option is exit 2 on any machine, not 3 where there
 * is no GPU. */
static bool
run_options_ok (const Options *o)
{
  char check[PATH_MAX + 32];
  MsSweep sweep;
  snprintf (check, sizeof check, "%s/memsweep-siblings-check", ms_cli_tmp_folder ());
  return ms_cli_tmp_folder_ok ("siblings") && parse_sweep (o, 0, check, &sweep);
}

static int
resolve (Check *k)
{
  if (!run_options_ok (k->o))
    return EXIT_USAGE;
  MsBackend *backend = ms_backend_new_system ();
  MsDeviceInfo first;
  bool any = ms_backend_query_device (backend, 0, &first);
  char err[256];
  int rc = -1;
  if (!any) {
    fprintf (stderr, ms_gettext ("memsweep: no usable CUDA device: %s\n"), first.error);
    rc = EXIT_NO_DEVICE;
  } else if (!ms_multi_parse_devices (k->o->devices ? k->o->devices : "all", first.count,
                                      k->devices, &k->n, err, sizeof err) ||
             k->n < 2) {
    fprintf (stderr, "memsweep siblings: %s\n",
             k->n < 2 && !err[0] ? ms_gettext ("two or more GPUs are needed") : err);
    rc = EXIT_USAGE;
  }
  for (int i = 0; rc < 0 && i < k->n; i++)
    ms_backend_query_device (backend, k->devices[i], &k->info[i]);
  ms_backend_free (backend);
  return rc;
}

static int
plan (Check *k)
{
  char sub[PATH_MAX + 16];
  if (!ms_cli_tmp_folder_ok ("siblings"))
    return EXIT_USAGE;
  if (!ms_supervisor_folder ("siblings", k->dir, sizeof k->dir) ||
      !ms_cli_plan_folder ("TMPDIR", k->dir))
    return EXIT_WRITE;
  for (int i = 0; i < k->n; i++) {
    snprintf (sub, sizeof sub, "%s/g%d", k->dir, i);
    if (mkdir (sub, 0700) != 0)
      return EXIT_WRITE;
    if (!parse_sweep (k->o, k->devices[i], sub, &k->sweep[i]))
      return EXIT_USAGE;
  }
  return -1;
}

/* One process of every GPU, the first of them turning with the round. */
static MsCliProcessEnd
run_round (Check *k, int round, atomic_int *cancel, char *err, size_t errlen)
{
  char sub[PATH_MAX + 16];
  for (int i = 0; i < k->n; i++) {
    int s = (round + i) % k->n;
    const char *x = k->devices[s] == k->o->experiment_gpu ? k->o->experiment : NULL;
    snprintf (sub, sizeof sub, "%s/g%d", k->dir, s);
    MsCliProcessEnd end = ms_cli_run_process (&k->sweep[s], x, sub, round, -MS_MAX_PROCESSES,
                                              cancel, &k->runs[s], err, errlen);
    if (end != MS_CLI_PROCESS_MEASURED && end != MS_CLI_PROCESS_KEPT)
      return end;
  }
  return MS_CLI_PROCESS_MEASURED;
}

static bool
judge (Check *k)
{
  char err[256];
  if (!ms_siblings_judge (k->runs, k->n, k->o->threshold, MS_FIGURE_E2E, &k->verdicts, err,
                          sizeof err)) {
    fprintf (stderr, "memsweep siblings: %s\n", err);
    return false;
  }
  ms_siblings_name (&k->verdicts, &k->finding);
  return true;
}

static int
measure (Check *k, atomic_int *cancel)
{
  char err[1024];
  double start = now_s ();
  for (int round = 0; round < MS_MAX_PROCESSES; round++) {
    double t0 = now_s ();
    err[0] = '\0';
    MsCliProcessEnd end = run_round (k, round, cancel, err, sizeof err);
    if (end != MS_CLI_PROCESS_MEASURED) {
      fprintf (stderr, "memsweep siblings: %s\n", err);
      return end == MS_CLI_PROCESS_NO_DEVICE ? EXIT_NO_DEVICE : EXIT_RUNTIME;
    }
    k->processes = round + 1;
    k->seconds = now_s () - start;
    if (k->processes < MIN_PROCESSES)
      continue;
    if (!judge (k))
      return EXIT_USAGE;
    if (ms_cli_verbose ())
      fprintf (stderr, ms_gettext ("%d processes a GPU, %.0f s: %d pair verdicts undecided\n"),
               k->processes, k->seconds, k->finding.n_ambiguous);
    if (k->finding.n_ambiguous == 0 || k->seconds + (now_s () - t0) > k->o->budget_s ||
        ms_supervisor_stopping (cancel))
      return -1;
  }
  return -1;
}

/* "pinned 1.20x, pageable 1.18x": the modes where slot g differs, with
 * the median of its end-to-end times over its siblings'. */
static void
where_differs (const Check *k, int g, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int m = 0; m < MS_MODE_COUNT && used < len; m++)
    if (k->finding.named[m][g])
      used += snprintf (buf + used, len - used, "%s%s %.2fx", used ? ", " : "",
                        ms_mode_name ((MsMode) m), k->finding.ratio[m][g]);
}

static const char *
verdict_text (const Check *k, int g)
{
  if (k->finding.gpu_named[g])
    return ms_gettext ("DIFFERS");
  return k->finding.result == MS_SIBLINGS_SAME ? ms_gettext ("same as the others")
                                               : ms_gettext ("not named");
}

static MsCliTable *
siblings_table (const Check *k)
{
  static const MsCliColumn columns[] = {
    { "gpu", true }, { "bus_id", false }, { "verdict", false }, { "differs_in", false },
  };
  MsCliTable *t = ms_cli_table_new (columns, 4);
  char where[512];
  for (int g = 0; g < k->n; g++) {
    ms_cli_table_add_row (t);
    ms_cli_table_integer (t, 0, k->devices[g]);
    ms_cli_table_text (t, 1, k->info[g].pci_bus_id);
    ms_cli_table_text (t, 2, verdict_text (k, g));
    where_differs (k, g, where, sizeof where);
    ms_cli_table_text (t, 3, where);
  }
  return t;
}

static void
result_line (FILE *f, const Check *k)
{
  const MsSiblingFinding *r = &k->finding;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (r->split[m])
      fprintf (f, ms_gettext ("%s: the GPUs differ, but none stands out from the others\n"),
               ms_mode_name ((MsMode) m));
  if (r->n_named > 0) {
    fputs (ms_gettext ("result: differs from its siblings:"), f);
    for (int g = 0; g < k->n; g++)
      if (r->gpu_named[g])
        fprintf (f, " GPU %d", k->devices[g]);
    fputc ('\n', f);
  } else if (r->result == MS_SIBLINGS_DIFFERS) {
    fputs (ms_gettext ("result: the GPUs differ, no single one named\n"), f);
  } else if (r->result == MS_SIBLINGS_SAME) {
    fputs (ms_gettext ("result: no GPU differs from its siblings\n"), f);
  } else {
    fprintf (f,
             ms_gettext ("result: no GPU named; %d pair verdicts undecided and %d decided on "
                         "their own (a longer --budget decides more)\n"),
             r->n_ambiguous, r->n_isolated);
  }
}

static void
siblings_text (FILE *f, void *user)
{
  Check *k = user;
  fprintf (f,
           ms_gettext ("sibling check: %d GPUs (%s), %s, %d processes each, %.0f s, threshold "
                       "%.0f%%\n"),
           k->n, k->info[0].name, k->o->run ? k->o->run : ms_gettext ("the default sweep"),
           k->processes, k->seconds, 100 * k->o->threshold);
  if (k->o->experiment)
    fprintf (f, ms_gettext ("experiment on GPU %d alone: %s\n"), k->o->experiment_gpu,
             k->o->experiment);
  MsCliTable *t = siblings_table (k);
  ms_cli_table_write (f, t, MS_CLI_FORMAT_TEXT);
  ms_cli_table_free (t);
  result_line (f, k);
}

static MsJson *
gpu_json (const Check *k, int g)
{
  MsJson *o = ms_json_object_new (), *modes = ms_json_array_new ();
  ms_json_set_int (o, "index", k->devices[g]);
  ms_json_set_string (o, "name", k->info[g].name);
  ms_json_set_string (o, "bus_id", k->info[g].pci_bus_id);
  ms_json_set_bool (o, "differs", k->finding.gpu_named[g]);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (!k->verdicts.has_mode[m])
      continue;
    MsJson *e = ms_json_object_new ();
    ms_json_set_string (e, "mode", ms_mode_name ((MsMode) m));
    ms_json_set_bool (e, "differs", k->finding.named[m][g]);
    ms_json_set_string (e, "direction",
                        k->finding.named[m][g] ? ms_verdict_key (k->finding.direction[m][g])
                                               : NULL);
    ms_json_set (e, "ratio", isfinite (k->finding.ratio[m][g])
                               ? ms_json_number_new (k->finding.ratio[m][g])
                               : NULL);
    ms_json_append (modes, e);
  }
  ms_json_set (o, "modes", modes);
  return o;
}

static void
siblings_json (FILE *f, void *user)
{
  Check *k = user;
  MsJson *doc = ms_json_object_new (), *gpus = ms_json_array_new (), *split = ms_json_array_new ();
  ms_json_set_string (doc, "schema", SIBLINGS_SCHEMA);
  ms_json_set_int (doc, "schema_version", SIBLINGS_SCHEMA_VERSION);
  ms_json_set_string (doc, "result", ms_siblings_result_key (k->finding.result));
  ms_json_set_string (doc, "run_options", k->o->run ? k->o->run : "");
  ms_json_set_number (doc, "threshold_pct", 100 * k->o->threshold);
  ms_json_set_int (doc, "processes_per_gpu", k->processes);
  ms_json_set_number (doc, "seconds", k->seconds);
  ms_json_set_int (doc, "pairs_undecided", k->finding.n_ambiguous);
  ms_json_set_int (doc, "pairs_decided_alone", k->finding.n_isolated);
  MsJson *x = NULL;
  if (k->o->experiment) {
    x = ms_json_object_new ();
    ms_json_set_int (x, "gpu", k->o->experiment_gpu);
    ms_json_set_string (x, "switches", k->o->experiment);
  }
  ms_json_set (doc, "experiment", x);
  for (int g = 0; g < k->n; g++)
    ms_json_append (gpus, gpu_json (k, g));
  ms_json_set (doc, "gpus", gpus);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (k->finding.split[m])
      ms_json_append (split, ms_json_string_new (ms_mode_name ((MsMode) m)));
  ms_json_set (doc, "split_modes", split);
  ms_json_print (f, doc);
}

static void
free_check (Check *k)
{
  for (int i = 0; i < k->n; i++)
    ms_results_free (k->runs[i]);
  if (k->dir[0])
    ms_supervisor_folder_done (k->dir);
}

int
ms_cli_siblings (int argc, char **argv)
{
  Options o;
  int rc;
  if (!parse_options (argc, argv, &o, &rc))
    return rc;
  Check *k = calloc (1, sizeof *k);
  if (!k)
    return EXIT_RUNTIME;
  k->o = &o;
  rc = resolve (k);
  if (rc < 0)
    rc = plan (k);
  if (rc < 0)
    rc = measure (k, ms_cli_stop_on_signals ());
  if (rc < 0) {
    MsCliTable *t = siblings_table (k);
    MsCliDocument doc = { siblings_text, siblings_json, t, k };
    bool written = ms_cli_output_write (&o.output, &doc);
    ms_cli_table_free (t);
    rc = ms_cli_output_status (written);
    if (rc == EXIT_OK && k->finding.result == MS_SIBLINGS_DIFFERS)
      rc = EXIT_RUNTIME;
  }
  free_check (k);
  free (k);
  return rc;
}
