/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-job.c: a worker job with progress, cancel and a result. */
#include "ms-job.h"
#include "ms-props.h"

struct _MsJob {
  GObject parent_instance;
  MsJobFunc func;
  gpointer data;
  GDestroyNotify data_free, result_free;
  GCancellable *cancellable;
  atomic_int cancel;
  GMainContext *context;
  gboolean running;
  double fraction;
  gpointer result;
  GError *error;
};

G_DEFINE_FINAL_TYPE (MsJob, ms_job, G_TYPE_OBJECT)

enum { PROP_0, PROP_FRACTION, PROP_RUNNING, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { PROGRESS, FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const MsProp prop_table[N_PROPS] = {
  [PROP_FRACTION] = { "fraction", G_TYPE_DOUBLE, MS_PROP_FIELD (MsJob, fraction), 0, 1, 0,
                      .flags = G_PARAM_READABLE },
  [PROP_RUNNING] = { "running", G_TYPE_BOOLEAN, MS_PROP_FIELD (MsJob, running),
                     .flags = G_PARAM_READABLE },
};

static void
ms_job_finalize (GObject *object)
{
  MsJob *self = MS_JOB (object);
  if (self->data_free)
    g_clear_pointer (&self->data, self->data_free);
  if (self->result_free)
    g_clear_pointer (&self->result, self->result_free);
  g_clear_error (&self->error);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  G_OBJECT_CLASS (ms_job_parent_class)->finalize (object);
}

static void
ms_job_class_init (MsJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = ms_job_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  signals[PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_POINTER);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ms_job_init (MsJob *self)
{
  self->cancellable = g_cancellable_new ();
}

MsJob *
ms_job_new (MsJobFunc func, gpointer data, GDestroyNotify data_free, GDestroyNotify result_free)
{
  g_return_val_if_fail (func != NULL, NULL);
  MsJob *self = g_object_new (MS_TYPE_JOB, NULL);
  self->func = func;
  self->data = data;
  self->data_free = data_free;
  self->result_free = result_free;
  return self;
}

static void
job_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  MsJob *self = source;
  GError *error = NULL;
  gpointer result = self->func (self, self->data, &error);
  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, self->result_free);
}

static void
set_running (MsJob *self, gboolean running)
{
  self->running = running;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUNNING]);
}

static void
job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  MsJob *self = MS_JOB (source);
  self->result = g_task_propagate_pointer (G_TASK (result), &self->error);
  set_running (self, FALSE);
  g_signal_emit (self, signals[FINISHED], 0);
}

void
ms_job_start (MsJob *self)
{
  g_return_if_fail (MS_IS_JOB (self) && !self->running && !self->context);
  self->context = g_main_context_ref_thread_default ();
  /* The task holds the job until the result is back in the main context. */
  GTask *task = g_task_new (self, self->cancellable, job_done, NULL);
  g_task_set_return_on_cancel (task, FALSE);
  /* A stopped job still hands back what its worker returned (a sweep
   * stopped part-way keeps its cells and says so), not GIO's "Operation
   * was cancelled" in its place. */
  g_task_set_check_cancellable (task, FALSE);
  set_running (self, TRUE);
  g_task_run_in_thread (task, job_thread);
  g_object_unref (task);
}

void
ms_job_cancel (MsJob *self)
{
  g_return_if_fail (MS_IS_JOB (self));
  atomic_store (&self->cancel, 1);
  g_cancellable_cancel (self->cancellable);
}

gboolean
ms_job_is_cancelled (MsJob *self)
{
  g_return_val_if_fail (MS_IS_JOB (self), FALSE);
  return atomic_load (&self->cancel) != 0;
}

atomic_int *
ms_job_get_cancel_flag (MsJob *self)
{
  return &self->cancel;
}

typedef struct {
  MsJob *job;
  double fraction;
  gpointer detail;
  GDestroyNotify detail_free;
} Progress;

static gboolean
emit_progress (gpointer data)
{
  Progress *p = data;
  MsJob *self = p->job;
  if (!self->running)
    return G_SOURCE_REMOVE; /* the result came first: what it says stands */
  self->fraction = CLAMP (p->fraction, 0, 1);
  g_signal_emit (self, signals[PROGRESS], 0, self->fraction, p->detail);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_FRACTION]);
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;
  if (p->detail_free)
    g_clear_pointer (&p->detail, p->detail_free);
  g_object_unref (p->job);
  g_free (p);
}

void
ms_job_post_progress (MsJob *self, double fraction, gpointer detail, GDestroyNotify detail_free)
{
  g_return_if_fail (MS_IS_JOB (self));
  Progress *p = g_new0 (Progress, 1);
  p->job = g_object_ref (self);
  p->fraction = fraction;
  p->detail = detail;
  p->detail_free = detail_free;
  /* Always through a source: g_main_context_invoke would run it here, on
   * the worker, whenever no thread holds the context at that moment (a
   * test between iterations). */
  GSource *source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, emit_progress, p, progress_free);
  g_source_attach (source, self->context);
  g_source_unref (source);
}

gpointer
ms_job_get_result (MsJob *self)
{
  g_return_val_if_fail (MS_IS_JOB (self), NULL);
  return self->result;
}
