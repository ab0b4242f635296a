/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-siblings.c: `memsweep siblings`, the card that differs from its
 * siblings: the check an operator runs after a card, a cable or a BIOS
 * setting changed. The same sweep (the default one from 2^14, the sizes
 * the verdicts pool, unless --run says otherwise) on every GPU of the
 * host, as compare-grade processes that take turns
 * (engine/analysis/ms-turns.h: GPU 0 1 2 3, then 1 2 3 0, ...), each GPU
 * judged against the others mode by mode after each look, and measured
 * again only in the modes still open, until every GPU mode is decided or
 * the budget is spent (engine/analysis/ms-siblings.c names the GPU that
 * differs). The host mode touches no GPU: measured in the first turns and
 * said on a line of its own, never judged. A table a person reads in five
 * seconds, or a JSON document (data/schema/memsweep-siblings.json). Exit
 * 0 alike, 1 a card differs, 5 undecided. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-output.h"
#include "ms-cli-parse.h"
#include "ms-cli-processes.h"
#include "ms-cli-run-options.h"
#include "ms-engine.h"
#include "ms-i18n.h"

/* Neither alike nor a card named: more turns would decide (compare's 5). */
#define EXIT_UNDECIDED 5

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
  double seconds, start;
  bool judged[MS_MODE_COUNT]; /* the GPU modes of the sweep */
  bool host;                  /* the sweep has the host mode */
  MsTurns turns;
  MsSiblingFinding finding;
  MsCliProcessEnd end;
  char err[1024];
  const Options *o;
} Check;

static bool
parse_gpu_experiment (const char *arg, Options *o)
{
  char *end = NULL;
  long g = strtol (arg, &end, 10);
  char err[256];
  MsExperiment x;
  /* No switch would prove nothing: the GPU would run as its siblings. */
  if (end == arg || *end != ':' || g < 0 || g >= MS_MULTI_MAX_DEVICES || !end[1] ||
      !ms_experiment_parse (end + 1, &x, err, sizeof err)) {
    ms_cli_error (ms_gettext ("--gpu-experiment wants I:SWITCHES (%s)\n"), arg);
    return false;
  }
  o->experiment_gpu = (int) g;
  o->experiment = end + 1;
  return true;
}

static bool
parse_options (int argc, char **argv, Options *o, int *rc)
{
  MsCompareOptions cmp;
  char err[256];
  int budget = MS_TURNS_SIBLINGS_BUDGET_S, c; /* whole seconds, as the usage says */
  ms_compare_options_init (&cmp);
  *o = (Options){ .experiment_gpu = -1 };
  const MsCliBind binds[] = { { 'D', &o->devices }, { 'R', &o->run }, { 'u', &budget }, { 0 } };
  MsCliArgs args;
  ms_cli_args_init (&args, "siblings", argc, argv);
  *rc = EXIT_USAGE;
  while ((c = ms_cli_args_next_bound (&args, &o->output, binds)) != -1) {
    bool ok = c == 'X'   ? parse_gpu_experiment (args.value, o)
              : c == 't' ? ms_compare_options_parse_threshold (&cmp, args.value, err, sizeof err)
                         : false; /* '?' */
    if (c == 't' && !ok)
      ms_cli_error (ms_gettext ("--threshold: %s\n"), err);
    if (!ok)
      return false;
  }
  o->budget_s = budget;
  o->threshold = ms_compare_options_fraction (&cmp);
  if (!ms_cli_output_ready (&o->output))
    return false;
  *rc = EXIT_OK;
  return true;
}

/* GPU slot's sweep: run --grade from 2^14 (below, the verdicts pool no
 * size), with the options given, and --device. */
static bool
parse_sweep (const Options *o, int device, const char *prefix, MsSweep *sweep)
{
  static const char *const own[] = { "device", NULL };
  char dev[16];
  int n;
  char **words = ms_cli_side_words ("--run", o->run, own, &n);
  if (!words)
    return false;
  snprintf (dev, sizeof dev, "%d", device);
  const char *fixed[] = { "run", "--grade", "--out", prefix, "--device", dev, "--min-exp", "14",
                          NULL };
  /* Sizes the options name are theirs alone. */
  if (ms_cli_side_gives (words, n, "min-exp") || ms_cli_side_gives (words, n, "max-exp"))
    fixed[6] = NULL;
  MsCliRunOptions ro;
  int rc = ms_cli_side_parse (fixed, words, n, &ro);
  free (words);
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
  int rc = ms_cli_resolve_devices ("memsweep siblings", k->o->devices, 2, k->devices, &k->n, NULL);
  if (rc < 0)
    ms_cli_query_devices (k->devices, k->n, k->info);
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

static double
check_clock (void *user)
{
  return ms_cli_now_s ();
}

/* The process of slot g in round r, of the open modes (and the host's in
 * the first turns, never judged), merged into its run and its values
 * added to the turns. */
static bool
measure_one (void *user, int g, int r, bool first, const bool *open, MsTurns *t)
{
  Check *k = user;
  char sub[PATH_MAX + 16];
  bool host[MS_MODE_COUNT] = { [MS_MODE_HOST] = r < MS_TURNS_MIN_PROCESSES };
  snprintf (sub, sizeof sub, "%s/g%d", k->dir, g);
  MsCliTurnSide side = { &k->sweep[g],
                         k->devices[g] == k->o->experiment_gpu ? k->o->experiment : NULL, sub,
                         MS_FIGURE_E2E };
  k->err[0] = '\0';
  k->end = ms_cli_run_turn (&side, g, r, first, open, host, ms_cli_stop_on_signals (),
                            &k->runs[g], t, k->err, sizeof k->err);
  if (k->end != MS_CLI_PROCESS_MEASURED && k->end != MS_CLI_PROCESS_KEPT)
    return false;
  k->processes = r + 1;
  k->seconds = ms_cli_now_s () - k->start;
  if (ms_cli_verbose () && g == (r + k->n - 1) % k->n)
    fprintf (stderr, ms_gettext ("%d processes a GPU, %.0f s\n"), k->processes, k->seconds);
  return !ms_supervisor_stopping (ms_cli_stop_on_signals ());
}

static int
measure (Check *k)
{
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    k->judged[m] = m != MS_MODE_HOST && k->sweep[0].modes[m];
    k->host = k->host || (m == MS_MODE_HOST && k->sweep[0].modes[m]);
  }
  ms_turns_init (&k->turns, k->n, k->o->threshold);
  MsTurnOps ops = { measure_one, check_clock, NULL, k };
  k->start = ms_cli_now_s ();
  MsTurnsEnd end = ms_turns_take (&k->turns, k->judged, k->o->budget_s, MS_MAX_PROCESSES, &ops);
  k->seconds = ms_cli_now_s () - k->start;
  ms_siblings_name (&k->turns, k->judged, &k->finding);
  if (end.stopped && k->end != MS_CLI_PROCESS_MEASURED && k->end != MS_CLI_PROCESS_KEPT) {
    ms_cli_error ("%s\n", k->err);
    return k->end == MS_CLI_PROCESS_NO_DEVICE ? EXIT_NO_DEVICE : EXIT_RUNTIME;
  }
  return -1;
}

