/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-show.c: `memsweep show FILE`: the tables of a samples or summary
 * CSV, or its JSON (docs/json.md) on standard output or into a file. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-health.h"
#include "ms-cli-options.h"
#include "ms-engine.h"
#include "ms-i18n.h"
#include "ms-cli-json.h"
#include "ms-cli-output.h"
#include "ms-cli-parse.h"
#include "ms-cli-results-table.h"
#include "ms-cli-tables.h"

typedef struct {
  const char *path, *out, *envelopes;
  MsCliOutput output;
} ShowOptions;

/* -1 to go on, else the exit status. */
static int
parse_show (ShowOptions *o, int argc, char **argv)
{
  const MsCliBind binds[] = { { 'o', &o->out }, { 'e', &o->envelopes }, { 0 } };
  MsCliArgs args;
  ms_cli_args_init (&args, "show", argc, argv);
  if (ms_cli_args_next_bound (&args, &o->output, binds) != -1)
    return EXIT_USAGE;
  if (ms_cli_args_n_operands (&args) != 1) {
    ms_cli_error (ms_gettext ("exactly one FILE is needed (a samples CSV)\n"));
    return ms_cli_bad_usage ("show");
  }
  o->path = argv[args.operand];
  if (o->envelopes && strcmp (o->path, MS_CLI_STDIO) == 0 &&
      strcmp (o->envelopes, MS_CLI_STDIO) == 0) {
    ms_cli_error (ms_gettext ("-: standard input is read once: name the other file\n"));
    return EXIT_USAGE;
  }
  /* --out FILE: what standard output would get, in the format given, goes
   * there instead (--out is the file written, in every command); --out -
   * is that on standard output, which then holds no other. */
  if (o->out && ms_cli_output_only_to (&o->output, "--out", o->out) < 0)
    return ms_cli_bad_usage ("show");
  return -1;
}

typedef struct {
  const MsResults *results;
  const MsEnvelopes *env;
  const char *env_why;
} ShowView;

/* Cells of several variants in one mode are an experiment's (a plain
 * sweep's knobs give each mode one): a lesson's, which its sidecar names. */
static bool
cells_of_an_experiment (const MsResults *r)
{
  const char *names[2];
  if (r->experiment[0])
    return true;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (ms_results_variants (r, (MsMode) m, names, 2) > 1)
      return true;
  return false;
}

static void
show_text (FILE *f, void *user)
{
  const ShowView *v = user;
  char err[1024];
  /* The settings line only for settings the file states and a sweep could have. */
  bool settings = v->results->settings_stated && !v->results->metadata_refused &&
                  ms_sweep_validate (&v->results->sweep, err, sizeof err);
  ms_report_header (f, v->results, settings);
  /* A lesson's cells have variants: its own table (docs/lessons.md). */
  if (cells_of_an_experiment (v->results))
    ms_cli_lesson_table (f, v->results);
  else
    ms_report_table (f, v->results);
  ms_cli_health (f, v->results, v->env, v->env_why);
}

static void
show_json (FILE *f, void *user)
{
  const ShowView *v = user;
  ms_json_write_judged (f, v->results, v->env);
}

/* The file named, or standard input ("-"); NULL after a message. A file
 * from standard input has no sidecar beside it: its metadata comes inline
 * or not at all, and no summary or samples file lies beside it. */
static MsResults *
show_read (ShowOptions *o)
{
  char err[1024], clean[4096];
  bool from_stdin = strcmp (o->path, MS_CLI_STDIO) == 0;
  /* Its --out is refused by the writer then, as any file it cannot write. */
  if (!ms_cli_input_path (o->path) || !ms_cli_is_run (o->path))
    return NULL;
  MsResults *results = ms_run_read_figures (o->path, err, sizeof err);
  if (from_stdin && results && results->metadata_unknown[0])
    snprintf (results->metadata_unknown, sizeof results->metadata_unknown,
              ms_gettext ("-: standard input has no sidecar: the run's device, driver, link "
                          "and settings are unknown (give the file's name to read its "
                          "NAME-meta.json)"));
  if (!results) {
    ms_cli_error ("%s\n", ms_report_clean (err, clean, sizeof clean));
    return NULL;
  }
  if (!from_stdin && !ms_csv_pair_check_id (o->path, results->run_id, err, sizeof err)) {
    ms_report_clean (err, clean, sizeof clean);
    ms_cli_error (ms_gettext ("warning: %s\n"), clean);
  }
  if (results->metadata_unknown[0]) {
    ms_report_clean (results->metadata_unknown, clean, sizeof clean);
    ms_cli_error (ms_gettext ("warning: %s\n"), clean);
  }
  /* Never shown as a plain sweep: the experiment is in the sidecar. */
  if (results->metadata_unknown[0] && cells_of_an_experiment (results))
    ms_cli_error (ms_gettext ("warning: %s: which lesson measured it is unknown "
                              "(its cells are an experiment's, which its sidecar names): "
                              "shown a cell a row, without the lesson's finding\n"),
                  ms_report_clean (o->path, clean, sizeof clean));
  return results;
}

int
ms_cli_show (int argc, char **argv)
{
  char clean[4096];
  ShowOptions o = { NULL };
  int rc = parse_show (&o, argc, argv);
  if (rc >= 0)
    return rc;
  ms_cli_protect_envelopes (o.envelopes);
  ms_cli_say (ms_gettext ("show: reading %s"), strcmp (o.path, MS_CLI_STDIO) == 0
                                                  ? ms_gettext ("standard input")
                                                  : ms_report_clean (o.path, clean, sizeof clean));
  MsResults *results = show_read (&o);
  if (!results)
    return EXIT_USAGE;
  if (results->metadata_refused) {
    /* A default shown in place of what the file states is said. */
    ms_report_clean (results->metadata_refused_keys, clean, sizeof clean);
    ms_cli_error (ms_gettext ("warning: %s: metadata out of its kind or range, not used: %s\n"),
                  o.path, clean);
  }
  /* The exports are checked once the inputs are known, so that none
   * replaces one. */
  if (!ms_cli_output_ready (&o.output) || (!o.output.stdout_off && !ms_cli_stdout_not_input ())) {
    ms_results_free (results);
    return EXIT_USAGE;
  }
  char env_why[1024] = "";
  MsEnvelopes *env = ms_cli_load_envelopes (o.envelopes, env_why, sizeof env_why);
  const char *named = ms_cli_envelopes_named (o.envelopes);
  if (!env && named) {
    /* Named by the user: an input that cannot be read, as any other
     * (the installed file, not named, only goes unjudged). */
    ms_cli_error ("%s: %s\n", named, ms_report_clean (env_why, clean, sizeof clean));
    ms_results_free (results);
    return EXIT_USAGE;
  }
  ShowView view = { results, env, env_why };
  rc = ms_cli_output_send (&o.output, ms_cli_results_table (results), show_text, show_json, &view);
  ms_envelopes_free (env);
  ms_results_free (results);
  return rc;
}
