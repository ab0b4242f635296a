/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-turns.h: verdicts of sides measured in turns, decided look by look
 * (ms-turns.c). The sides (the GPUs of `siblings`, A and B of `compare
 * --live`) run one process each in turn; each process gives every mode it
 * measured one value, the mean over the mode's cells from 2^14 of ln(its
 * figure). After each turn the rule looks: a side whose figure over the
 * others' is decided (SAME, FASTER or SLOWER) keeps that verdict, and a
 * mode whose sides are all decided is measured no more. Plain C, no
 * GLib. */
#pragma once

#include <stdbool.h>

#include "analysis/ms-compare.h"
#include "devices/ms-topo.h"

#define MS_TURNS_MAX_SIDES MS_MULTI_MAX_DEVICES
/* The looks the error is spread over: after the turns of
 * MS_TURNS_MIN_PROCESSES processes a side, then each time a side has a
 * fifth more (3 4 5 6 8 10 12 15 18 22 27), so that a check that needs
 * many processes spends few looks on them. One that has not decided by
 * the last ends undecided. */
#define MS_TURNS_MAX_LOOKS 11
/* Each side's processes before the first look: with fewer, the spread
 * between processes is a guess. */
#define MS_TURNS_MIN_PROCESSES 3
/* The error spent over all looks on each side of an interval: a change
 * at the threshold is called SAME (or one inside it SLOWER or FASTER) in
 * at most this share of checks. */
#define MS_TURNS_ALPHA 0.05
/* The one-sided level of each look's interval, Pocock's repeated test for
 * the looks of ms_turns_look_due: a statistic that is a normal random
 * walk's at 3, 4, ... 27 processes crosses the quantile of 1 - 0.0085,
 * 2.39, at one of them in 4.1% of 400,000 draws, which leaves the rest
 * of MS_TURNS_ALPHA to a spread estimated from few processes (Student's
 * t at the same level is wider, not by as much as the looks need:
 * bench-turns measures the whole). Bonferroni's 0.05 / 11 a look would
 * spend 3.3% for a quantile of 2.61. test-siblings draws it again. */
#define MS_TURNS_LOOK_LEVEL 0.0085

typedef struct {
  MsVerdict verdict; /* the side's figure over its siblings' mean */
  double ratio, lo, hi;
  int look;       /* the look that decided it; 0 while open */
  double seconds; /* when it was decided */
} MsTurnVerdict;

typedef struct {
  int n_sides;
  double threshold; /* 0.1: 10% */
  int looks;        /* looks taken */
  double seconds;   /* when the last look was taken */
  bool used[MS_MODE_COUNT];
  int n[MS_MODE_COUNT][MS_TURNS_MAX_SIDES];
  double x[MS_MODE_COUNT][MS_TURNS_MAX_SIDES][MS_MAX_PROCESSES];
  /* Whether the process went first in its turn: the first is slower on
   * the lent hosts, whatever its GPU (PITFALLS 41), and is fitted out. */
  bool first[MS_MODE_COUNT][MS_TURNS_MAX_SIDES][MS_MAX_PROCESSES];
  MsTurnVerdict v[MS_MODE_COUNT][MS_TURNS_MAX_SIDES];
  double sd[MS_MODE_COUNT];    /* spread between processes, ln */
  double order[MS_MODE_COUNT]; /* the first process's excess, ln */
  int df[MS_MODE_COUNT];
} MsTurns;

void ms_turns_init (MsTurns *t, int n_sides, double threshold);
/* Process value (mean of ln figure over the mode's pooled cells) of side
 * in mode; ignored where not finite or the side has MS_MAX_PROCESSES. */
void ms_turns_add (MsTurns *t, MsMode mode, int side, double value, bool first);
/* Decides what the values added so far can decide, spending one look's
 * share of the error; seconds: the time since the check began. */
void ms_turns_look (MsTurns *t, double seconds);
/* Whether mode still needs measuring: used, a side open, looks left, and
 * (of three sides or more) no side decided different yet. */
bool ms_turns_mode_open (const MsTurns *t, MsMode mode);
/* Whether a look is due once each side has run processes processes. */
bool ms_turns_look_due (int processes);
/* The interval's quantile at a look with df degrees of freedom: Student's
 * t at one minus MS_TURNS_LOOK_LEVEL, so that the error spent over all
 * the looks is ALPHA. */
double ms_turns_quantile (int df);

/* Each process's value of a mode of a compare-grade run, into out
 * (MS_MAX_PROCESSES; NAN where the process did not measure it): the mean
 * over the mode's cells from 2^14 of ln(the process's figure). Returns
 * the run's processes. */
int ms_turns_process_values (const MsResults *run, MsMode mode, MsFigure figure, double *out);

/* The verdicts of two sides' turns (B over A) as the pooled verdicts of
 * their comparison, mode by mode: what compare --live decided on is what
 * it says. */
void ms_turns_apply (const MsTurns *t, MsComparison *cmp);

/* The turns themselves (ms-turn-loop.c): round r runs one process of
 * every side, side (r + i) mod n as the i-th, so that each side goes
 * first as often as the others over whole cycles, and a drift of the
 * machine meets every side alike. The first rounds measure the modes
 * modes[] names; from the first look on, those still open, and while one
 * is, those widen adds. A look follows the rounds ms_turns_look_due names; the turns
 * end when no mode is left to measure, or when another round, as long as
 * the last one, would end after budget_s. */
typedef struct {
  /* Runs side's process of round r, of the modes open[] says only, and
   * adds its values (ms_turns_add); false ends the turns (a stop, a lost
   * process). */
  bool (*measure) (void *user, int side, int round, bool first, const bool *open, MsTurns *t);
  /* Seconds since any fixed moment. */
  double (*clock) (void *user);
  /* NULL, or adds to open[] what the caller measures beyond the verdicts
   * (compare --live: the cells still undecided). */
  void (*widen) (void *user, const MsTurns *t, bool *open);
  void *user;
} MsTurnOps;

typedef struct {
  int rounds;       /* rounds run, the last one whole or not */
  bool stopped;     /* measure said to end */
  bool out_of_time; /* the budget ended them with modes open */
} MsTurnsEnd;

MsTurnsEnd ms_turns_take (MsTurns *t, const bool *modes, double budget_s, int max_rounds,
                          const MsTurnOps *ops);

/* The budgets the commands take by default, in seconds: what a sibling
 * check of four GPUs is to decide within (its whole process, the GPUs'
 * start and the output included, in 90), and the most a live comparison
 * measures, which stops as soon as its modes are decided (bench-turns
 * prints how often and how soon they are). */
#define MS_TURNS_SIBLINGS_BUDGET_S 85
#define MS_TURNS_LIVE_BUDGET_S 120
