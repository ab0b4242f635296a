/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-read-file.c: reading a small result file whole (ms-read-file.h). */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
