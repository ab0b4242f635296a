/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-turns.c: the verdict rules of `siblings`, `compare --live` and
 * two `run --grade` runs, run on simulated processes whose noise is what
 * the lent hosts showed (issue 81, 4x H100, 2026-11-28; PITFALLS 28 and
 * 41): each mode's spread that a process shares across its sizes, each
 * cell's own spread between processes, the first process of a turn 3.5%
 * slower, a slow drift of the host, and for two separate runs a shift of
 * the whole run (1%, as two grade runs a minute apart on the lent H100). The same code decides as on a GPU (engine/analysis/
 * ms-turns.c, ms-turn-loop.c, ms-compare-pool.c); only the processes are
 * drawn. Prints, per kind of check and change, the rate of each verdict
 * per mode and how long the checks took (a process costs START_S plus
 * MODE_S for each mode it measures at seven sizes, 11/7 of it at eleven).
 *
 *   bench-turns [--checks N] [--seed S] [--budget S] [--start-s S]
 *               [--mode-s S] [--grade-processes P] [--rounds R]
 */
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-compare-pool.h"
#include "ms-run-read.h"
#include "ms-stats.h"
#include "ms-engine.h"
#include "ms-turns.h"

/* A mode's noise, as sd of ln(time): what a process shares across the
 * mode's sizes, what each process adds of its own to the mean of the
 * mode's cells, and (the model from grade runs) what a round adds, which
 * a process's R rounds average. */
typedef struct {
  const char *mode;
  double process, cell, round;
} Noise;

/* The issue's model (issue 81, 4x H100, 2026-11-28; PITFALLS 28 for the
 * cells of the modes it does not give): default sweeps, each cell visited
 * once a process, so that the whole spread of a cell between processes
 * stays in each process's value. The pessimistic one. */
static const Noise issue_noise[] = {
  { "pageable", 0.047, 0.099, 0 },  { "pinned", 0.026, 0.043, 0 },
  { "registered", 0.052, 0.080, 0 }, { "write-combined", 0.022, 0.035, 0 },
  { "zero-copy", 0.025, 0.035, 0 }, { "uva", 0.026, 0.040, 0 },
  { "managed", 0.060, 0.136, 0 },   { "managed-prefetch", 0.056, 0.136, 0 },
  { "streams", 0.038, 0.070, 0 },   { "device", 0.045, 0.065, 0 },
  { "host", 0.054, 0.102, 0 },
};
#define N_NOISE (sizeof issue_noise / sizeof issue_noise[0])
/* The model of the processes a check runs (--grade, ROUNDS rounds each),
 * read from the shipped grade runs by grade_noise. */
static Noise noise[N_NOISE];
static int rounds_a_process = 5;
#define CELLS 7           /* 2^14 .. 2^20 */
#define ORDER 0.035       /* the first process of a turn, slower */
#define DRIFT 0.003       /* the host's step from one process to the next */
/* Two runs a minute apart: the whole run's shift (MS_POOL_RUN_SHIFT, the
 * figure the pooled rule holds for it). */
#define RUN_SHIFT MS_POOL_RUN_SHIFT

typedef struct {
  int checks;
  uint64_t seed;
  double budget_s, live_budget_s, start_s, mode_s;
  int grade_processes, grade_rounds;
} Settings;

static uint64_t rng_state;

