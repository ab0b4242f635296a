/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-time-ledger.c: where a sweep's wall-clock time goes (what and why:
 * ms-time-ledger.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ms-clock.h"
#include "ms-time-ledger.h"

static const char *const entry_names[MS_LEDGER_COUNT] = {
  "query device", "  of which NVML's part", "prepare (pin, NVML, warm-up)", "link error counters",
  "GPU state before cells", "cells (backend run)", "  of which recorded e2e reps",
  "  of which instrumented reps", "  of which alloc/init/verify/free",
  "  of which alloc step, whole", "  of which warm-up reps, whole", "  of which kept reps, whole",
  "  of which plain rep steps", "    of which init (plain)", "    of which verify (plain)",
  "  of which after-reps step", "  of which link reading", "  of which release step, whole",
  "GPU state after cells", "cell statistics", "merge rounds", "progress callback",
};

/* Microseconds, atomically: the sweeps of several GPUs run at once. */
static atomic_llong spent_us[MS_LEDGER_COUNT];
static atomic_llong first_us;

/* Seconds since this process was exec'd: its start in the kernel's clock
 * ticks since boot (/proc/self/stat, field 22) against the boot clock, to
 * the tick (10 ms); < 0 where that cannot be read. The ledger's entries
 * start at the sweep's first step, and a process spends time before it
 * (the loader, option parsing, the output plan) and after (writing). */
static double
since_exec_s (void)
{
  FILE *f = fopen ("/proc/self/stat", "r");
  char buf[1024];
  size_t len = f ? fread (buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose (f);
  buf[len] = '\0';
  /* Past the command's name, which may hold blanks and parentheses. */
  char *p = strrchr (buf, ')');
  unsigned long long start = 0;
  long hz = sysconf (_SC_CLK_TCK);
  struct timespec now;
  if (!p || hz <= 0 || clock_gettime (CLOCK_BOOTTIME, &now) != 0 ||
      sscanf (p + 2, "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                     "%*s %llu", &start) != 1)
    return -1;
  return now.tv_sec + now.tv_nsec * 1e-9 - (double) start / hz;
}

/* The whole process, exec to exit, and the part after the sweep's end. */
static double sweep_end_s;

static void
print_at_exit (void)
{
  double whole = since_exec_s ();
  if (whole >= 0)
    fprintf (stderr, "time ledger: whole process %.3f s from exec to exit (before the CUDA "
                     "runtime's own teardown), %.3f s of it after the sweep's end\n",
             whole, ms_now_s () - sweep_end_s);
}

/* Read once under a lock: the first call may come from several GPUs'
 * threads at once. A lock rather than pthread_once, whose lock-free fast
 * path a thread checker reports as a race; a few calls per cell. */
static pthread_mutex_t ledger_lock = PTHREAD_MUTEX_INITIALIZER;
static int ledger_on = -1;

bool
ms_ledger_on (void)
{
  pthread_mutex_lock (&ledger_lock);
  if (ledger_on < 0)
    ledger_on = getenv ("MEMSWEEP_TIME_LEDGER") != NULL;
  bool on = ledger_on;
  pthread_mutex_unlock (&ledger_lock);
  return on;
}

double
ms_ledger_now (void)
{
  if (!ms_ledger_on ())
    return 0;
  double t = ms_now_s ();
  long long expected = 0;
  atomic_compare_exchange_strong (&first_us, &expected, (long long) (t * 1e6));
  return t;
}

void
ms_ledger_add (MsLedgerEntry entry, double seconds)
{
  if (ms_ledger_on () && (unsigned) entry < MS_LEDGER_COUNT)
    atomic_fetch_add (&spent_us[entry], (long long) (seconds * 1e6));
}

void
ms_ledger_since (MsLedgerEntry entry, double t0)
{
  if (ms_ledger_on ())
    ms_ledger_add (entry, ms_now_s () - t0);
}

void
ms_ledger_print (FILE *out)
{
  if (!ms_ledger_on ())
    return;
  double wall = ms_now_s () - atomic_load (&first_us) * 1e-6;
  double whole = since_exec_s ();
  fprintf (out, "time ledger: %.3f s since the sweep's first step\n", wall);
  if (whole >= 0)
    fprintf (out, "time ledger: %.3f s since exec, %.3f s of it before the sweep's first step\n",
             whole, whole - wall);
  pthread_mutex_lock (&ledger_lock);
  if (sweep_end_s == 0)
    atexit (print_at_exit);
  sweep_end_s = ms_now_s ();
  pthread_mutex_unlock (&ledger_lock);
  for (int i = 0; i < MS_LEDGER_COUNT; i++)
    fprintf (out, "time ledger: %-30s %8.3f s\n", entry_names[i],
             atomic_load (&spent_us[i]) * 1e-6);
}

static _Thread_local double cell_wall;

void
ms_ledger_cell_wall (double seconds)
{
  cell_wall = seconds;
}

void
ms_ledger_cell (const char *mode, int exponent, int reps, const char *stop, double e2e,
                double instrumented, double one_time)
{
  const char *v = getenv ("MEMSWEEP_TIME_LEDGER");
  if (!v || strcmp (v, "cells") != 0)
    return;
  fprintf (stderr, "ledger cell: %s %d reps %d stop %s wall %.3f ms e2e %.3f instr %.3f once %.3f\n",
           mode, exponent, reps, stop, cell_wall * 1e3, e2e * 1e3, instrumented * 1e3,
           one_time * 1e3);
}
