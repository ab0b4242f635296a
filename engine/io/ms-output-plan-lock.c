/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-output-plan-lock.c: each planned file held for its command until it
 * ends (ms-output-plan-lock.h). */
#define _GNU_SOURCE
#include "ms-output-plan-lock.h"
#include "ms-atomic-file.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first bytes of every lock file: a file at the name without them is
 * the user's, and is never taken over. */
#define LOCK_MAGIC "memsweep-lock "
/* Tries at a lock file that its holder removed between our open and our
 * lock (each such removal is a command that ended). */
#define LOCK_TRIES 8

typedef struct {
  char *path;
  int fd;
  int slot;  /* among the temporaries removed when a signal ends us */
  pid_t pid; /* the process that took it: a forked child removes nothing */
} Lock;

static Lock *locks;
static int n_locks;
static bool started_by_memsweep;

void
ms_output_lock_start (void)
{
  char pid[32];
  const char *parent = getenv (MS_OUTPUT_LOCK_ENV);
  started_by_memsweep = parent && strtol (parent, NULL, 10) == (long) getppid ();
  snprintf (pid, sizeof pid, "%ld", (long) getpid ());
  setenv (MS_OUTPUT_LOCK_ENV, pid, 1);
}

static bool
lock_name (const char *target, char *out, size_t len)
{
  return snprintf (out, len, "%.*s%s", (int) ms_gzip_stem_len (target), target,
                   MS_OUTPUT_LOCK_SUFFIX) < (int) len;
}

bool
ms_output_lock_is_name (const char *path)
{
  size_t n = strlen (path), k = strlen (MS_OUTPUT_LOCK_SUFFIX);
  return n > k && strcmp (path + n - k, MS_OUTPUT_LOCK_SUFFIX) == 0;
}

/* Whether path still names the file open at fd. */
static bool
named_by (const char *path, int fd)
{
  struct stat named, ours;
  return stat (path, &named) == 0 && fstat (fd, &ours) == 0 && named.st_dev == ours.st_dev &&
         named.st_ino == ours.st_ino;
}

static void
this_host (char *host, size_t len)
{
  if (gethostname (host, len) != 0)
    host[0] = '\0';
  host[len - 1] = '\0';
}

/* The holder a lock file names: its PID (0 when it names none yet, as
 * while its holder writes it) and host. */
static long
holder (int fd, char *host, size_t len)
{
  char buf[320];
  long pid = 0;
  ssize_t n = pread (fd, buf, sizeof buf - 1, 0);
  buf[n > 0 ? n : 0] = '\0';
  host[0] = '\0';
  size_t k = strlen (LOCK_MAGIC);
  if (strncmp (buf, LOCK_MAGIC, k) != 0)
    return 0;
  char *end;
  pid = strtol (buf + k, &end, 10);
  if (end == buf + k || *end != ' ')
    return pid > 0 ? pid : 0;
  snprintf (host, len, "%.*s", (int) strcspn (end + 1, "\n"), end + 1);
  return pid > 0 ? pid : 0;
}

/* Held by another process: by this one already (X.csv and X.csv.gz are
 * one lock), or for it by the memsweep that started it (fleet-node's
 * run writes the files fleet-node planned), both on this host. */
static bool
held_for_us (long pid, const char *host)
{
  char here[256];
  this_host (here, sizeof here);
  return (pid == (long) getpid () || pid == (long) getppid ()) && strcmp (host, here) == 0;
}

static bool
busy (int fd, const char *given_by, const char *name, const char *path, char *err, size_t errlen)
{
  char host[256];
  long pid = holder (fd, host, sizeof host);
  if (pid > 0 && held_for_us (pid, host))
    return true;
  if (pid > 0)
    snprintf (err, errlen,
              ms_gettext ("%s %s: another memsweep (process %ld on %s) is writing it now "
                          "(it holds %s): nothing done; wait for it to end, or choose another "
                          "name"),
              given_by, name, pid, host[0] ? host : "?", path);
  else
    snprintf (err, errlen,
              ms_gettext ("%s %s: another memsweep is writing it now (it holds %s): nothing "
                          "done; wait for it to end, or choose another name"),
              given_by, name, path);
  errno = EBUSY;
  return false;
}

