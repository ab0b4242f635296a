/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-atomic-file.h: every file memsweep writes (CSV, charts) goes through
 * here, so that nothing the user already has is lost.
 *
 * Policy:
 * - A regular file is written to a temporary file beside it (NAME.XXXXXX),
 *   flushed, synced and closed, and only then renamed over it; every step's
 *   status is checked and a failure removes the temporary and leaves the old
 *   file byte for byte as it was. The new file keeps the old one's mode.
 * - A symbolic link is followed: the file it points to is replaced, the link
 *   stays.
 * - A read-only target (no write permission) is refused, not replaced.
 * - Character devices and pipes (/dev/null, /dev/stdout, a FIFO) are written
 *   in place: there is nothing to rename over. Folders, sockets and block
 *   devices are refused.
 * - The temporaries that are open are known to
 *   ms_atomic_file_remove_temporaries, which a signal handler may call.
 *
 * Messages name the file as the caller gave it and say why. GLib-free.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct MsAtomicFile MsAtomicFile;

/* Whether path could be written under the policy above, checked before any
 * work is done: the folder exists, the name fits, the target is allowed. */
bool ms_atomic_file_check (const char *path, char *err, size_t errlen);

MsAtomicFile *ms_atomic_file_open (const char *path, char *err, size_t errlen);

/* Writes everything (short writes are continued); false after the first
 * failure, which is kept for ms_atomic_file_finish's message. */
bool ms_atomic_file_write (MsAtomicFile *file, const void *data, size_t len);

/* Whether bytes already written can be overwritten (ms_atomic_file_patch):
 * a temporary can, a device or a pipe written in place cannot. */
bool ms_atomic_file_can_patch (const MsAtomicFile *file);

/* Overwrites len bytes at offset of what was written, before finishing;
 * false after a failure, kept like a write's. */
bool ms_atomic_file_patch (MsAtomicFile *file, long long offset, const void *data, size_t len);

/* Syncs and closes the temporary: after this only the rename is left. */
bool ms_atomic_file_finish (MsAtomicFile *file, char *err, size_t errlen);

/* Finishes when needed, renames over the target and frees the file; on
 * failure removes the temporary. */
bool ms_atomic_file_commit (MsAtomicFile *file, char *err, size_t errlen);

/* Commits two files as a pair: both are finished before either is renamed,
 * and when the second rename fails the first target is put back as it was.
 * Frees both. */
bool ms_atomic_file_commit_pair (MsAtomicFile *first, MsAtomicFile *second, char *err,
                                 size_t errlen);

/* Removes the temporary and frees the file; NULL is allowed. */
void ms_atomic_file_abort (MsAtomicFile *file);

/* Unlinks every temporary still open. Async-signal-safe. */
void ms_atomic_file_remove_temporaries (void);
