/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-plot.c: `memsweep plot`: one of the app's views of one or more
 * files into a PNG, SVG or PDF file, drawn by the same routines, with the
 * caption unless --no-caption; the timeline's cell and repetition can be
 * chosen. */
#include <string.h>

#include "memsweep.h"
#include "ms-cli-options.h"
#include "ms-cli-common.h"
#include "ms-cli-parse.h"
#include "ms-cli-output.h"
#include "ms-cli-draw.h"
#include "ms-drawing.h"
#include "ms-i18n.h"
#include "ms-engine.h"

/* WxH, each side a whole number from 16 to 16384 (the command line's
 * one rule, ms_cli_whole_number). */
static gboolean
parse_size (const char *arg, int *w, int *h)
{
  size_t split = strcspn (arg, "xX");
  char side[24];
  long long a, b;
  if (arg[split] == '\0' || split >= sizeof side)
    return FALSE;
  memcpy (side, arg, split);
  side[split] = '\0';
  if (!ms_cli_whole_number (side, 16, 16384, &a) ||
      !ms_cli_whole_number (arg + split + 1, 16, 16384, &b))
    return FALSE;
  *w = (int) a;
  *h = (int) b;
  return TRUE;
}

typedef struct {
  const char *view, *format, *out;
  int width, height;
  bool no_caption;
  const char *mode, *size, *rep, *variant; /* the timeline's cell; NULL: the default */
  bool all_phases;
  const char *lesson; /* --view lesson: the lesson a plain sweep answers */
  char **files;
  int n_files;
} PlotOptions;

/* The timeline's size: an exponent (digits, up to MS_MAX_EXPONENT) or a
 * count of elements (a power of two whose exponent is in range). */
static gboolean
parse_cell_size (const char *arg, int *exponent)
{
  long long n;
  if (!ms_cli_whole_number (arg, 0, 1ll << MS_MAX_EXPONENT, &n))
    return FALSE;
  if (n <= MS_MAX_EXPONENT) {
    *exponent = (int) n;
    return *exponent >= MS_MIN_EXPONENT;
  }
  if (n & (n - 1))
    return FALSE;
  int e = 0;
  while ((1ll << e) < n)
    e++;
  *exponent = e;
  return e >= MS_MIN_EXPONENT && e <= MS_MAX_EXPONENT;
}

static bool
rep_has_timeline (const MsCell *cell, int rep)
{
  for (int k = 0;; k++) {
    int r = ms_cell_timeline_rep (cell, k);
    if (r < 0 || r == rep)
      return r == rep;
  }
}

/* Which repetitions ran with timers, numbered from 1, the first few. */
static void
print_timeline_reps (const MsCell *cell, const char *asked)
{
  char list[128] = "";
  size_t len = 0;
  for (int k = 0; k < 12 && ms_cell_timeline_rep (cell, k) >= 0 && len < sizeof list - 16; k++)
    len += (size_t) snprintf (list + len, sizeof list - len, "%s%d", k ? ", " : "",
                              ms_cell_timeline_rep (cell, k) + 1);
  if (ms_cell_timeline_rep (cell, 12) >= 0)
    snprintf (list + len, sizeof list - len, ", ...");
  ms_cli_error (ms_gettext ("--rep: repetition %s ran without timers, so it has "
                            "no timeline; these have one: %s\n"),
                asked, list);
}

/* The timeline's cell and repetition from --mode, --size and --rep, each
 * defaulting to ms_report_timeline_cell's choice. EXIT_USAGE with a
 * message when the run has no such cell or repetition, else -1. */
