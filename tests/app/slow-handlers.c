/* SPDX-License-Identifier: GPL-3.0-or-later */
/* slow-handlers.c: an LD_PRELOAD interposer that widens one moment of a
 * program's start for the signals test (tests/app/test-signals.sh): the
 * first sigaction that gives signal MS_SLOW_SIGNAL a handler returns only
 * after MS_SLOW_MS milliseconds. Given a signal installed after the stop
 * signals' handlers (SIGALRM), it holds memsweep where SIGINT, SIGTERM
 * and SIGHUP show as caught, so a signal sent at once lands there: a
 * machine that is busy can stop a program at that moment too. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  static int (*real) (int, const struct sigaction *, struct sigaction *);
  static int slowed;
  if (!real)
    real = (int (*) (int, const struct sigaction *, struct sigaction *)) dlsym (RTLD_NEXT,
                                                                               "sigaction");
  int rc = real (sig, act, old);
  const char *which = getenv ("MS_SLOW_SIGNAL"), *ms = getenv ("MS_SLOW_MS");
  if (!slowed && act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN && which && ms &&
      atoi (which) == sig) {
    slowed = 1;
    long wait = atol (ms);
    struct timespec ts = { wait / 1000, (wait % 1000) * 1000000L };
    while (nanosleep (&ts, &ts) != 0)
      ;
  }
  return rc;
}
