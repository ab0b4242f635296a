/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-compare.c: `memsweep compare A B`, two runs cell by cell with a
 * verdict each (engine/analysis/ms-compare.h), a summary line per mode, JSON, and
 * an exit status for CI: 0 no difference, 1 a cell faster or slower, 2 bad
 * input. */
#define _POSIX_C_SOURCE 200809L
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ms-cli-common.h"
#include "ms-cli-tables.h"
#include "ms-cli-compare.h"
#include "ms-cli-output.h"
#include "ms-cli-parse.h"
#include "ms-cli-live.h"
#include "ms-engine.h"
#include "ms-i18n.h"

/* 1 says the runs differ, so an output that could not be written has a
 * code of its own. */
/* 5: nothing decided (no cell SAME, FASTER or SLOWER): a CI gate must not
 * read it as "the same" (docs/compare.md, "Command line"). */
enum { EXIT_COMPARE_OUTPUT = EXIT_WRITE, EXIT_COMPARE_UNDECIDED = 5 };

/* The turns of --live: its verdicts per mode are what it says. */
static MsTurns live_turns;

typedef struct {
  MsCompareOptions compare; /* the threshold */
  MsCliOutput output;
  MsMode mode; /* MS_MODE_COUNT: all */
  const char *plot;
  MsFigure figure;
  bool live;
  MsCliLive how; /* with --live */
  char **files;  /* A and B */
} Options;

/* Files with --live are refused (live options without it are refused
 * before, as the option table's needs say: ms_cli_options_known). */
static bool
check_live_use (const Options *o, int positional, int *rc)
{
  if (o->live && positional != 0) {
    ms_cli_error ("%s", ms_gettext ("--live measures both runs: it takes no files\n"));
    return *rc = EXIT_USAGE, false;
  }
  if (!o->live && positional != 2) {
    ms_cli_error (ms_gettext ("two runs' files, A and B, are needed (%d given), or --live\n"),
                  positional);
    return *rc = ms_cli_bad_usage ("compare"), false;
  }
  return true;
}

static bool
parse_options (int argc, char **argv, Options *o, int *rc)
{
  MsCliArgs args;
  *o = (Options){ .mode = MS_MODE_COUNT, .figure = MS_FIGURE_E2E };
  ms_compare_options_init (&o->compare);
  int budget = MS_CLI_LIVE_DEFAULT_BUDGET;
  const MsCliBind binds[] = { { 'l', &o->live },
                              { 'A', &o->how.options[0] },
                              { 'B', &o->how.options[1] },
                              { 'X', &o->how.experiment[0] },
                              { 'Y', &o->how.experiment[1] },
                              { 'o', &o->how.prefix },
                              { 'p', &o->plot },
                              { 'u', &budget },
                              { 0 } };
  int c;
  *rc = EXIT_USAGE;
  ms_cli_args_init (&args, "compare", argc, argv);
  while ((c = ms_cli_args_next_bound (&args, &o->output, binds)) != -1) {
    const char *arg = args.value;
    char err[256];
    if (c == '?') {
      return false;
    } else if (c == 't'
               && !ms_compare_options_parse_threshold (&o->compare, arg, err, sizeof err)) {
      ms_cli_error (ms_gettext ("--threshold: %s\n"), err);
      return false;
    } else if (c == 'j') {
      /* --json: what --format json was called first; with another
       * --format, one format given twice. */
      if (o->output.format_given && o->output.format != MS_CLI_FORMAT_JSON) {
        ms_cli_error (ms_gettext ("--json and --format: one format, given twice\n"));
        return false;
      }
      o->output.format = MS_CLI_FORMAT_JSON;
      o->output.format_given = true;
    } else if (c == 'm' && !ms_mode_from_name (arg, &o->mode)) {
      ms_cli_error (ms_gettext ("--mode: unknown mode '%s' (memsweep modes lists them)\n"), arg);
      return false;
    } else if (c == 'g' && !ms_figure_from_name (arg, &o->figure)) {
      ms_cli_error (ms_gettext ("--figure: '%s' is not e2e, h2d, kernel or d2h\n"), arg);
      return false;
    }
  }
  o->how.budget_s = budget;
  *rc = EXIT_OK;
  o->files = argv + args.operand;
  return check_live_use (o, ms_cli_args_n_operands (&args), rc);
}

