/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The limits a command needs to reach its work.
 *
 * The stack: a shell's `ulimit -s 128` left a run's option checks too
 * little (they reach about 200 KiB deep), and memsweep died of SIGSEGV on
 * its way to measuring. The main thread's stack grows up to the soft limit
 * read at each fault, so raising it now is enough for the main thread;
 * the threads take their default size from the limit at start, so theirs
 * is raised too. */
/* pthread_setattr_default_np: the threads' stack. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "ms-cli-common.h"
#include "ms-i18n.h"

/* Twice the deepest command measured under a small limit (256 KiB was
 * enough for every one); what a default limit gives where allowed. */
#define MS_CLI_STACK_NEEDED ((rlim_t) 512 << 10)
#define MS_CLI_STACK_WANTED ((rlim_t) 8 << 20)

static void
raise_thread_default (rlim_t size)
{
  pthread_attr_t attr;
  size_t now;
  if (pthread_getattr_default_np (&attr) != 0)
    return;
  if (pthread_attr_getstacksize (&attr, &now) == 0 && now < size &&
      pthread_attr_setstacksize (&attr, size) == 0)
    pthread_setattr_default_np (&attr);
  pthread_attr_destroy (&attr);
}

static bool
stack_ready (char *err, size_t errlen)
{
  struct rlimit lim;
  if (getrlimit (RLIMIT_STACK, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY ||
      lim.rlim_cur >= MS_CLI_STACK_NEEDED)
    return true;
  rlim_t want = MS_CLI_STACK_WANTED;
  if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < want)
    want = lim.rlim_max;
  if (want < MS_CLI_STACK_NEEDED) {
    snprintf (err, errlen,
              ms_gettext ("a stack limit of %lu KiB (ulimit -s) is too small: memsweep needs %lu "
                          "KiB; nothing was started"),
              (unsigned long) (lim.rlim_max >> 10), (unsigned long) (MS_CLI_STACK_NEEDED >> 10));
    return false;
  }
  lim.rlim_cur = want;
  if (setrlimit (RLIMIT_STACK, &lim) != 0) {
    snprintf (err, errlen, ms_gettext ("the stack limit (ulimit -s) could not be raised: %s"),
              strerror (errno));
    return false;
  }
  raise_thread_default (want);
  return true;
}

/* Drawing: Pango and fontconfig abort the process (a GLib error, or
 * SIGSEGV) when they cannot map their fonts or start their threads, which
 * under `ulimit -v 100000` they could not. About twice what a report of
 * the 25 shipped H100 runs took (VmPeak 253 MiB) is asked for; a limit is
 * the user's, so it is not raised. */
#define MS_CLI_DRAW_ADDRESS_SPACE ((rlim_t) 512 << 20)

static bool
draws (int argc, char **argv)
{
  return argc > 1 && (strcmp (argv[1], "plot") == 0 || strcmp (argv[1], "report") == 0);
}

static bool
address_space_ready (int argc, char **argv, char *err, size_t errlen)
{
  struct rlimit lim;
  if (!draws (argc, argv) || getrlimit (RLIMIT_AS, &lim) != 0 ||
      lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur >= MS_CLI_DRAW_ADDRESS_SPACE)
    return true;
  snprintf (err, errlen,
            ms_gettext ("an address-space limit of %lu MiB (ulimit -v) is too small to draw: "
                        "it needs %lu MiB; nothing was started"),
            (unsigned long) (lim.rlim_cur >> 20),
            (unsigned long) (MS_CLI_DRAW_ADDRESS_SPACE >> 20));
  return false;
}

/* Fontconfig and Pango open their configuration, caches and fonts as they
 * draw; under `ulimit -n 8` they warned and drew nothing, and plot said
 * it had succeeded. The files a command reads are held open beside them
 * (one an operand). */
#define MS_CLI_DRAW_FILES 64

static bool
descriptors_ready (int argc, char **argv, char *err, size_t errlen)
{
  struct rlimit lim;
  rlim_t need = MS_CLI_DRAW_FILES + (rlim_t) argc;
  if (!draws (argc, argv) || getrlimit (RLIMIT_NOFILE, &lim) != 0 ||
      lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur >= need)
    return true;
  /* The soft limit may be raised as far as the hard one. */
  if (lim.rlim_max == RLIM_INFINITY || lim.rlim_max >= need) {
    lim.rlim_cur = need;
    if (setrlimit (RLIMIT_NOFILE, &lim) == 0)
      return true;
  }
  snprintf (err, errlen,
            ms_gettext ("a limit of %lu open files (ulimit -n) is too small to draw: it needs "
                        "%lu; nothing was started"),
            (unsigned long) lim.rlim_cur, (unsigned long) need);
  return false;
}

/* CPU time: a shell's `ulimit -t N` sets the soft and the hard limit
 * alike, and at the hard one the kernel sends SIGKILL, at the same tick
 * as the SIGXCPU that would have stopped the sweep and written what it
 * measured: a run died with nothing written. The soft limit is set a
 * tenth earlier (1 to 10 s), which leaves that long to write. */
static void
cpu_time_ready (void)
{
  struct rlimit lim;
  if (getrlimit (RLIMIT_CPU, &lim) != 0 || lim.rlim_max == RLIM_INFINITY ||
      lim.rlim_cur < lim.rlim_max)
    return;
  rlim_t margin = lim.rlim_max / 10;
  margin = margin < 1 ? 1 : margin > 10 ? 10 : margin;
  if (lim.rlim_max <= margin)
    return;
  lim.rlim_cur = lim.rlim_max - margin;
  setrlimit (RLIMIT_CPU, &lim);
}

bool
ms_cli_limits_ready (int argc, char **argv, char *err, size_t errlen)
{
  cpu_time_ready ();
  return stack_ready (err, errlen) && address_space_ready (argc, argv, err, errlen) &&
         descriptors_ready (argc, argv, err, errlen);
}
