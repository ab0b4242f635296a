/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-job.h: one piece of long work on a worker thread: a GTask whose source
 * object is the job itself (never a widget), with progress and the result
 * posted back to the main context the job started from, and a cancel flag
 * the engine reads. The worker gets its own copy of what it needs (data);
 * the owner follows the job's signals with g_signal_connect_object, so it
 * may go away at any time. */
#pragma once

#include <gio/gio.h>
#include <stdatomic.h>

G_BEGIN_DECLS

#define MS_TYPE_JOB (ms_job_get_type ())
G_DECLARE_FINAL_TYPE (MsJob, ms_job, MS, JOB, GObject)

/* Worker thread: the job's result (freed with result_free), or NULL with
 * *error set. */
typedef gpointer (*MsJobFunc) (MsJob *job, gpointer data, GError **error);

/* data belongs to the job (freed with data_free after the worker ends).
 * Signals, in the main context:
 * - "progress" (double fraction, gpointer detail): ms_job_post_progress;
 * - "finished": once, after the worker returned.
 * Properties: "fraction" (double), "running" (gboolean). */
MsJob *ms_job_new (MsJobFunc func, gpointer data, GDestroyNotify data_free,
                   GDestroyNotify result_free);
void ms_job_start (MsJob *self);
/* Asks the worker to stop: the cancellable and the flag below. */
void ms_job_cancel (MsJob *self);
gboolean ms_job_is_cancelled (MsJob *self);
/* For the engine's cancel argument. */
atomic_int *ms_job_get_cancel_flag (MsJob *self);
/* Worker thread: emits "progress" in the main context; detail (may be
 * NULL) is freed with detail_free after the emission. */
void ms_job_post_progress (MsJob *self, double fraction, gpointer detail,
                           GDestroyNotify detail_free);
/* After "finished": the result (owned by the job), or NULL where the
 * worker failed. */
gpointer ms_job_get_result (MsJob *self);

G_END_DECLS