/* Both files read, or NULL after a message: a file of a kind that holds
 * no run is refused before either is parsed, naming what reads it. */
static bool
load_pair (const char *pa, const char *pb, MsResults **a, MsResults **b)
{
  if (!ms_cli_is_run (pa) || !ms_cli_is_run (pb))
    return false;
  char err[1024];
  *a = ms_run_read_samples (pa, err, sizeof err);
  if (*a)
    *b = ms_run_read_samples (pb, err, sizeof err);
  if (!*a || !*b) {
    ms_cli_error ("%s\n", err);
    ms_results_free (*a);
    *a = NULL;
    return false;
  }
  return true;
}

static void
cell_size (const MsCompareCell *c, char *buf, size_t len)
{
  char bytes[32];
  ms_format_bytes (4ull << c->exponent, bytes, sizeof bytes);
  snprintf (buf, len, "2^%d %s", c->exponent, bytes);
}

/* The cell table's columns in terminal columns (left-aligned when
 * negative): a row of them, then its verdict. The mode's column holds
 * write-combined and managed-prefetch, as the other tables' do. */
static const int cell_columns[] = { -16, -16, -20, 12, 12, 7, 13 };

static void
put_row (FILE *out, const char *const *cells)
{
  for (size_t i = 0; i < sizeof cell_columns / sizeof cell_columns[0]; i++) {
    if (i)
      fputc (' ', out);
    ms_cli_put_padded (out, cells[i], cell_columns[i]);
  }
}

static void
print_cell (FILE *out, const MsCompareCell *c)
{
  char size[48], a[32] = "-", b[32] = "-", ratio[32] = "-";
  cell_size (c, size, sizeof size);
  if (isfinite (c->a.median))
    snprintf (a, sizeof a, "%.2f", c->a.median);
  if (isfinite (c->b.median))
    snprintf (b, sizeof b, "%.2f", c->b.median);
  if (isfinite (c->ratio))
    snprintf (ratio, sizeof ratio, "%.3f", c->ratio);
  const char *verdict = c->in_a && c->in_b ? ms_verdict_label (c->verdict)
                        : c->in_a          ? ms_gettext ("only in A")
                                           : ms_gettext ("only in B");
  char range[48] = "", why[96] = "";
  if (c->in_a && c->in_b && isfinite (c->judgement.lo))
    snprintf (range, sizeof range, "%.3f-%.3f", c->judgement.lo, c->judgement.hi);
  /* Why it is undecided, and the smallest change this pair could show. */
  if (c->in_a && c->in_b && c->verdict == MS_VERDICT_AMBIGUOUS && isfinite (c->judgement.detectable))
    snprintf (why, sizeof why, ms_gettext (" (%s; detects %.0f%%+)"),
              ms_verdict_why_key (c->judgement.why), 100 * c->judgement.detectable);
  else if (c->in_a && c->in_b && c->verdict == MS_VERDICT_AMBIGUOUS)
    snprintf (why, sizeof why, " (%s)", ms_verdict_why_key (c->judgement.why));
  const char *cells[] = { ms_mode_name (c->mode), size, c->variant[0] ? c->variant : "-", a, b,
                          ratio, range };
  put_row (out, cells);
  fprintf (out, "  %s%s\n", verdict, why);
}

/* Each reason a cell stayed AMBIGUOUS, how many, and what would decide
 * them. */
static void
print_undecided (FILE *out, const MsComparison *cmp)
{
  int count[MS_WHY_COUNT] = { 0 };
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (c->in_a && c->in_b && c->verdict == MS_VERDICT_AMBIGUOUS)
      count[c->judgement.why]++;
  }
  for (int w = 0; w < MS_WHY_COUNT; w++)
    if (count[w])
      fprintf (out, ms_gettext ("%d ambiguous (%s): %s; to decide: %s\n"), count[w],
               ms_verdict_why_key ((MsVerdictWhy) w), ms_verdict_why_text ((MsVerdictWhy) w),
               ms_verdict_remedy_text ((MsVerdictWhy) w));
}

