/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-part-files.c: a stream cut into numbered files (ms-part-files.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-i18n.h"
#include "ms-part-files.h"

struct MsPartFiles {
  char name[PATH_MAX];
  long long part_size;
  MsAtomicFile *open; /* the part being written, or NULL */
  long long in_open;  /* bytes in it so far */
  int n;              /* parts begun */
  bool failed, finished, too_many;
  char err[512];
};

MsPartFiles *
ms_part_files_new (const char *name, long long part_size)
{
  MsPartFiles *parts = calloc (1, sizeof *parts);
  if (!parts)
    return NULL;
  snprintf (parts->name, sizeof parts->name, "%s", name);
  parts->part_size = part_size > 0 ? part_size : 1;
  return parts;
}

void
ms_part_files_name (const MsPartFiles *parts, int i, char *buf, size_t len)
{
  snprintf (buf, len, "%s.part-%04d", parts->name, i);
}

bool
ms_part_files_too_many (const MsPartFiles *parts)
{
  return parts->too_many;
}

int
ms_part_files_count (const MsPartFiles *parts)
{
  return parts->n;
}

static bool
fail (MsPartFiles *parts, int err)
{
  char part[PATH_MAX + 16];
  ms_part_files_name (parts, parts->n, part, sizeof part);
  if (!parts->failed && err)
    snprintf (parts->err, sizeof parts->err, ms_gettext ("%s: cannot write: %s"), part,
              strerror (err));
  parts->failed = true;
  return false;
}

/* The open part put in place under its name. */
static bool
close_part (MsPartFiles *parts)
{
  MsAtomicFile *file = parts->open;
  parts->open = NULL;
  if (!parts->failed && ms_atomic_file_finish (file, parts->err, sizeof parts->err)
      && ms_atomic_file_commit (file, parts->err, sizeof parts->err))
    return true;
  parts->failed = true;
  return false;
}

static bool
open_part (MsPartFiles *parts)
{
  char part[PATH_MAX + 16];
  if (parts->n == MS_PART_FILES_MAX) {
    parts->too_many = true;
    return fail (parts, EFBIG);
  }
  parts->n++;
  ms_part_files_name (parts, parts->n, part, sizeof part);
  parts->open = ms_atomic_file_open (part, parts->err, sizeof parts->err);
  parts->in_open = 0;
  if (!parts->open)
    parts->failed = true;
  return parts->open != NULL;
}

bool
ms_part_files_write (MsPartFiles *parts, const void *data, size_t len)
{
  const char *at = data;
  while (len > 0 && !parts->failed) {
    if (!parts->open && !open_part (parts))
      break;
    long long room = parts->part_size - parts->in_open;
    size_t take = (long long)len < room ? len : (size_t)room;
    if (!ms_atomic_file_write (parts->open, at, take))
      return fail (parts, errno);
    parts->in_open += (long long)take;
    at += take;
    len -= take;
    if (parts->in_open == parts->part_size)
      close_part (parts);
  }
  return !parts->failed;
}

bool
ms_part_files_finish (MsPartFiles *parts, char *err, size_t errlen)
{
  if (parts->open)
    close_part (parts);
  parts->finished = !parts->failed && parts->n > 0;
  if (!parts->finished)
    snprintf (err, errlen, "%s", parts->err[0] ? parts->err : strerror (EIO));
  return parts->finished;
}

void
ms_part_files_free (MsPartFiles *parts)
{
  if (!parts)
    return;
  if (parts->open)
    ms_atomic_file_abort (parts->open);
  for (int i = 1; !parts->finished && i <= parts->n; i++) {
    char part[PATH_MAX + 16];
    ms_part_files_name (parts, i, part, sizeof part);
    unlink (part);
  }
  free (parts);
}
