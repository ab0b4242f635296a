/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-atomic-file.c: temporary file, sync, close, rename; see the header for
 * the policy. */
#define _GNU_SOURCE
#include "ms-atomic-file.h"
#include "ms-i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEMP_SUFFIX ".XXXXXX"
#define MAX_TEMPORARIES 8
#define MAX_LINK_HOPS 40

struct MsAtomicFile {
  const char *name;       /* as the caller gave it, for messages */
  char target[PATH_MAX];  /* symbolic links followed */
  char tmp[PATH_MAX + 8]; /* empty when written in place */
  int fd;
  int error;               /* first errno, 0 while all is well */
  const char *failed_step; /* what that error came from */
  int slot;                /* in the temporaries' registry, or -1 */
};

/* Paths of the temporaries, for a signal handler: a slot's path is complete
 * before it is marked live. */
static struct {
  volatile sig_atomic_t live;
  char path[PATH_MAX + 16];
} temporaries[MAX_TEMPORARIES];

static int
register_temporary (const char *path)
{
  for (int i = 0; i < MAX_TEMPORARIES; i++)
    if (!temporaries[i].live) {
      memcpy (temporaries[i].path, path, strlen (path) + 1);
      temporaries[i].live = 1;
      return i;
    }
  return -1;
}

static void
forget_temporary (int slot)
{
  if (slot >= 0)
    temporaries[slot].live = 0;
}

void
ms_atomic_file_remove_temporaries (void)
{
  for (int i = 0; i < MAX_TEMPORARIES; i++)
    if (temporaries[i].live) {
      unlink (temporaries[i].path);
      temporaries[i].live = 0;
    }
}

static bool
fail (char *err, size_t errlen, const char *name, const char *what, int code)
{
  snprintf (err, errlen, "%s: %s: %s", name, what, strerror (code));
  errno = code;
  return false;
}

/* Follows symbolic links (dangling ones too: the file they name is
 * created). */
static bool
resolve_target (const char *path, char *out, size_t outlen)
{
  char link[PATH_MAX];
  if (strlen (path) >= outlen) {
    errno = ENAMETOOLONG;
    return false;
  }
  strcpy (out, path);
  for (int hop = 0; hop < MAX_LINK_HOPS; hop++) {
    struct stat st;
    if (lstat (out, &st) != 0 || !S_ISLNK (st.st_mode))
      return true;
    ssize_t n = readlink (out, link, sizeof link - 1);
    if (n < 0)
      return false;
    link[n] = '\0';
    if (link[0] == '/') {
      strcpy (out, link);
      continue;
    }
    char *slash = strrchr (out, '/');
    size_t dir_len = slash ? (size_t) (slash - out + 1) : 0;
    if (dir_len + (size_t) n >= outlen) {
      errno = ENAMETOOLONG;
      return false;
    }
    memcpy (out + dir_len, link, (size_t) n + 1);
  }
  errno = ELOOP;
  return false;
}

static void
folder_of (const char *target, char *dir, size_t len)
{
  const char *slash = strrchr (target, '/');
  if (!slash)
    snprintf (dir, len, ".");
  else if (slash == target)
    snprintf (dir, len, "/");
  else
    snprintf (dir, len, "%.*s", (int) (slash - target), target);
}

/* The policy of the header, without creating anything. *in_place tells
 * whether the target is a device or a pipe; *mode is the new file's mode. */
