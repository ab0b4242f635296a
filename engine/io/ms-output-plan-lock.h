/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-output-plan-lock.h: a file of a command's output plan is held for
 * that command from the plan's check to its end, so that a second command
 * writing the same file at the same time is refused before any work,
 * never left to lose the first one's files at the last rename.
 *
 * The hold is an advisory lock (flock) on a small file beside the target,
 * TARGET.memsweep-lock (a .gz target's plain name: a file and its .gz form
 * are one run's to every reader), which says which process holds it
 * ("memsweep-lock PID HOST"). The kernel releases a flock when its holder
 * dies, even by SIGKILL, so a lock file left by a killed command holds
 * nothing: the next command takes it over, where a PID file would have to
 * guess whether its process is still alive. On NFS, Linux carries a flock
 * to the server as a lock of the whole file, so nodes of a fleet that
 * share a folder see each other's. Where a file system takes no locks
 * (ENOLCK, EOPNOTSUPP), the file is written unlocked, as before.
 *
 * The lock file is removed when the command ends (exit, or a signal that
 * ends it: it is one of the temporaries ms-atomic-file.h removes then). A
 * process that a memsweep command started takes no locks: it writes into
 * a folder made for it alone (run --grade's, calibrate's, compare --live's
 * processes), where a lock file left by its death would be taken for one
 * of its files, or the files its parent planned and holds (fleet-node's
 * run). GLib-free. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define MS_OUTPUT_LOCK_SUFFIX ".memsweep-lock"
/* This process's PID, for the processes it starts: one whose parent's it
 * is was started by a memsweep command. */
#define MS_OUTPUT_LOCK_ENV "MEMSWEEP_COMMAND_PID"

/* Once, when the command's plan starts: whether this process was started
 * by a memsweep command (then it takes no locks), and this process named
 * for those it starts. */
void ms_output_lock_start (void);

/* Holds target (a file's path, symbolic links resolved) for this process
 * until it ends. True when held (*taken: by this call), held already (by
 * this process, or for it by the process that started it), or where no
 * lock can be taken; false
 * with "GIVEN_BY NAME: why" in err when another process holds it (naming
 * it, its PID and host where the lock file says them) or the lock file
 * cannot be made. */
bool ms_output_lock_take (const char *given_by, const char *name, const char *target, bool *taken,
                          char *err, size_t errlen);

/* Whether the hold on target (a file's path, as given to
 * ms_output_lock_take) is still this process's, checked just before the
 * file is renamed into place: its lock file's name still leads to the
 * file this process locked. Someone who removed it (or put another file
 * there) let a second command take a hold of its own, and the two would
 * write the same file: false with "NAME: why" in err then. True where
 * this process holds no lock of target. */
bool ms_output_lock_still_held (const char *name, const char *target, char *err, size_t errlen);

/* Lets target go again (its plan refused it after all): the lock file is
 * removed. Nothing when this process does not hold it. */
void ms_output_lock_release (const char *target);
/* Gives up every hold, their descriptors with them: where a write failed
 * for want of a descriptor (a limit lowered midway, prlimit), they go to
 * keeping what was measured in a folder of its own, which needs none. */
void ms_output_lock_release_all (void);

/* Whether path is the name of a lock file of memsweep's (TARGET.memsweep-lock). */
bool ms_output_lock_is_name (const char *path);