static double
uniform (void)
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return ((z >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss (void)
{
  return sqrt (-2 * log (uniform ())) * cos (6.283185307179586 * uniform ());
}

/* A cell's own spread between processes, beyond the process's shared
 * part. */
static double
cell_own (int i)
{
  return sqrt (fmax (noise[i].cell * noise[i].cell - noise[i].process * noise[i].process, 0));
}

/* One process's value of mode i: what the mean of its cells from 2^14
 * carries of the process's own draw, the cells' and its rounds'. */
static double
process_value (int i, int rounds)
{
  return noise[i].process * gauss () + cell_own (i) / sqrt (CELLS) * gauss () +
         noise[i].round / sqrt (rounds) * gauss ();
}

/* ---- a check in turns: siblings (four sides) or live (two) ---------- */

typedef struct {
  const Settings *s;
  MsMode mode_of[N_NOISE];
  double change[MS_TURNS_MAX_SIDES];
  double now, drift, mode_s;
} Sim;

static double
sim_clock (void *user)
{
  return ((Sim *) user)->now;
}

static bool
sim_measure (void *user, int side, int round, bool first, const bool *open, MsTurns *t)
{
  Sim *sim = user;
  sim->now += sim->s->start_s;
  sim->drift += DRIFT * gauss ();
  for (size_t i = 0; i < N_NOISE; i++) {
    MsMode m = sim->mode_of[i];
    if (!open[m])
      continue;
    sim->now += sim->mode_s;
    ms_turns_add (t, m, side, sim->change[side] + sim->drift + (first ? ORDER : 0) +
                                process_value ((int) i, rounds_a_process), first);
  }
  return true;
}

/* Per mode: how often each verdict of the changed side (0: side 1), and
 * whether another side was named. */
typedef struct {
  int same[N_NOISE], slower[N_NOISE], faster[N_NOISE], other[N_NOISE];
  int alike, named_right, named_wrong, undecided, modes_named;
  double *seconds;
  int n;
} Tally;

static void
tally_turns (const Sim *sim, const MsTurns *t, const bool *judged, Tally *y, double seconds)
{
  bool all_same = true, right = false, wrong = false;
  int named = 0;
  for (size_t i = 0; i < N_NOISE; i++) {
    MsMode m = sim->mode_of[i];
    if (!judged[m])
      continue;
    MsVerdict v = t->v[m][1].verdict;
    y->same[i] += v == MS_VERDICT_SAME;
    y->slower[i] += v == MS_VERDICT_SLOWER;
    y->faster[i] += v == MS_VERDICT_FASTER;
    named += v == MS_VERDICT_SLOWER || v == MS_VERDICT_FASTER;
    right = right || v == MS_VERDICT_SLOWER || v == MS_VERDICT_FASTER;
    bool other = false;
    for (int g = 0; g < t->n_sides; g++) {
      MsVerdict w = t->v[m][g].verdict;
      all_same = all_same && w == MS_VERDICT_SAME;
      other = other || (g != 1 && t->n_sides > 2 && (w == MS_VERDICT_SLOWER ||
                                                        w == MS_VERDICT_FASTER));
    }
    y->other[i] += other;
    wrong = wrong || other;
  }
  y->alike += all_same;
  y->named_right += right && !wrong;
  y->named_wrong += wrong;
  y->undecided += !all_same && !right && !wrong;
  y->modes_named += named;
  y->seconds[y->n++] = seconds;
}

static void
run_turns (const Settings *s, int sides, const bool *judged, double change, Tally *y)
{
  MsTurns *t = malloc (sizeof *t);
  for (int c = 0; c < s->checks; c++) {
    Sim sim = { .s = s };
    for (size_t i = 0; i < N_NOISE; i++)
      ms_mode_from_name (noise[i].mode, &sim.mode_of[i]);
    sim.change[1] = change;
    /* siblings measures the sizes its verdicts pool, from 2^14; live all
     * eleven of the default sweep, for the cells' verdicts too. */
    sim.mode_s = sides > 2 ? s->mode_s : s->mode_s * 11 / CELLS;
    ms_turns_init (t, sides, MS_COMPARE_DEFAULT_THRESHOLD_PCT / 100);
    MsTurnOps ops = { sim_measure, sim_clock, NULL, &sim };
    ms_turns_take (t, judged, sides > 2 ? s->budget_s : s->live_budget_s, MS_MAX_PROCESSES, &ops);
    tally_turns (&sim, t, judged, y, sim.now);
  }
  free (t);
}

/* ---- two separate grade runs, compared once ------------------------- */

/* Two grade runs of p processes of 9 rounds (--grade's), each run
 * shifted as a whole, judged by compare's pooled rule. */
static MsVerdict
grade_pair (int i, int p, int rounds, double change)
{
  double a[MS_MAX_PROCESSES], b[MS_MAX_PROCESSES];
  double shift_a = RUN_SHIFT * gauss (), shift_b = RUN_SHIFT * gauss () + change;
  for (int k = 0; k < p; k++) {
    a[k] = shift_a + process_value (i, rounds);
    b[k] = shift_b + process_value (i, rounds);
  }
  MsPoolEstimate est;
  ms_pool_processes (a, p, b, p, 1, &est);
  double h = ms_student_t_975 (est.df) * est.se;
  MsJudgement j = { .ratio = exp (est.d), .lo = exp (est.d - h), .hi = exp (est.d + h) };
  MsVerdictDoubts doubts = { true, true, false };
  ms_verdict_decide (&j, MS_COMPARE_DEFAULT_THRESHOLD_PCT / 100, doubts, true);
  return j.verdict;
}

static void
run_grade (const Settings *s, double change, Tally *y)
{
  for (int c = 0; c < s->checks; c++) {
    bool all_same = true, any = false;
    for (size_t i = 0; i < N_NOISE; i++) {
      MsVerdict v = grade_pair ((int) i, s->grade_processes, s->grade_rounds, change);
      y->same[i] += v == MS_VERDICT_SAME;
      y->slower[i] += v == MS_VERDICT_SLOWER;
      y->faster[i] += v == MS_VERDICT_FASTER;
      all_same = all_same && v == MS_VERDICT_SAME;
      any = any || v == MS_VERDICT_SLOWER || v == MS_VERDICT_FASTER;
      y->modes_named += v == MS_VERDICT_SLOWER || v == MS_VERDICT_FASTER;
    }
    y->alike += all_same;
    y->named_right += any;
    y->undecided += !all_same && !any;
    y->seconds[y->n++] = 2 * s->grade_processes *
                         (s->start_s + N_NOISE * s->mode_s * 11 / CELLS * s->grade_rounds /
                                         rounds_a_process);
  }
}

/* ---- the model from the shipped grade runs --------------------------- */

/* ln of the median of a cell's round's end-to-end times; NAN without. */
static double
round_median (const MsCell *c, const MsCellRound *r)
{
  double v[256];
  int n = 0;
  for (int rep = r->first_rep; rep < r->first_rep + r->n_reps && n < 256; rep++)
    if (rep >= 0 && rep < c->n_reps && c->e2e_us[rep] > 0)
      v[n++] = c->e2e_us[rep];
  return n ? log (ms_median (v, n)) : NAN;
}

/* One run's mode: the spread of a round (within a process) and of a
 * process beyond what its rounds carry, of the mean over the mode's
 * cells from 2^14 of ln(round median). */
static void
run_components (const MsResults *run, MsMode mode, double *process, double *round)
{
  static double sum[MS_MAX_ROUNDS];
  static int cells[MS_MAX_ROUNDS];
  int want = 0, per = run->sweep.rounds > 0 ? run->sweep.rounds : 1;
  memset (sum, 0, sizeof sum);
  memset (cells, 0, sizeof cells);
  for (size_t i = 0; i < run->n_cells; i++) {
    const MsCell *c = &run->cells[i];
    if (c->mode != mode || c->exponent < 14)
      continue;
    want++;
    for (int k = 0; k < c->n_rounds; k++) {
      double v = round_median (c, &c->rounds[k]);
      int r = c->rounds[k].round;
      if (isfinite (v) && r >= 0 && r < MS_MAX_ROUNDS) {
        sum[r] += v;
        cells[r]++;
      }
    }
  }
  double means[MS_MAX_PROCESSES], within = 0;
  int np = 0;
  for (int p = 0; p < MS_MAX_PROCESSES; p++) {
    double x[MS_MAX_ROUNDS];
    int n = 0;
    for (int r = p * per; r < (p + 1) * per && r < MS_MAX_ROUNDS; r++)
      if (want > 0 && cells[r] == want)
        x[n++] = sum[r] / want;
    if (n < 2)
      continue;
    means[np++] = gsl_stats_mean (x, 1, (size_t) n);
    within += gsl_stats_variance (x, 1, (size_t) n) / MS_MAX_PROCESSES;
  }
  within *= (double) MS_MAX_PROCESSES / (np > 0 ? np : 1);
  double between = np > 1 ? gsl_stats_variance (means, 1, (size_t) np) : NAN;
  *round = sqrt (within);
  *process = sqrt (fmax (between - within / per, 0));
}

/* The larger of each part over the shipped grade runs of one GPU (gpu:
 * "h100" or "h200"). */
static bool
grade_noise (const char *dir, const char *gpu)
{
  for (size_t i = 0; i < N_NOISE; i++)
    noise[i] = (Noise){ issue_noise[i].mode, 0, 0, 0 };
  for (int k = 1; k <= 2; k++) {
    char path[4096], why[512];
    snprintf (path, sizeof path, "%s/%s-grade-%d-samples.csv.gz", dir, gpu, k);
    MsResults *run = ms_run_read_samples (path, why, sizeof why);
    if (!run) {
      fprintf (stderr, "bench-turns: %s: %s\n", path, why);
      return false;
    }
    for (size_t i = 0; i < N_NOISE; i++) {
      MsMode m;
      double p, r;
      ms_mode_from_name (noise[i].mode, &m);
      run_components (run, m, &p, &r);
      noise[i].process = fmax (noise[i].process, p);
      noise[i].round = fmax (noise[i].round, r);
      noise[i].cell = noise[i].process; /* the cells are in the round's mean */
    }
    ms_results_free (run);
  }
  return true;
}

/* ---- the report ----------------------------------------------------- */

static void
report (const char *kind, double change, const bool *judged, const Sim *modes, Tally *y, int checks)
{
  gsl_sort (y->seconds, 1, (size_t) y->n);
  printf ("\n%s, the changed side %+.0f%%: %d checks\n", kind, 100 * (exp (change) - 1), checks);
  printf ("  %-17s %7s %7s %7s %9s\n", "mode", "SAME", "SLOWER", "FASTER", "other named");
  for (size_t i = 0; i < N_NOISE; i++) {
    if (judged && !judged[modes->mode_of[i]])
      continue;
    printf ("  %-17s %6.1f%% %6.1f%% %6.1f%% %8.1f%%\n", noise[i].mode,
            100.0 * y->same[i] / checks, 100.0 * y->slower[i] / checks,
            100.0 * y->faster[i] / checks, 100.0 * y->other[i] / checks);
  }
  printf ("  result: all SAME %.1f%%, changed side alone named %.1f%%, another named %.1f%%, "
          "undecided %.1f%%; modes named a check %.2f\n",
          100.0 * y->alike / checks, 100.0 * y->named_right / checks,
          100.0 * y->named_wrong / checks, 100.0 * y->undecided / checks,
          (double) y->modes_named / checks);
  printf ("  time: median %.0f s, 95th percentile %.0f s, longest %.0f s\n",
          y->seconds[y->n / 2], y->seconds[(int) (0.95 * (y->n - 1))], y->seconds[y->n - 1]);
}

static bool
parse (int argc, char **argv, Settings *s)
{
  /* A process's cost as the lent 4x H200 host showed it (2026-11-28,
   * docs/measurements/2026-11-28-h200x4-turns-first/plain-1.err): twelve
   * processes of every mode at seven sizes in 42 s, rounds of four
   * processes of one to three modes in 4-7 s. */
  *s = (Settings){ 1000, 20261128, MS_TURNS_SIBLINGS_BUDGET_S, MS_TURNS_LIVE_BUDGET_S, 1.2, 0.2,
                   4, 5 };
  for (int i = 1; i + 1 < argc; i += 2) {
    double v = strtod (argv[i + 1], NULL);
    if (strcmp (argv[i], "--checks") == 0)
      s->checks = (int) v;
    else if (strcmp (argv[i], "--seed") == 0)
      s->seed = (uint64_t) v;
    else if (strcmp (argv[i], "--budget") == 0)
      s->budget_s = v;
    else if (strcmp (argv[i], "--live-budget") == 0)
      s->live_budget_s = v;
    else if (strcmp (argv[i], "--start-s") == 0)
      s->start_s = v;
    else if (strcmp (argv[i], "--mode-s") == 0)
      s->mode_s = v;
    else if (strcmp (argv[i], "--grade-processes") == 0)
      s->grade_processes = (int) v;
    else if (strcmp (argv[i], "--grade-rounds") == 0)
      s->grade_rounds = (int) v;
    else if (strcmp (argv[i], "--rounds") == 0)
      rounds_a_process = (int) v;
    else
      return false;
  }
  return s->checks > 0 && s->grade_processes >= 2 && s->grade_processes <= MS_MAX_PROCESSES;
}

static void
print_model (const char *name)
{
  printf ("\n== noise model: %s\n  %-17s %8s %8s %8s %8s\n", name, "mode", "process", "cell",
          "round", "a value");
  for (size_t i = 0; i < N_NOISE; i++)
    printf ("  %-17s %7.1f%% %7.1f%% %7.1f%% %7.1f%%\n", noise[i].mode, 100 * noise[i].process,
            100 * noise[i].cell, 100 * noise[i].round,
            100 * sqrt (noise[i].process * noise[i].process +
                        cell_own ((int) i) * cell_own ((int) i) / CELLS +
                        noise[i].round * noise[i].round / rounds_a_process));
}

static void
run_model (const Settings *s, const char *name, double *seconds)
{
  static const double changes[] = { 0, 0.10, 0.15, 0.20 };
  static const char *const kinds[] = { "siblings, 4 GPUs (GPU 1 changed)",
                                       "compare --live (B changed)",
                                       "two grade runs, compared (B changed)" };
  Sim modes = { 0 };
  bool gpu[MS_MODE_COUNT] = { false }, every[MS_MODE_COUNT] = { false };
  for (size_t i = 0; i < N_NOISE; i++) {
    ms_mode_from_name (noise[i].mode, &modes.mode_of[i]);
    every[modes.mode_of[i]] = true;
    gpu[modes.mode_of[i]] = strcmp (noise[i].mode, "host") != 0;
  }
  print_model (name);
  for (int kind = 0; kind < 3; kind++)
    for (size_t c = 0; c < sizeof changes / sizeof changes[0]; c++) {
      Tally y = { .seconds = seconds };
      double change = log (1 + changes[c]);
      if (kind == 0)
        run_turns (s, 4, gpu, change, &y);
      else if (kind == 1)
        run_turns (s, 2, every, change, &y);
      else
        run_grade (s, change, &y);
      report (kinds[kind], change, kind == 0 ? gpu : NULL, &modes, &y, s->checks);
    }
}

int
main (int argc, char **argv)
{
  Settings s;
  if (!parse (argc, argv, &s)) {
    fputs ("usage: bench-turns [--checks N] [--seed S] [--budget S] [--start-s S] [--mode-s S] "
           "[--grade-processes P] [--rounds R]\n", stderr);
    return 2;
  }
  rng_state = s.seed;
  printf ("bench-turns: %d checks a case, seed %llu, budget %.0f s, a process %.2f s + %.2f s a "
          "mode, %d rounds a process; intervals at %.4f each look, %d looks at most; grade runs "
          "of %d processes of 9 rounds\n",
          s.checks, (unsigned long long) s.seed, s.budget_s, s.start_s, s.mode_s,
          rounds_a_process, 1 - 2 * MS_TURNS_LOOK_LEVEL, MS_TURNS_MAX_LOOKS,
          s.grade_processes);
  double *seconds = malloc (sizeof (double) * (size_t) s.checks);
  memcpy (noise, issue_noise, sizeof noise);
  run_model (&s, "the issue's (default sweeps: a cell's whole spread in each process)", seconds);
  static const char *const gpus[] = { "h100", "h200" };
  for (int g = 0; g < 2; g++) {
    char name[128];
    if (!grade_noise (MEMSWEEP_REFERENCE_DIR, gpus[g]))
      return 1;
    snprintf (name, sizeof name, "the shipped %s grade runs (%s-grade-1 and -2: the larger of each "
              "part)", gpus[g], gpus[g]);
    run_model (&s, name, seconds);
  }
  free (seconds);
  return 0;
}
