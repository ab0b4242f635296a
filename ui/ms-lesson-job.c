/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-job.c: lessons run or read on an MsJob's thread. The MsJob
 * owns the lesson's job (its data) and lives until it has finished; the
 * owner (the session) is reached through a weak reference only. */
#include <errno.h>
#include <glib/gi18n.h>

#include "ms-cli-path.h"
#include "ms-job.h"
#include "ms-lesson-job.h"
#include "ms-drawing.h"
#include "ms-engine.h"
#include "ms-run.h"
#include "ms-runs-library.h"

struct _MsLessonJob {
  MsJob *job; /* owns this; not a reference */
  MsLessonTopic topic;
  MsSweep base;
  GStrv paths; /* load: the candidates */
  GWeakRef owner;
  MsLessonJobProgress progress;
  MsLessonJobDone done;
  MsPortableResults *portable; /* the portable lesson on 2+ GPUs, or NULL */
  MsJobEngine *engine;         /* may be NULL: the system's backend */
  GApplication *app;           /* held while measuring; not a reference */
};

typedef struct {
  MsResults *run;
  char error[512];
  const char *path; /* the reference run's file (the job's), else NULL */
} JobOutcome;

static void
job_free (MsLessonJob *job)
{
  g_weak_ref_clear (&job->owner);
  g_strfreev (job->paths);
  g_free (job->portable);
  g_clear_pointer (&job->engine, ms_job_engine_unref);
  g_free (job);
}

static void
outcome_free (gpointer data)
{
  JobOutcome *o = data;
  ms_results_free (o->run);
  g_free (o);
}

static void
on_progress (MsJob *mj, double fraction, gpointer detail, MsLessonJob *job)
{
  g_autoptr (GObject) owner = g_weak_ref_get (&job->owner);
  if (owner && job->progress)
    job->progress (owner, job->topic, fraction);
}

/* Worker thread. */
static void
on_cell (int index, int n, const MsCell *cell, void *user_data)
{
  MsLessonJob *job = user_data;
  ms_job_post_progress (job->job, n > 0 ? (index + 1.0) / n : 0, NULL, NULL);
}

/* MsIsolatedFunc: the parts in a fresh `memsweep __lesson-part`, with
 * their environment (CUDA_DEVICE_MAX_CONNECTIONS must be set before a
 * context exists; the first context's cost needs a process without one),
 * started by the engine's supervisor (ms-supervisor.h) as every command
 * that starts processes: its own process group, dying with the app, its
 * files in a private folder, a stop of the job passed on once. */
static MsResults *
run_isolated (const char *name, const MsSweep *base, const int *parts, int n_parts, void *user,
              char *err, size_t errlen)
{
  MsLessonJob *job = user;
  MsLessonPart all[MS_LESSON_MAX_PARTS];
  char dir[4096], how[256];
  g_autofree char *cli = ms_cli_path_find ();
  if (!cli) {
    g_snprintf (err, errlen, "%s", _("the memsweep command is not installed"));
    return NULL;
  }
  if (!ms_supervisor_folder ("lesson", dir, sizeof dir)) {
    g_snprintf (err, errlen, "TMPDIR: %s", g_strerror (errno));
    return NULL;
  }
  g_autofree char *path = g_build_filename (dir, "part-samples.csv", NULL);
  g_autofree char *log = g_build_filename (dir, "part.log", NULL);
  ms_lesson_parts (name, base, all, MS_LESSON_MAX_PARTS);
  g_autoptr (GString) list = g_string_new ("--parts=");
  for (int i = 0; i < n_parts; i++)
    g_string_append_printf (list, i ? ",%d" : "%d", parts[i]);
  g_autofree char *sizes = g_strdup_printf ("--sizes=%d:%d:%d", base->min_exp, base->max_exp,
                                            base->step);
  g_autofree char *reps =
    base->reps_rule == MS_REPS_FIXED ? g_strdup_printf ("--reps=%d", base->reps)
                                     : g_strdup_printf ("--min-reps=%d", base->min_reps);
  g_autofree char *warmup = g_strdup_printf ("--warmup=%d", base->warmup);
  g_autofree char *device = g_strdup_printf ("--device=%d", base->device);
  g_auto (GStrv) env = g_get_environ ();
  const MsLessonPart *p = &all[parts[0]];
  if (p->env) {
    g_auto (GStrv) kv = g_strsplit (p->env, "=", 2);
    env = g_environ_setenv (env, kv[0], kv[1] ? kv[1] : "", TRUE);
  }
  if (p->env_unset)
    env = g_environ_unsetenv (env, p->env_unset);
  char *argv[] = { cli, "__lesson-part", sizes, reps, warmup, device, list->str, "--out", path,
                   "--quiet", (char *) name, NULL };
  MsChild child;
  MsChildEnd end = { MS_CHILD_EXITED, -1, FALSE };
  if (ms_supervisor_spawn (&child, cli, argv, env, log))
    end = ms_supervisor_wait (&child, ms_job_get_cancel_flag (job->job));
  MsResults *r = NULL;
  /* 0: all measured; 1: written with failed cells, or stopped. */
  if (end.how == MS_CHILD_EXITED && (end.code == 0 || end.code == 1))
    r = ms_run_read_samples (path, err, errlen);
  /* The temporary file's name is no name for the lesson's run. */
  if (r)
    r->label[0] = '\0';
  else if (end.how != MS_CHILD_EXITED || (end.code != 0 && end.code != 1))
    g_snprintf (err, errlen, _("the lesson's child process %s"),
                ms_supervisor_describe (&end, how, sizeof how));
  ms_supervisor_folder_done (dir);
  return r;
}