static int
choose_timeline_cell (const PlotOptions *o, const MsResults *run, MsReportViewJob *job)
{
  /* exponent is read only with --size, which sets it; GCC cannot see it. */
  int rep, exponent = 0;
  const MsCell *deflt = ms_report_timeline_cell (run, &rep);
  MsMode mode = deflt ? deflt->mode : MS_MODE_PINNED;
  if (o->mode && !ms_mode_from_name (o->mode, &mode)) {
    ms_cli_error (ms_gettext ("--mode: '%s' is not a memory mode (see 'memsweep modes')\n"),
                  o->mode);
    return EXIT_USAGE;
  }
  if (o->size && !parse_cell_size (o->size, &exponent)) {
    ms_cli_error (ms_gettext ("--size: '%s' is not an exponent %d..%d or a power "
                              "of two number of elements\n"),
                  o->size, MS_MIN_EXPONENT, MS_MAX_EXPONENT);
    return EXIT_USAGE;
  }
  const MsCell *cell = deflt;
  if (o->mode || o->size || o->variant) {
    /* A mode alone: its largest size with events; a size alone: the
     * default mode at that size; a variant: only cells of that variant. */
    cell = NULL;
    for (size_t i = 0; i < run->n_cells; i++) {
      const MsCell *c = &run->cells[i];
      if (c->mode == mode && c->n_events && c->n_reps &&
          (!o->variant || strcmp (c->variant, o->variant) == 0) &&
          (o->size ? c->exponent == exponent : !cell || c->exponent > cell->exponent))
        cell = c;
    }
  }
  if (!cell) {
    if (o->variant)
      ms_cli_error (ms_gettext ("--variant: %s has no %s cell with events of variant '%s'\n"),
                    run->label, ms_mode_name (mode), o->variant);
    else if (o->size)
      ms_cli_error (ms_gettext ("%s has no %s cell with events at 2^%d\n"), run->label,
                    ms_mode_name (mode), exponent);
    else
      ms_cli_error (ms_gettext ("%s has no %s cell with events\n"), run->label,
                    ms_mode_name (mode));
    return EXIT_USAGE;
  }
  rep = ms_cell_default_timeline_rep (cell);
  if (o->rep) {
    long long r;
    if (!ms_cli_whole_number (o->rep, 1, cell->n_reps, &r)) {
      ms_cli_error (ms_gettext ("--rep: '%s' is not a repetition of the cell (1..%d)\n"),
                    o->rep, cell->n_reps);
      return EXIT_USAGE;
    }
    if (!rep_has_timeline (cell, (int) r - 1)) {
      print_timeline_reps (cell, o->rep);
      return EXIT_USAGE;
    }
    rep = (int) r - 1;
  }
  job->timeline_cell = cell;
  job->timeline_rep = rep;
  job->timeline_all_phases = o->all_phases;
  return -1;
}

/* -1 to go on, else the exit status. */
static int
parse_plot (PlotOptions *o, int argc, char **argv)
{
  const MsCliBind binds[] = { { 'v', &o->view },    { 'f', &o->format },
                              { 'o', &o->out },     { 'n', &o->no_caption },
                              { 'm', &o->mode },    { 'r', &o->rep },
                              { 'V', &o->variant }, { 'a', &o->all_phases },
                              { 'L', &o->lesson },  { 0 } };
  MsCliArgs args;
  *o = (PlotOptions){ .width = 1600, .height = 1000 };
  int c;
  ms_cli_args_init (&args, "plot", argc, argv);
  while ((c = ms_cli_args_next_bound (&args, NULL, binds)) != -1) {
    const char *arg = args.value;
    if (c == '?')
      return EXIT_USAGE;
    /* --size WxH: the image's (its first spelling), else the timeline's size. */
    if (c == 's' && !strpbrk (arg, "xX")) {
      o->size = arg;
    } else if (!parse_size (arg, &o->width, &o->height)) {
      ms_cli_error (ms_gettext ("--%s: '%s' is not WxH with 16..16384 each\n"), args.name, arg);
      return EXIT_USAGE;
    }
  }
  o->files = argv + args.operand;
  o->n_files = ms_cli_args_n_operands (&args);
  if (o->n_files == 0) {
    ms_cli_error (ms_gettext ("at least one FILE is needed\n"));
    return ms_cli_bad_usage ("plot");
  }
  if (!o->view || !o->out) {
    ms_cli_error (ms_gettext ("--view and --out are needed\n"));
    return ms_cli_bad_usage ("plot");
  }
  char format[8];
  if (!ms_cli_drawn_format ("plot", o->out, o->format, format))
    return EXIT_USAGE;
  if (strcmp (o->out, MS_CLI_STDIO) == 0)
    o->out = "/dev/stdout";
  return -1;
}

/* An MsDrawFunc: the lesson's picture of the run. */
typedef struct {
  MsLessonTopic topic;
  const MsResults *run;
  MsChartStyle style;
} LessonJob;

static void
draw_lesson (cairo_t *cr, double width, double height, gpointer data)
{
  LessonJob *job = data;
  ms_lesson_answer_draw (cr, job->topic, job->run, &job->style, width, height);
}