/* Ours now: it says so, for the next command that finds it held; where
 * even those bytes cannot be written (ulimit -f 0, a full disk) it holds
 * all the same, its holder unnamed, and the command's own writes say
 * what fails. */
static bool
keep (int fd, const char *path)
{
  char host[256], line[320];
  this_host (host, sizeof host);
  int n = snprintf (line, sizeof line, LOCK_MAGIC "%ld %s\n", (long) getpid (), host);
  Lock *bigger = realloc (locks, (size_t) (n_locks + 1) * sizeof *locks);
  char *copy = strdup (path);
  if (!bigger || !copy) {
    locks = bigger ? bigger : locks;
    free (copy);
    return false;
  }
  if (ftruncate (fd, 0) != 0 || pwrite (fd, line, (size_t) n, 0) != n)
    (void) ftruncate (fd, 0);
  locks = bigger;
  locks[n_locks++] = (Lock){ copy, fd, ms_atomic_file_note_temporary (path), getpid () };
  return true;
}

/* Our flock failed: held by another (refused, unless held for us), or no
 * locks on this file system (an NFS mount without a lock manager), where
 * the file is written unlocked, as every file was before; 1 or -1 as
 * try_lock. */
static int
not_locked (int fd, bool empty, const char *given_by, const char *name, const char *path,
            char *err, size_t errlen)
{
  int e = errno;
  bool ok = e == EWOULDBLOCK && busy (fd, given_by, name, path, err, errlen);
  close (fd);
  if (e == EWOULDBLOCK)
    return ok ? 1 : -1;
  if (e == ENOLCK || e == EOPNOTSUPP || e == ENOSYS || e == EINVAL) {
    /* Nobody can hold it there: not left behind. */
    if (empty)
      unlink (path);
    return 1;
  }
  snprintf (err, errlen, "%s %s: %s: %s", given_by, name, path, strerror (e));
  return -1;
}

/* One try: 1 held (or held for us), 0 a lock file its holder removed
 * meanwhile (try again), -1 refused (err says why). */
static int
try_lock (const char *given_by, const char *name, const char *path, char *err, size_t errlen)
{
  struct stat st;
  int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0644);
  /* A file there that may not be written (immutable, another user's) is
   * held all the same, or refused as not memsweep's, below: flock needs
   * no write, and passing over it would write unlocked. */
  if (fd < 0 && (errno == EPERM || errno == EACCES || errno == EROFS))
    fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
  /* No lock file can be made (no descriptor, a read-only folder, another
   * user's lock): the plan's own checks and the writes say what fails,
   * as they did before any lock; a symbolic link or a folder at the name
   * is refused below. */
  if (fd < 0 && errno != ELOOP && errno != EISDIR)
    return 1;
  if (fd < 0 || fstat (fd, &st) != 0) {
    if (fd >= 0)
      close (fd);
    fd = -1;
    memset (&st, 0, sizeof st);
  }
  /* Bytes other than the mark's (a holder may be writing it now): the
   * user's file. */
  char head[sizeof LOCK_MAGIC];
  ssize_t n = fd >= 0 ? pread (fd, head, sizeof head - 1, 0) : 0;
  if (!S_ISREG (st.st_mode) || (n > 0 && memcmp (head, LOCK_MAGIC, (size_t) n) != 0)) {
    if (fd >= 0)
      close (fd);
    snprintf (err, errlen,
              ms_gettext ("%s %s: %s, where memsweep holds the file while it writes it, is not "
                          "memsweep's: not replaced; move it away, or choose another name"),
              given_by, name, path);
    errno = EEXIST;
    return -1;
  }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    return not_locked (fd, st.st_size == 0, given_by, name, path, err, errlen);
  /* Its holder may have removed it between our open and our lock: a lock
   * of a file no name leads to holds nothing. */
  if (!named_by (path, fd)) {
    close (fd);
    return 0;
  }
  static bool at_exit;
  if (!at_exit)
    at_exit = atexit (ms_output_lock_release_all) == 0;
  if (keep (fd, path))
    return 1;
  snprintf (err, errlen, "%s %s: %s: %s", given_by, name, path, strerror (errno));
  unlink (path);
  close (fd);
  return -1;
}

