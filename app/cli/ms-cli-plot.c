/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-plot.c: `memsweep plot`: one of the app's views into a PNG, SVG
 * or PDF file, drawn by the same routines, with the caption unless
 * --no-caption. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-cli-common.h"
#include "ms-cli-draw.h"
#include "ms-export.h"
#include "ms-i18n.h"
#include "ms-report-views.h"


static int
plot_usage_error (void)
{
  fprintf (stderr, ms_gettext ("Try 'memsweep plot --help'.\n"));
  return EXIT_USAGE;
}

static void
plot_help (void)
{
  printf (ms_gettext ("Usage: memsweep plot FILE --view VIEW --out OUT [OPTIONS]\n\n"
                      "Draws one view of a samples or summary CSV with the app's drawing code "
                      "(no display needed).\n\n"
                      "  --view V             bandwidth, h2d, d2h, time, breakdown or timeline\n"
                      "  --format F           png, svg or pdf (default: OUT's extension)\n"
                      "  --out OUT            the file to write\n"
                      "  --size WxH           size in pixels (points for SVG and PDF), default "
                      "1600x1000\n"
                      "  --no-caption         no caption line (device, date, version, settings)\n"
                      "\nExit status: 0 success, 1 the file could not be written, 2 bad usage "
                      "or bad input file.\n"));
}

static gboolean
parse_size (const char *arg, int *w, int *h)
{
  char *end;
  /* Digits only: strtol would take blanks and signs too. */
  if (strspn (arg, "0123456789xX") != strlen (arg))
    return FALSE;
  long a = strtol (arg, &end, 10);
  if (end == arg || (*end != 'x' && *end != 'X'))
    return FALSE;
  const char *rest = end + 1;
  long b = strtol (rest, &end, 10);
  if (end == rest || *end || a < 16 || b < 16 || a > 16384 || b > 16384)
    return FALSE;
  *w = (int) a;
  *h = (int) b;
  return TRUE;
}

typedef struct {
  const char *view, *format, *out;
  int width, height;
  gboolean caption;
} PlotOptions;

/* -1 to go on, else the exit status. */
static int
parse_plot (PlotOptions *o, int argc, char **argv)
{
  static const struct option opts[] = {
    { "view", required_argument, NULL, 'v' },  { "format", required_argument, NULL, 'f' },
    { "out", required_argument, NULL, 'o' },   { "size", required_argument, NULL, 's' },
    { "no-caption", no_argument, NULL, 'n' },  { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  *o = (PlotOptions){ .width = 1600, .height = 1000, .caption = TRUE };
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "", opts, NULL)) != -1) {
    switch (c) {
    case 'h': plot_help (); return EXIT_OK;
    case 'v': o->view = optarg; break;
    case 'f': o->format = optarg; break;
    case 'o': o->out = optarg; break;
    case 'n': o->caption = FALSE; break;
    case 's':
      if (!parse_size (optarg, &o->width, &o->height)) {
        fprintf (stderr, ms_gettext ("memsweep: --size: '%s' is not WxH with 16..16384 each\n"),
                 optarg);
        return EXIT_USAGE;
      }
      break;
    default: return plot_usage_error ();
    }
  }
  if (optind + 1 != argc) {
    fprintf (stderr, ms_gettext ("memsweep: plot needs exactly one FILE\n"));
    return plot_usage_error ();
  }
  if (!o->view || !o->out) {
    fprintf (stderr, ms_gettext ("memsweep: plot needs --view and --out\n"));
    return plot_usage_error ();
  }
  const char *dot = strrchr (o->out, '.');
  if (o->format && strcmp (o->format, "png") && strcmp (o->format, "svg") &&
      strcmp (o->format, "pdf")) {
    fprintf (stderr, ms_gettext ("memsweep: --format: '%s' is not png, svg or pdf\n"), o->format);
    return EXIT_USAGE;
  }
  gboolean matches = o->format ? dot && !g_ascii_strcasecmp (dot + 1, o->format)
                               : ms_export_format_known (o->out);
  if (!matches) {
    fprintf (stderr, ms_gettext ("memsweep: --out: '%s' must end in .png, .svg or .pdf, as "
                                 "--format says\n"), o->out);
    return EXIT_USAGE;
  }
  return -1;
}

int
ms_cli_plot (int argc, char **argv)
{
  PlotOptions o;
  int rc = parse_plot (&o, argc, argv);
  if (rc >= 0)
    return rc;
  MsReportViewJob job = { NULL };
  if (!ms_report_view_from_name (o.view, &job.view)) {
    fprintf (stderr, ms_gettext ("memsweep: --view: '%s' is not bandwidth, h2d, d2h, time, "
                                 "breakdown or timeline\n"), o.view);
    return EXIT_USAGE;
  }
  g_autoptr (GPtrArray) runs = ms_cli_load_runs (argv + optind, 1);
  if (!runs)
    return EXIT_USAGE;
  const char *why = ms_report_view_unavailable (runs, job.view);
  if (why) {
    fprintf (stderr, ms_gettext ("memsweep: the %s view is unavailable: %s\n"), o.view, why);
    return EXIT_USAGE;
  }
  job.runs = runs;
  ms_chart_style_init_light (&job.style);
  /* As the app's export: text grows with the image so it stays legible. */
  job.style.text_scale = job.style.line_scale = MAX (1.0, o.width / 1400.0);
  g_autofree char *caption = o.caption ? ms_report_caption (runs) : NULL;
  MsExportOptions eo = { caption, &job.style };
  g_autoptr (GError) error = NULL;
  if (!ms_export_drawing_full (o.out, o.width, o.height, ms_report_view_draw, &job, &eo, &error)) {
    ms_cli_print_error (error);
    return EXIT_RUNTIME;
  }
  return EXIT_OK;
}
