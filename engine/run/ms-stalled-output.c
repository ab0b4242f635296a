/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-stalled-output.c: a stalled standard output or error given up after
 * a stop (ms-stalled-output.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ms-clock.h"
#include "ms-stalled-output.h"

static sem_t stopped;
static int flags_at_start[3] = { -1, -1, -1 };
static volatile sig_atomic_t given_up[3];

/* A pipe, a FIFO or a socket: what a reader can leave full. */
static bool
can_stall (int fd)
{
  struct stat st;
  return fstat (fd, &st) == 0 && (S_ISFIFO (st.st_mode) || S_ISSOCK (st.st_mode));
}

static bool
has_room (int fd)
{
  struct pollfd p = { .fd = fd, .events = POLLOUT };
  return poll (&p, 1, 0) == 1 && (p.revents & (POLLOUT | POLLERR | POLLHUP));
}

void
ms_stalled_output_say (int fd, const char *text, unsigned long len)
{
  /* A pipe with room takes a message shorter than a page whole. */
  if (len > 0 && (!can_stall (fd) || has_room (fd)))
    (void)!write (fd, text, len);
}

void
ms_stalled_output_restore (void)
{
  for (int fd = 1; fd <= 2; fd++)
    if (flags_at_start[fd] >= 0 && given_up[fd])
      fcntl (fd, F_SETFL, flags_at_start[fd]);
}

bool
ms_stalled_output_given_up (int fd)
{
  return fd >= 1 && fd <= 2 && given_up[fd];
}

static void
on_wake (int sig)
{
  (void)sig;
}

/* The descriptor through which thread tid waits in a write to fd's pipe
 * (fd itself, or a copy: calibrate --out - writes through one), from
 * /proc; -1 where it does not. */
static int
writes_to (const char *tid, int fd)
{
  char path[64], line[256];
  long nr;
  unsigned long arg;
  struct stat mine, its;
  snprintf (path, sizeof path, "/proc/self/task/%s/syscall", tid);
  FILE *f = fopen (path, "re");
  bool writing = f && fgets (line, sizeof line, f) && sscanf (line, "%ld %lx", &nr, &arg) == 2
                 && (nr == SYS_write || nr == SYS_writev) && arg < 1024;
  if (f)
    fclose (f);
  if (!writing || fstat (fd, &mine) != 0 || fstat ((int)arg, &its) != 0)
    return -1;
  return mine.st_dev == its.st_dev && mine.st_ino == its.st_ino ? (int)arg : -1;
}

/* fd made non-blocking, and each thread waiting in a write to its pipe
 * woken: the write, restarted, fails at once. */
static void
give_up (int fd)
{
  given_up[fd] = 1;
  fcntl (fd, F_SETFL, flags_at_start[fd] | O_NONBLOCK);
  DIR *d = opendir ("/proc/self/task");
  for (struct dirent *e; d && (e = readdir (d));) {
    int through = e->d_name[0] != '.' ? writes_to (e->d_name, fd) : -1;
    if (through < 0)
      continue;
    /* A copy opened anew has flags of its own (a dup shares fd's). */
    if (through != fd)
      fcntl (through, F_SETFL, fcntl (through, F_GETFL) | O_NONBLOCK);
    syscall (SYS_tgkill, getpid (), atoi (e->d_name), SIGURG);
  }
  if (d)
    closedir (d);
}

static void *
watch (void *data)
{
  (void)data;
  while (sem_wait (&stopped) != 0)
    ;
  double full_since[3] = { 0, 0, 0 };
  for (;;) {
    for (int fd = 1; fd <= 2; fd++) {
      if (given_up[fd] || flags_at_start[fd] < 0)
        continue;
      if (has_room (fd))
        full_since[fd] = 0;
      else if (full_since[fd] == 0)
        full_since[fd] = ms_now_s ();
      else if (ms_now_s () - full_since[fd] >= MS_STALLED_OUTPUT_S)
        give_up (fd);
    }
    usleep (100 * 1000);
  }
  return NULL;
}

bool
ms_stalled_output_watch (void)
{
  static bool started;
  if (started)
    return true;
  for (int fd = 1; fd <= 2; fd++)
    flags_at_start[fd] = can_stall (fd) ? fcntl (fd, F_GETFL) : -1;
  if (flags_at_start[1] < 0 && flags_at_start[2] < 0)
    return true; /* files and terminals: nothing to watch */
  struct sigaction sa = { 0 };
  sa.sa_handler = on_wake;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGURG, &sa, NULL);
  sem_init (&stopped, 0, 0);
  /* The watcher takes no stop signal: they stay the other threads'. */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize (&attr, 64 * 1024);
  started = pthread_create (&thread, &attr, watch, NULL) == 0;
  pthread_attr_destroy (&attr);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (started)
    atexit (ms_stalled_output_restore);
  return started;
}

void
ms_stalled_output_stop_requested (void)
{
  if (flags_at_start[1] >= 0 || flags_at_start[2] >= 0)
    sem_post (&stopped);
}