/* Whether a lock's descriptor can be spared: each is held to the end,
 * and under a tight descriptor limit (ulimit -n 8) the few there are must
 * go to saving what was measured, and to reading what a command's
 * processes wrote, or it is lost for want of one. Below that many free,
 * files are written unlocked, as where no lock can be taken. */
#define LOCK_SPARE_DESCRIPTORS 48

static bool
descriptors_to_spare (void)
{
  struct rlimit lim;
  if (getrlimit (RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY ||
      lim.rlim_cur > 4096)
    return true;
  long open_now = 0;
  for (long fd = 0; fd < (long) lim.rlim_cur; fd++)
    open_now += fcntl ((int) fd, F_GETFD) >= 0;
  return (long) lim.rlim_cur - open_now > LOCK_SPARE_DESCRIPTORS;
}

bool
ms_output_lock_take (const char *given_by, const char *name, const char *target, bool *taken,
                     char *err, size_t errlen)
{
  char path[PATH_MAX + 32];
  int before = n_locks;
  *taken = false;
  if (started_by_memsweep || !descriptors_to_spare ())
    return true;
  if (!lock_name (target, path, sizeof path)) {
    snprintf (err, errlen, "%s %s: %s", given_by, name, strerror (ENAMETOOLONG));
    return false;
  }
  for (int i = 0; i < n_locks; i++)
    if (strcmp (locks[i].path, path) == 0)
      return true;
  for (int i = 0; i < LOCK_TRIES; i++) {
    int got = try_lock (given_by, name, path, err, errlen);
    *taken = n_locks > before;
    if (got != 0)
      return got > 0;
  }
  return busy (-1, given_by, name, path, err, errlen);
}

bool
ms_output_lock_still_held (const char *name, const char *target, char *err, size_t errlen)
{
  char path[PATH_MAX + 32];
  if (!lock_name (target, path, sizeof path))
    return true;
  for (int i = 0; i < n_locks; i++) {
    if (strcmp (locks[i].path, path) != 0)
      continue;
    if (named_by (path, locks[i].fd))
      return true;
    snprintf (err, errlen,
              ms_gettext ("%s: the file by which memsweep held it while writing it (%s) was "
                          "removed or replaced meanwhile, so another memsweep may have written "
                          "it since: not replaced"),
              name, path);
    errno = EBUSY;
    return false;
  }
  return true;
}

/* Removed while still held: a command that opens it meanwhile finds, once
 * it holds it, that no name leads to it any more, and makes a new one. */
static void
release (Lock *l)
{
  if (l->pid == getpid ()) {
    /* Only while its name still leads to ours: one removed under us may
     * be another command's hold by now. */
    if (named_by (l->path, l->fd))
      ms_atomic_file_remove_or_say (l->path);
    ms_atomic_file_forget_temporary (l->slot);
  }
  close (l->fd);
  free (l->path);
}

void
ms_output_lock_release (const char *target)
{
  char path[PATH_MAX + 32];
  if (!lock_name (target, path, sizeof path))
    return;
  for (int i = 0; i < n_locks; i++)
    if (strcmp (locks[i].path, path) == 0) {
      release (&locks[i]);
      locks[i] = locks[--n_locks];
      return;
    }
}

void
ms_output_lock_release_all (void)
{
  while (n_locks > 0)
    release (&locks[--n_locks]);
}
