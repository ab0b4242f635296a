/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-read-file.c: reading a small result file whole (ms-read-file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-input.h"
#include "ms-i18n.h"
#include "ms-read-file.h"
#include "ms-utf8.h"

#define MS_SMALL_FILE_MAX_BYTES (4 << 20) /* a 16-GPU peer file is some 60 KB */

char *
ms_small_file_read (const char *path, char *err, size_t errlen)
{
  MsInput *in = ms_input_open (path, true, err, errlen);
  if (!in)
    return NULL;
  size_t n = 0;
  bool too_large;
  char *text = ms_input_read_all (in, MS_SMALL_FILE_MAX_BYTES, &n, &too_large, err, errlen);
  ms_input_close (in);
  if (text && too_large) {
    snprintf (err, errlen, "%s: %s", path, ms_gettext ("too large for a memsweep result file"));
    free (text);
    return NULL;
  }
  /* Each cause in its own words: memory, the disk, the size, or what the
   * file holds. */
  if (text && memchr (text, '\0', n)) {
    snprintf (err, errlen, "%s: %s", path,
              ms_gettext ("binary data (a NUL byte): not a memsweep file"));
    free (text);
    return NULL;
  }
  if (!text)
    return NULL;
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

/* What was read of a file, kept while it does not change. */
typedef struct {
  char *path;
  struct stat st;
  long long tag;
  void *data;
  size_t size;
} Known;

#define N_KNOWN 8
static Known known[N_KNOWN];
static unsigned next_known;
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static bool
same_file (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

void *
ms_file_recall (const char *path, long long tag, struct stat *st)
{
  void *copy = NULL;
  if (stat (path, st) != 0)
    memset (st, 0, sizeof *st);
  if (!S_ISREG (st->st_mode))
    return NULL;
  pthread_mutex_lock (&known_lock);
  for (int i = 0; i < N_KNOWN && !copy; i++) {
    const Known *k = &known[i];
    if (k->path && k->tag == tag && strcmp (k->path, path) == 0 && same_file (&k->st, st) &&
        (copy = malloc (k->size)))
      memcpy (copy, k->data, k->size);
  }
  pthread_mutex_unlock (&known_lock);
  return copy;
}

void
ms_file_remember (const char *path, long long tag, const struct stat *st, const void *data, size_t size)
{
  if (!S_ISREG (st->st_mode))
    return;
  pthread_mutex_lock (&known_lock);
  Known *k = &known[next_known++ % N_KNOWN];
  free (k->path);
  free (k->data);
  *k = (Known) { strdup (path), *st, tag, malloc (size), size };
  if (k->path && k->data)
    memcpy (k->data, data, size);
  else {
    free (k->path);
    free (k->data);
    *k = (Known) { NULL };
  }
  pthread_mutex_unlock (&known_lock);
}
