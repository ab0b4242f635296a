/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-output-plan.h: every file one command will write, known before any
 * work, and checked once as each is added.
 *
 * A command (the command line's run, compare, calibrate, lesson, multi,
 * fleet, show, plot, report, every --export-*, --plot) adds each file it
 * will write before it measures or reads anything heavy: its outputs, the
 * sidecar beside them, its exports, its pictures, standard output when a
 * document goes there, the folders it makes for its processes. The check
 * that runs as each file is added refuses:
 *
 * - a file that is one the plan already holds: the same name once
 *   symbolic links are followed (dangling ones too), or the same device
 *   and inode (a hard link, /dev/fd/N);
 * - a second document on standard output, by any name (`-`, /dev/stdout,
 *   /dev/fd/1);
 * - a pipe (FIFO) that nothing reads: written at the end of the work, it
 *   could only fail then; one that is read is held open for writing from
 *   the check on, so that its reader sees no end of file before the
 *   command has written;
 * - one of the command's inputs (ms_atomic_file_protect: kept open, so
 *   that a deleted input's inode cannot come back as a new file's);
 * - another run's files: a file that is a sidecar of memsweep's (its own
 *   run's sidecar aside), a name NAME-meta.json beside NAME-samples.csv,
 *   NAME-summary.csv or NAME.csv that the plan does not write (it would
 *   become their metadata), or a file of the set of a sidecar beside it
 *   (ms_meta_sidecar_each_file), by name or as a hard link to one, that
 *   the plan does not write. The plan's own sidecar replaces an existing
 *   one only where the plan writes that one's whole set.
 *   A file of the command's own (an export, a picture) never replaces a
 *   file holding a run's samples or summary, known by its first line.
 *   A file and its .gz form are one run's to every reader: a run's file
 *   is not written beside its other form (plain or gzip) that the plan
 *   does not write, nor a file of the command's own beside one that
 *   holds a run's samples or summary.
 *   A descriptor's file (`3>>F`, `5<>F` named /proc/self/fd/5, standard
 *   output appended to a file) is held to the same rules where its name
 *   leads to that file.
 *
 * Once ms_output_plan_start has been called, the atomic writer
 * (ms-atomic-file.h) refuses every target the plan does not hold, so a
 * command added later cannot write outside its plan. Messages name both
 * files. GLib-free; one plan a process. */
#pragma once

#include "files/ms-file-kinds.h"

#include <stdbool.h>
#include <stddef.h>

/* Turns the gate on: from now on the atomic writer writes only what the
 * plan holds. */
void ms_output_plan_start (void);

/* Adds a file of the command's own (an export, --plot, a picture, a
 * report, a profile written without a sidecar); "-" is standard output.
 * given_by names the option for messages. False with a message naming
 * both files when it conflicts. */
bool ms_output_plan_add (const char *given_by, const char *path, char *err, size_t errlen);

/* Adds files written with one sidecar (a run's samples and summary, a
 * profile, a multi aggregate; at most 4), and that sidecar: checked as
 * ms_meta_sidecar_check_targets checks them, then each as above. kinds[i]
 * is what paths[i] will hold: an existing file there that holds
 * measurements of another kind (a peer matrix where a profile is to go)
 * is never replaced. */
bool ms_output_plan_add_set (const char *given_by, const char *const *paths,
                             const MsFileKind *kinds, int n, char *err, size_t errlen);

/* Adds a folder the command has made for its processes' files. */
bool ms_output_plan_add_folder (const char *given_by, const char *path, char *err,
                                size_t errlen);

/* What was measured is never discarded: when a command cannot write its
 * final files, for any reason (another command has since made a file of
 * another run at one of their names, the folder became read-only, full or
 * was removed, a pipe or device stands at a name), it writes them under
 * their own names into a new folder, memsweep-kept-XXXXXX, declared in the
 * plan as the command's own: beside the first of them (attempt 0; TMPDIR
 * when none can be made there), else in TMPDIR (attempt 1). The folder's
 * path in folder; false when none could be made. */
bool ms_output_plan_keep_folder (const char *near, int attempt, char *folder, size_t len);
/* The folders a kept folder is made in last, after beside, TMPDIR and the
 * command's own folder: i 0 the current folder ("."), 1 HOME; NULL past
 * them or where unset. Whoever looks for what a process kept looks there
 * too (ms-supervisor.c). */
#define MS_OUTPUT_PLAN_LAST_RESORTS 2
const char *ms_output_plan_last_resort (int i);
/* A folder ms_output_plan_keep_folder made that was not used (its files
 * could not be written there): removed, and out of the plan. */
void ms_output_plan_drop_kept_folder (const char *folder);
/* A folder of the plan removed by its command (a process folder): no
 * longer held by its inode, which the next folder made may get. */
void ms_output_plan_forget_folder (const char *folder);
/* Last (attempt 2), the folder this variable names: a supervisor sets it
 * for its processes (ms-supervisor.h) to the folder of its own files,
 * which has room when their TMPDIR is full or was removed. */
#define MS_OUTPUT_PLAN_KEEP_ENV "MEMSWEEP_KEEP_DIR"
/* The folder (absolute) of the first set of files added
 * (ms_output_plan_add_set), or "" when none was. */
const char *ms_output_plan_first_set_folder (void);

/* Where a kept file goes: folder, then path's name. */
bool ms_output_plan_kept_name (const char *folder, const char *path, char *out, size_t len);

/* The same rules for one file written alone, outside any command's plan
 * (an export of the app, a job of its own on a worker thread): refused
 * where it is one of the inputs, a folder or read-only, another run's
 * sidecar or a file of another run's set, or a file holding a run's
 * samples or summary. Reads no state of the plan's: any thread. */
bool ms_output_plan_check_file (const char *given_by, const char *path, char *err,
                                size_t errlen);

/* Whether standard output is closed (held by /dev/null read-only, as
 * main holds a closed one): nothing written there would arrive. */
bool ms_output_plan_stdout_closed (void);

/* Whether path names standard output (`-`, /dev/stdout, /dev/fd/1,
 * /proc/self/fd/1). */
bool ms_output_plan_is_stdout (const char *path);