/* "pinned: 11 cells: 3 same, 5 faster, 2 slower, 1 ambiguous; median B/A 0.93". */
static void
print_summary (FILE *out, const char *name, const MsCompareSummary *s)
{
  fprintf (out,
           ms_gettext ("%s: %d common cells: %d same, %d faster, %d slower, %d ambiguous; "
                       "median B/A %.3f"),
           name, s->n_common, s->count[MS_VERDICT_SAME], s->count[MS_VERDICT_FASTER],
           s->count[MS_VERDICT_SLOWER], s->count[MS_VERDICT_AMBIGUOUS], s->median_ratio);
  if (s->only_a || s->only_b)
    fprintf (out, ms_gettext ("; %d only in A, %d only in B"), s->only_a, s->only_b);
  fputc ('\n', out);
}

/* "A: LABEL (DEVICE, DATE)": names and facts from the files, with their
 * control characters escaped (a file must not drive the terminal). */
static void
print_run_line (FILE *out, const char *which, const MsResults *r)
{
  char label[4 * sizeof r->label], device[4 * sizeof r->device.name], date[4 * sizeof r->date];
  fprintf (out, "%s: %s (%s, %s)\n", which, ms_report_clean (r->label, label, sizeof label),
           ms_report_clean (r->device.name, device, sizeof device),
           ms_report_clean (r->date, date, sizeof date));
}

/* Where a run's spread between processes came from, or that none was
 * known: then no difference can be claimed. */
static void
print_spread (FILE *out, const char *run, const char *source)
{
  char clean[4 * 200];
  if (source[0])
    fprintf (out, ms_gettext ("spread between processes for %s: %s\n"), run,
             ms_report_clean (source, clean, sizeof clean));
  else
    fprintf (out,
             ms_gettext ("spread between processes for %s: unknown (within-run intervals only: "
                         "no cell can be FASTER or SLOWER)\n"),
             run);
}

/* "  pinned        SAME within ±3% (7 sizes from 16 KiB, 6 and 6
 * processes); 64 KiB: SLOWER": one verdict per mode, then the run's. */
static void
print_pooled (FILE *out, const char *name, const MsPooledVerdict *v, bool whole_run)
{
  char text[200], size[32];
  ms_pooled_verdict_describe (v, text, sizeof text);
  ms_format_bytes (4ull << v->min_exp, size, sizeof size);
  fputs ("  ", out);
  ms_cli_put_padded (out, name, -16);
  fprintf (out, " %s", text);
  if (v->method == MS_POOL_PROCESSES)
    fprintf (out, ms_gettext (" (%d sizes from %s, %d and %d processes)"), v->n_cells, size,
             v->processes_a, v->processes_b);
  else if (v->method == MS_POOL_CELLS)
    fprintf (out, ms_gettext (" (%d sizes from %s, runs of one process: the cells' intervals)"),
             v->n_cells, size);
  else if (v->method == MS_POOL_TURNS && v->decided_s > 0)
    fprintf (out, ms_gettext (" (%d sizes from %s, %d and %d processes in turns, decided after "
                              "%.0f s)"),
             v->n_cells, size, v->processes_a, v->processes_b, v->decided_s);
  else if (v->method == MS_POOL_TURNS)
    fprintf (out, ms_gettext (" (%d sizes from %s, %d and %d processes in turns)"), v->n_cells,
             size, v->processes_a, v->processes_b);
  for (int i = 0; i < v->n_disagree; i++) {
    ms_format_bytes (4ull << v->disagree_exp[i], size, sizeof size);
    /* The whole run's cells are of every mode: each is named by both. */
    fprintf (out, "%s%s%s%s: %s", i ? ", " : "; ",
             whole_run ? ms_mode_name (v->disagree_mode[i]) : "", whole_run ? " " : "", size,
             ms_verdict_label (v->disagree_verdict[i]));
  }
  fputc ('\n', out);
}

