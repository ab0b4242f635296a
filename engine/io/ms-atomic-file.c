/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-atomic-file.c: temporary file, sync, close, rename; see the header for
 * the policy. */
#define _GNU_SOURCE
#include "ms-atomic-file.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-sha256.h"
#include "ms-stop-signals.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <dirent.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* A name of memsweep's own, so that a temporary left by a killed writer is
 * found; the name alone is no proof (a user's T.memsweep-backup has it),
 * so each temporary also carries this extended attribute from its first
 * moment until its rename, and only a file that carries it is ever taken
 * for a killed writer's. Where a file system keeps no extended
 * attributes, a killed writer's temporary stays for the user to see. */
#define TEMP_MARK ".memsweep-"
#define TEMP_XATTR "user.memsweep.temporary"
#define TEMP_SUFFIX TEMP_MARK "XXXXXX"
/* A command's temporaries, and the lock files of its output plan
 * (ms-output-plan-lock.h): up to a dozen of each. */
#define MAX_TEMPORARIES 32
#define MAX_LINK_HOPS 40

struct MsAtomicFile {
  const char *name;       /* as the caller gave it, for messages */
  char target[PATH_MAX];  /* symbolic links followed */
  char tmp[PATH_MAX + 32]; /* empty when written in place */
  int fd;
  int error;               /* first errno, 0 while all is well */
  const char *failed_step; /* what that error came from */
  int slot;                /* in the temporaries' registry, or -1 */
  int descriptor;          /* an open descriptor named as /dev/fd/N, or -1 */
  int lock_fd;             /* holds the temporary's lock from close to rename, or -1 */
  MsGzipWriter *gz;        /* a name ending in ".gz": its bytes compressed, or NULL */
  MsSha256 sha256;         /* of the bytes written, before compression */
};

/* Files that must not be written: the inputs of the command. Readers run
 * on several threads (fleet-report), so the list has a lock. Each is kept
 * open (fd, or -1 past MAX_KEPT_INPUTS): an input deleted while the
 * command runs keeps its inode, so no new file (another writer's output of
 * the same prefix) can get its number back and be refused as an input. */
#define MAX_KEPT_INPUTS 256
static struct {
  dev_t dev;
  ino_t ino;
  int fd;
  char *name; /* the path it was opened at, as given, or NULL */
} *protected_files;
static size_t n_kept;
static size_t n_protected;
static pthread_mutex_t protected_lock = PTHREAD_MUTEX_INITIALIZER;

/* Paths of the temporaries, for a signal handler: a slot's path is complete
 * before it is marked live. */
static struct {
  volatile sig_atomic_t live;
  char path[PATH_MAX + 32];
} temporaries[MAX_TEMPORARIES];

int
ms_atomic_file_note_temporary (const char *path)
{
  for (int i = 0; strlen (path) < sizeof temporaries[0].path && i < MAX_TEMPORARIES; i++)
    if (!temporaries[i].live) {
      memcpy (temporaries[i].path, path, strlen (path) + 1);
      temporaries[i].live = 1;
      return i;
    }
  return -1;
}

void
ms_atomic_file_forget_temporary (int slot)
{
  if (slot >= 0)
    temporaries[slot].live = 0;
}

/* Files first, then the folders they were in (a folder is noted before
 * its file, and rmdir wants it empty). */
void
ms_atomic_file_remove_temporaries (void)
{
  int folders[MAX_TEMPORARIES], n = 0;
  for (int i = 0; i < MAX_TEMPORARIES; i++)
    if (temporaries[i].live) {
      if (unlink (temporaries[i].path) != 0 && errno == EISDIR)
        folders[n++] = i;
      else
        temporaries[i].live = 0;
    }
  for (int k = 0; k < n; k++) {
    rmdir (temporaries[folders[k]].path);
    temporaries[folders[k]].live = 0;
  }
}

static void
on_fatal_signal (int sig)
{
  ms_atomic_file_remove_temporaries ();
  signal (sig, SIG_DFL);
  raise (sig);
}

void
ms_atomic_file_clean_up_on_signals (void)
{
  /* Every stop signal (ms-stop-signals.h), in the list's order. */
  struct sigaction sa = { 0 };
  sa.sa_handler = on_fatal_signal;
  for (int k = 0, sig; (sig = ms_stop_signal_nth (k)); k++) {
    struct sigaction old;
    /* What the caller's parent ignores stays ignored (nohup); a handler
     * the program installed first (a stop handler, which removes the
     * temporaries itself) stays too. */
    if (sigaction (sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
      sigaction (sig, &sa, NULL);
  }
  /* Past a file-size limit (ulimit -f) SIGXFSZ would end the process in
   * the middle of a write, its temporaries left and nothing said; ignored,
   * the write fails with EFBIG like any other, and the writer cleans up. */
  signal (SIGXFSZ, SIG_IGN);
}

/* A target refused for what it is: fmt's text into err, errno code; false. */
static bool __attribute__ ((format (printf, 4, 5)))
refuse (char *err, size_t errlen, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err, errlen, fmt, ap);
  va_end (ap);
  errno = code;
  return false;
}

static bool
fail (char *err, size_t errlen, const char *name, const char *what, int code)
{
  return refuse (err, errlen, code, "%s: %s: %s", name, what, strerror (code));
}

/* N when path names this process's descriptor N (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N): a link into /proc that leads to the open file, pipe or
 * terminal itself, not to a name that could be replaced; else -1. */
static int
descriptor_of (const char *path)
{
  char dir[PATH_MAX], real[PATH_MAX], own[64], thread[96];
  const char *base = strrchr (path, '/');
  if (!base || !base[1] || strspn (base + 1, "0123456789") != strlen (base + 1) ||
      strlen (base + 1) > 9 || (size_t) (base - path) >= sizeof dir)
    return -1;
  memcpy (dir, path, (size_t) (base - path));
  dir[base - path] = '\0';
  if (!realpath (dir[0] ? dir : "/", real))
    return -1;
  snprintf (own, sizeof own, "/proc/%ld/fd", (long) getpid ());
  snprintf (thread, sizeof thread, "/proc/%ld/task/%ld/fd", (long) getpid (), (long) gettid ());
  if (strcmp (real, own) != 0 && strcmp (real, thread) != 0)
    return -1;
  return atoi (base + 1);
}

/* Dangling links too: the file they name is created. */
bool
ms_atomic_file_resolve (const char *path, char *out, size_t outlen, int *descriptor)
{
  char link[PATH_MAX];
  *descriptor = -1;
  if (strlen (path) >= outlen) {
    errno = ENAMETOOLONG;
    return false;
  }
  strcpy (out, path);
  for (int hop = 0; hop < MAX_LINK_HOPS; hop++) {
    struct stat st;
    if ((*descriptor = descriptor_of (out)) >= 0)
      return true;
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

static bool
is_protected_locked (const struct stat *st)
{
  for (size_t i = 0; i < n_protected; i++)
    if (protected_files[i].dev == st->st_dev && protected_files[i].ino == st->st_ino)
      return true;
  return false;
}

static bool
is_protected (const struct stat *st)
{
  pthread_mutex_lock (&protected_lock);
  bool found = is_protected_locked (st);
  pthread_mutex_unlock (&protected_lock);
  return found;
}

/* The descriptor kept for the input opened at name (the path as given: no
 * look at the path), or -1; under protected_lock. */
static int
kept_fd (const char *name)
{
  for (size_t i = 0; i < n_protected; i++)
    if (protected_files[i].fd >= 0 && protected_files[i].name &&
        strcmp (protected_files[i].name, name) == 0)
      return protected_files[i].fd;
  return -1;
}

/* fd: an open descriptor of the file, kept (duplicated) while there is
 * room, or -1; name: the path it was opened at, or NULL. */
static bool
protect_stat (const struct stat *st, int fd, const char *name)
{
  bool ok = true;
  pthread_mutex_lock (&protected_lock);
  if (!is_protected_locked (st)) {
    void *bigger = realloc (protected_files, (n_protected + 1) * sizeof *protected_files);
    if (bigger) {
      protected_files = bigger;
      protected_files[n_protected].dev = st->st_dev;
      protected_files[n_protected].ino = st->st_ino;
      protected_files[n_protected].fd =
        fd >= 0 && n_kept < MAX_KEPT_INPUTS ? fcntl (fd, F_DUPFD_CLOEXEC, 3) : -1;
      protected_files[n_protected].name = name ? strdup (name) : NULL;
      n_kept += protected_files[n_protected].fd >= 0;
      n_protected++;
    }
    ok = bigger != NULL;
  }
  pthread_mutex_unlock (&protected_lock);
  return ok;
}

int
ms_atomic_file_kept (const char *path)
{
  pthread_mutex_lock (&protected_lock);
  int fd = kept_fd (path);
  fd = fd >= 0 ? fcntl (fd, F_DUPFD_CLOEXEC, 3) : -1;
  pthread_mutex_unlock (&protected_lock);
  return fd;
}

bool
ms_atomic_file_kept_stat (const char *path, struct stat *st)
{
  pthread_mutex_lock (&protected_lock);
  int fd = kept_fd (path);
  bool found = fd >= 0 && fstat (fd, st) == 0;
  pthread_mutex_unlock (&protected_lock);
  return found;
}

bool
ms_atomic_file_protect (const char *path)
{
  struct stat st;
  /* Opened already (compare protects its inputs, then each as named). */
  if (ms_atomic_file_kept_stat (path, &st))
    return true;
  /* Not blocking on a FIFO, not taking a terminal. */
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  bool ok = true;
  if (fd >= 0 && fstat (fd, &st) == 0)
    ok = protect_stat (&st, S_ISREG (st.st_mode) ? fd : -1, path);
  else if (fd < 0 && errno != ENOENT && stat (path, &st) == 0)
    ok = protect_stat (&st, -1, path);
  if (fd >= 0)
    close (fd);
  return ok;
}

static bool protect_reads;

void
ms_atomic_file_protect_what_is_read (void)
{
  protect_reads = true;
}

bool
ms_atomic_file_protect_reads (bool on)
{
  bool was = protect_reads;
  protect_reads = on;
  return was;
}

bool
ms_atomic_file_is_input_fd (int fd)
{
  struct stat st;
  return fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && is_protected (&st);
}

void
ms_atomic_file_note_input (int fd, const char *path)
{
  struct stat st;
  if (protect_reads && fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
    protect_stat (&st, fd, path);
}

/* An open descriptor as the target: written where it stands, never
 * truncated or replaced. */
static bool
check_descriptor (const char *name, int descriptor, char *err, size_t errlen)
{
  struct stat st;
  int flags = fcntl (descriptor, F_GETFL);
  if (flags < 0 || fstat (descriptor, &st) != 0)
    return fail (err, errlen, name, ms_gettext ("cannot write"), errno);
  if ((flags & O_ACCMODE) == O_RDONLY)
    return fail (err, errlen, name, ms_gettext ("cannot write"), EBADF);
  if (is_protected (&st))
    return refuse (err, errlen, EEXIST, ms_gettext ("%s: is one of the inputs: not replaced"),
                   name);
  return true;
}

/* The policy of the header, without creating anything. *in_place tells
 * whether the target is a device, a pipe or a descriptor (*descriptor);
 * *mode is the new file's mode. */
static bool
check_target (const char *name, char *target, size_t target_len, bool *in_place, int *descriptor,
              mode_t *mode, char *err, size_t errlen)
{
  struct stat st;
  char dir[PATH_MAX];
  *in_place = false;
  if (!ms_atomic_file_resolve (name, target, target_len, descriptor))
    return fail (err, errlen, name, ms_gettext ("cannot write"), errno);
  if (*descriptor >= 0) {
    *in_place = true;
    return check_descriptor (name, *descriptor, err, errlen);
  }
  if (stat (target, &st) == 0) {
    if (is_protected (&st))
      return refuse (err, errlen, EEXIST, ms_gettext ("%s: is one of the inputs: not replaced"),
                     name);
    if (S_ISDIR (st.st_mode))
      return refuse (err, errlen, EISDIR, ms_gettext ("%s: is a folder"), name);
    if (S_ISCHR (st.st_mode) || S_ISFIFO (st.st_mode)) {
      *in_place = true;
      return true;
    }
    if (!S_ISREG (st.st_mode))
      return refuse (err, errlen, EINVAL,
                     ms_gettext ("%s: is neither a regular file nor a device: not replaced"), name);
    /* Root may write anything: the mode bits still say what the user meant. */
    if ((st.st_mode & 0222) == 0 || access (target, W_OK) != 0)
      return refuse (err, errlen, EACCES, ms_gettext ("%s: is read-only: not replaced"), name);
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
  int descriptor;
  mode_t mode;
  return check_target (path, target, sizeof target, &in_place, &descriptor, &mode, err, errlen);
}

bool
ms_atomic_file_check_regular (const char *path, char *err, size_t errlen)
{
  char target[PATH_MAX];
  bool in_place;
  int descriptor;
  mode_t mode;
  if (!check_target (path, target, sizeof target, &in_place, &descriptor, &mode, err, errlen))
    return false;
  if (!in_place)
    return true;
  return refuse (err, errlen, EINVAL,
                 ms_gettext ("%s: is a pipe or a device, not a file: not written"), path);
}

bool
ms_atomic_file_in_place (const char *path)
{
  char target[PATH_MAX];
  int descriptor;
  struct stat st;
  return ms_atomic_file_resolve (path, target, sizeof target, &descriptor) &&
         (descriptor >= 0 ||
          (stat (target, &st) == 0 && (S_ISCHR (st.st_mode) || S_ISFIFO (st.st_mode))));
}

bool
ms_atomic_file_output_name (const char *prefix, const char *suffix, char *out, size_t len)
{
  bool stream = ms_atomic_file_in_place (prefix);
  return snprintf (out, len, "%s%s", prefix, stream ? "" : suffix) < (int) len;
}

/* Whether name is a temporary of target's (TARGET.memsweep-XXXXXX). */
static bool
is_temporary_of (const char *name, const char *base)
{
  size_t n = strlen (base), mark = strlen (TEMP_MARK);
  return strncmp (name, base, n) == 0 && strncmp (name + n, TEMP_MARK, mark) == 0 &&
         strlen (name + n + mark) == 6 &&
         strspn (name + n + mark, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
           6;
}

/* Whether the open file carries memsweep's mark of a temporary. */
static bool
has_temporary_mark (int fd)
{
  char value[8];
  return fgetxattr (fd, TEMP_XATTR, value, sizeof value) == 1 && value[0] == '1';
}

/* Each temporary carries the mark, and every live writer holds a lock
 * on its own, so a marked one that can be locked has no writer. */
void
ms_atomic_file_remove_stale (const char *target)
{
  char dir[PATH_MAX], path[PATH_MAX + 32];
  folder_of (target, dir, sizeof dir);
  const char *base = strrchr (target, '/') ? strrchr (target, '/') + 1 : target;
  DIR *d = opendir (dir);
  for (struct dirent *e; d && (e = readdir (d));) {
    if (!is_temporary_of (e->d_name, base) ||
        snprintf (path, sizeof path, "%s/%s", dir, e->d_name) >= (int) sizeof path)
      continue;
    int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd >= 0 && fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && has_temporary_mark (fd) &&
        flock (fd, LOCK_EX | LOCK_NB) == 0)
      unlink (path);
    if (fd >= 0)
      close (fd);
  }
  if (d)
    closedir (d);
}

/* A new temporary beside the target, locked for as long as it is open; a
 * temporary taken away between its creation and the lock (as stale) is
 * made again. */
static int
make_temporary (MsAtomicFile *file)
{
  for (int attempt = 0; attempt < 8; attempt++) {
    struct stat mine, named;
    snprintf (file->tmp, sizeof file->tmp, "%s%s", file->target, TEMP_SUFFIX);
    int fd = mkostemp (file->tmp, O_CLOEXEC);
    if (fd < 0)
      return -1;
    if (flock (fd, LOCK_EX | LOCK_NB) == 0 && fstat (fd, &mine) == 0 &&
        stat (file->tmp, &named) == 0 && mine.st_ino == named.st_ino &&
        mine.st_dev == named.st_dev) {
      fsetxattr (fd, TEMP_XATTR, "1", 1, 0); /* best effort: see TEMP_XATTR */
      return fd;
    }
    close (fd);
  }
  file->tmp[0] = '\0';
  errno = EAGAIN;
  return -1;
}

static MsAtomicFileGate gate, commit_gate;

void
ms_atomic_file_set_gate (MsAtomicFileGate g)
{
  gate = g;
}

void
ms_atomic_file_set_commit_gate (MsAtomicFileGate g)
{
  commit_gate = g;
}

/* Whether every file of a commit that is renamed may still replace its
 * target (commit_gate): checked for all before any is renamed. */
static bool
may_rename (MsAtomicFile **files, int n, char *err, size_t errlen)
{
  for (int i = 0; i < n; i++)
    if (commit_gate && files[i]->tmp[0] &&
        !commit_gate (files[i]->name, files[i]->target, files[i]->descriptor, err, errlen))
      return false;
  return true;
}

static bool gzip_sink (void *user, const void *data, size_t n);

MsAtomicFile *
ms_atomic_file_open (const char *path, char *err, size_t errlen)
{
  MsAtomicFile *file = calloc (1, sizeof *file);
  if (file)
    ms_sha256_init (&file->sha256);
  bool in_place;
  mode_t mode = 0644;
  if (!file) {
    fail (err, errlen, path, ms_gettext ("cannot write"), ENOMEM);
    return NULL;
  }
  file->name = path;
  file->fd = -1;
  file->lock_fd = -1;
  file->slot = -1;
  if (!check_target (path, file->target, sizeof file->target, &in_place, &file->descriptor,
                     &mode, err, errlen) ||
      (gate && !gate (path, file->target, file->descriptor, err, errlen))) {
    free (file);
    return NULL;
  }
  if (file->descriptor >= 0) {
    /* Where the descriptor stands, appending where it appends. */
    file->fd = fcntl (file->descriptor, F_DUPFD_CLOEXEC, 0);
  } else if (in_place) {
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
    ms_atomic_file_remove_stale (file->target);
    /* A signal between the temporary's creation and its registration
     * would leave it behind: the clean-up handler waits until it is known. */
    sigset_t all, old;
    sigfillset (&all);
    pthread_sigmask (SIG_BLOCK, &all, &old);
    file->fd = make_temporary (file);
    if (file->fd >= 0)
      file->slot = ms_atomic_file_note_temporary (file->tmp);
    pthread_sigmask (SIG_SETMASK, &old, NULL);
    if (file->fd >= 0) {
      /* A finished temporary waits for its rename closed: this keeps it
       * locked, so another writer of the target never takes it for one a
       * killed writer left. */
      file->lock_fd = fcntl (file->fd, F_DUPFD_CLOEXEC, 0);
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
  /* A name ending in .gz never gets plain bytes. */
  if ((ms_gzip_is_name (path) || ms_gzip_is_name (file->target)) &&
      !(file->gz = ms_gzip_writer_new (gzip_sink, file))) {
    ms_atomic_file_abort (file);
    fail (err, errlen, path, ms_gettext ("cannot write"), ENOMEM);
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

static bool
write_all (MsAtomicFile *file, const void *data, size_t len)
{
  const char *p = data;
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

static bool
gzip_sink (void *user, const void *data, size_t n)
{
  return write_all (user, data, n);
}

bool
ms_atomic_file_write (MsAtomicFile *file, const void *data, size_t len)
{
  if (file->error)
    return false;
  ms_sha256_update (&file->sha256, data, len);
  if (!file->gz)
    return write_all (file, data, len);
  return ms_gzip_writer_put (file->gz, data, len, false) ||
         record (file, ms_gettext ("write failed"), file->error ? file->error : EIO);
}

void
ms_atomic_file_sha256 (const MsAtomicFile *file, char *hex)
{
  ms_sha256_hex (&file->sha256, hex);
}

bool
ms_atomic_file_is_file (const MsAtomicFile *file)
{
  return file->tmp[0] != '\0' && file->fd >= 0;
}

/* Compressed bytes cannot be patched where they stand. */
bool
ms_atomic_file_can_patch (const MsAtomicFile *file)
{
  return ms_atomic_file_is_file (file) && !file->gz;
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
  if (file->gz && !file->error && !ms_gzip_writer_put (file->gz, NULL, 0, true))
    record (file, ms_gettext ("write failed"), EIO);
  ms_gzip_writer_free (file->gz);
  file->gz = NULL;
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
  /* The file is the target now, no temporary: the mark goes (a copy of
   * it renamed later to a temporary's shape is not one). */
  if (file->lock_fd >= 0)
    fremovexattr (file->lock_fd, TEMP_XATTR);
  ms_atomic_file_forget_temporary (file->slot);
  file->tmp[0] = '\0';
  return true;
}

bool
ms_atomic_file_commit (MsAtomicFile *file, char *err, size_t errlen)
{
  bool ok = ms_atomic_file_finish (file, err, errlen) && may_rename (&file, 1, err, errlen) &&
            rename_into_place (file, err, errlen);
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
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, &old); /* made and known as one */
  for (int attempt = 0; attempt < 16; attempt++) {
    snprintf (backup, len, "%s.old%06d", file->target, (int) (random () % 1000000));
    if (link (file->target, backup) == 0) {
      *slot = ms_atomic_file_note_temporary (backup);
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      return;
    }
    if (errno != EEXIST)
      break;
  }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  backup[0] = '\0';
}

/* An exclusive lock on the folder of target, -1 when there is none to be
 * had (a file system without locks: the pair is still written). */
static int
lock_folder (const char *target, struct stat *st)
{
  char dir[PATH_MAX];
  folder_of (target, dir, sizeof dir);
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, st) != 0) {
    if (fd >= 0)
      close (fd);
    return -1;
  }
  while (flock (fd, LOCK_EX) != 0)
    if (errno != EINTR) {
      close (fd);
      return -1;
    }
  return fd;
}

/* Two writers of one prefix (two runs with one --out): each renames its
 * pair under the lock of the targets' folders, so that the last pair
 * renamed is whole, never one writer's samples beside the other's
 * summary. Both folders, in one order, when links put them apart. */
static void
lock_pair (const MsAtomicFile *first, const MsAtomicFile *second, int fds[2])
{
  struct stat a, b;
  fds[0] = fds[1] = -1;
  if (!first->tmp[0] || !second->tmp[0])
    return;
  fds[0] = lock_folder (first->target, &a);
  if (fds[0] < 0)
    return;
  char dir_a[PATH_MAX], dir_b[PATH_MAX];
  folder_of (first->target, dir_a, sizeof dir_a);
  folder_of (second->target, dir_b, sizeof dir_b);
  if (stat (dir_b, &b) != 0 || (a.st_dev == b.st_dev && a.st_ino == b.st_ino))
    return;
  if (a.st_dev > b.st_dev || (a.st_dev == b.st_dev && a.st_ino > b.st_ino)) {
    close (fds[0]); /* the other first, as every writer does */
    fds[0] = lock_folder (second->target, &b);
    fds[1] = lock_folder (first->target, &a);
  } else {
    fds[1] = lock_folder (second->target, &b);
  }
}

/* Whether the file's target names anything yet (a file, a link). */
static bool
target_taken (const MsAtomicFile *file)
{
  struct stat st;
  return file->tmp[0] && lstat (file->target, &st) == 0;
}

/* Renames files[0..n) in order, each old target kept until all are in
 * place: when one rename fails, those already renamed are put back as they
 * were (or removed where there was none). */
static bool
rename_all (MsAtomicFile **files, int n, char *err, size_t errlen)
{
  char backup[MS_ATOMIC_MAX_GROUP][PATH_MAX + 16];
  int slot[MS_ATOMIC_MAX_GROUP];
  bool existed[MS_ATOMIC_MAX_GROUP];
  int renamed = 0;
  bool ok = true;
  for (int i = 0; i < n; i++) {
    existed[i] = files[i]->tmp[0] && access (files[i]->target, F_OK) == 0;
    keep_old (files[i], backup[i], sizeof backup[i], &slot[i]);
  }
  for (; renamed < n && ok; renamed++)
    ok = rename_into_place (files[renamed], err, errlen);
  if (!ok)
    for (int i = 0; i < renamed - 1; i++) {
      if (backup[i][0])
        rename (backup[i], files[i]->target);
      else if (!existed[i])
        unlink (files[i]->target);
    }
  for (int i = 0; i < n; i++) {
    if (backup[i][0])
      ms_atomic_file_remove_or_say (backup[i]);
    ms_atomic_file_forget_temporary (slot[i]);
  }
  return ok;
}

/* new_only: *taken is set, and nothing renamed, when any target exists
 * by the time the lock is held. The lock is of the first two's folders. */
static bool
commit_group (MsAtomicFile **files, int n, bool *taken, char *err, size_t errlen)
{
  int locks[2];
  bool ok = true;
  for (int i = 0; i < n && ok; i++)
    ok = ms_atomic_file_finish (files[i], err, errlen);
  lock_pair (files[0], files[1], locks);
  /* Under the lock: another writer may have made it since. */
  int taken_by = -1;
  for (int i = 0; ok && taken && i < n && taken_by < 0; i++)
    if (target_taken (files[i]))
      taken_by = i;
  if (taken_by >= 0) {
    snprintf (err, errlen, ms_gettext ("%s: exists: not replaced"), files[taken_by]->name);
    *taken = true;
    ok = false;
  } else if (ok) {
    /* No signal between the renames of a group (a run's pair), and only
     * there: the writing before may block (a pipe whose reader stalls),
     * where a stop must still end it. */
    sigset_t all, old;
    sigfillset (&all);
    pthread_sigmask (SIG_BLOCK, &all, &old);
    ok = may_rename (files, n, err, errlen) && rename_all (files, n, err, errlen);
    pthread_sigmask (SIG_SETMASK, &old, NULL);
  }
  for (int i = 0; i < 2; i++)
    if (locks[i] >= 0)
      close (locks[i]); /* and the lock with it */
  for (int i = 0; i < n; i++)
    ms_atomic_file_abort (files[i]);
  return ok;
}

bool
ms_atomic_file_commit_group (MsAtomicFile **files, int n, bool *taken, char *err, size_t errlen)
{
  if (taken)
    *taken = false;
  return commit_group (files, n, taken, err, errlen);
}

void
ms_atomic_file_remove_or_say (const char *path)
{
  if (unlink (path) == 0 || errno == ENOENT)
    return;
  ms_atomic_file_say (ms_gettext ("%s: could not be removed (%s): left in place\n"), path,
                      strerror (errno));
}

static MsSayFn say_fn;
static const char *say_lead = "memsweep: ";

void
ms_atomic_file_set_say (MsSayFn say, const char *lead)
{
  say_fn = say;
  say_lead = lead;
}

const char *
ms_atomic_file_say_lead (void)
{
  return say_lead;
}

void
ms_atomic_file_say (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  if (say_fn)
    say_fn (format, args);
  else {
    fputs (say_lead, stderr);
    vfprintf (stderr, format, args);
  }
  va_end (args);
}

void
ms_atomic_file_abort (MsAtomicFile *file)
{
  if (!file)
    return;
  if (file->fd >= 0)
    close (file->fd);
  if (file->tmp[0])
    ms_atomic_file_remove_or_say (file->tmp);
  if (file->lock_fd >= 0)
    close (file->lock_fd);
  ms_atomic_file_forget_temporary (file->slot);
  ms_gzip_writer_free (file->gz);
  free (file);
}
