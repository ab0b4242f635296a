/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gzip-file.c: compressed result files' names and their writer
 * (ms-gzip-file.h); they are read, as every file is, through
 * ms-input.c. */
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