static bool
check_target (const char *name, char *target, size_t target_len, bool *in_place, mode_t *mode,
              char *err, size_t errlen)
{
  struct stat st;
  char dir[PATH_MAX];
  *in_place = false;
  if (!resolve_target (name, target, target_len))
    return fail (err, errlen, name, ms_gettext ("cannot write"), errno);
  if (stat (target, &st) == 0) {
    if (S_ISDIR (st.st_mode)) {
      snprintf (err, errlen, ms_gettext ("%s: is a folder"), name);
      errno = EISDIR;
      return false;
    }
    if (S_ISCHR (st.st_mode) || S_ISFIFO (st.st_mode)) {
      *in_place = true;
      return true;
    }
    if (!S_ISREG (st.st_mode)) {
      snprintf (err, errlen,
                ms_gettext ("%s: is neither a regular file nor a device: not replaced"), name);
      errno = EINVAL;
      return false;
    }
    /* Root may write anything: the mode bits still say what the user meant. */
    if ((st.st_mode & 0222) == 0 || access (target, W_OK) != 0) {
      snprintf (err, errlen, ms_gettext ("%s: is read-only: not replaced"), name);
      errno = EACCES;
      return false;
    }
    *mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    return fail (err, errlen, name, ms_gettext ("cannot write"), errno);
  } else {
    mode_t mask = umask (0);
    umask (mask);
    *mode = 0666 & ~mask;
  }
  folder_of (target, dir, sizeof dir);
  const char *base = strrchr (target, '/') ? strrchr (target, '/') + 1 : target;
  long name_max = pathconf (dir, _PC_NAME_MAX);
  if (name_max < 0)
    return fail (err, errlen, name, ms_gettext ("cannot write"), errno == 0 ? ENOENT : errno);
  if (strlen (base) + strlen (TEMP_SUFFIX) > (size_t) name_max ||
      strlen (target) + strlen (TEMP_SUFFIX) >= PATH_MAX)
    return fail (err, errlen, name, ms_gettext ("cannot write"), ENAMETOOLONG);
  if (access (dir, W_OK | X_OK) != 0)
    return fail (err, errlen, name, ms_gettext ("cannot write"), errno);
  return true;
}

bool
ms_atomic_file_check (const char *path, char *err, size_t errlen)
{
  char target[PATH_MAX];
  bool in_place;
  mode_t mode;
  return check_target (path, target, sizeof target, &in_place, &mode, err, errlen);
}

