/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gzip-file.c: compressed result files' plain content and names
 * (ms-gzip-file.h).
 *
 * The plain content goes to an unlinked temporary file rather than
 * through a stream, so that every reader keeps what it does on a plain
 * file: its size known before reading (the sidecar's check, the bound on
 * a growing file), pread at any offset, and the samples reader's parsing
 * of blocks on every core. The temporary file lives in the page cache
 * (or on disk), never in the process's own memory. */
#define _GNU_SOURCE
#include "ms-gzip-file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ms-i18n.h"

#define MS_GZIP_CHUNK (256 * 1024)

bool
ms_gzip_fd_is_compressed (int fd)
{
  unsigned char magic[2];
  return pread (fd, magic, sizeof magic, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

bool
ms_gzip_is_name (const char *path)
{
  size_t n = strlen (path), s = strlen (MS_GZIP_SUFFIX);
  return n > s && strcmp (path + n - s, MS_GZIP_SUFFIX) == 0;
}

size_t
ms_gzip_stem_len (const char *path)
{
  return strlen (path) - (ms_gzip_is_name (path) ? strlen (MS_GZIP_SUFFIX) : 0);
}

/* Whether a plain content could not be written (ms_gzip_writing_failed). */
static atomic_bool writing_failed;

bool
ms_gzip_writing_failed (void)
{
  return atomic_load (&writing_failed);
}

static const char *
temporary_folder (void)
{
  const char *dir = getenv ("TMPDIR");
  return dir && dir[0] ? dir : "/tmp";
}

/* An unlinked file in $TMPDIR (else /tmp), open for reading and writing. */
static int
temporary_file (void)
{
  const char *dir = temporary_folder ();
  int fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
    return fd;
  /* A file system without O_TMPFILE: a named file, unlinked at once. */
  char name[4096];
  if (snprintf (name, sizeof name, "%s/memsweep-plain-XXXXXX", dir) >= (int) sizeof name) {
    errno = ENAMETOOLONG;
    return -1;
  }
  fd = mkostemp (name, O_CLOEXEC);
  if (fd >= 0)
    unlink (name);
  return fd;
}

static bool
write_all (int fd, const char *buf, size_t len)
{
  while (len > 0) {
    ssize_t n = write (fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    buf += n;
    len -= (size_t) n;
  }
  return true;
}

/* Inflates fd's gzip data (every member, as gzip -d does) into out; NULL
 * when done, else why not (*writing set when out could not take it). */
static const char *
inflate_into (int fd, int out, bool *writing)
{
  int in = dup (fd);
  gzFile gz = in >= 0 ? gzdopen (in, "rb") : NULL;
  char *buf = malloc (MS_GZIP_CHUNK);
  const char *why = NULL;
  if (!gz || !buf) {
    why = strerror (in < 0 ? errno : ENOMEM);
    if (!gz && in >= 0)
      close (in);
  }
  if (gz)
    gzbuffer (gz, MS_GZIP_CHUNK);
  int n = 0, zerr = Z_OK;
  while (!why && (n = gzread (gz, buf, MS_GZIP_CHUNK)) > 0)
    if (!write_all (out, buf, (size_t) n)) {
      why = strerror (errno ? errno : ENOSPC);
      *writing = true;
    }
  if (!why && gz)
    gzerror (gz, &zerr);
  if (!why && (n < 0 || zerr != Z_OK))
    why = zerr == Z_BUF_ERROR ? ms_gettext ("the compressed data ends early (a cut-off .gz file)")
                              : ms_gettext ("damaged compressed data: not a readable .gz file");
  if (gz)
    gzclose (gz);
  free (buf);
  return why;
}

/* The file inflated last, by the identity of the compressed file. */
static struct {
  pthread_mutex_t lock;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  int plain;
} last = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, { 0, 0 }, -1 };

static bool
is_last (const struct stat *st)
{
  return last.plain >= 0 && last.dev == st->st_dev && last.ino == st->st_ino &&
         last.size == st->st_size && last.mtime.tv_sec == st->st_mtim.tv_sec &&
         last.mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* A descriptor of its own (its own offset) on the kept plain file. */
static int
reopen_last (void)
{
  char self[64];
  snprintf (self, sizeof self, "/proc/self/fd/%d", last.plain);
  return open (self, O_RDONLY | O_CLOEXEC);
}

/* fd's plain content in a temporary file of its own, at offset 0; -1
 * with "path: why". */
static int
inflate_new (int fd, const char *path, char *err, size_t errlen)
{
  int out = temporary_file ();
  bool writing = out < 0;
  const char *why = out < 0 ? strerror (errno) : inflate_into (fd, out, &writing);
  if (!why && lseek (out, 0, SEEK_SET) != 0)
    why = strerror (errno);
  /* A full TMPDIR (or a file-size limit) is no fault of the input's. */
  if (why && writing) {
    atomic_store (&writing_failed, true);
    snprintf (err, errlen,
              ms_gettext ("%s: its plain content could not be written in TMPDIR (%s): %s"), path,
              temporary_folder (), why);
  } else if (why) {
    snprintf (err, errlen, "%s: %s", path, why);
  }
  if (why) {
    if (out >= 0)
      close (out);
    return -1;
  }
  return out;
}

int
ms_gzip_plain_fd (int fd, const char *path, char *err, size_t errlen)
{
  struct stat st;
  if (fstat (fd, &st) != 0) {
    snprintf (err, errlen, ms_gettext ("%s: cannot open: %s"), path, strerror (errno));
    return -1;
  }
  pthread_mutex_lock (&last.lock);
  int plain = is_last (&st) ? reopen_last () : -1;
  if (plain < 0 && (plain = inflate_new (fd, path, err, errlen)) >= 0) {
    /* Kept for the next opening; this one reads through a descriptor of
     * its own. Without /proc to open it again, each opening inflates. */
    if (last.plain >= 0)
      close (last.plain);
    last.plain = plain;
    last.dev = st.st_dev;
    last.ino = st.st_ino;
    last.size = st.st_size;
    last.mtime = st.st_mtim;
    int own = reopen_last ();
    if (own < 0) {
      last.plain = -1;
      own = plain;
    }
    plain = own;
  }
  pthread_mutex_unlock (&last.lock);
  return plain;
}

struct MsGzipWriter {
  z_stream z;
  MsGzipSink sink;
  void *user;
};

MsGzipWriter *
ms_gzip_writer_new (MsGzipSink sink, void *user)
{
  MsGzipWriter *w = calloc (1, sizeof *w);
  /* 15 + 16: a gzip header and trailer around the deflate stream. */
  if (w && deflateInit2 (&w->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    free (w);
    return NULL;
  }
  if (w) {
    w->sink = sink;
    w->user = user;
  }
  return w;
}

bool
ms_gzip_writer_put (MsGzipWriter *w, const void *data, size_t len, bool end)
{
  unsigned char out[1 << 16];
  const unsigned char *p = data;
  do {
    /* zlib takes at most UINT_MAX bytes a call. */
    uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt) len;
    w->z.next_in = (Bytef *) p;
    w->z.avail_in = chunk;
    p += chunk;
    len -= chunk;
    int flush = end && len == 0 ? Z_FINISH : Z_NO_FLUSH;
    int rc;
    do {
      w->z.next_out = out;
      w->z.avail_out = sizeof out;
      rc = deflate (&w->z, flush);
      if (rc == Z_STREAM_ERROR)
        return false;
      size_t n = sizeof out - w->z.avail_out;
      if (n && !w->sink (w->user, out, n))
        return false;
    } while (w->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
  } while (len > 0);
  return true;
}

void
ms_gzip_writer_free (MsGzipWriter *w)
{
  if (!w)
    return;
  deflateEnd (&w->z);
  free (w);
}
