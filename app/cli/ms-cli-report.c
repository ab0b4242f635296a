/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-report.c: `memsweep report`: every chart, the table and the
 * captions of one or more runs as a PDF or an HTML page. */
#include <getopt.h>
#include <string.h>

#include "memsweep.h"
#include "ms-cli-options.h"
#include "ms-cli-common.h"
#include "ms-cli-draw.h"
#include "ms-i18n.h"
#include "ms-drawing.h"
#include "ms-cli-tables.h"


static void
report_help (void)
{
  printf (ms_gettext ("Usage: memsweep report FILE... --out REPORT.pdf|REPORT.html\n"
                      "       memsweep report FILE... --out - --format pdf|html\n"
                      "       memsweep report FILE --handout --out HANDOUT.pdf\n\n"
                      "Writes a report of one or more samples or summary CSVs: a title page "
                      "(device, PCIe link,\ndriver, settings, date, version), every chart, the "
                      "breakdown, the summary table and\ncaptions computed from the data. PDF "
                      "pages or one HTML page with the charts as SVG. --out - writes standard "
                      "output,\nin the --format given.\n"
                      "\n--handout writes one lesson's run (one FILE) as a one-page A4 PDF to "
                      "print for a class: the\nlesson's title and question, its takeaway, its "
                      "picture as the app's Lessons page draws it,\nthe caption and the run's "
                      "GPU and date. A run of no lesson, or --out not .pdf, is refused.\n"
                      "\nExit status: 0 success, 1 the file could not be written, 2 bad usage "
                      "or bad input file.\n"));
}

static int
report_usage_error (void)
{
  fprintf (stderr, ms_gettext ("Try 'memsweep report --help'.\n"));
  return EXIT_USAGE;
}

/* --handout: one lesson's run as a one-page PDF; out is a PDF's name (or
 * standard output), checked by the caller. Nothing is written for a run
 * of no lesson. */
static int
report_handout (const char *out, char **paths, int n)
{
  if (n != 1) {
    fprintf (stderr, ms_gettext ("memsweep: --handout takes one lesson's run, not %d files\n"), n);
    return EXIT_USAGE;
  }
  g_autoptr (GPtrArray) runs = ms_cli_load_runs (paths, n);
  if (!runs || !ms_cli_plan_file ("--out", out))
    return EXIT_USAGE;
  const MsResults *run = g_ptr_array_index (runs, 0);
  MsLessonTopic topic = ms_lesson_topic_for_experiment (run->experiment);
  const char *why = ms_report_handout_unavailable (topic, run);
  if (why) {
    fprintf (stderr, ms_gettext ("memsweep: --handout: %s: %s\n"), paths[0], why);
    return EXIT_USAGE;
  }
  g_autofree char *source = g_path_get_basename (paths[0]);
  g_autoptr (GError) error = NULL;
  if (!ms_report_write_handout (out, topic, run, source, &error)) {
    ms_cli_print_error (error);
    return EXIT_WRITE;
  }
  return EXIT_OK;
}

int
ms_cli_report (int argc, char **argv)
{
  const struct option *opts = ms_cli_getopt_table ("report");
  const char *out = NULL, *format = NULL;
  gboolean handout = FALSE;
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    if (c == 'h') {
      report_help ();
      return EXIT_OK;
    }
    if (c == 'f')
      format = optarg;
    else if (c == 'o')
      out = optarg;
    else if (c == 'H')
      handout = TRUE;
    else
      return report_usage_error ();
  }
  if (optind >= argc || !out) {
    fprintf (stderr, ms_gettext ("memsweep: report needs at least one FILE and --out\n"));
    return report_usage_error ();
  }
  /* The format: --format's, else OUT's extension, which must agree. */
  const char *dot = strrchr (out, '.');
  bool to_stdout = strcmp (out, MS_CLI_STDIO) == 0;
  if (format && strcmp (format, "pdf") != 0 && strcmp (format, "html") != 0) {
    fprintf (stderr, ms_gettext ("memsweep: --format: '%s' is neither pdf nor html\n"), format);
    return EXIT_USAGE;
  }
  gboolean pdf = format ? format[0] == 'p' : dot && !g_ascii_strcasecmp (dot, ".pdf");
  gboolean html = format ? format[0] == 'h'
                         : dot && (!g_ascii_strcasecmp (dot, ".html") ||
                                   !g_ascii_strcasecmp (dot, ".htm"));
  gboolean named = to_stdout || (dot && (pdf ? !g_ascii_strcasecmp (dot, ".pdf")
                                             : !g_ascii_strcasecmp (dot, ".html") ||
                                                 !g_ascii_strcasecmp (dot, ".htm")));
  if (to_stdout && !format) {
    fprintf (stderr, ms_gettext ("memsweep: --out -: give --format pdf or html for standard "
                                 "output\n"));
    return EXIT_USAGE;
  }
  if (format && !named) {
    fprintf (stderr, ms_gettext ("memsweep: --out: '%s' must end in .%s, as --format says\n"), out,
             format);
    return EXIT_USAGE;
  }
  if (handout && !pdf) {
    fprintf (stderr, ms_gettext ("memsweep: --handout writes a PDF: --out '%s' must end in .pdf\n"),
             out);
    return EXIT_USAGE;
  }
  if (!pdf && !html) {
    fprintf (stderr, ms_gettext ("memsweep: --out: '%s' must end in .pdf or .html\n"), out);
    return EXIT_USAGE;
  }
  if (to_stdout) {
    if (!ms_cli_stdout_not_input ())
      return EXIT_RUNTIME;
    out = "/dev/stdout";
  }
  if (handout)
    return report_handout (out, argv + optind, argc - optind);
  /* The report judges the runs against the envelope file it reads. */
  ms_cli_protect_envelopes (NULL);
  g_autoptr (GPtrArray) runs = ms_cli_load_runs (argv + optind, argc - optind);
  if (!runs || !ms_cli_plan_file ("--out", out))
    return EXIT_USAGE;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *generated = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  MsReportInput input = { runs, generated };
  g_autoptr (GError) error = NULL;
  if (!(pdf ? ms_report_write_pdf (out, &input, &error)
            : ms_report_write_html (out, &input, &error))) {
    ms_cli_print_error (error);
    return EXIT_WRITE;
  }
  return EXIT_OK;
}
