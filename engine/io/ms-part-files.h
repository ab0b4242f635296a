/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-part-files.h: one stream written as numbered files of at most a
 * given size each (NAME.part-0001, NAME.part-0002, ...), which `cat`
 * joins into NAME: how a file larger than the file-size limit (a hard
 * ulimit -f, as a batch system sets) is kept when no folder can take it
 * whole. Each part goes through ms-atomic-file.c. Plain C, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The most parts a stream is cut into: four digits, in name order. */
#define MS_PART_FILES_MAX 9999

typedef struct MsPartFiles MsPartFiles;

/* Parts of NAME, each at most part_size bytes; NULL when out of memory. */
MsPartFiles *ms_part_files_new (const char *name, long long part_size);

/* Writes len bytes on, beginning a new part where one is full; false
 * (and every later call false) when a part could not be written. */
bool ms_part_files_write (MsPartFiles *parts, const void *data, size_t len);

/* Puts the last part in place: true when every part is written, else
 * false with a message naming the part. */
bool ms_part_files_finish (MsPartFiles *parts, char *err, size_t errlen);

/* Whether the stream needed more than MS_PART_FILES_MAX parts: no
 * folder would take it then. */
bool ms_part_files_too_many (const MsPartFiles *parts);

/* How many parts there are, and the name of part i (from 1). */
int ms_part_files_count (const MsPartFiles *parts);
void ms_part_files_name (const MsPartFiles *parts, int i, char *buf, size_t len);

/* Frees parts; where they were not all finished, those written are
 * removed: a part alone holds nothing that reads. */
void ms_part_files_free (MsPartFiles *parts);
