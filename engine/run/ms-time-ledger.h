/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-time-ledger.h: where a sweep's wall-clock time goes, by what the
 * runner was doing (ms-time-ledger.c). With MEMSWEEP_TIME_LEDGER set, a
 * sweep prints the ledger on standard error when it ends: the default
 * sweep records about 0.6 s of repetitions in a process of about 2 s, and
 * the rest is found by adding up each step's wall time, not by guessing.
 * Off (the default) each entry costs one branch.
 *
 * Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

typedef enum {
  MS_LEDGER_QUERY,      /* the device's properties */
  MS_LEDGER_QUERY_NVML, /* of which: NVML's part */
  MS_LEDGER_PREPARE,    /* pinning, NVML, the warm-up to a steady clock */
  MS_LEDGER_LINK_COUNT, /* the link's error counters, before and after */
  MS_LEDGER_BEFORE,     /* each cell's GPU state before it, and its spin */
  MS_LEDGER_CELL,       /* the backend's run of a cell, whole */
  MS_LEDGER_RECORDED,   /* of which: the repetitions' end-to-end times */
  MS_LEDGER_INSTRUMENTED, /* of which: the instrumented repetitions' */
  MS_LEDGER_ONE_TIME,   /* of which: allocation, initialisation, verification, free */
  MS_LEDGER_ALLOC_OP,   /* of which: the backend's allocation step, whole */
  MS_LEDGER_WARMUPS,    /* of which: warm-up repetitions, whole */
  MS_LEDGER_KEPT_REPS,  /* of which: kept repetitions, whole (plain and timed) */
  MS_LEDGER_PLAIN_STEP, /* of which: the backend's plain repetitions, whole */
  MS_LEDGER_PLAIN_INIT, /* of which: their input writes and output poisoning */
  MS_LEDGER_PLAIN_VERIFY, /* of which: their verification on the host */
  MS_LEDGER_AFTER_REPS, /* of which: the step after the repetitions (copy bursts) */
  MS_LEDGER_READ_LINK,  /* of which: the link's reading after a cell */
  MS_LEDGER_RELEASE_OP, /* of which: the backend's release step, whole */
  MS_LEDGER_AFTER,      /* each cell's GPU state after it */
  MS_LEDGER_STATS,      /* a cell's statistics */
  MS_LEDGER_MERGE,      /* merging a round into the results */
  MS_LEDGER_PROGRESS,   /* the caller's progress callback */
  MS_LEDGER_COUNT
} MsLedgerEntry;

/* Whether the ledger is kept (MEMSWEEP_TIME_LEDGER set), read once. */
bool ms_ledger_on (void);
/* Seconds on the monotonic clock, or 0 when the ledger is off. */
double ms_ledger_now (void);
/* Adds the time since t0 (from ms_ledger_now) to entry. */
void ms_ledger_since (MsLedgerEntry entry, double t0);
/* Adds seconds to entry. */
void ms_ledger_add (MsLedgerEntry entry, double seconds);
/* One cell's line, printed at once when MEMSWEEP_TIME_LEDGER is "cells":
 * its wall time (ms_ledger_cell_wall, just before) beside what its timers
 * account for. */
void ms_ledger_cell_wall (double seconds);
void ms_ledger_cell (const char *mode, int exponent, int reps, const char *stop, double e2e,
                     double instrumented, double one_time);
/* The entries, one line each, and the wall time since the first entry. */
void ms_ledger_print (FILE *out);