/* The portable lesson on a host with 2 or more GPUs: memsweep portable's
 * three buffers on every GPU (up to MS_MULTI_MAX_DEVICES), at the largest
 * size of the sweep. With one GPU the plain sweep of pinned says enough. */
static void
measure_portable (MsLessonJob *job, const MsResults *run, char *err, gsize errlen)
{
  int devices[MS_MULTI_MAX_DEVICES];
  int n = MIN (run->device.count, MS_MULTI_MAX_DEVICES);
  if (n < 2 || ms_job_is_cancelled (job->job))
    return;
  for (int i = 0; i < n; i++)
    devices[i] = i;
  job->portable = g_new0 (MsPortableResults, 1);
  int reps = job->base.reps_rule == MS_REPS_FIXED ? job->base.reps : job->base.min_reps;
  if (!ms_portable_run (devices, n, ms_exponent_bytes (job->base.max_exp), MAX (reps, 1),
                        job->portable)) {
    g_snprintf (err, errlen, "%s", job->portable->error);
    g_clear_pointer (&job->portable, g_free);
  }
}

static MsResults *
measure (MsLessonJob *job, char *err, gsize errlen)
{
  const MsLessonTopicInfo *info = ms_lesson_topic (job->topic);
  MsBackend *backend = ms_job_engine_open (job->engine);
  MsResults *out = NULL;
  MsRunStatus st;
  if (info->experiment[0]) {
    st = ms_lesson_run (info->experiment, &job->base, backend, run_isolated, job, on_cell, job,
                        ms_job_get_cancel_flag (job->job), &out, err, errlen);
  } else {
    MsSweep s = job->base;
    s.variant[0] = '\0';
    st = ms_sweep_set_modes (&s, info->modes, err, errlen)
           ? ms_sweep_run (&s, backend, on_cell, job, ms_job_get_cancel_flag (job->job), &out, err, errlen)
           : MS_RUN_INVALID;
  }
  ms_job_engine_close (job->engine, backend);
  if (st == MS_RUN_CANCELLED)
    g_snprintf (err, errlen, "%s", _("Stopped; the cells measured so far are kept"));
  else if (st == MS_RUN_NO_DEVICE && out)
    g_snprintf (err, errlen, "%s", out->device.error);
  if (out && out->n_cells == 0)
    g_clear_pointer (&out, ms_results_free);
  if (out && ms_lesson_multi_gpu (job->topic) && st == MS_RUN_OK)
    measure_portable (job, out, err, errlen);
  return out;
}

static MsResults *
load (MsLessonJob *job, const char **path, char *err, gsize errlen)
{
  for (guint i = 0; job->paths && job->paths[i]; i++) {
    char why[512];
    MsResults *r = ms_run_read_samples (job->paths[i], why, sizeof why);
    if (r && ms_lesson_topic_matches (job->topic, r)) {
      *path = job->paths[i];
      return r;
    }
    if (!r)
      g_snprintf (err, errlen, "%s", why);
    ms_results_free (r);
  }
  if (!err[0])
    g_snprintf (err, errlen, "%s", _("No reference run answers this lesson"));
  return NULL;
}