/* A grade run with a target names the cells whose interval stayed wider
 * than it when its budget ran out: their verdicts may stay AMBIGUOUS. */
static void
print_grade_wide (FILE *out, const char *run, const MsResults *r)
{
  char clean[4 * sizeof r->grade_wide], from[32];
  if (r->sweep.grade_target_pct <= 0 || ms_sweep_n_processes (&r->sweep) < 2)
    return;
  ms_format_bytes (4ull << MS_GRADE_SURE_EXP, from, sizeof from);
  if (!r->grade_wide[0])
    fprintf (out, ms_gettext ("%s: every cell from %s within its target of ±%g%% (%d processes)\n"),
             run, from, r->sweep.grade_target_pct, r->sweep.processes);
  else
    fprintf (out, ms_gettext ("%s: wider than its target of ±%g%% when its budget ran out: %s\n"),
             run, r->sweep.grade_target_pct, ms_report_clean (r->grade_wide, clean, sizeof clean));
}

/* What the files record differently (the machine, switches, settings), as
 * the Compare page says it: a difference may be theirs, not the GPU's. */
static void
print_setup (FILE *out, const MsResults *a, const MsResults *b)
{
  char *setup = ms_setup_differences (a, b);
  if (setup) {
    /* The device names come from the files: escaped, as every fact of theirs. */
    size_t size = 4 * strlen (setup) + 1;
    char *clean = malloc (size);
    if (clean)
      fprintf (out, "%s\n", ms_report_clean (setup, clean, size));
    free (clean);
  }
  free (setup);
}

static void
print_pooled_head (FILE *out, const MsComparison *cmp)
{
  fprintf (out, "%s\n", ms_gettext ("Verdict per mode, its sizes pooled:"));
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (cmp->pooled[m].method != MS_POOL_NONE)
      print_pooled (out, ms_mode_name ((MsMode) m), &cmp->pooled[m], false);
  print_pooled (out, ms_gettext ("whole run"), &cmp->pooled_run, true);
  const MsPooledVerdict *host = ms_comparison_host_moved (cmp);
  if (host) {
    char text[400];
    ms_host_moved_describe (host, text, sizeof text);
    fprintf (out, "%s\n", text);
  }
  fputc ('\n', out);
}

/* What a comparison prints: its verdicts of run a against run b. */
typedef struct {
  const MsComparison *cmp;
  const MsResults *a, *b;
} CompareView;

static void
compare_text (FILE *out, void *user)
{
  const CompareView *v = user;
  const MsComparison *cmp = v->cmp;
  const MsResults *a = v->a, *b = v->b;
  print_run_line (out, "A", a);
  print_run_line (out, "B", b);
  if (cmp->graded_a || cmp->graded_b)
    fprintf (out,
             ms_gettext ("threshold %g%% (default %g%%); figure %s (us): of a compare-grade run "
                         "the geometric mean of its rounds' medians, else the median\n"),
             cmp->threshold * 100, MS_COMPARE_DEFAULT_THRESHOLD_PCT, ms_figure_name (cmp->figure));
  else
    fprintf (out,
             ms_gettext ("threshold %g%% (default %g%%); figure %s: medians (us) of the plain "
                         "repetitions\n"),
             cmp->threshold * 100, MS_COMPARE_DEFAULT_THRESHOLD_PCT, ms_figure_name (cmp->figure));
  print_spread (out, "A", cmp->spread_a);
  print_spread (out, "B", cmp->spread_b);
  print_grade_wide (out, "A", a);
  print_grade_wide (out, "B", b);
  print_setup (out, a, b);
  fputc ('\n', out);
  print_pooled_head (out, cmp);
  const char *headings[] = { ms_gettext ("mode"),     ms_gettext ("size"),
                             ms_gettext ("variant"),  ms_gettext ("A median"),
                             ms_gettext ("B median"), "B/A",
                             /* xgettext:no-c-format */
                             ms_gettext ("95% interval") };
  put_row (out, headings);
  fprintf (out, "  %s\n", ms_gettext ("verdict"));
  for (size_t i = 0; i < cmp->n_cells; i++)
    print_cell (out, &cmp->cells[i]);
  fputc ('\n', out);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (cmp->mode[m].n_common || cmp->mode[m].only_a || cmp->mode[m].only_b)
      print_summary (out, ms_mode_name ((MsMode)m), &cmp->mode[m]);
  print_summary (out, ms_gettext ("all"), &cmp->all);
  print_undecided (out, cmp);
}

