/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-read-file.h: reading a small result file whole, through the one
 * reader (ms-input.h), with the refusals every small file shares (a file
 * too large, a NUL byte, text that is not UTF-8). Below both the small
 * files (ms-small-file.h) and their metadata sidecars
 * (ms-meta-sidecar.h), which read through it. Plain C, no GLib. */
#pragma once

#include <stddef.h>

/* A regular file of at most 4 MiB without NUL bytes, whole and
 * NUL-terminated; NULL with "path: why". Free with free (). */
char *ms_small_file_read (const char *path, char *err, size_t errlen);
