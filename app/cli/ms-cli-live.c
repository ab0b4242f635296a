/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-live.c: `memsweep compare --live`. Two compare-grade runs made
 * one after the other differ by whatever the machine did in between: on
 * the lent H100 two such runs a minute apart differed by 1-9% per mode
 * in the median, more than either run's processes scatter
 * (docs/compare.md). Taking turns, a process of A then one of B, puts
 * that drift on both sides, so that the verdicts judge A against B and
 * not one minute against the next. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-engine.h"
#include "ms-cli-output.h"
#include "ms-cli-common.h"
#include "ms-cli-live.h"
#include "ms-cli-processes.h"
#include "ms-cli-run-options.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"

static const char *const side_name[2] = { "A", "B" };

typedef struct {
  MsSweep sweep[2];
  char dir[PATH_MAX];
  char samples[2][PATH_MAX], summary[2][PATH_MAX];
} Plan;

/* One side's run options, as `memsweep run --grade OPTIONS` would take
 * them, into *sweep; false after run's own message. */
static bool
parse_side (const MsCliLive *live, int side, const char *prefix, MsSweep *sweep)
{
  static const char *const own[] = { "processes", NULL };
  const char *option = side ? "--b" : "--a";
  int n;
  char **words = ms_cli_side_words (option, live->options[side], own, &n);
  if (!words)
    return false;
  /* --grade's rounds a process, unless the side's own options say.
   * compare --live, not the side, chooses how many processes a side has:
   * run's check of processes x rounds must not judge a side's --rounds
   * by --grade's 4 processes, which nobody asked for (below, its own).
   * The processes write into the process folder only. */
  const char *fixed[] = { "run", "--grade", "--processes", "1", "--out", prefix, NULL };
  MsCliRunOptions o;
  int rc = ms_cli_side_parse (fixed, words, n, &o);
  free (words);
  if (rc >= 0)
    return false;
  if (o.sweep.rounds > MS_CLI_LIVE_MAX_ROUNDS) {
    ms_cli_error (ms_gettext ("--%c: --rounds %d is more than %d: a side holds "
                              "at most %d rounds, which must leave room for the %d processes a "
                              "compare-grade run starts with\n"),
                  side ? 'b' : 'a', o.sweep.rounds, MS_CLI_LIVE_MAX_ROUNDS, MS_MAX_ROUNDS,
                  MS_MAX_ROUNDS / MS_CLI_LIVE_MAX_ROUNDS);
    return false;
  }
  *sweep = o.sweep;
  return true;
}

/* PREFIX-a-samples.csv and the rest, checked before the work. */
static bool
plan_outputs (const char *prefix, Plan *plan)
{
  char name[PATH_MAX];
  for (int side = 0; side < 2; side++) {
    snprintf (name, sizeof name, "%s-%c", prefix, side ? 'b' : 'a');
    /* Both files and their sidecar, as run checks its own. */
    if (!ms_cli_pair_ok ("--out", name, plan->samples[side], plan->summary[side]))
      return false;
  }
  return true;
}

static bool
make_dir (Plan *plan)
{
  char side_dir[PATH_MAX + 8];
  if (ms_supervisor_folder ("live", plan->dir, sizeof plan->dir)) {
    /* A folder a side, so that each numbers its processes from 0. */
    for (int side = 0; side < 2; side++) {
      snprintf (side_dir, sizeof side_dir, "%s/%c", plan->dir, side ? 'b' : 'a');
      if (mkdir (side_dir, 0700) != 0)
        break;
      if (side == 1)
        return true;
    }
  }
  ms_cli_error (ms_gettext ("cannot make a folder for the processes' files: %s\n"),
                strerror (errno));
  return false;
}

static void
remove_dirs (const Plan *plan)
{
  if (plan->dir[0])
    ms_supervisor_folder_done (plan->dir);
}

/* Whether the sides' sweeps share a cell (mode, size and variant), which
 * the verdicts need: known from the options, so said before any process
 * starts rather than after three pairs. */