static MsJson *
json_interval (const MsInterval *iv)
{
  if (!(iv->median > 0))
    return NULL;
  MsJson *o = ms_json_object_new ();
  ms_json_set_number (o, "median_us", iv->median);
  ms_json_set_number (o, "low_us", iv->lo);
  ms_json_set_number (o, "high_us", iv->hi);
  ms_json_set_bool (o, "ci95", iv->valid);
  ms_json_set_bool (o, "graded", iv->graded);
  ms_json_set_number (o, "between_sd", iv->between_known ? iv->between_sd : NAN);
  return o;
}

static MsJson *
json_summary (const MsCompareSummary *s)
{
  MsJson *o = ms_json_object_new ();
  ms_json_set_int (o, "common", s->n_common);
  ms_json_set_int (o, "same", s->count[MS_VERDICT_SAME]);
  ms_json_set_int (o, "faster", s->count[MS_VERDICT_FASTER]);
  ms_json_set_int (o, "slower", s->count[MS_VERDICT_SLOWER]);
  ms_json_set_int (o, "ambiguous", s->count[MS_VERDICT_AMBIGUOUS]);
  ms_json_set_int (o, "only_a", s->only_a);
  ms_json_set_int (o, "only_b", s->only_b);
  ms_json_set_number (o, "median_ratio", s->median_ratio);
  return o;
}

static MsJson *
json_cell (const MsCompareCell *c)
{
  bool both = c->in_a && c->in_b;
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "mode", ms_mode_name (c->mode));
  ms_json_set_int (o, "exponent", c->exponent);
  ms_json_set_int (o, "bytes_per_vector", (long long) (4ull << c->exponent));
  ms_json_set_string (o, "variant", c->variant);
  ms_json_set (o, "a", json_interval (&c->a));
  ms_json_set (o, "b", json_interval (&c->b));
  ms_json_set_number (o, "ratio", c->ratio);
  ms_json_set_number (o, "ratio_low", c->judgement.lo);
  ms_json_set_number (o, "ratio_high", c->judgement.hi);
  ms_json_set_string (o, "verdict",
                      both ? ms_verdict_key (c->verdict) : c->in_a ? "only-a" : "only-b");
  ms_json_set_string (o, "why", both ? ms_verdict_why_key (c->judgement.why) : "no-median");
  ms_json_set_number (o, "detectable", both ? c->judgement.detectable : NAN);
  ms_json_set_string (o, "decide_by",
                      ms_verdict_remedy_text (both ? c->judgement.why : MS_WHY_NO_MEDIAN));
  ms_json_set_bool (o, "two_states", c->two_states);
  return o;
}

static const char *const pool_method_keys[] = { "none", "processes", "cells", "turns" };

