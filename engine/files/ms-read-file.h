/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-read-file.h: opening a result file for reading, and reading a small
 * one whole, with the refusals every reader shares (a FIFO, folder or
 * device, a file too large, a NUL byte, text that is not UTF-8). Below
 * both the small files (ms-small-file.h) and their metadata sidecars
 * (ms-meta-sidecar.h), which read through it. Plain C, no GLib. */
#pragma once

#include <stddef.h>

struct stat;
/* Opens path for reading if it is a regular file (a FIFO, device or folder
 * is refused at once, never waited on); -1 with "path: why". A gzip file
 * opens as its plain content (ms-gzip-file.h), st describing that. */
int ms_open_regular (const char *path, struct stat *st, char *err, size_t errlen);

/* As ms_open_regular, for a look at a file that is no input of the
 * command: whether a sidecar describes a file about to be replaced. Not
 * noted as read, so the command may still replace it (ms-atomic-file.h). */
int ms_open_regular_to_check (const char *path, struct stat *st, char *err, size_t errlen);

/* A regular file of at most 4 MiB without NUL bytes, whole and
 * NUL-terminated; NULL with "path: why". Free with free (). */
char *ms_small_file_read (const char *path, char *err, size_t errlen);
