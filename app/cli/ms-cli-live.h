/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-live.h: `memsweep compare --live` (ms-cli-live.c): two sides
 * measured by processes that take turns, until every cell is decided or
 * the time is spent. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>

#include "ms-engine.h"

/* The least processes a side is measured by: three is the fewest whose
 * scatter says anything of the spread between processes (ms-grade.h).
 * The most is as many as MS_MAX_ROUNDS rounds hold. */
#define MS_CLI_LIVE_MIN_PROCESSES 3
/* The most rounds a side's process may have: room in MS_MAX_ROUNDS for
 * the 4 processes a compare-grade run starts with (run --grade). */
#define MS_CLI_LIVE_MAX_ROUNDS (MS_MAX_ROUNDS / 4)
/* The default budget in seconds (ms-turns.h). */
#define MS_CLI_LIVE_DEFAULT_BUDGET MS_TURNS_LIVE_BUDGET_S

typedef struct {
  /* Each side's run options, one string split at spaces ("" or NULL: the
   * default sweep); both are compare-grade rounds (run --grade). */
  const char *options[2];
  /* Each side's experiment switch (MEMSWEEP_EXPERIMENT), or NULL. */
  const char *experiment[2];
  double budget_s;
  const char *prefix; /* --out: PREFIX-a-* and PREFIX-b-*, or NULL */
  /* How the verdicts that stop it are judged. */
  double threshold;
  MsMode mode;
  MsFigure figure;
  /* The turns' verdicts per mode, filled by ms_cli_live_measure: what the
   * comparison then says of each mode (ms_turns_apply). */
  MsTurns *turns;
} MsCliLive;

/* Checks both sides' options and the output files, then measures A and
 * B in turns (engine/analysis/ms-turns.h: A B, B A, ...: a drift over the
 * minutes meets both sides alike); at each look the modes are judged by
 * the sequential rule, and the next pair measures only the modes still
 * open, or with a cell still AMBIGUOUS. Stops when nothing is open, when
 * the next pair would overrun the budget, or when another process would
 * take a side past MS_MAX_ROUNDS rounds. *a and *b get the merged runs (written to
 * --out when given). -1 on success, else the exit status after a
 * message; nothing is measured when the options or files are refused.
 * Stopped (a signal, a process ended from outside, a process that could
 * not write), it keeps what both sides finished: -1 with *status set to
 * the exit status that stands for (EXIT_RUNTIME, EXIT_WRITE). */
int ms_cli_live_measure (const MsCliLive *live, atomic_int *cancel, MsResults **a,
                         MsResults **b, int *status);
/* A live comparison without --out whose output (--plot, an export,
 * standard output) could not be written: what both sides measured is
 * kept as live-a-* and live-b-* pairs in a new folder near near
 * (ms_output_plan_keep_folder), and said; false, said too, when it could
 * not be kept anywhere. A side that measured nothing (NULL) is passed
 * over. */
bool ms_cli_live_keep (MsResults *a, MsResults *b, const char *near);
