/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-lesson.c: `memsweep lesson LIST` and `memsweep lesson NAME`, the
 * experiments of docs/lessons.md; and the hidden `__lesson-part`, which
 * runs a lesson's isolated parts in a fresh process (memsweep runs itself
 * with the environment the part needs) and writes their samples. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-engine.h"
#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-i18n.h"
#include "ms-cli-json.h"
#include "ms-cli-output.h"
#include "ms-cli-results-table.h"
#include "ms-cli-tables.h"
#include "ms-lessons.h"

typedef struct {
  MsSweep sweep;
  const char *name;
  const char *prefix; /* lesson: the pair's prefix; __lesson-part: the samples path */
  int parts[MS_LESSON_MAX_PARTS]; /* __lesson-part: the part indices */
  int n_parts;
  MsCliOutput output;
} LessonOptions;

static void
lesson_list (FILE *f, void *user)
{
  (void) user;
  /* The app's cards, in their order and with their titles: each with the
   * command that measures it. */
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic ((MsLessonTopic) t);
    if (!ms_lesson_topic_built ((MsLessonTopic) t))
      continue;
    fprintf (f, "%s\n  %s\n", ms_gettext (info->title), ms_gettext (info->question));
    /* Its one name, which the app takes too. */
    fprintf (f, "  memsweep-gtk --lesson %s\n", info->name);
    if (info->experiment[0])
      fprintf (f, "  memsweep lesson %s\n", info->name);
    const MsLessonOption *opt = ms_lesson_options (info->experiment);
    for (int i = 0; opt && opt[i].key; i++)
      fprintf (f, "    --option %s=N  %s (%g; %g..%g)\n", opt[i].key, ms_gettext (opt[i].help),
              opt[i].def, opt[i].min, opt[i].max);
    if (info->plain)
      fprintf (f, "  memsweep run --modes %s\n", info->modes);
    if (ms_lesson_multi_gpu ((MsLessonTopic) t))
      fprintf (f, ms_gettext ("  memsweep portable (with two or more GPUs)\n"));
  }
}

static MsJson *
lesson_options_json (const MsLessonOption *opt)
{
  MsJson *a = ms_json_array_new ();
  for (int i = 0; opt && opt[i].key; i++) {
    MsJson *o = ms_json_object_new ();
    ms_json_set_string (o, "key", opt[i].key);
    ms_json_set_string (o, "help", ms_gettext (opt[i].help));
    ms_json_set_number (o, "default", opt[i].def);
    ms_json_set_number (o, "min", opt[i].min);
    ms_json_set_number (o, "max", opt[i].max);
    ms_json_append (a, o);
  }
  return a;
}

/* lesson LIST --format json: the same cards, each with the commands that
 * measure it. */
static void
lesson_list_json (FILE *f, void *user)
{
  (void) user;
  MsJson *doc = ms_json_document ("memsweep-lessons", 1);
  MsJson *lessons = ms_json_array_new ();
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic ((MsLessonTopic) t);
    if (!ms_lesson_topic_built ((MsLessonTopic) t))
      continue;
    MsJson *o = ms_json_object_new ();
    ms_json_set_string (o, "name", info->name);
    ms_json_set_text (o, "title", ms_gettext (info->title));
    ms_json_set_text (o, "question", ms_gettext (info->question));
    /* How it is measured: its own experiment, or a plain sweep of modes. */
    ms_json_set_text (o, "experiment", info->experiment[0] ? info->name : NULL);
    ms_json_set_text (o, "run_modes", info->plain ? info->modes : NULL);
    ms_json_set_bool (o, "multi_gpu", ms_lesson_multi_gpu ((MsLessonTopic) t));
    ms_json_set (o, "options", lesson_options_json (ms_lesson_options (info->experiment)));
    ms_json_append (lessons, o);
  }
  ms_json_set (doc, "lessons", lessons);
  ms_json_print (f, doc);
}

/* lesson LIST as a table: a lesson a row, how it is measured. */
static const MsCliColumn list_columns[] = {
  { "name" }, { "title" }, { "experiment" }, { "run_modes" }, { "multi_gpu" },
};

static MsCliTable *
lesson_list_table (void)
{
  MsCliTable *table = ms_cli_table_new (list_columns, sizeof list_columns / sizeof *list_columns);
  for (int t = 0; t < MS_TOPIC_COUNT; t++) {
    const MsLessonTopicInfo *info = ms_lesson_topic ((MsLessonTopic) t);
    if (!ms_lesson_topic_built ((MsLessonTopic) t))
      continue;
    ms_cli_table_add_row (table);
    ms_cli_table_text (table, 0, info->name);
    ms_cli_table_text (table, 1, ms_gettext (info->title));
    ms_cli_table_text (table, 2, info->experiment[0] ? info->name : NULL);
    ms_cli_table_text (table, 3, info->plain ? info->modes : NULL);
    ms_cli_table_text (table, 4, ms_lesson_multi_gpu ((MsLessonTopic) t) ? "true" : "false");
  }
  return table;
}