/* --view lesson: the first file's lesson picture, as the app draws it. */
static int
plot_lesson (const PlotOptions *o, char **paths, int n)
{
  if (o->mode || o->size || o->rep || o->variant || o->all_phases || n != 1) {
    ms_cli_error (ms_gettext ("--view lesson draws one lesson's run, without "
                              "--mode, --size N, --rep, --variant or --all-phases\n"));
    return EXIT_USAGE;
  }
  g_autoptr (GPtrArray) runs = ms_cli_load_runs (paths, n);
  if (!runs || !ms_cli_plan_file ("--out", o->out))
    return EXIT_USAGE;
  if (!ms_cli_draw_fonts_ready ())
    return EXIT_RUNTIME;
  LessonJob job = { .run = g_ptr_array_index (runs, 0) };
  job.topic = ms_cli_draw_lesson (job.run, o->lesson, paths[0]);
  if (job.topic == MS_TOPIC_COUNT)
    return EXIT_USAGE;
  if (!ms_lesson_answer_has (job.topic, job.run)) {
    ms_cli_error (ms_gettext ("--view lesson: the %s lesson has no picture of its "
                              "own: its answer is in --view bandwidth, time or timeline\n"),
                  ms_lesson_topic (job.topic)->name);
    return EXIT_USAGE;
  }
  ms_chart_style_init_light (&job.style);
  job.style.text_scale = job.style.line_scale = MAX (1.0, o->width / 1400.0);
  /* The slide's picture, as the app's export of a slide shown and the
   * handout draw it, whatever the picture's height. */
  job.style.slide = TRUE;
  char takeaway[1024] = "";
  if (ms_lesson_multi_gpu (job.topic))
    ms_lesson_portable_takeaway (job.run, NULL, takeaway, sizeof takeaway);
  else
    ms_lesson_takeaway (job.topic, job.run, takeaway, sizeof takeaway);
  /* The takeaway over the picture, as the page shows it; the run's device
   * and settings under it. */
  g_autofree char *caption = !o->no_caption ? ms_report_lesson_caption (NULL, job.run) : NULL;
  MsExportOptions eo = { caption, &job.style, o->format, takeaway };
  g_autoptr (GError) error = NULL;
  gboolean ok
      = ms_export_drawing_full (o->out, o->width, o->height, draw_lesson, &job, &eo, &error);
  return ms_cli_drawn (o->out, ok, error);
}

int
ms_cli_plot (int argc, char **argv)
{
  PlotOptions o;
  int rc = parse_plot (&o, argc, argv);
  if (rc >= 0)
    return rc;
  if (strcmp (o.view, MS_CLI_LESSON_VIEW) == 0)
    return plot_lesson (&o, o.files, o.n_files);
  if (o.lesson) {
    ms_cli_error (ms_gettext ("--lesson is for --view lesson\n"));
    return EXIT_USAGE;
  }
  MsReportViewJob job = { NULL };
  if (!ms_report_view_from_name (o.view, &job.view)) {
    ms_cli_error (ms_gettext ("--view: '%s' is not bandwidth, h2d, d2h, time, "
                              "breakdown, timeline or lesson\n"),
                  o.view);
    return EXIT_USAGE;
  }
  if ((o.mode || o.size || o.rep || o.variant || o.all_phases) &&
      job.view != MS_REPORT_VIEW_TIMELINE) {
    ms_cli_error (ms_gettext ("--mode, --size N, --rep, --variant and --all-phases "
                              "are for --view timeline\n"));
    return EXIT_USAGE;
  }
  /* Loaded in the order given: the first file gets the first marker. */
  g_autoptr (GPtrArray) runs = ms_cli_load_runs (o.files, o.n_files);
  if (!runs || !ms_cli_plan_file ("--out", o.out))
    return EXIT_USAGE;
  if (!ms_cli_draw_fonts_ready ())
    return EXIT_RUNTIME;
  const char *why = ms_report_view_unavailable (runs, job.view);
  if (why) {
    ms_cli_error (ms_gettext ("the %s view is unavailable: %s\n"), o.view, why);
    return EXIT_USAGE;
  }
  job.runs = runs;
  if (job.view == MS_REPORT_VIEW_TIMELINE &&
      (rc = choose_timeline_cell (&o, g_ptr_array_index (runs, 0), &job)) >= 0)
    return rc;
  ms_chart_style_init_light (&job.style);
  /* As the app's export: text grows with the image so it stays legible. */
  job.style.text_scale = job.style.line_scale = MAX (1.0, o.width / 1400.0);
  g_autofree char *caption = !o.no_caption ? ms_report_view_caption (runs, job.view) : NULL;
  MsExportOptions eo = { caption, &job.style, o.format };
  g_autoptr (GError) error = NULL;
  gboolean ok
      = ms_export_drawing_full (o.out, o.width, o.height, ms_report_view_draw, &job, &eo, &error);
  return ms_cli_drawn (o.out, ok, error);
}