static MsJson *
json_pooled (const MsPooledVerdict *v)
{
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "method", pool_method_keys[v->method]);
  ms_json_set_int (o, "cells", v->n_cells);
  ms_json_set_int (o, "min_exponent", v->min_exp);
  ms_json_set_int (o, "processes_a", v->processes_a);
  ms_json_set_int (o, "processes_b", v->processes_b);
  ms_json_set_number (o, "ratio", v->ratio);
  ms_json_set_number (o, "ratio_low", v->lo);
  ms_json_set_number (o, "ratio_high", v->hi);
  ms_json_set_string (o, "verdict", ms_verdict_key (v->verdict));
  ms_json_set_string (o, "why", ms_verdict_why_key (v->why));
  ms_json_set_number (o, "detectable", v->detectable);
  ms_json_set_number (o, "within", v->within);
  ms_json_set (o, "decided_after_s", v->decided_s > 0 ? ms_json_number_new (v->decided_s) : NULL);
  MsJson *disagree = ms_json_array_new ();
  for (int i = 0; i < v->n_disagree; i++) {
    MsJson *d = ms_json_object_new ();
    ms_json_set_string (d, "mode", ms_mode_name (v->disagree_mode[i]));
    ms_json_set_int (d, "exponent", v->disagree_exp[i]);
    ms_json_set_string (d, "verdict", ms_verdict_key (v->disagree_verdict[i]));
    ms_json_append (disagree, d);
  }
  ms_json_set (o, "disagree", disagree);
  return o;
}

/* The document (docs/json.md's memsweep-compare), as a json-c tree. */
static void
compare_json (FILE *f, void *user)
{
  const CompareView *v = user;
  const MsComparison *cmp = v->cmp;
  const MsResults *a = v->a, *b = v->b;
  MsJson *doc = ms_json_object_new ();
  ms_file_kind_stamp (doc, MS_FILE_KIND_COMPARE_JSON);
  ms_json_set_string (doc, "a", a->label);
  ms_json_set_string (doc, "b", b->label);
  ms_json_set_number (doc, "threshold", cmp->threshold);
  ms_json_set_string (doc, "figure", ms_figure_name (cmp->figure));
  ms_json_set_bool (doc, "widened", cmp->widened);
  ms_json_set_bool (doc, "differs", ms_comparison_differs (cmp));
  ms_json_set_string (doc, "spread_a", cmp->spread_a);
  ms_json_set_string (doc, "spread_b", cmp->spread_b);
  char *setup = ms_setup_differences (a, b);
  ms_json_set_string (doc, "setup_differences", setup); /* null where none differ */
  free (setup);
  MsJson *cells = ms_json_array_new ();
  for (size_t i = 0; i < cmp->n_cells; i++)
    ms_json_append (cells, json_cell (&cmp->cells[i]));
  ms_json_set (doc, "cells", cells);
  MsJson *modes = ms_json_object_new ();
  MsJson *pooled = ms_json_object_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    const MsCompareSummary *s = &cmp->mode[m];
    if (s->n_common || s->only_a || s->only_b)
      ms_json_set (modes, ms_mode_name ((MsMode) m), json_summary (s));
    if (cmp->pooled[m].method != MS_POOL_NONE)
      ms_json_set (pooled, ms_mode_name ((MsMode) m), json_pooled (&cmp->pooled[m]));
  }
  ms_json_set (doc, "modes", modes);
  ms_json_set (doc, "all", json_summary (&cmp->all));
  ms_json_set (doc, "pooled", pooled);
  ms_json_set (doc, "pooled_run", json_pooled (&cmp->pooled_run));
  ms_json_set_bool (doc, "host_moved", ms_comparison_host_moved (cmp) != NULL);
  ms_json_print (f, doc);
}

static void
set_label (MsResults *r, const char *path)
{
  char *copy = strdup (path);
  if (copy)
    snprintf (r->label, sizeof r->label, "%s", basename (copy));
  free (copy);
}

/* The two runs: read from the files named, or measured now (--live).
 * -1 to go on, else the exit status after a message; *live_status: the
 * status a live comparison that ended early stands for (its runs are
 * still judged). */
static int
get_runs (const Options *o, char **argv, MsResults **a, MsResults **b, int *live_status)
{
  if (o->live) {
    MsCliLive how = o->how;
    how.turns = &live_turns;
    how.threshold = ms_compare_options_fraction (&o->compare);
    how.mode = o->mode;
    how.figure = o->figure;
    return ms_cli_live_measure (&how, ms_cli_stop_on_signals (), a, b, live_status);
  }
  /* - is standard input, as A or as B. */
  const char *pa = ms_cli_input_path (o->files[0]);
  const char *pb = pa ? ms_cli_input_path (o->files[1]) : NULL;
  bool loaded = pa && pb && load_pair (pa, pb, a, b);
  if (!loaded)
    return EXIT_USAGE;
  set_label (*a, o->files[0]);
  set_label (*b, o->files[1]);
  return -1;
}

