/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-session.h: what one window works on, apart from its widgets: the runs
 * shown (a GListStore of MsRun, in the order they came), the live sweep's
 * run, the devices found, the sweep settings, and the run and cell the user
 * has selected. The window creates it; every page takes it through its
 * `session` property and follows it with notifications. */
#pragma once

#include <gio/gio.h>

#include "ms-run.h"
#include "ms-sweep-settings.h"

G_BEGIN_DECLS

#define MS_TYPE_SESSION (ms_session_get_type ())
G_DECLARE_FINAL_TYPE (MsSession, ms_session, MS, SESSION, GObject)

MsSession *ms_session_new (void);

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
 * - "selected-cell" (int): its cell index, or -1. */
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
void ms_session_set_sweeping (MsSession *self, gboolean sweeping);

GArray *ms_session_get_devices (MsSession *self);
void ms_session_set_devices (MsSession *self, GArray *devices);
gboolean ms_session_get_discovering (MsSession *self);
gboolean ms_session_have_gpu (MsSession *self);
int ms_session_get_device (MsSession *self);
void ms_session_set_device (MsSession *self, int device);

MsSweepSettings *ms_session_get_sweep_settings (MsSession *self);
/* The sweep as set, on the chosen device; FALSE with err when invalid. */
gboolean ms_session_get_sweep (MsSession *self, MsSweep *sweep, char *err, size_t err_size);

MsRun *ms_session_get_selected_run (MsSession *self);
void ms_session_set_selected_run (MsSession *self, MsRun *run);
int ms_session_get_selected_cell (MsSession *self);
void ms_session_set_selected_cell (MsSession *self, int cell);

G_END_DECLS
