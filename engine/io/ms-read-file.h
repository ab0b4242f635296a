/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-read-file.h: reading a small result file whole, through the one
 * reader (ms-input.h), with the refusals every small file shares (a file
 * too large, a NUL byte, text that is not UTF-8). Below both the small
 * files (ms-small-file.h) and their metadata sidecars
 * (ms-meta-sidecar.h), which read through it. Plain C, no GLib. */
#pragma once

#include <stddef.h>
#include <sys/stat.h>

/* A regular file of at most 4 MiB without NUL bytes, whole and
 * NUL-terminated; NULL with "path: why". Free with free (). */
char *ms_small_file_read (const char *path, char *err, size_t errlen);

/* What was read of a file, kept while it does not change (device, inode,
 * size, times), for one process: a command asks the same of a file again
 * and again (show: the reader, the pair check and the settings line each
 * check the sidecar, which reads it and hashes the CSV file whole), and
 * each answer is read once. tag: which answer (the bytes hashed, a head's
 * facts, or MS_FILE_KNOWN_TEXT for the text whole). */
#define MS_FILE_KNOWN_TEXT (-1)
#define MS_FILE_KNOWN_HEAD (-2)
/* A copy (free with free ()) of what was kept of the regular file now at
 * path, or NULL; *st: the file's identity, taken here, for
 * ms_file_remember. */
void *ms_file_recall (const char *path, long long tag, struct stat *st);
/* Keeps size bytes of data for the file whose identity is *st (a copy;
 * nothing for a file that is not regular). */
void ms_file_remember (const char *path, long long tag, const struct stat *st, const void *data,
                       size_t size);