static bool
sides_share_a_cell (const MsCliLive *live, const Plan *plan)
{
  const MsSweep *a = &plan->sweep[0], *b = &plan->sweep[1];
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    char va[MS_VARIANT_LEN], vb[MS_VARIANT_LEN];
    MsKnobs knobs;
    if (!a->modes[m] || !b->modes[m] || (live->mode != MS_MODE_COUNT && live->mode != (MsMode) m))
      continue;
    ms_sweep_cell_knobs (a, (MsMode) m, &knobs, va, sizeof va);
    ms_sweep_cell_knobs (b, (MsMode) m, &knobs, vb, sizeof vb);
    if (strcmp (va, vb) != 0)
      continue;
    for (int e = a->min_exp; a->step > 0 && e <= a->max_exp; e += a->step)
      if (e >= b->min_exp && e <= b->max_exp && b->step > 0 && (e - b->min_exp) % b->step == 0)
        return true;
  }
  return false;
}

/* Whether a side's interval is as narrow as a grade run stops at: more
 * processes would not move its verdict. */
static bool
side_sure (const MsInterval *iv)
{
  return iv->graded && iv->lo > 0 &&
         sqrt (iv->hi / iv->lo) - 1 <= MS_GRADE_DEFAULT_TARGET_PCT / 100.0;
}

/* How many common cells are still AMBIGUOUS with a side not yet sure (a
 * grade run's rule, per side), and which modes hold them (active); -1
 * when none is common. */
static int
undecided (const MsCliLive *live, MsResults *const runs[2], int *common, bool *active)
{
  char err[256];
  MsComparison *cmp = ms_compare_results_figure (runs[0], runs[1], live->threshold, live->mode,
                                                 live->figure, err, sizeof err);
  if (!cmp)
    return -1;
  int n = 0;
  *common = cmp->all.n_common;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    active[m] = false;
  for (size_t i = 0; i < cmp->n_cells; i++) {
    const MsCompareCell *c = &cmp->cells[i];
    if (!c->in_a || !c->in_b || c->verdict != MS_VERDICT_AMBIGUOUS ||
        (side_sure (&c->a) && side_sure (&c->b)))
      continue;
    n++;
    active[c->mode] = true;
  }
  ms_comparison_free (cmp);
  return n;
}

/* As many processes as a run holds (MS_MAX_PROCESSES) and their rounds
 * fit in MS_MAX_ROUNDS. */
static int
max_processes (const Plan *plan)
{
  int rounds = plan->sweep[0].rounds > plan->sweep[1].rounds ? plan->sweep[0].rounds
                                                             : plan->sweep[1].rounds;
  int n = MS_MAX_ROUNDS / (rounds > 0 ? rounds : 1);
  return n < MS_MAX_PROCESSES ? n : MS_MAX_PROCESSES;
}

/* The turns ended before the verdicts: what both sides measured so far is
 * kept and judged (-1), with the exit status the end stands for in
 * *status; or the exit status when a side has nothing. */
static int
stopped_early (MsCliProcessEnd end, int k, const char *err, MsResults *runs[2], int *status)
{
  if (end != MS_CLI_PROCESS_STOPPED || err[0])
    ms_cli_error ("%s\n", err);
  /* Which signal, as run --grade and calibrate say it: the lines below
   * say only what is kept. */
  int sig = ms_supervisor_stop_signal ();
  if (end == MS_CLI_PROCESS_STOPPED && sig)
    ms_cli_error (ms_gettext ("%s: stopped in the processes of pair %d\n"),
                  ms_cli_signal_name (sig), k + 1);
  *status = end == MS_CLI_PROCESS_NOT_WRITTEN ? EXIT_WRITE : EXIT_RUNTIME;
  if (end == MS_CLI_PROCESS_NO_DEVICE && !(runs[0] && runs[1]))
    return EXIT_NO_DEVICE;
  if (!runs[0] && !runs[1]) {
    /* A process that could not write or be read back kept what it
     * measured, and said where (above): no "nothing measured" after it. */
    if (end == MS_CLI_PROCESS_NOT_WRITTEN &&
        (strstr (err, "memsweep-kept-") || ms_cli_processes_unread ()))
      ms_cli_error ("%s", ms_gettext ("no side has a run to write: what was measured is "
                                      "kept where said above\n"));
    /* A process measured and could keep nothing (said above, with why):
     * not "neither side measured anything". */
    else if (ms_cli_processes_not_written ())
      ms_cli_error ("%s", ms_gettext ("no side has a run to write: what was measured could "
                                      "not be written or kept, as said above\n"));
    else
      ms_cli_error ("%s", ms_gettext ("neither side measured anything: nothing written\n"));
    return *status;
  }
  if (!(runs[0] && runs[1])) {
    /* Stopped in the other side's first process, or it could not write
     * (a full TMPDIR: it said where it kept what it measured): no
     * comparison; the one side is written or kept (ms_cli_live_measure). */
    bool measured = end == MS_CLI_PROCESS_NOT_WRITTEN || ms_cli_processes_not_written ();
    ms_cli_error (measured ? ms_gettext ("side %s has no run to write: what it measured is kept "
                                         "where said above, or could not be, as said; no "
                                         "comparison; side %s's run is written or kept "
                                         "(below)\n")
                           : ms_gettext ("side %s measured nothing: no comparison; "
                                         "side %s's run is written or kept (below)\n"),
                  side_name[runs[0] ? 1 : 0], side_name[runs[0] ? 0 : 1]);
    return *status;
  }
  /* Stopped in the first pair: no process of a side finished, though
   * each measured part of one. */
  if (k == 0)
    ms_cli_error ("%s", ms_gettext ("stopped before a process of each side had finished; "
                                    "what both sides measured of their first is kept\n"));
  else
    ms_cli_error (ms_gettext ("stopped after %d processes a side; what both "
                              "sides measured is kept\n"),
                  k);
  return -1;
}