/* Worker thread: the outcome carries the run and the reason together (a
 * stopped run keeps its cells), so it is never a GError. */
static gpointer
job_work (MsJob *mj, gpointer data, GError **error)
{
  MsLessonJob *job = data;
  JobOutcome *o = g_new0 (JobOutcome, 1);
  MsResults *r = job->paths ? load (job, &o->path, o->error, sizeof o->error)
                            : measure (job, o->error, sizeof o->error);
  if (r) {
    /* A lesson's run names its lesson; a plain sweep that answers a card
     * is named after the card. */
    g_autofree char *label = ms_plot_run_label (r);
    const MsLessonTopicInfo *info = ms_lesson_topic (job->topic);
    if (info->experiment[0])
      g_snprintf (r->label, sizeof r->label, "%s", label);
    else
      g_snprintf (r->label, sizeof r->label, "%s · %s", g_dgettext (GETTEXT_PACKAGE, info->title),
                  label);
    o->run = r;
  }
  return o;
}

static void
on_finished (MsJob *mj, MsLessonJob *job)
{
  JobOutcome *o = ms_job_get_result (mj);
  g_autoptr (GObject) owner = g_weak_ref_get (&job->owner);
  g_autoptr (MsRun) run =
    o && o->run ? ms_run_new (g_steal_pointer (&o->run), MS_RUN_KIND_LESSON) : NULL;
  /* Its file names the run on the slide ("h100-default"). */
  if (run && o->path)
    ms_run_set_source_file (run, o->path);
  /* A run measured here is kept, whether its page is still there or not,
   * on the library's writer thread. */
  if (run && !job->paths)
    ms_runs_library_keep_async (ms_runs_library_get_default (), run);
  if (job->app)
    g_application_release (job->app);
  if (owner && o)
    job->done (owner, job, job->topic, run ? g_object_ref (run) : NULL,
               o->error[0] ? o->error : NULL);
  g_object_unref (mj); /* the reference job_launch kept; the job ends here */
}

static MsLessonJob *
job_start (GObject *owner, MsLessonTopic topic, MsLessonJobDone done)
{
  MsLessonJob *job = g_new0 (MsLessonJob, 1);
  job->topic = topic;
  job->done = done;
  g_weak_ref_init (&job->owner, owner);
  return job;
}

static void
job_launch (MsLessonJob *job)
{
  /* Quitting waits for a measuring job's end, so that its run is kept. */
  if (!job->paths && (job->app = g_application_get_default ()))
    g_application_hold (job->app);
  /* The MsJob owns the lesson's job and is kept until "finished": the
   * owner's pointer is borrowed until its done callback. */
  job->job = ms_job_new (job_work, job, (GDestroyNotify) job_free, outcome_free);
  g_signal_connect (job->job, "progress", G_CALLBACK (on_progress), job);
  g_signal_connect (job->job, "finished", G_CALLBACK (on_finished), job);
  ms_job_start (job->job);
}

MsLessonJob *
ms_lesson_job_run (GObject *owner, MsLessonTopic topic, const MsSweep *base, MsJobEngine *engine,
                   MsLessonJobProgress progress, MsLessonJobDone done)
{
  MsLessonJob *job = job_start (owner, topic, done);
  job->base = *base;
  job->engine = engine ? ms_job_engine_ref (engine) : NULL;
  job->progress = progress;
  job_launch (job);
  return job;
}

MsLessonJob *
ms_lesson_job_load (GObject *owner, MsLessonTopic topic, const char *const *paths,
                    MsLessonJobDone done)
{
  MsLessonJob *job = job_start (owner, topic, done);
  job->paths = g_strdupv ((char **) paths);
  if (!job->paths)
    job->paths = g_new0 (char *, 1);
  job_launch (job);
  return job;
}

const MsPortableResults *
ms_lesson_job_get_portable (MsLessonJob *job)
{
  return job->portable;
}

void
ms_lesson_job_cancel (MsLessonJob *job)
{
  if (job)
    ms_job_cancel (job->job);
}