/* "pinned 1.20x, pageable 1.18x": the modes where slot g differs, with
 * its end-to-end time over its siblings' mean. */
static void
where_differs (const Check *k, int g, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int m = 0; m < MS_MODE_COUNT && used < len; m++)
    if (k->finding.named[m][g])
      used += snprintf (buf + used, len - used, "%s%s %.2fx", used ? ", " : "",
                        ms_mode_name ((MsMode) m), k->finding.verdict[m][g].ratio);
}

static const char *
verdict_text (const Check *k, int g)
{
  if (k->finding.gpu_named[g])
    return ms_gettext ("DIFFERS");
  return k->finding.result == MS_SIBLINGS_ALIKE ? ms_gettext ("alike") : ms_gettext ("not named");
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
  int n;
  double host = ms_siblings_host_spread (k->runs, k->host ? k->n : 0, &n);
  if (isfinite (host))
    fprintf (f,
             ms_gettext ("host: the CPU baseline, which uses no GPU, spread ±%.1f%% (sd) over "
                         "its %d processes; not judged\n"),
             100 * (exp (host) - 1), n);
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
  } else if (r->result == MS_SIBLINGS_ALIKE) {
    fprintf (f,
             ms_gettext ("result: alike: every GPU the same as its siblings within ±%.0f%% in "
                         "every GPU mode, decided after %.0f s\n"),
             100 * k->o->threshold, k->turns.seconds);
  } else {
    fprintf (f,
             ms_gettext ("result: undecided: no GPU named; %d GPU modes still open (a longer "
                         "--budget decides more)\n"),
             r->n_open);
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
    if (!k->finding.judged[m])
      continue;
    const MsTurnVerdict *v = &k->finding.verdict[m][g];
    MsJson *e = ms_json_object_new ();
    ms_json_set_string (e, "mode", ms_mode_name ((MsMode) m));
    ms_json_set_string (e, "verdict", ms_verdict_key (v->verdict));
    ms_json_set_bool (e, "differs", k->finding.named[m][g]);
    /* Not finite: null (ms_json_number_new). */
    ms_json_set_number (e, "ratio", v->ratio);
    ms_json_set_number (e, "ratio_low", v->lo);
    ms_json_set_number (e, "ratio_high", v->hi);
    ms_json_set (e, "decided_after_s", v->look ? ms_json_number_new (v->seconds) : NULL);
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
  ms_file_kind_stamp (doc, MS_FILE_KIND_SIBLINGS_JSON);
  ms_json_set_string (doc, "result", ms_siblings_result_key (k->finding.result));
  ms_json_set_string (doc, "run_options", k->o->run ? k->o->run : "");
  ms_json_set_number (doc, "threshold_pct", 100 * k->o->threshold);
  ms_json_set_int (doc, "processes_per_gpu", k->processes);
  ms_json_set_number (doc, "seconds", k->seconds);
  ms_json_set_number (doc, "decided_after_s", k->turns.seconds);
  ms_json_set_int (doc, "looks", k->turns.looks);
  ms_json_set_int (doc, "gpu_modes_undecided", k->finding.n_open);
  int n_host;
  double host = ms_siblings_host_spread (k->runs, k->host ? k->n : 0, &n_host);
  MsJson *h = NULL;
  if (isfinite (host)) {
    h = ms_json_object_new ();
    ms_json_set_int (h, "processes", n_host);
    ms_json_set_number (h, "spread_pct", 100 * (exp (host) - 1));
  }
  ms_json_set (doc, "host", h);
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
    rc = measure (k);
  if (rc < 0) {
    rc = ms_cli_output_send (&o.output, siblings_table (k), siblings_text, siblings_json, k);
    if (rc == EXIT_OK && k->finding.result != MS_SIBLINGS_ALIKE)
      rc = k->finding.result == MS_SIBLINGS_DIFFERS ? EXIT_RUNTIME : EXIT_UNDECIDED;
  }
  free_check (k);
  free (k);
  return rc;
}
