/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The signals that stop memsweep's work, listed once: every signal whose
 * default ends a process and that only a sender means. Ctrl+C, kill and
 * Slurm's scancel (SIGTERM), a closed terminal (SIGHUP), Ctrl+\ (SIGQUIT,
 * whose core dump would throw away what was measured), a CPU-time limit
 * (SIGXCPU), Slurm's warning before a time limit (SIGUSR1 by default),
 * SIGUSR2, SIGALRM, a UPS daemon's power failure (SIGPWR), the two
 * timers' SIGPROF and SIGVTALRM, SIGIO, SIGSTKFLT and the real-time
 * signals. Faults (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGTRAP,
 * SIGABRT) are not stops. The supervisor stops on them
 * (run/ms-supervisor.c), the atomic writer removes its temporaries on them
 * (io/ms-atomic-file.c). */
#pragma once

#include <signal.h>

/* In this order, then SIGRTMIN..SIGRTMAX: SIGINT, SIGTERM and SIGHUP
 * are caught before SIGALRM (the signals test holds memsweep at
 * SIGALRM's handler, where those three must already be caught), and a
 * child is told to stop with the first its parent does not ignore. */
static const int ms_named_stop_signals[] = { SIGINT,  SIGTERM, SIGHUP, SIGQUIT,   SIGXCPU,
                                             SIGUSR1, SIGUSR2, SIGALRM, SIGPWR,   SIGPROF,
                                             SIGVTALRM, SIGIO, SIGSTKFLT };
#define MS_N_NAMED_STOP_SIGNALS (int) (sizeof ms_named_stop_signals / sizeof *ms_named_stop_signals)

/* The k-th stop signal from 0, or 0 past the last. */
static inline int
ms_stop_signal_nth (int k)
{
  if (k < 0)
    return 0;
  if (k < MS_N_NAMED_STOP_SIGNALS)
    return ms_named_stop_signals[k];
  k -= MS_N_NAMED_STOP_SIGNALS;
  return SIGRTMIN + k <= SIGRTMAX ? SIGRTMIN + k : 0;
}
