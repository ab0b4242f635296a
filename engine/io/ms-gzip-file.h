/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gzip-file.h: gzip-compressed result files ("X-samples.csv.gz"): their
 * names and their writer. Every reader reads a compressed file as a plain
 * one, inflated as it is read (ms-input.h). A compressed file is
 * recognised by its first bytes, so a renamed one still opens; its name,
 * less ".gz", is the plain file's for
 * every naming rule (the summary beside the samples, the sidecar, the name
 * a sidecar records). Sizes and hashes are those of the plain content, so
 * a sidecar written for the plain file describes its compressed form too.
 * Plain C with zlib, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define MS_GZIP_SUFFIX ".gz"

/* Whether path ends in ".gz". */
bool ms_gzip_is_name (const char *path);

/* path's length without a ".gz" ending. */
size_t ms_gzip_stem_len (const char *path);

/* A gzip stream written as it goes: every file memsweep writes whose name
 * ends in ".gz" gets its bytes so (ms-atomic-file.c), never plain ones.
 * gzip -6, no name and no time in the header, so the same content
 * compresses to the same bytes. */
typedef struct MsGzipWriter MsGzipWriter;
/* Takes n compressed bytes; false when they could not be written. */
typedef bool (*MsGzipSink) (void *user, const void *data, size_t n);
MsGzipWriter *ms_gzip_writer_new (MsGzipSink sink, void *user);
/* Compresses len bytes; with end, ends the stream. False when the sink
 * failed or zlib did. */
bool ms_gzip_writer_put (MsGzipWriter *w, const void *data, size_t len, bool end);
void ms_gzip_writer_free (MsGzipWriter *w);