/* The budget overrun, said: the first MS_CLI_LIVE_MIN_PROCESSES pairs run
 * whatever it is, as no verdict comes from fewer, and a later pair may take
 * longer than the one before it, by which it was judged to fit. A
 * scheduler's slot sized by the budget needs to know. */
static void
say_overrun (const MsCliLive *live, int pairs, double spent, double pair_s)
{
  if (spent <= live->budget_s)
    return;
  if (pairs <= MS_CLI_LIVE_MIN_PROCESSES)
    ms_cli_error (
        ms_gettext ("measured for %.1f s, %.1f s over --budget %g: a side "
                    "needs %d processes before any verdict, whatever the budget, and they "
                    "took that long (--budget %.0f or more holds them)\n"),
        spent, spent - live->budget_s, live->budget_s, MS_CLI_LIVE_MIN_PROCESSES, ceil (spent));
  else
    ms_cli_error (
        ms_gettext ("measured for %.1f s, %.1f s over --budget %g: the "
                    "last pair took %.1f s, longer than the one before it, by which it was "
                    "judged to fit\n"),
        spent, spent - live->budget_s, live->budget_s, pair_s);
}

/* What the turns of a live comparison carry between their calls. */
typedef struct {
  const MsCliLive *live;
  const Plan *plan;
  atomic_int *cancel;
  MsResults **runs;
  int *status;
  MsCliProcessEnd end;
  int round;
  bool active[MS_MODE_COUNT]; /* the modes both sides have, with the figure's phase */
  double start, round_s;
  char err[1024];
} Turns;

static double
turns_clock (void *user)
{
  return ms_cli_now_s ();
}

/* Side's process of round r, of the open modes, merged into its run; its
 * values added to the turns. A process kept after exiting 1 of its own
 * (a failed cell, someone else's stop): the turns go on and exit 1, as
 * run --grade does (docs/cli.md). */
static bool
turns_measure (void *user, int side, int r, bool first, const bool *open, MsTurns *t)
{
  Turns *k = user;
  char dir[PATH_MAX + 8];
  double t0 = ms_cli_now_s ();
  snprintf (dir, sizeof dir, "%s/%c", k->plan->dir, side ? 'b' : 'a');
  MsCliTurnSide s = { &k->plan->sweep[side], k->live->experiment[side], dir, k->live->figure };
  k->round = r;
  k->err[0] = '\0';
  k->end = ms_cli_run_turn (&s, side, r, first, open, NULL, k->cancel, &k->runs[side], t, k->err,
                            sizeof k->err);
  if (k->end == MS_CLI_PROCESS_KEPT && *k->status == EXIT_OK)
    *k->status = EXIT_RUNTIME;
  if (k->end != MS_CLI_PROCESS_MEASURED && k->end != MS_CLI_PROCESS_KEPT)
    return false;
  k->round_s = first ? ms_cli_now_s () - t0 : k->round_s + ms_cli_now_s () - t0;
  /* Progress on a terminal, or wherever --verbose sends it. */
  if (!first && (((isatty (STDERR_FILENO) && !ms_cli_quiet ()) || ms_cli_verbose ())))
    fprintf (stderr, ms_gettext ("%d processes a side, %.0f s\n"), r + 1,
             ms_cli_now_s () - k->start);
  return !ms_supervisor_stopping (k->cancel);
}

/* Beyond the verdicts per mode, the modes whose common cells are still
 * AMBIGUOUS with a side not yet sure are measured again while a mode's
 * verdict is open: compare also judges each cell. */