MsAtomicFile *
ms_atomic_file_open (const char *path, char *err, size_t errlen)
{
  MsAtomicFile *file = calloc (1, sizeof *file);
  bool in_place;
  mode_t mode = 0644;
  if (!file) {
    fail (err, errlen, path, ms_gettext ("cannot write"), ENOMEM);
    return NULL;
  }
  file->name = path;
  file->fd = -1;
  file->slot = -1;
  if (!check_target (path, file->target, sizeof file->target, &in_place, &mode, err, errlen)) {
    free (file);
    return NULL;
  }
  if (in_place) {
    /* Without a reader, opening a FIFO would wait forever (with the stop
     * signals blocked while the files are written). */
    file->fd = open (file->target, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (file->fd < 0 && errno == ENXIO) {
      snprintf (err, errlen, ms_gettext ("%s: is a pipe with nothing reading it: not written"),
                path);
      errno = ENXIO;
      free (file);
      return NULL;
    }
    if (file->fd >= 0)
      fcntl (file->fd, F_SETFL, fcntl (file->fd, F_GETFL) & ~O_NONBLOCK);
  } else {
    snprintf (file->tmp, sizeof file->tmp, "%s%s", file->target, TEMP_SUFFIX);
    file->fd = mkostemp (file->tmp, O_CLOEXEC);
    if (file->fd >= 0) {
      file->slot = register_temporary (file->tmp);
      /* mkstemp makes 0600 files: give the new file the old one's mode. */
      if (fchmod (file->fd, mode) != 0) {
        int saved = errno;
        ms_atomic_file_abort (file);
        fail (err, errlen, path, ms_gettext ("cannot write"), saved);
        return NULL;
      }
    }
  }
  if (file->fd < 0) {
    fail (err, errlen, path, ms_gettext ("cannot write"), errno);
    free (file);
    return NULL;
  }
  return file;
}

static bool
record (MsAtomicFile *file, const char *step, int code)
{
  if (!file->error) {
    file->error = code ? code : EIO;
    file->failed_step = step;
  }
  return false;
}

bool
ms_atomic_file_write (MsAtomicFile *file, const void *data, size_t len)
{
  const char *p = data;
  if (file->error)
    return false;
  while (len > 0) {
    ssize_t n = write (file->fd, p, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return record (file, ms_gettext ("write failed"), errno);
    if (n == 0)
      return record (file, ms_gettext ("write failed"), ENOSPC);
    p += n;
    len -= (size_t) n;
  }
  return true;
}

bool
ms_atomic_file_can_patch (const MsAtomicFile *file)
{
  return file->tmp[0] != '\0' && file->fd >= 0;
}

bool
ms_atomic_file_patch (MsAtomicFile *file, long long offset, const void *data, size_t len)
{
  const char *p = data;
  if (file->error)
    return false;
  if (!ms_atomic_file_can_patch (file))
    return record (file, ms_gettext ("write failed"), ESPIPE);
  while (len > 0) {
    ssize_t n = pwrite (file->fd, p, len, (off_t) offset);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return record (file, ms_gettext ("write failed"), n < 0 ? errno : ENOSPC);
    p += n;
    offset += n;
    len -= (size_t) n;
  }
  return true;
}

bool
ms_atomic_file_finish (MsAtomicFile *file, char *err, size_t errlen)
{
  if (file->fd < 0)
    goto done;
  /* Devices and pipes cannot be synced (EINVAL); a file must be. */
  if (!file->error && fsync (file->fd) != 0 && !(file->tmp[0] == '\0' && errno == EINVAL))
    record (file, ms_gettext ("write failed"), errno);
  if (close (file->fd) != 0 && errno != EINTR)
    record (file, ms_gettext ("write failed"), errno);
  file->fd = -1;
done:
  if (file->error)
    return fail (err, errlen, file->name, file->failed_step, file->error);
  return true;
}

static bool
rename_into_place (MsAtomicFile *file, char *err, size_t errlen)
{
  if (!file->tmp[0])
    return true;
  if (rename (file->tmp, file->target) != 0)
    return fail (err, errlen, file->name, ms_gettext ("cannot replace it"), errno);
  forget_temporary (file->slot);
  file->tmp[0] = '\0';
  return true;
}

bool
ms_atomic_file_commit (MsAtomicFile *file, char *err, size_t errlen)
{
  bool ok = ms_atomic_file_finish (file, err, errlen) && rename_into_place (file, err, errlen);
  ms_atomic_file_abort (file);
  return ok;
}

/* A hard link to the first target's old contents, so that it can be put
 * back when the second rename fails. Empty when there was none. */
static void
keep_old (const MsAtomicFile *file, char *backup, size_t len, int *slot)
{
  backup[0] = '\0';
  *slot = -1;
  if (!file->tmp[0] || access (file->target, F_OK) != 0)
    return;
  for (int attempt = 0; attempt < 16; attempt++) {
    snprintf (backup, len, "%s.old%06d", file->target, (int) (random () % 1000000));
    if (link (file->target, backup) == 0) {
      *slot = register_temporary (backup);
      return;
    }
    if (errno != EEXIST)
      break;
  }
  backup[0] = '\0';
}

bool
ms_atomic_file_commit_pair (MsAtomicFile *first, MsAtomicFile *second, char *err,
                            size_t errlen)
{
  char backup[PATH_MAX + 16];
  int slot;
  bool existed = first->tmp[0] && access (first->target, F_OK) == 0;
  bool ok = ms_atomic_file_finish (first, err, errlen) &&
            ms_atomic_file_finish (second, err, errlen);
  if (ok) {
    keep_old (first, backup, sizeof backup, &slot);
    ok = rename_into_place (first, err, errlen);
    if (ok && !rename_into_place (second, err, errlen)) {
      ok = false;
      if (backup[0])
        rename (backup, first->target);
      else if (!existed)
        unlink (first->target);
    }
    if (backup[0])
      unlink (backup);
    forget_temporary (slot);
  }
  ms_atomic_file_abort (first);
  ms_atomic_file_abort (second);
  return ok;
}

void
ms_atomic_file_abort (MsAtomicFile *file)
{
  if (!file)
    return;
  if (file->fd >= 0)
    close (file->fd);
  if (file->tmp[0])
    unlink (file->tmp);
  forget_temporary (file->slot);
  free (file);
}
