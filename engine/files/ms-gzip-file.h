/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gzip-file.h: gzip-compressed result files ("X-samples.csv.gz"): their
 * names, and their plain content as a file every reader reads as it reads
 * a plain one. A compressed file is recognised by its first bytes, so a
 * renamed one still opens; its name, less ".gz", is the plain file's for
 * every naming rule (the summary beside the samples, the sidecar, the name
 * a sidecar records). Sizes and hashes are those of the plain content, so
 * a sidecar written for the plain file describes its compressed form too.
 * Plain C with zlib, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define MS_GZIP_SUFFIX ".gz"

/* Whether the file open at fd starts with gzip's magic bytes; read with
 * pread, so fd's offset stays where it was. */
bool ms_gzip_fd_is_compressed (int fd);

/* The plain content of the gzip file open at fd (path names it in
 * messages), as an unlinked temporary file open for reading at offset 0;
 * -1 with "path: why". fd is left open. The file inflated last is kept:
 * opening it again (the summary sniff, the sidecar's hash, the pair check)
 * does not inflate it again. */
int ms_gzip_plain_fd (int fd, const char *path, char *err, size_t errlen);

/* Whether a plain content could not be written (a full TMPDIR, a
 * file-size limit) since the process started: the reader that failed
 * then failed for want of room to write, not for its input (the command
 * line exits 4, not 2). */
bool ms_gzip_writing_failed (void);

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