static void
turns_widen (void *user, const MsTurns *t, bool *open)
{
  Turns *k = user;
  bool cells[MS_MODE_COUNT];
  int common = 0;
  if (!k->runs[0] || !k->runs[1] || undecided (k->live, k->runs, &common, cells) <= 0)
    return;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    open[m] = open[m] || (cells[m] && k->active[m]);
}

/* The turns until the modes and cells are decided or the budget would be
 * overrun (ms_turns_take). *status: the exit status an early end stands
 * for (EXIT_OK when none). */
static int
take_turns (const MsCliLive *live, const Plan *plan, atomic_int *cancel, MsResults *runs[2],
            int *status)
{
  Turns k = { live, plan, cancel, runs, status, MS_CLI_PROCESS_MEASURED };
  /* A mode without the figure's phase has no verdict to wait for: not
   * measured at all. */
  bool any = false;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    k.active[m] = (live->mode == MS_MODE_COUNT || live->mode == (MsMode) m) &&
                  ms_mode_has_figure ((MsMode) m, live->figure) && plan->sweep[0].modes[m] &&
                  plan->sweep[1].modes[m];
    any = any || k.active[m];
  }
  if (!any) {
    ms_cli_error (ms_gettext ("no mode of the sides has a %s phase\n"),
                  ms_figure_name (live->figure));
    return EXIT_USAGE;
  }
  ms_turns_init (live->turns, 2, live->threshold);
  MsTurnOps ops = { turns_measure, turns_clock, turns_widen, &k };
  k.start = ms_cli_now_s ();
  MsTurnsEnd end = ms_turns_take (live->turns, k.active, live->budget_s, max_processes (plan),
                                  &ops);
  bool finished = k.end == MS_CLI_PROCESS_MEASURED || k.end == MS_CLI_PROCESS_KEPT;
  if (end.stopped && !finished)
    return stopped_early (k.end, k.round, k.err, runs, status);
  /* A stop that came as side a's first process finished: side b has no
   * run to compare or label. */
  if (end.stopped && !(runs[0] && runs[1]))
    return stopped_early (MS_CLI_PROCESS_STOPPED, k.round, k.err, runs, status);
  if (end.stopped) {
    *status = EXIT_RUNTIME;
    return -1;
  }
  say_overrun (live, end.rounds, ms_cli_now_s () - k.start, k.round_s);
  return -1;
}

/* "live A: --modes pinned (inject=20)": what each side was, in its label. */
static void
label_side (const MsCliLive *live, int side, MsResults *r)
{
  const char *opts = live->options[side] && live->options[side][0] ? live->options[side]
                                                                    : ms_gettext ("default sweep");
  if (live->experiment[side])
    snprintf (r->label, sizeof r->label, "live %s: %s (%s)", side_name[side], opts,
              live->experiment[side]);
  else
    snprintf (r->label, sizeof r->label, "live %s: %s", side_name[side], opts);
}

/* *lost: a side could be written neither at its names nor kept. */
static bool
save_sides (const Plan *plan, MsResults *runs[2], bool *lost)
{
  char err[1024], clean[4 * sizeof err];
  bool ok = true, kept;
  *lost = false;
  /* Each side on its own: a side that cannot be written is kept where the
   * message says, and the other side is still written (or kept). A side
   * that measured nothing (NULL) has nothing to write. */
  for (int side = 0; side < 2; side++) {
    if (!runs[side])
      continue;
    if (ms_csv_write_pair_or_keep (runs[side], plan->samples[side], plan->summary[side], &kept,
                                   err, sizeof err)) {
      ms_cli_wrote_pair (plan->samples[side], plan->summary[side]);
      continue;
    }
    ms_cli_error ("%s\n", ms_report_clean (err, clean, sizeof clean));
    ok = false;
    *lost = *lost || !kept;
  }
  return ok;
}

/* One side measured, the other nothing (stopped in its first process):
 * the one side's run written at its names (--out), else kept as live-X-*
 * in a kept folder here; said. *lost: it could be kept nowhere. */
static void
save_one_side (const MsCliLive *live, const Plan *plan, MsResults *runs[2], bool *lost)
{
  int side = runs[0] ? 0 : 1;
  label_side (live, side, runs[side]);
  if (live->prefix)
    save_sides (plan, runs, lost);
  else
    *lost = !ms_cli_live_keep (runs[0], runs[1], ".");
}

