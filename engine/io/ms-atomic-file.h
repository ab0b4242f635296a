/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-atomic-file.h: every file memsweep writes (CSV, charts) goes through
 * here, so that nothing the user already has is lost.
 *
 * Policy:
 * - A regular file is written to a temporary file beside it
 *   (NAME.memsweep-XXXXXX, locked while it is written),
 *   flushed, synced and closed, and only then renamed over it; every step's
 *   status is checked and a failure removes the temporary and leaves the old
 *   file byte for byte as it was. The new file keeps the old one's mode.
 * - A symbolic link is followed: the file it points to is replaced, the link
 *   stays.
 * - A read-only target (no write permission) is refused, not replaced.
 * - Character devices and pipes (/dev/null, a FIFO) are written in place:
 *   there is nothing to rename over. Folders, sockets and block devices are
 *   refused.
 * - A name of one of this process's descriptors (/dev/stdout, /dev/fd/N,
 *   /proc/self/fd/N) is written through that descriptor, where it stands:
 *   `--out /dev/stdout >> log` appends to log, never replaces it.
 * - A file protected as one of the command's inputs (by device and inode,
 *   whatever name reaches it) is refused. Inputs are kept open, so that
 *   an input deleted meanwhile cannot lend its inode to a new file.
 * - Where a gate is set (the command line's output plan), a file it does
 *   not let through is refused.
 * - A write past a file-size limit fails (EFBIG) like one to a full disk:
 *   ms_atomic_file_clean_up_on_signals ignores SIGXFSZ, which would end
 *   the process in the middle of the write.
 * - The temporaries that are open are known to
 *   ms_atomic_file_remove_temporaries, which a signal handler may call; one
 *   left by a writer that was killed outright is removed by the next write
 *   to the same target.
 *
 * Messages name the file as the caller gave it and say why. GLib-free.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

typedef struct MsAtomicFile MsAtomicFile;

/* Whether path could be written under the policy above, checked before any
 * work is done: the folder exists, the name fits, the target is allowed. */
bool ms_atomic_file_check (const char *path, char *err, size_t errlen);

/* The same for a file that must be one (a sidecar beside a CSV file): a
 * device, a pipe or a descriptor is refused too. */
bool ms_atomic_file_check_regular (const char *path, char *err, size_t errlen);
/* Whether path names a device, a pipe or one of this process's
 * descriptors, which a file is written into in place. */
bool ms_atomic_file_in_place (const char *path);

MsAtomicFile *ms_atomic_file_open (const char *path, char *err, size_t errlen);

/* Follows path's symbolic links (dangling ones too) into target, as a
 * write would; *descriptor is N where they lead to this process's
 * descriptor N (/dev/stdout, /dev/fd/N), else -1. */
bool ms_atomic_file_resolve (const char *path, char *target, size_t len, int *descriptor);

/* A check every file passes before it is opened for writing (the
 * command's output plan, ms-output-plan.h): name as the caller gave it,
 * target and descriptor as ms_atomic_file_resolve gives them. False with
 * a message refuses the file. NULL (the default) lets every file pass. */
typedef bool (*MsAtomicFileGate) (const char *name, const char *target, int descriptor, char *err,
                                  size_t errlen);
void ms_atomic_file_set_gate (MsAtomicFileGate gate);
/* A check every file written through a temporary passes again just
 * before its rename (the output plan's: the hold on it is still this
 * process's, ms-output-plan-lock.h); a group is renamed only when all of
 * its files pass. False with a message leaves the target as it was.
 * NULL (the default) lets every file pass. */
void ms_atomic_file_set_commit_gate (MsAtomicFileGate gate);

/* Marks the file at path (its device and inode) as an input: writing it is
 * refused from then on. False only when out of memory. */
bool ms_atomic_file_protect (const char *path);

/* From now on, every file the engine's readers open (samples, summaries,
 * small files, envelopes, profiles, metadata looks) is protected as above
 * when it is opened: a program whose outputs must never replace what it
 * read (the command line) turns this on once. */
void ms_atomic_file_protect_what_is_read (void);
/* Turns that off (false) or back on for what is read meanwhile; the
 * setting it replaces. A command reading back its own processes' files,
 * which are no inputs of the user's, turns it off: each file protected
 * stays open, and they would grow with the number of runs. */
bool ms_atomic_file_protect_reads (bool on);
/* Called by the readers with the descriptor they opened, and the path
 * they opened it at (ms_atomic_file_note_read: none). */
void ms_atomic_file_note_input (int fd, const char *path);
#define ms_atomic_file_note_read(fd) ms_atomic_file_note_input ((fd), NULL)
/* A protected input is a handle: the file opened once at a path, found
 * again by that path as given, with no look at the path (a command reads
 * what it opened, however often, and the file's name is looked up once).
 * A new descriptor of it (close it), or -1 where no input was opened at
 * path; its fstat, or false. */
int ms_atomic_file_kept (const char *path);
bool ms_atomic_file_kept_stat (const char *path, struct stat *st);
/* Whether the open file fd is one of the protected inputs (standard output
 * appended to an input, `show F >> F`). */
bool ms_atomic_file_is_input_fd (int fd);

/* PREFIX + suffix (run --out PREFIX: PREFIX-samples.csv), or PREFIX itself
 * where it names a device, a pipe or a descriptor, which then gets every
 * file written in place; false when it does not fit in len. */
bool ms_atomic_file_output_name (const char *prefix, const char *suffix, char *out, size_t len);

/* Writes everything (short writes are continued); false after the first
 * failure, which is kept for ms_atomic_file_finish's message. */
bool ms_atomic_file_write (MsAtomicFile *file, const void *data, size_t len);

/* The SHA-256 of the bytes written so far (before compression: a .gz
 * file's plain content), in hex[MS_SHA256_HEX_LEN] (ms-sha256.h); bytes
 * patched over later are not in it. */
void ms_atomic_file_sha256 (const MsAtomicFile *file, char *hex);

/* Whether bytes already written can be overwritten (ms_atomic_file_patch):
 * a temporary can, unless it is compressed (a name ending in .gz); a
 * device or a pipe written in place cannot. */
bool ms_atomic_file_can_patch (const MsAtomicFile *file);
/* Whether the target is a file, written through a temporary (so a sidecar
 * may lie beside it), not a device, pipe or descriptor written in place. */
bool ms_atomic_file_is_file (const MsAtomicFile *file);

/* Overwrites len bytes at offset of what was written, before finishing;
 * false after a failure, kept like a write's. */
bool ms_atomic_file_patch (MsAtomicFile *file, long long offset, const void *data, size_t len);

/* Syncs and closes the temporary: after this only the rename is left. */
bool ms_atomic_file_finish (MsAtomicFile *file, char *err, size_t errlen);

/* Finishes when needed, renames over the target and frees the file; on
 * failure removes the temporary. */
bool ms_atomic_file_commit (MsAtomicFile *file, char *err, size_t errlen);

/* Commits 2 to MS_ATOMIC_MAX_GROUP files as one (a run's samples, summary
 * and metadata): all are finished before any is renamed, they are renamed
 * in the order given under the lock of the first two's folders, and when
 * one rename fails the targets already renamed are put back as they were.
 * taken, where not NULL: set when a target exists by the time the lock
 * is held (another writer chose the same name; nothing is then renamed).
 * Frees all. */
#define MS_ATOMIC_MAX_GROUP 4
bool ms_atomic_file_commit_group (MsAtomicFile **files, int n, bool *taken, char *err,
                                  size_t errlen);
/* Removes a file of memsweep's own (a temporary, a hold, an old copy);
 * one that cannot be removed (a folder made append-only, chattr +a) is
 * said on stderr, so that nothing memsweep made is left unnamed. */
void ms_atomic_file_remove_or_say (const char *path);
/* What the engine says of files and processes goes through the program's
 * one message function (the command line's "memsweep CMD: ..."); lead is
 * what that function puts first, for the sentences composed ahead to be
 * said in a signal handler. Until set: "memsweep: " and the message. */
typedef void (*MsSayFn) (const char *format, va_list args);
void ms_atomic_file_set_say (MsSayFn say, const char *lead);
void ms_atomic_file_say (const char *format, ...) __attribute__ ((format (printf, 1, 2)));
const char *ms_atomic_file_say_lead (void);
/* Removes the temporary and frees the file; NULL is allowed. */
void ms_atomic_file_abort (MsAtomicFile *file);

/* Unlinks every temporary still open. Async-signal-safe. */
void ms_atomic_file_remove_temporaries (void);

/* A temporary of the caller's own (a file, or a folder its files are
 * noted in after it), removed with the others when a signal ends the
 * process; its slot, or -1 when there is no room. Forgotten once the
 * caller has removed it. */
int ms_atomic_file_note_temporary (const char *path);
void ms_atomic_file_forget_temporary (int slot);

/* For a program without a stop handler of its own: SIGINT, SIGTERM, SIGHUP
 * (and the other signals that end a process by default) remove every
 * temporary, then end the process as the signal would have. Signals that
 * are ignored, or already have a handler, are left as they are. SIGXFSZ
 * is ignored, so that a write past a file-size limit fails with EFBIG and
 * is cleaned up as any failed write. */
void ms_atomic_file_clean_up_on_signals (void);

/* Removes the temporaries of target (TARGET.memsweep-XXXXXX) that a killed
 * writer left: marked as memsweep's and locked by no live writer. For a
 * supervisor whose child was killed while writing where it was told to. */
void ms_atomic_file_remove_stale (const char *target);