static void
lesson_results_text (FILE *f, void *user)
{
  ms_report_device (f, &((const MsResults *) user)->device);
  ms_cli_lesson_table (f, user);
}

static bool
parse_sizes (MsSweep *s, const char *arg)
{
  int e[3] = { 0, 0, 1 };
  int n = ms_cli_whole_number_list (arg, ':', 3, MS_MAX_EXPONENT, e);
  if (n >= 2 && e[0] >= MS_MIN_EXPONENT && e[0] <= e[1] && e[2] >= 1) {
    s->min_exp = e[0];
    s->max_exp = e[1];
    s->step = e[2];
    return true;
  }
  ms_cli_error (ms_gettext ("--sizes: '%s' is not MIN:MAX or MIN:MAX:STEP: whole size exponents "
                            "from %d to %d, MIN at most MAX, STEP 1 or more\n"),
                arg, MS_MIN_EXPONENT, MS_MAX_EXPONENT);
  return false;
}

/* __lesson-part's --parts: the part indices memsweep gave itself. */
static bool
parse_parts (LessonOptions *o, const char *arg)
{
  o->n_parts = ms_cli_whole_number_list (arg, ',', MS_LESSON_MAX_PARTS, MS_LESSON_MAX_PARTS - 1,
                                         o->parts);
  if (o->n_parts > 0)
    return true;
  ms_cli_error (ms_gettext ("--parts: '%s' is not a list of part indices\n"), arg);
  return false;
}

/* Appends "KEY=VALUE" to the sweep's options; checked with the lesson. */
static bool
add_lesson_option (MsSweep *s, const char *arg)
{
  size_t used = strlen (s->options);
  if (!strchr (arg, '=') || strchr (arg, ',') ||
      used + strlen (arg) + 2 > sizeof s->options) {
    ms_cli_error (ms_gettext ("--option: '%s' is not KEY=VALUE (or too long)\n"), arg);
    return false;
  }
  snprintf (s->options + used, sizeof s->options - used, "%s%s", used ? "," : "", arg);
  return true;
}

/* Whether each of the lesson's options min-KEY is at most its max-KEY,
 * as given or by default: said before any process starts, which would
 * refuse them only once started. False after the message. */
static bool
option_bounds_ok (const char *name, const MsSweep *sweep)
{
  const MsLessonOption *all = ms_lesson_options (name);
  for (const MsLessonOption *lo = all; lo && lo->key; lo++)
    for (const MsLessonOption *hi = all; strncmp (lo->key, "min-", 4) == 0 && hi->key; hi++) {
      double a = ms_lesson_option (name, sweep, lo->key);
      double b = ms_lesson_option (name, sweep, hi->key);
      if (strncmp (hi->key, "max-", 4) == 0 && strcmp (hi->key + 4, lo->key + 4) == 0 && a > b) {
        ms_cli_error (ms_gettext ("--option %s=%g is above %s=%g: the smallest cannot be larger "
                                  "than the largest\n"),
                      lo->key, a, hi->key, b);
        return false;
      }
    }
  return true;
}

