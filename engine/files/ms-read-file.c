/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-read-file.c: opening and reading a result file whole
 * (ms-read-file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-gzip-file.h"
#include "ms-i18n.h"
#include "ms-read-file.h"
#include "ms-utf8.h"

#define MS_SMALL_FILE_MAX_BYTES (4 << 20) /* a 16-GPU peer file is some 60 KB */

static int
open_regular (const char *path, bool as_input, struct stat *st, char *err, size_t errlen)
{
  /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0 || fstat (fd, st) != 0) {
    snprintf (err, errlen, ms_gettext ("%s: cannot open: %s"), path, strerror (errno));
    if (fd >= 0)
      close (fd);
    return -1;
  }
  if (!S_ISREG (st->st_mode)) {
    snprintf (err, errlen, ms_gettext ("%s: not a regular file (%s)"), path,
              S_ISDIR (st->st_mode) ? ms_gettext ("a folder")
              : S_ISFIFO (st->st_mode) ? ms_gettext ("a pipe")
              : S_ISCHR (st->st_mode) || S_ISBLK (st->st_mode)
                ? ms_gettext ("a device")
                : ms_gettext ("a socket or special file"));
    close (fd);
    return -1;
  }
  /* Regular files never block; reads should wait for slow disks as usual. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  if (as_input)
    ms_atomic_file_note_read (fd);
  if (!ms_gzip_fd_is_compressed (fd))
    return fd;
  /* A compressed file is read as its plain content, whatever its name. */
  int plain = ms_gzip_plain_fd (fd, path, err, errlen);
  close (fd);
  if (plain >= 0 && fstat (plain, st) != 0) {
    snprintf (err, errlen, ms_gettext ("%s: cannot open: %s"), path, strerror (errno));
    close (plain);
    return -1;
  }
  return plain;
}

int
ms_open_regular (const char *path, struct stat *st, char *err, size_t errlen)
{
  return open_regular (path, true, st, err, errlen);
}

int
ms_open_regular_to_check (const char *path, struct stat *st, char *err, size_t errlen)
{
  return open_regular (path, false, st, err, errlen);
}

char *
ms_small_file_read (const char *path, char *err, size_t errlen)
{
  struct stat st;
  int fd = ms_open_regular (path, &st, err, errlen);
  if (fd < 0)
    return NULL;
  if (st.st_size > MS_SMALL_FILE_MAX_BYTES) {
    snprintf (err, errlen, "%s: %s", path, ms_gettext ("too large for a memsweep result file"));
    close (fd);
    return NULL;
  }
  char *text = malloc ((size_t) st.st_size + 1);
  size_t n = 0;
  ssize_t got = 1;
  /* Only the bytes the file held when opened: a growing file still ends. */
  while (text && n < (size_t) st.st_size &&
         ((got = read (fd, text + n, (size_t) st.st_size - n)) > 0 || (got < 0 && errno == EINTR)))
    n += got > 0 ? (size_t) got : 0;
  int read_errno = got < 0 ? errno : 0;
  bool binary = text && !read_errno && memchr (text, '\0', n);
  close (fd);
  /* Each cause in its own words: memory, the disk, or what the file holds. */
  if (!text || read_errno || binary) {
    snprintf (err, errlen, "%s: %s", path,
              !text       ? strerror (ENOMEM)
              : read_errno ? strerror (read_errno)
                           : ms_gettext ("binary data (a NUL byte): not a memsweep file"));
    free (text);
    return NULL;
  }
  text[n] = '\0';
  /* Names and notes go to Pango and HTML: text that is not UTF-8 is
   * refused here, once, with its line. */
  size_t at;
  if (!ms_utf8_valid (text, n, &at)) {
    long line = 1;
    for (size_t i = 0; i < at; i++)
      line += text[i] == '\n';
    snprintf (err, errlen, "%s:%ld: %s", path, line,
              ms_gettext ("not UTF-8 text: save the file as UTF-8"));
    free (text);
    return NULL;
  }
  return text;
}
