/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-session.h: what one window works on, apart from its widgets: the runs
 * shown (a GListStore of MsRun, in the order they came), the live sweep's
 * run, the devices found, the sweep settings, and the run and cell the user
 * has selected; and the work that measures: the session starts, owns and
 * stops the sweep, the lesson runs and the jobs on several GPUs, and adds
 * their runs to itself (each measured run is also kept in the runs
 * library). The window creates it; the window and every page take it
 * through their `session` property, ask it to start and stop work, and
 * follow it with notifications. */
#pragma once

#include <gio/gio.h>

#include "ms-device-job.h"
#include "ms-job-engine.h"
#include "ms-lessons.h"
#include "ms-run.h"
#include "ms-sweep-settings.h"

G_BEGIN_DECLS

#define MS_TYPE_SESSION (ms_session_get_type ())
G_DECLARE_FINAL_TYPE (MsSession, ms_session, MS, SESSION, GObject)


/* Properties:
 * - "runs" (GListModel of MsRun, read-only): the runs shown.
 * - "n-runs" (guint, read-only).
 * - "live-run" (MsRun, read-only): the newest sweep's run while it is shown.
 * - "sweeping" (gboolean): a sweep is filling the live run.
 * - "devices" (GArray of MsDeviceInfo, boxed): what discovery found; NULL
 *   before it ends.
 * - "discovering" (gboolean): discovery has not ended.
 * - "have-gpu" (gboolean): discovery found a usable GPU; notified before
 *   "discovering" when both change.
 * - "device" (int): the device index a sweep runs on.
 * - "sweep-settings" (MsSweepSettings, construct-only).
 * - "selected-run" (MsRun): the run the user picked (the timeline's).
 * - "busy" (gboolean, read-only): a sweep, a lesson or a job on several
 *   GPUs is under way.
 * - "progress" (double, read-only): the sweep's fraction done, 0..1.
 * - "progress-text" (string, read-only): the sweep's cell now measured and
 *   its time left ("cell 3 of 40: Pinned at 2^12 · 10 s left").
 * - "device-job" (int, read-only): the MsDeviceJobKind under way.
 *
 * Signals, in the main context:
 * - "sweep-ended" (string message): the sweep finished or stopped, said
 *   in a sentence for a toast.
 * - "lesson-progress" (int topic, double fraction).
 * - "lesson-finished" (int topic, MsRun run or NULL, gpointer portable or
 *   NULL, string error or NULL): a lesson's run, measured or read, is in
 *   the session (unless its file is shown already); portable, the
 *   portable lesson's buffers on 2+ GPUs, is valid during the emission.
 * - "device-job-finished" (gpointer MsDeviceJobOutcome): a job on several
 *   GPUs ended; the sweep's runs are in the session already; valid during
 *   the emission. */
GListModel *ms_session_get_runs (MsSession *self);
guint ms_session_get_n_runs (MsSession *self);
MsRun *ms_session_get_run (MsSession *self, guint index);
/* The runs as an array of references (MsRun*), in order. */
GPtrArray *ms_session_dup_runs (MsSession *self);

/* Adds a run under a name of its own (another run's name gets " (2)").
 * FALSE (the run not added) when the same file is already shown. */
gboolean ms_session_add_run (MsSession *self, MsRun *run);
/* Adds several runs as ms_session_add_run does, in one change of the runs
 * (one items-changed), in their order; returns those added (a new array
 * of references), leaving out the files already shown. */
GPtrArray *ms_session_add_runs (MsSession *self, MsRun *const *runs, guint n_runs);
/* Adds a sweep's run, named after its device and the sweep's number, and
 * makes it the live run. */
void ms_session_add_sweep (MsSession *self, MsRun *run);
/* Renames a run, keeping names unique; an empty name gives the device's. */
void ms_session_rename_run (MsSession *self, MsRun *run, const char *name);
/* Removes a run (FALSE for the run a sweep is filling); the position it had
 * in *position, for ms_session_insert_run (undo). */
gboolean ms_session_remove_run (MsSession *self, MsRun *run, guint *position);
void ms_session_insert_run (MsSession *self, MsRun *run, guint position);
/* Removes every run but the live sweep's. */
void ms_session_clear_runs (MsSession *self);

MsRun *ms_session_get_live_run (MsSession *self);
gboolean ms_session_get_sweeping (MsSession *self);

GArray *ms_session_get_devices (MsSession *self);
void ms_session_set_devices (MsSession *self, GArray *devices);
gboolean ms_session_get_discovering (MsSession *self);
gboolean ms_session_have_gpu (MsSession *self);

MsSweepSettings *ms_session_get_sweep_settings (MsSession *self);
/* The sweep as set, on the chosen device; FALSE with err when invalid. */
gboolean ms_session_get_sweep (MsSession *self, MsSweep *sweep, char *err, size_t err_size);

/* ---- the work ---- */

/* Starts a sweep as set (ms_session_get_sweep) into a new live run. FALSE
 * with error when the settings are invalid, and without one when a sweep
 * runs already. */
gboolean ms_session_run_sweep (MsSession *self, GError **error);
/* Stops the sweep at its next repetition; what was measured stays. */
void ms_session_stop_sweep (MsSession *self);
/* Measures a lesson on the sizes, repetitions and device as set (the
 * defaults where they are invalid); FALSE when that lesson runs already. */
gboolean ms_session_run_lesson (MsSession *self, MsLessonTopic topic);
/* Reads the first of paths (NULL-terminated) that answers the lesson. */
gboolean ms_session_open_lesson_run (MsSession *self, MsLessonTopic topic,
                                     const char *const *paths);
/* Stops a lesson's run; "lesson-finished" still comes, with what was
 * measured. */
void ms_session_stop_lesson (MsSession *self, MsLessonTopic topic);
gboolean ms_session_get_lesson_running (MsSession *self, MsLessonTopic topic);
/* Runs the sweep as set (pinned memory at the default sizes where the
 * settings are invalid) on n GPUs at once, or the peer matrix between
 * them. FALSE with error when the sweep is invalid, and without one when
 * such a job runs already. */
gboolean ms_session_run_device_job (MsSession *self, MsDeviceJobKind kind, const int *devices,
                                    int n, GError **error);
void ms_session_stop_device_job (MsSession *self);
/* Stops everything under way (the window closing). */
/* A live comparison (`memsweep compare --live`): A and B measured in
 * processes that take turns until every cell is decided or budget_s is
 * spent; both runs join the session, then "live-compare-finished". FALSE
 * with error when other work runs or the command cannot start. */
gboolean ms_session_run_live_compare (MsSession *self, const char *a_options,
                                      const char *b_options, double budget_s,
                                      double threshold_pct, GError **error);
/* Stops it; both runs still come, with what they measured. */
void ms_session_stop_live_compare (MsSession *self);
gboolean ms_session_get_live_comparing (MsSession *self);
void ms_session_stop_all (MsSession *self);
gboolean ms_session_get_busy (MsSession *self);
/* The backend (taken) and peer function every job measures with from now
 * on, for tests; default: the system's. */
void ms_session_set_engine (MsSession *self, MsBackend *backend, MsDevicesPeerFunc peer_run);

G_END_DECLS