/* A row per cell, in the verdict table's columns (ms-compare-columns.h),
 * as the Compare page's NAME-verdicts.csv has them. */
static MsCliTable *
compare_table (const MsComparison *cmp)
{
  static MsCliColumn columns[MS_COMPARE_N_COLUMNS];
  for (int k = 0; k < MS_COMPARE_N_COLUMNS; k++)
    columns[k] = (MsCliColumn){ ms_compare_columns[k].name,
                                ms_compare_columns[k].decimals != MS_COMPARE_TEXT };
  MsCliTable *t = ms_cli_table_new (columns, MS_COMPARE_N_COLUMNS);
  for (size_t i = 0; i < cmp->n_cells; i++) {
    ms_cli_table_add_row (t);
    for (int k = 0; k < MS_COMPARE_N_COLUMNS; k++) {
      if (columns[k].number)
        ms_cli_table_number (t, k, ms_compare_number (cmp, i, k), ms_compare_columns[k].decimals);
      else
        ms_cli_table_text (t, k, ms_compare_text (cmp, i, k));
    }
  }
  return t;
}

/* A run read without its sidecar (from "-", or copied alone) does not
 * say how many processes measured it, so the spread between them, which
 * a compare-grade run's verdicts rest on, is unknown: said, as the
 * verdicts are weaker for it. */
static void
say_unknown_spread (const MsResults *a, const MsResults *b)
{
  char clean[4 * sizeof a->metadata_unknown];
  for (int i = 0; i < 2; i++) {
    const MsResults *r = i ? b : a;
    if (r->metadata_unknown[0])
      ms_cli_error (ms_gettext ("%s: %s; so is the spread between the processes "
                                "that measured it, and cells that need it are undecided\n"),
                    i ? "B" : "A", ms_report_clean (r->metadata_unknown, clean, sizeof clean));
  }
}

/* The verdicts, printed, and the chart; the exit status. A run whose
 * metadata is unknown (read from `-`, or without its sidecar) leaves
 * undecided every cell that would need its spread: with some cell SAME
 * and the rest of a 20 % change unsettled, it has not passed (exit 5, as
 * when no cell is decided), and *unsettled counts those cells. A run of
 * known metadata without a profile claims no difference and passes, as
 * docs/compare.md says. */
static int
judge (const Options *o, const MsResults *a, const MsResults *b, int *unsettled)
{
  char err[512];
  int rc;
  MsComparison *cmp = ms_compare_results_figure (a, b, ms_compare_options_fraction (&o->compare),
                                                 o->mode, o->figure, err, sizeof err);
  if (!cmp) {
    ms_cli_error ("%s\n", err);
    return EXIT_USAGE;
  }
  if (o->live && live_turns.looks > 0)
    ms_turns_apply (&live_turns, cmp);
  char left[512];
  /* Named, so that a mode without the figure's phase is not read as
   * measured the same, nor as undecided. */
  if (ms_comparison_left_out (cmp, left, sizeof left))
    ms_cli_error (ms_gettext ("left out, as they have no %s phase: %s\n"),
                  ms_figure_name (cmp->figure), left);
  CompareView view = { cmp, a, b };
  MsCliTable *table = compare_table (cmp);
  MsCliDocument doc = { compare_text, compare_json, table, &view };
  bool written = ms_cli_output_write (&o->output, &doc);
  ms_cli_table_free (table);
  say_unknown_spread (a, b);
  bool unknown = a->metadata_unknown[0] || b->metadata_unknown[0];
  *unsettled = unknown && !ms_comparison_undecided (cmp) ? ms_comparison_unsettled (cmp) : 0;
  rc = ms_comparison_differs (cmp)                      ? EXIT_RUNTIME
       : ms_comparison_undecided (cmp) || *unsettled > 0 ? EXIT_COMPARE_UNDECIDED
                                                         : EXIT_OK;
  if (!written)
    rc = EXIT_COMPARE_OUTPUT;
#ifdef MS_HAVE_DRAW
  if (o->plot && !ms_cli_compare_plot (o->plot, cmp, a, b))
    rc = EXIT_COMPARE_OUTPUT;
#endif
  if (!ms_cli_stdout_ok ())
    rc = EXIT_COMPARE_OUTPUT;
  ms_comparison_free (cmp);
  return rc;
}

