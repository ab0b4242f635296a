/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-input.h: the one way memsweep reads a file. A regular file, its gzip
 * form (recognised by its first bytes, whatever its name) and standard
 * input ("-", plain or gzipped) are all read as a stream of their plain
 * bytes, inflated through zlib as they are read: nothing is staged in
 * TMPDIR, and memory stays bounded whatever the input's size.
 *
 * Standard input is the one input that may be read more than once (a
 * look at its first bytes, then the rows, then the rows again for a file
 * whose rounds come back to a cell): the bytes it gave are held, in
 * memory up to MS_INPUT_HELD_MEMORY, beyond that in an unlinked file in
 * TMPDIR, which the notice function set with ms_input_set_notice names
 * with the room it takes. Plain C with zlib, no GLib. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MS_INPUT_STDIN "-"
/* Standard input held in memory up to this; beyond, in TMPDIR. */
#define MS_INPUT_HELD_MEMORY (32u << 20)
/* What ms_input_size gives when the plain size is not known. */
#define MS_INPUT_SIZE_UNKNOWN UINT64_MAX

typedef struct MsInput MsInput;

/* Opens path ("-": standard input) for reading its plain bytes; NULL with
 * "path: why". A FIFO, folder or device named by path is refused at once,
 * never waited on. as_input: the file is one of the command's inputs,
 * which no output may replace (ms-atomic-file.h); a look at a file about
 * to be replaced passes false. */
MsInput *ms_input_open (const char *path, bool as_input, char *err, size_t errlen);

/* Up to n plain bytes from the read position, which moves on; 0 at the
 * end; -1 on an error, which ms_input_error says ("path: why"). Only the
 * bytes the file held when it was opened are read: a file that keeps
 * growing still ends. */
ssize_t ms_input_read (MsInput *in, void *buf, size_t n);

/* Up to n plain bytes at offset, the read position unchanged. A plain
 * file reads any offset; a stream only those the window holds: up to
 * MS_INPUT_WINDOW bytes behind the furthest byte read, and ahead of it
 * (inflated then, for ms_input_read to take). -1 with ESPIPE in errno
 * for an offset out of reach. */
ssize_t ms_input_pread (MsInput *in, void *buf, size_t n, uint64_t offset);
#define MS_INPUT_WINDOW (4u << 20)

/* The plain size: exact for a plain regular file; for a gzip file the
 * size its trailer records (as gzip -l gives it: modulo 4 GiB);
 * MS_INPUT_SIZE_UNKNOWN for standard input. */
uint64_t ms_input_size (const MsInput *in);

/* A function that sees every plain byte of an input once, in order from
 * its first, as reads reach them: a hash taken while a reader parses the
 * bytes, not in a read of its own. */
typedef void (*MsInputTap) (void *data, const void *bytes, size_t n);
/* Sets in's tap (NULL: none); false when its first bytes are out of reach
 * (a stream read past its window). A read that would leave it a gap (a
 * pread ahead of the bytes read so far) ends it: it then saw fewer bytes
 * than the input holds, and says so by its own count. */
bool ms_input_tap (MsInput *in, MsInputTap tap, void *data);

/* Whether the input is a stream (gzip data or standard input): pread
 * reaches only the window. */
bool ms_input_is_stream (const MsInput *in);

/* Whether a thread of its own inflates the input ahead of the reads (a
 * large gzip file): one core is then that thread's. */
bool ms_input_inflates_ahead (const MsInput *in);

/* The whole plain content, NUL-terminated, in a buffer that grows as it
 * is read (free with free ()); NULL with "path: why" in err on an error.
 * Content larger than max bytes sets *too_large and gives its first max
 * bytes, so that a reader can say what is wrong before the size. */
char *ms_input_read_all (MsInput *in, size_t max, size_t *len, bool *too_large, char *err,
                         size_t errlen);

/* "path: why" of the last error, and its why alone ("" before one). */
const char *ms_input_error (const MsInput *in);
const char *ms_input_why (const MsInput *in);

/* Whether the last error was a failure to hold standard input (a full
 * TMPDIR, a file-size limit): no fault of the input's. */
bool ms_input_holding_failed (void);

void ms_input_close (MsInput *in);

/* What was read of a file, kept while it does not change (device, inode,
 * size, times: the file's identity, not its name), for one process: a
 * command asks the same of a file again
 * and again (show: the kind, the reader, the pair check and the settings
 * line each look at its head and check the sidecar, which hashes the CSV
 * file whole), and each answer is read once. tag: which answer (the bytes
 * hashed, the text whole, the raw head every MsInput of the file reads
 * from). */
#define MS_FILE_KNOWN_TEXT (-1)
#define MS_FILE_KNOWN_RAW_HEAD (-2)
/* The file at path: the fstat of the input the command opened there
 * (ms_atomic_file_kept_stat), else a stat; false with errno. */
bool ms_input_look (const char *path, struct stat *st);
/* A copy (free with free ()) of what was kept of the regular file at
 * path, or NULL; *st: the file's identity, by ms_input_look, for
 * ms_file_remember. */
void *ms_file_recall (const char *path, long long tag, struct stat *st);
/* Keeps size bytes of data for the file whose identity is *st (a copy;
 * nothing for a file that is not regular, or that changed in the last
 * 50 ms: a file replaced within the same clock tick looks the same). */
void ms_file_remember (long long tag, const struct stat *st, const void *data, size_t size);

/* Called once, with a translated sentence, when standard input starts to
 * be held in TMPDIR. NULL: nothing said. */
void ms_input_set_notice (void (*notice) (const char *sentence));

/* A test of whether the command was told to stop: set, a read of standard
 * input that waits for its writer ends (ECANCELED) once it is true. NULL:
 * such a read waits as long as the writer does. */
void ms_input_set_stop (bool (*stopped) (void));