/* Each side's experiment switches, parsed before any process starts. */
static bool
check_experiments (const MsCliLive *live)
{
  for (int side = 0; side < 2; side++)
    if (!(live->experiment[side] ? ms_cli_experiment_ok (side ? "--b-experiment"
                                                               : "--a-experiment",
                                                          live->experiment[side])
                                 : ms_cli_experiment_ok (NULL, NULL)))
      return false;
  return true;
}

int
ms_cli_live_measure (const MsCliLive *live, atomic_int *cancel, MsResults **a, MsResults **b,
                     int *status_out)
{
  Plan plan = { 0 };
  MsResults *runs[2] = { NULL, NULL };
  *a = *b = NULL;
  if (!check_experiments (live))
    return EXIT_USAGE;
  if (live->prefix && !plan_outputs (live->prefix, &plan))
    return EXIT_USAGE;
  /* Where the processes write, refused before any of them starts. */
  if (!ms_cli_tmp_folder_ok ("compare"))
    return EXIT_USAGE;
  if (!make_dir (&plan))
    return EXIT_WRITE;
  if (!ms_cli_plan_folder ("TMPDIR", plan.dir)) {
    remove_dirs (&plan);
    return EXIT_USAGE;
  }
  int rc = -1, status = EXIT_OK;
  for (int side = 0; side < 2 && rc < 0; side++)
    if (!parse_side (live, side, plan.dir, &plan.sweep[side]))
      rc = ms_supervisor_stop_signal () ? EXIT_RUNTIME : EXIT_USAGE; /* --profile - stalled */
  if (rc < 0 && !sides_share_a_cell (live, &plan)) {
    ms_cli_error ("%s", ms_gettext ("the two sides have no cell in common (mode, size and "
                                    "variant): nothing measured\n"));
    rc = EXIT_USAGE;
  }
  if (rc < 0)
    rc = take_turns (live, &plan, cancel, runs, &status);
  bool lost = false;
  if (rc < 0) {
    label_side (live, 0, runs[0]);
    label_side (live, 1, runs[1]);
    if (live->prefix && !save_sides (&plan, runs, &lost))
      status = EXIT_WRITE;
  } else if ((runs[0] != NULL) != (runs[1] != NULL)) {
    save_one_side (live, &plan, runs, &lost);
  }
  /* The processes' files stay until both sides are written or kept. */
  if (lost || ms_cli_processes_unread ())
    ms_cli_processes_done (plan.dir, true);
  else
    remove_dirs (&plan);
  *a = runs[0];
  *b = runs[1];
  if (rc < 0 && status != EXIT_OK)
    *status_out = status;
  return rc;
}

/* One side's pair as live-X-* in folder, or kept elsewhere where it does
 * not fit there (ms_csv_write_pair_or_keep); said either way. False when
 * it could be kept nowhere. */
static bool
keep_side (MsResults *run, int side, const char *folder)
{
  char samples[PATH_MAX + 32], summary[PATH_MAX + 32], err[2048], clean[4 * sizeof err],
    clean2[4 * sizeof samples];
  bool kept;
  snprintf (samples, sizeof samples, "%s/live-%c-samples.csv", folder, 'a' + side);
  snprintf (summary, sizeof summary, "%s/live-%c-summary.csv", folder, 'a' + side);
  if (ms_csv_write_pair_or_keep (run, samples, summary, &kept, err, sizeof err)) {
    ms_cli_error (ms_gettext ("side %s: what was measured is kept in %s and "
                              "%s\n"),
                  side_name[side], ms_report_clean (samples, clean, sizeof clean),
                  ms_report_clean (summary, clean2, sizeof clean2));
    return true;
  }
  ms_cli_error ("%s\n", ms_report_clean (err, clean, sizeof clean));
  return kept;
}

bool
ms_cli_live_keep (MsResults *a, MsResults *b, const char *near)
{
  char folder[PATH_MAX];
  if (!a && !b)
    return false;
  if (!ms_output_plan_keep_folder (near, 0, folder, sizeof folder) &&
      !ms_output_plan_keep_folder (near, 1, folder, sizeof folder)) {
    ms_cli_error ("%s", ms_gettext ("no folder could keep what the two sides measured "
                                    "either (TMPDIR included): it is lost\n"));
    return false;
  }
  bool a_kept = !a || keep_side (a, 0, folder);
  bool b_kept = !b || keep_side (b, 1, folder);
  rmdir (folder); /* where both went elsewhere: nothing to leave */
  return a_kept && b_kept;
}
