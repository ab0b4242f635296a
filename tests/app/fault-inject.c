/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fault-inject.c: an LD_PRELOAD interposer that makes one step of writing a
 * file fail, for the fault matrix (tests/app/test-faults.sh).
 *
 * MS_FAULT_OP     write, short (half of one write, then ENOSPC), pwrite
 *                 (the samples' run id put in place), fsync, close,
 *                 rename or mkdir (mkdirat too: a folder cannot be made)
 * MS_FAULT_NTH    which matching call fails (1 = the first)
 * MS_FAULT_ERRNO  the error number to fail with
 * MS_FAULT_MATCH  only files whose path contains this text count
 * MS_FAULT_FIRED  created when the fault fires, so a test knows it did
 * MS_FAULT_GO     with MS_FAULT_OP=pause: the matching rename is done,
 *                 then waits until this file exists (two writers at once)
 * MS_FAULT_LOCKING created just before a flock that waits (LOCK_EX alone):
 *                 the process has reached a lock, and may wait there
 *
 * A write fault stays (a full disk stays full); the others fail once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int calls;
static int fired;

static bool
wanted (const char *op, const char *path)
{
  const char *want = getenv ("MS_FAULT_OP"), *match = getenv ("MS_FAULT_MATCH");
  if (!want || !match || !path || !strstr (path, match))
    return false;
  if (strcmp (want, op) != 0 && !(strcmp (want, "short") == 0 && strcmp (op, "write") == 0))
    return false;
  if (fired && (strcmp (op, "write") == 0))
    return true;
  const char *nth = getenv ("MS_FAULT_NTH");
  return ++calls == (nth ? atoi (nth) : 1);
}

static void
mark_fired (void)
{
  const char *note = getenv ("MS_FAULT_FIRED");
  fired = 1;
  if (note) {
    int fd = open (note, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0)
      close (fd);
  }
}

static int
fault_errno (void)
{
  const char *e = getenv ("MS_FAULT_ERRNO");
  return e ? atoi (e) : EIO;
}

static bool
fd_wanted (const char *op, int fd)
{
  char link[64], path[4096];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink (link, path, sizeof path - 1);
  if (n < 0)
    return false;
  path[n] = '\0';
  return wanted (op, path);
}

ssize_t
write (int fd, const void *data, size_t len)
{
  static ssize_t (*real) (int, const void *, size_t);
  if (!real)
    real = (ssize_t (*) (int, const void *, size_t)) dlsym (RTLD_NEXT, "write");
  if (fd > 2 && fd_wanted ("write", fd)) {
    bool short_op = strcmp (getenv ("MS_FAULT_OP"), "short") == 0;
    bool first = !fired;
    mark_fired ();
    if (short_op && first && len > 1)
      return real (fd, data, len / 2);
    errno = short_op ? ENOSPC : fault_errno ();
    return -1;
  }
  return real (fd, data, len);
}

/* Built with _FILE_OFFSET_BITS=64, like memsweep: this is pwrite64. */
ssize_t
pwrite (int fd, const void *data, size_t len, off_t offset)
{
  static ssize_t (*real) (int, const void *, size_t, off_t);
  if (!real)
    real = (ssize_t (*) (int, const void *, size_t, off_t)) dlsym (RTLD_NEXT, "pwrite64");
  if (fd_wanted ("pwrite", fd)) {
    mark_fired ();
    errno = fault_errno ();
    return -1;
  }
  return real (fd, data, len, offset);
}

int
fsync (int fd)
{
  static int (*real) (int);
  if (!real)
    real = (int (*) (int)) dlsym (RTLD_NEXT, "fsync");
  if (fd_wanted ("fsync", fd)) {
    mark_fired ();
    errno = fault_errno ();
    return -1;
  }
  return real (fd);
}

int
close (int fd)
{
  static int (*real) (int);
  if (!real)
    real = (int (*) (int)) dlsym (RTLD_NEXT, "close");
  /* Only a descriptor open for writing: close reports data not written,
   * and a file read first (the output plan looks at what a target holds)
   * has none. */
  int flags = fd > 2 ? fcntl (fd, F_GETFL) : -1;
  if (flags >= 0 && (flags & O_ACCMODE) != O_RDONLY && fd_wanted ("close", fd)) {
    mark_fired ();
    real (fd);
    errno = fault_errno ();
    return -1;
  }
  return real (fd);
}

int
rename (const char *from, const char *to)
{
  static int (*real) (const char *, const char *);
  if (!real)
    real = (int (*) (const char *, const char *)) dlsym (RTLD_NEXT, "rename");
  if (wanted ("rename", from)) {
    mark_fired ();
    errno = fault_errno ();
    return -1;
  }
  if (wanted ("pause", from)) {
    int rc = real (from, to);
    mark_fired ();
    /* Waits for the test's go, a state, not a time (bounded all the same). */
    const char *go = getenv ("MS_FAULT_GO");
    for (int i = 0; go && access (go, F_OK) != 0 && i < 60000; i++)
      usleep (1000);
    return rc;
  }
  return real (from, to);
}

int
flock (int fd, int op)
{
  static int (*real) (int, int);
  if (!real)
    real = (int (*) (int, int)) dlsym (RTLD_NEXT, "flock");
  const char *note = getenv ("MS_FAULT_LOCKING");
  if (note && op == LOCK_EX) {
    int marker = open (note, O_WRONLY | O_CREAT, 0644);
    if (marker >= 0)
      close (marker);
  }
  return real (fd, op);
}

int
mkdirat (int dir_fd, const char *path, mode_t mode)
{
  static int (*real) (int, const char *, mode_t);
  if (!real)
    real = (int (*) (int, const char *, mode_t)) dlsym (RTLD_NEXT, "mkdirat");
  if (wanted ("mkdir", path)) {
    mark_fired ();
    errno = fault_errno ();
    return -1;
  }
  return real (dir_fd, path, mode);
}

int
mkdir (const char *path, mode_t mode)
{
  return mkdirat (AT_FDCWD, path, mode);
}