/* -1 to go on, or the exit status. */
static int
parse_lesson (LessonOptions *o, int argc, char **argv)
{
  MsCliArgs args;
  char err[512];
  int c;
  ms_sweep_init_default (&o->sweep);
  o->sweep.min_exp = 20;
  o->sweep.max_exp = 22;
  o->sweep.step = 2;
  ms_cli_args_init (&args, "lesson", argc, argv);
  int reps = 0; /* 0: not given, the adaptive rule's */
  const MsCliBind binds[] = { { 'r', &reps },
                              { 'R', &o->sweep.min_reps },
                              { 'w', &o->sweep.warmup },
                              { 'd', &o->sweep.device },
                              { 'O', &o->prefix },
                              { 0 } };
  const char *for_a_run = NULL; /* an option that acts on a lesson's run */
  while ((c = ms_cli_args_next_bound (&args, &o->output, binds)) != -1) {
    if (c == '?')
      return EXIT_USAGE;
    for_a_run = args.name;
    if (!(c == 'o'   ? add_lesson_option (&o->sweep, args.value)
          : c == 'z' ? parse_sizes (&o->sweep, args.value)
                     : parse_parts (o, args.value)))
      return ms_cli_bad_usage ("lesson");
  }
  for_a_run = for_a_run ? for_a_run : args.bound;
  if (reps > 0) {
    o->sweep.reps = reps;
    o->sweep.reps_rule = MS_REPS_FIXED;
  }
  if (ms_cli_args_n_operands (&args) > 1) {
    ms_cli_error (ms_gettext ("'%s': one lesson at a time: its NAME, or list, and nothing after "
                              "it\n"),
                  argv[args.operand + 1]);
    return ms_cli_bad_usage ("lesson");
  }
  if (ms_cli_args_n_operands (&args) != 1) {
    ms_cli_error (ms_gettext ("one lesson's NAME, or list, is needed\n"));
    return ms_cli_bad_usage ("lesson");
  }
  o->name = argv[args.operand];
  if (!ms_cli_output_ready (&o->output))
    return EXIT_USAGE;
  bool list = strcmp (o->name, "LIST") == 0 || strcmp (o->name, MS_CLI_LESSON_LIST) == 0;
  bool csv = false;
  for (int i = 0; i < o->output.n_exports; i++)
    csv |= o->output.exports[i].format == MS_CLI_FORMAT_CSV;
  if (list && ms_cli_compress () && !csv)
    for_a_run = "compress";
  /* The list measures nothing and writes no file: an option for a run
   * would do nothing (lesson list --out F wrote nothing). */
  if (list && for_a_run) {
    ms_cli_error (ms_gettext ("--%s is for a lesson's run: 'lesson list' measures nothing and "
                              "writes no file\n"),
                  for_a_run);
    return ms_cli_bad_usage ("lesson");
  }
  if (list)
    return ms_cli_output_send (&o->output, lesson_list_table (), lesson_list, lesson_list_json,
                               NULL);
  const MsLessonTopicInfo *lesson = ms_lesson_find (o->name);
  const MsLessonTopicInfo *card = ms_lesson_topic (ms_lesson_topic_from_name (o->name));
  if (!lesson && card) {
    ms_cli_error (ms_gettext ("'%s' is measured by a plain sweep: memsweep run --modes %s\n"),
                  card->name, card->modes);
    return EXIT_USAGE;
  }
  if (!lesson) {
    ms_cli_error (ms_gettext ("unknown lesson '%s' (see 'memsweep lesson LIST')\n"), o->name);
    return EXIT_USAGE;
  }
  /* The lesson's one name from here on (files, prefix), even when it was
   * asked for by its alias. */
  o->name = lesson->name;
  if (!ms_sweep_validate (&o->sweep, err, sizeof err) ||
      !ms_lesson_check_options (o->name, o->sweep.options, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    return EXIT_USAGE;
  }
  if (!option_bounds_ok (o->name, &o->sweep))
    return ms_cli_bad_usage ("lesson");
  return -1;
}

/* A child's argument: the longest, --parts=, lists up to
 * MS_LESSON_MAX_PARTS indices (at 64 bytes a one-queue group of 24 parts
 * lost its last ones). */
#define CHILD_ARG_LEN (16 + MS_LESSON_MAX_PARTS * 4)

/* The child's command line: the same base sweep, the parts, a samples path. */
static void
child_args (const LessonOptions *o, const int *parts, int n_parts, const char *path,
            char buf[][CHILD_ARG_LEN], char *options, size_t options_len, char **argv)
{
  const MsSweep *s = &o->sweep;
  int n = 0, b = 0;
  argv[n++] = "memsweep";
  argv[n++] = "__lesson-part";
  snprintf (buf[b], CHILD_ARG_LEN, "--sizes=%d:%d:%d", s->min_exp, s->max_exp, s->step);
  argv[n++] = buf[b++];
  snprintf (buf[b], CHILD_ARG_LEN, s->reps_rule == MS_REPS_FIXED ? "--reps=%d" : "--min-reps=%d",
            s->reps_rule == MS_REPS_FIXED ? s->reps : s->min_reps);
  argv[n++] = buf[b++];
  snprintf (buf[b], CHILD_ARG_LEN, "--warmup=%d", s->warmup);
  argv[n++] = buf[b++];
  snprintf (buf[b], CHILD_ARG_LEN, "--device=%d", s->device);
  argv[n++] = buf[b++];
  int len = snprintf (buf[b], CHILD_ARG_LEN, "--parts=");
  for (int i = 0; i < n_parts && len < CHILD_ARG_LEN - 4; i++)
    len += snprintf (buf[b] + len, CHILD_ARG_LEN - len, i ? ",%d" : "%d", parts[i]);
  argv[n++] = buf[b++];
  /* The options go whole: the child splits them as the parent did. */
  for (const char *p = s->options; *p;) {
    const char *end = strchr (p, ',');
    size_t item_len = end ? (size_t) (end - p) : strlen (p);
    if (item_len + 10 < options_len) {
      int w = snprintf (options, options_len, "--option=%.*s", (int) item_len, p);
      argv[n++] = options;
      options += w + 1;
      options_len -= (size_t) w + 1;
    }
    p = end ? end + 1 : p + item_len;
  }
  argv[n++] = "--out";
  argv[n++] = (char *) path;
  argv[n++] = "--quiet";
  argv[n++] = (char *) o->name;
  argv[n] = NULL;
}

/* MsIsolatedFunc: memsweep again, with the parts' environment, started
 * by the supervisor (ms-supervisor.h) into a private folder. */
static MsResults *
run_isolated (const char *name, const MsSweep *base, const int *parts, int n_parts, void *user,
              char *err, size_t errlen)
{
  const LessonOptions *o = user;
  MsLessonPart all[MS_LESSON_MAX_PARTS];
  ms_lesson_parts (name, base, all, MS_LESSON_MAX_PARTS);
  char dir[PATH_MAX], path[PATH_MAX + 32], log[PATH_MAX + 32], buf[8][CHILD_ARG_LEN], how[256];
  char options[MS_LESSON_OPTIONS_LEN * 2], *env[MS_SUPERVISOR_MAX_ENV];
  char *argv[16 + MS_LESSON_OPTIONS_LEN / 4];
  if (!ms_supervisor_folder ("lesson", dir, sizeof dir)) {
    snprintf (err, errlen, "TMPDIR: %s", strerror (errno));
    return NULL;
  }
  snprintf (path, sizeof path, "%s/part-samples.csv", dir);
  snprintf (log, sizeof log, "%s/part.log", dir);
  child_args (o, parts, n_parts, path, buf, options, sizeof options, argv);
  MsChild child;
  MsChildEnd end = { MS_CHILD_EXITED, -1, false };
  const MsLessonPart *part = &all[parts[0]];
  ms_supervisor_environment (env, MS_SUPERVISOR_MAX_ENV, part->env, part->env_unset);
  if (ms_supervisor_spawn (&child, "/proc/self/exe", argv, env, log))
    end = ms_supervisor_wait (&child, ms_cli_stop_on_signals ());
  MsResults *r = NULL;
  bool wrote = end.how == MS_CHILD_EXITED && (end.code == EXIT_OK || end.code == EXIT_RUNTIME);
  if (wrote)
    r = ms_run_read_samples (path, err, errlen);
  /* The temporary file's name is no name for the lesson's run. */
  if (r)
    r->label[0] = '\0';
  if (!wrote) {
    char said[256];
    ms_supervisor_child_said (&end, log, said, sizeof said);
    snprintf (err, errlen, ms_gettext ("the lesson's child process %s%s%s"),
              ms_supervisor_describe (&end, how, sizeof how), said[0] ? ": " : "", said);
  }
  ms_supervisor_folder_done (dir);
  return r;
}

static int
run_part (LessonOptions *o, MsBackend *backend)
{
  char err[512];
  MsResults *r = NULL;
  MsRunStatus st = ms_lesson_run_parts (o->name, &o->sweep, o->parts, o->n_parts, backend, NULL, NULL,
                                        ms_cli_stop_on_signals (), &r, err, sizeof err);
  if (!r || st == MS_RUN_NO_DEVICE || st == MS_RUN_INVALID) {
    ms_cli_error ("%s\n", err);
    ms_results_free (r);
    return st == MS_RUN_NO_DEVICE ? EXIT_NO_DEVICE : EXIT_USAGE;
  }
  bool ok = ms_csv_write_samples (r, o->prefix, err, sizeof err);
  if (!ok)
    ms_cli_error ("%s\n", err);
  ms_results_free (r);
  return !ok ? EXIT_WRITE : st == MS_RUN_OK ? EXIT_OK : EXIT_RUNTIME;
}

static void
on_progress (int index, int n, const MsCell *cell, void *user)
{
  ms_cli_say (ms_gettext ("cell %d/%d: %s 2^%d %s: %s, %d repetitions"), index + 1, n,
              ms_mode_name (cell->mode), cell->exponent, cell->variant,
              ms_cell_status_name (cell->status), cell->n_reps);
  if (*(bool *) user)
    fprintf (stderr, "\r%4d %-16s 2^%-2d %-40s", index + 1, ms_mode_name (cell->mode),
             cell->exponent, cell->variant);
}

/* Without a GPU the lesson cannot run here, but its reference runs,
 * recorded on the lent H100 and H200, show what it measures (as the
 * app's card falls back to them). */
static void
point_to_reference_runs (const char *name)
{
  const char *dir = ms_reference_runs_dir ();
  bool any = false;
  for (int g = 0; dir && g < 2; g++) {
    char path[4096];
    /* Shipped compressed; a plain copy (unpacked by hand) shows as well. */
    snprintf (path, sizeof path, "%s/%s-lesson-%s-samples.csv.gz", dir, g ? "h200" : "h100", name);
    if (access (path, R_OK) != 0)
      path[strlen (path) - strlen (".gz")] = '\0';
    if (access (path, R_OK) != 0)
      continue;
    if (!any)
      fprintf (stderr, "%s", ms_gettext ("Its reference runs show what it measures:\n"));
    fprintf (stderr, "  memsweep show %s\n", path);
    any = true;
  }
}

static int
lesson_command (int argc, char **argv, bool part)
{
  LessonOptions o = { 0 };
  int rc = parse_lesson (&o, argc, argv);
  if (rc >= 0)
    return rc;
  if (part) {
    /* The part's samples file and its sidecar, in the lesson's folder. */
    const char *set[] = { o.prefix };
    MsBackend *backend = ms_backend_new_system ();
    rc = !o.prefix || !ms_cli_outputs_ok ("--out", set, MS_CLI_RUN_PAIR, 1) ? EXIT_USAGE : run_part (&o, backend);
    ms_backend_free (backend);
    return rc;
  }
  char prefix[PATH_MAX - 16], samples[PATH_MAX], summary[PATH_MAX], err[512];
  if (!ms_cli_prefix_names_files ("--out", o.prefix, "-samples.csv"))
    return EXIT_USAGE;
  snprintf (prefix, sizeof prefix, o.prefix ? "%s" : "lesson-%s", o.prefix ? o.prefix : o.name);
  /* A lesson's isolated parts are measured by memsweep again, into TMPDIR. */
  if (!ms_cli_pair_ok ("--out", prefix, samples, summary) || !ms_cli_tmp_folder_ok ("lesson"))
    return EXIT_USAGE;
  const MsLessonTopicInfo *info = ms_lesson_find (o.name);
  /* Any other format holds standard output alone. */
  if (o.output.format == MS_CLI_FORMAT_TEXT && !o.output.stdout_off) {
    printf ("%s\n%s\n\n", ms_gettext (info->title), ms_gettext (info->reason));
    fflush (stdout);
  }
  bool bar = !ms_cli_quiet () && !ms_cli_verbose () && isatty (STDERR_FILENO);
  MsResults *r = NULL;
  atomic_int *cancel = ms_cli_stop_on_signals ();
  MsBackend *backend = ms_backend_new_system ();
  MsRunStatus st = ms_lesson_run (o.name, &o.sweep, backend, run_isolated, &o, on_progress, &bar,
                                  cancel, &r, err, sizeof err);
  ms_backend_free (backend);
  if (bar)
    fputc ('\n', stderr);
  if (!r || st == MS_RUN_NO_DEVICE || st == MS_RUN_INVALID) {
    ms_cli_error ("%s\n", err);
    if (st == MS_RUN_NO_DEVICE)
      point_to_reference_runs (o.name);
    ms_results_free (r);
    return st == MS_RUN_INVALID ? EXIT_USAGE : EXIT_NO_DEVICE;
  }
  /* As run: an empty pair would look like a lesson's run. */
  if (ms_cli_stopped_before_any_cell (st, r, err)) {
    ms_results_free (r);
    return EXIT_RUNTIME;
  }
  if (st != MS_RUN_OK)
    ms_cli_error ("%s\n", err);
  rc = st == MS_RUN_OK ? EXIT_OK : EXIT_RUNTIME;
  if (!ms_csv_write_pair (r, samples, summary, err, sizeof err)) {
    ms_cli_error ("%s\n", err);
    rc = EXIT_WRITE;
  } else {
    ms_cli_wrote_pair (samples, summary);
  }
  int status = ms_cli_output_send (&o.output, ms_cli_results_table (r), lesson_results_text,
                                   ms_json_write, r);
  if (status != EXIT_OK && rc != EXIT_WRITE)
    rc = status;
  ms_results_free (r);
  return rc;
}

int
ms_cli_lesson (int argc, char **argv)
{
  return lesson_command (argc, argv, false);
}

int
ms_cli_lesson_part (int argc, char **argv)
{
  return lesson_command (argc, argv, true);
}