int
ms_cli_compare (int argc, char **argv)
{
  Options o;
  int rc = EXIT_OK;
  if (!parse_options (argc, argv, &o, &rc))
    return rc;
  if (o.live && !ms_cli_prefix_names_files ("--out", o.how.prefix, "-a-samples.csv"))
    return EXIT_USAGE;
  /* Protected as it notes: --plot never replaces an input. */
  if (!o.live)
    ms_cli_note_same_inputs (o.files, 2);
#ifdef MS_HAVE_DRAW
  if (o.plot && !ms_cli_compare_plot_name_ok (o.plot))
    return EXIT_USAGE;
  /* A conflict of the output plan is a usage error, as everywhere. */
  if (o.plot && !ms_cli_plan_file ("--plot", o.plot))
    return EXIT_USAGE;
#else
  if (o.plot) {
    ms_cli_error ("%s", ms_gettext ("--plot needs a build with Cairo and Pango\n"));
    return EXIT_USAGE;
  }
#endif
  /* Standard output and the exports are checked once the inputs are
   * protected, so that none replaces one. The sides' pairs are CSV
   * files --compress acts on. */
  o.output.own_csv = o.live && o.how.prefix;
  if (!ms_cli_output_ready (&o.output))
    return EXIT_USAGE;
  MsResults *a = NULL, *b = NULL;
  if (!o.live && !ms_cli_stdout_not_input ())
    return EXIT_USAGE;
  if (!o.live && ms_cli_verbose ()) {
    char clean_a[4 * PATH_MAX], clean_b[4 * PATH_MAX];
    ms_cli_say (ms_gettext ("compare: reading %s and %s"),
                ms_report_clean (o.files[0], clean_a, sizeof clean_a),
                ms_report_clean (o.files[1], clean_b, sizeof clean_b));
  }
  int live_status = EXIT_OK, unsettled = 0;
  rc = get_runs (&o, argv, &a, &b, &live_status);
  if (rc < 0)
    rc = judge (&o, a, b, &unsettled);
  /* Measured here and written nowhere: kept where the output failed. */
  if (o.live && !o.how.prefix && rc == EXIT_COMPARE_OUTPUT)
    ms_cli_live_keep (a, b, o.plot ? o.plot : ".");
  /* Stopped, or a side's files not written: said by the status too (a
   * failure of the measuring says more than "nothing decided"). */
  if (live_status == EXIT_WRITE ||
      ((rc == EXIT_OK || rc == EXIT_COMPARE_UNDECIDED) && live_status != EXIT_OK))
    rc = live_status;
  /* Said only where it is the status: a stopped live run says its own. */
  if (rc == EXIT_COMPARE_UNDECIDED && unsettled == 0)
    ms_cli_error (ms_gettext ("no cell could be decided (every cell AMBIGUOUS): exit %d, not 0\n"),
                  EXIT_COMPARE_UNDECIDED);
  else if (rc == EXIT_COMPARE_UNDECIDED)
    ms_cli_error (ms_ngettext ("%d cell lies outside the threshold but "
                               "could not be decided, so the runs are not shown the same: "
                               "exit %d, not 0\n",
                               "%d cells lie outside the threshold but "
                               "could not be decided, so the runs are not shown the same: "
                               "exit %d, not 0\n",
                               unsettled),
                  unsettled, EXIT_COMPARE_UNDECIDED);
  ms_results_free (a);
  ms_results_free (b);
  return rc;
}
