/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-report.c: `memsweep report`: every chart, the table and the
 * captions of one or more runs as a PDF or an HTML page. */
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-parse.h"
#include "ms-cli-output.h"
#include "ms-cli-draw.h"
#include "ms-cli-health.h"
#include "ms-i18n.h"
#include "ms-drawing.h"

/* The lessons run answers, "pinned-pageable, register-allocate, …". */
static GString *
lessons_answered (const MsResults *run)
{
  GString *names = g_string_new (NULL);
  for (int t = 0; t < MS_TOPIC_COUNT; t++)
    if (ms_lesson_topic_built (t) && ms_lesson_topic_matches (t, run))
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", ms_lesson_topic (t)->name);
  return names;
}

/* A summary holds no repetitions: a lesson whose sentence cannot be
 * stated from it is refused (no picture without its finding), naming
 * the file that would answer. */
static bool
summary_answers (MsLessonTopic topic, const MsResults *run, const char *path)
{
  char caption[MS_LESSON_CAPTION_MAX];
  if (!run->from_summary || ms_lesson_caption (topic, run, -1, caption, sizeof caption))
    return true;
  /* The samples file as it lies there (plain or gzipped), else as it
   * would be named. */
  char samples[PATH_MAX];
  bool named = ms_csv_pair_samples_path (path, samples, sizeof samples);
  ms_cli_error (ms_gettext ("%s is a summary file, which cannot answer the %s "
                            "lesson: give its samples file%s%s\n"),
                path, ms_lesson_topic (topic)->name, named ? ", " : "", named ? samples : "");
  return false;
}

int
ms_cli_drawn (const char *path, bool ok, const GError *error)
{
  if (ok) {
    ms_cli_say (ms_gettext ("%s: written"), path);
    return EXIT_OK;
  }
  if (strcmp (path, "/dev/stdout") == 0 && ms_cli_stdout_reader_gone ())
    return EXIT_OK;
  ms_cli_print_error (error);
  return EXIT_WRITE;
}

bool
ms_cli_draw_fonts_ready (void)
{
  if (ms_draw_fonts_ready ())
    return true;
  ms_cli_error (ms_gettext ("no font could be loaded (fontconfig could not read its "
                            "configuration: a descriptor limit, ulimit -n, or no fonts "
                            "installed): nothing drawn\n"));
  return false;
}

MsLessonTopic
ms_cli_draw_lesson (const MsResults *run, const char *lesson, const char *path)
{
  MsLessonTopic topic =
    lesson ? ms_lesson_topic_from_name (lesson) : ms_lesson_topic_for_experiment (run->experiment);
  if (topic < MS_TOPIC_COUNT && ms_lesson_topic_matches (topic, run)) {
    if (!summary_answers (topic, run, path))
      return MS_TOPIC_COUNT;
    /* The portable lesson draws the shipped run of two GPUs where one is
     * installed, as the app's slide does; else the run's one GPU. */
    char err[512];
    if (ms_lesson_multi_gpu (topic))
      ms_lesson_portable_use_shipped (ms_reference_runs_dir (), err, sizeof err);
    return topic;
  }
  g_autoptr (GString) names = lessons_answered (run);
  if (lesson && topic == MS_TOPIC_COUNT)
    ms_cli_error (ms_gettext ("--lesson: '%s' is not a lesson (see 'memsweep lesson list')\n"),
                  lesson);
  else if (names->len && lesson)
    ms_cli_error (ms_gettext ("%s does not answer the %s lesson; --lesson NAME "
                              "draws a lesson it answers: %s\n"),
                  path, lesson, names->str);
  else if (names->len && run->metadata_unknown[0])
    /* Without its metadata (standard input brings no sidecar) nothing says
     * which experiment measured it: unknown, not a plain sweep. */
    ms_cli_error (ms_gettext ("%s: which lesson measured it is unknown (%s); "
                              "give the file beside its sidecar, or --lesson NAME for a "
                              "lesson it answers: %s\n"),
                  path, run->metadata_unknown, names->str);
  else if (names->len)
    ms_cli_error (ms_gettext ("%s is not a lesson's own run (a plain sweep); "
                              "--lesson NAME draws a lesson it answers: %s\n"),
                  path, names->str);
  else if (run->metadata_unknown[0])
    ms_cli_error (ms_gettext ("%s: which lesson measured it is unknown (%s); "
                              "give the file beside its sidecar\n"),
                  path, run->metadata_unknown);
  else
    ms_cli_error (ms_gettext ("%s answers no lesson (it has no experiment of a "
                              "lesson, nor the modes a lesson compares)\n"),
                  path);
  return MS_TOPIC_COUNT;
}

/* --handout: one lesson's run as a one-page PDF; out is a PDF's name (or
 * standard output), checked by the caller. Nothing is written for a run
 * of no lesson. */
static int
report_handout (const char *out, const char *lesson, char **paths, int n)
{
  if (n != 1) {
    ms_cli_error (ms_gettext ("--handout takes one lesson's run, not %d files\n"), n);
    return EXIT_USAGE;
  }
  g_autoptr (GPtrArray) runs = ms_cli_load_runs (paths, n);
  if (!runs || !ms_cli_plan_file ("--out", out))
    return EXIT_USAGE;
  if (!ms_cli_draw_fonts_ready ())
    return EXIT_RUNTIME;
  const MsResults *run = g_ptr_array_index (runs, 0);
  MsLessonTopic topic = ms_cli_draw_lesson (run, lesson, paths[0]);
  if (topic == MS_TOPIC_COUNT)
    return EXIT_USAGE;
  g_autofree char *source = g_path_get_basename (paths[0]);
  g_autoptr (GError) error = NULL;
  gboolean ok = ms_report_write_handout (out, topic, run, source, &error);
  return ms_cli_drawn (out, ok, error);
}

int
ms_cli_report (int argc, char **argv)
{
  const char *out = NULL, *format = NULL, *lesson = NULL;
  bool handout = false;
  const MsCliBind binds[]
      = { { 'o', &out }, { 'f', &format }, { 'H', &handout }, { 'L', &lesson }, { 0 } };
  MsCliArgs args;
  ms_cli_args_init (&args, "report", argc, argv);
  if (ms_cli_args_next_bound (&args, NULL, binds) != -1)
    return EXIT_USAGE;
  char **files = argv + args.operand;
  int n_files = ms_cli_args_n_operands (&args);
  if (n_files == 0 || !out) {
    ms_cli_error (ms_gettext ("at least one FILE and --out are needed\n"));
    return ms_cli_bad_usage ("report");
  }
  /* A handout is a PDF: said first, as the one extension it takes. */
  const char *dot = strrchr (out, '.');
  if (handout
      && (format ? strcmp (format, "pdf") != 0
                 : strcmp (out, MS_CLI_STDIO) != 0 && (!dot || strcasecmp (dot, ".pdf")))) {
    ms_cli_error (ms_gettext ("--handout writes a PDF: --out '%s' must end in .pdf\n"), out);
    return EXIT_USAGE;
  }
  char chosen[8];
  if (!ms_cli_drawn_format ("report", out, format, chosen))
    return EXIT_USAGE;
  bool pdf = strcmp (chosen, "pdf") == 0;
  if (strcmp (out, MS_CLI_STDIO) == 0)
    out = "/dev/stdout";
  if (handout)
    return report_handout (out, lesson, files, n_files);
  /* The report judges the runs against the envelope file it reads. */
  ms_cli_protect_envelopes (NULL);
  if (!ms_cli_envelopes_usable (NULL))
    return EXIT_USAGE;
  g_autoptr (GPtrArray) runs = ms_cli_load_runs (files, n_files);
  if (!runs || !ms_cli_plan_file ("--out", out))
    return EXIT_USAGE;
  if (!ms_cli_draw_fonts_ready ())
    return EXIT_RUNTIME;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *generated = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  MsReportInput input = { runs, generated };
  g_autoptr (GError) error = NULL;
  gboolean ok = pdf ? ms_report_write_pdf (out, &input, &error)
                    : ms_report_write_html (out, &input, &error);
  return ms_cli_drawn (out, ok, error);
}
