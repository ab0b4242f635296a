/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-live-job.c: `memsweep compare --live` in a process of its own,
 * started and waited for in a worker thread by the engine's supervisor
 * (ms-supervisor.h), as every process memsweep starts: its own process
 * group, dying with the app, its standard error in a private folder
 * removed at the end, a stop passed on once. The job owns itself until its
 * done callback has run; the owner (the session) is reached through a
 * weak reference only, so it may go away meanwhile. */
#include <errno.h>
#include <glib/gi18n.h>
#include <stdatomic.h>
#include <string.h>

#include "ms-cli-path.h"
#include "ms-drawing.h"
#include "ms-engine.h"
#include "ms-live-job.h"

/* How often the progress follows the clock: the command prints nothing
 * until it ends, and the budget is its only schedule. */
#define PROGRESS_INTERVAL_MS 250

struct _MsLiveJob {
  char **argv;
  atomic_int stop; /* set by ms_live_job_stop; the supervisor passes it on */
  GWeakRef owner;
  MsLiveJobProgress progress;
  MsLiveJobDone done;
  char *prefix;
  double budget_s;
  gint64 started_us;
  guint tick;
};

typedef struct {
  MsRun *run[2];
  char *error;
} LiveOutcome;

static void
job_free (MsLiveJob *job)
{
  g_clear_handle_id (&job->tick, g_source_remove);
  g_strfreev (job->argv);
  g_weak_ref_clear (&job->owner);
  g_free (job->prefix);
  g_free (job);
}

static void
outcome_free (LiveOutcome *o)
{
  g_clear_object (&o->run[0]);
  g_clear_object (&o->run[1]);
  g_free (o->error);
  g_free (o);
}

static gboolean
on_tick (gpointer data)
{
  MsLiveJob *job = data;
  g_autoptr (GObject) owner = g_weak_ref_get (&job->owner);
  double elapsed = (g_get_monotonic_time () - job->started_us) / 1e6;
  if (owner && job->progress)
    job->progress (owner, MIN (elapsed / job->budget_s, 1.0), elapsed);
  return G_SOURCE_CONTINUE;
}

/* Worker thread: one side's samples file as a run named after its side. */
static MsRun *
read_side (const char *prefix, char side, char **error)
{
  g_autofree char *path = g_strdup_printf ("%s-%c-samples.csv", prefix, side);
  char err[512];
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  if (!r) {
    *error = g_strdup (err);
    return NULL;
  }
  g_autofree char *label = ms_plot_run_label (r);
  /* TRANSLATORS: a run measured live; %c is A or B, %s the run's usual name. */
  g_autofree char *name = g_strdup_printf (_ ("Live %c: %s"), g_ascii_toupper (side), label);
  g_snprintf (r->label, sizeof r->label, "%s", name);
  MsRun *run = ms_run_new (r, MS_RUN_KIND_REFERENCE);
  ms_run_set_source_file (run, path);
  return run;
}

static void
finish (MsLiveJob *job, LiveOutcome *o)
{
  g_autoptr (GObject) owner = g_weak_ref_get (&job->owner);
  if (owner && job->done)
    job->done (owner, o->error ? NULL : g_steal_pointer (&o->run[0]),
               o->error ? NULL : g_steal_pointer (&o->run[1]), o->error);
  outcome_free (o);
  job_free (job);
}

/* The command's last line on standard error (text, stripped in place):
 * why it failed. */
static char *
last_line (char *text)
{
  if (!text)
    return g_strdup ("");
  const char *nl = strrchr (g_strstrip (text), '\n');
  return g_strdup (nl ? nl + 1 : text);
}

/* The end of the command's log (its last words are there), through the
 * engine's one reader; NULL when it cannot be read. */
#define LOG_TAIL (64 * 1024)
static char *
log_tail (const char *log)
{
  char err[512];
  MsInput *in = ms_input_open (log, false, err, sizeof err);
  if (!in)
    return NULL;
  uint64_t size = ms_input_size (in);
  char *text = g_malloc (LOG_TAIL + 1);
  ssize_t n = ms_input_pread (in, text, LOG_TAIL, size > LOG_TAIL ? size - LOG_TAIL : 0);
  ms_input_close (in);
  text[n > 0 ? n : 0] = '\0';
  return text;
}

/* Why the command did not give both sides: its last words, or how it
 * ended. */
static char *
failure (const MsChildEnd *end, const char *log)
{
  g_autofree char *text = log_tail (log);
  char how[256];
  g_autofree char *why = last_line (text);
  if (*why)
    return g_steal_pointer (&why);
  if (end->how == MS_CHILD_EXITED)
    return g_strdup_printf (_ ("memsweep compare --live failed (exit status %d)"), end->code);
  /* TRANSLATORS: %s says how the command ended, e.g. "was ended by signal 9
   * (Killed), not by memsweep". */
  return g_strdup_printf (_ ("memsweep compare --live %s"),
                          ms_supervisor_describe (end, how, sizeof how));
}

/* Worker thread: the command, then both sides read back. compare's exit
 * status: 0 nothing differs, 1 a cell differs, 5 no cell decided; a stop
 * ends as the
 * comparison of what was measured. */
static void
measure_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  MsLiveJob *job = data;
  LiveOutcome *o = g_new0 (LiveOutcome, 1);
  char dir[4096];
  if (!ms_supervisor_folder ("live", dir, sizeof dir)) {
    o->error = g_strdup_printf ("TMPDIR: %s", g_strerror (errno));
    g_task_return_pointer (task, o, (GDestroyNotify) outcome_free);
    return;
  }
  g_autofree char *log = g_build_filename (dir, "compare.log", NULL);
  MsChild child;
  MsChildEnd end = { MS_CHILD_EXITED, -1, FALSE };
  if (!ms_supervisor_spawn (&child, job->argv[0], job->argv, NULL, log))
    o->error = g_strdup_printf ("%s: %s", job->argv[0], g_strerror (errno));
  else
    end = ms_supervisor_wait (&child, &job->stop);
  /* 5: no cell decided, which the page shows as such (docs/compare.md). */
  if (!o->error && (end.how != MS_CHILD_EXITED || (end.code != 0 && end.code != 1 && end.code != 5)))
    o->error = failure (&end, log);
  for (int s = 0; s < 2 && !o->error; s++)
    o->run[s] = read_side (job->prefix, "ab"[s], &o->error);
  /* Stopped before a side measured anything, it wrote nothing and said
   * so: its words, not the reader's. */
  if (o->error && end.how == MS_CHILD_EXITED && end.code == 1) {
    g_clear_object (&o->run[0]);
    g_free (o->error);
    o->error = failure (&end, log);
  }
  ms_supervisor_folder_done (dir);
  g_task_return_pointer (task, o, (GDestroyNotify) outcome_free);
}

static void
on_measured (GObject *source, GAsyncResult *result, gpointer data)
{
  MsLiveJob *job = data;
  g_clear_handle_id (&job->tick, g_source_remove);
  finish (job, g_task_propagate_pointer (G_TASK (result), NULL));
}

static GStrv
live_argv (const char *cli, const MsLiveRequest *r)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  char budget[G_ASCII_DTOSTR_BUF_SIZE], threshold[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (budget, sizeof budget, "%.0f", r->budget_s);
  g_ascii_formatd (threshold, sizeof threshold, "%g", r->threshold_pct);
  const char *fixed[] = { cli,           "compare", "--live", "--budget", budget,
                          "--threshold", threshold, "--out",  r->prefix };
  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_strv_builder_add (b, fixed[i]);
  const char *side_opt[2] = { "--a", "--b" }, *side_val[2] = { r->a_options, r->b_options };
  for (int s = 0; s < 2; s++)
    if (side_val[s] && *side_val[s])
      g_strv_builder_addv (b, (const char *[]){ side_opt[s], side_val[s], NULL });
  return g_strv_builder_end (b);
}

MsLiveJob *
ms_live_job_start (GObject *owner, const MsLiveRequest *request, MsLiveJobProgress progress,
                   MsLiveJobDone done, GError **error)
{
  g_autofree char *cli = ms_cli_path_find ();
  if (!cli) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                         _ ("the memsweep command is not installed"));
    return NULL;
  }
  MsLiveJob *job = g_new0 (MsLiveJob, 1);
  job->argv = live_argv (cli, request);
  g_weak_ref_init (&job->owner, owner);
  job->progress = progress;
  job->done = done;
  job->prefix = g_strdup (request->prefix);
  job->budget_s = request->budget_s;
  job->started_us = g_get_monotonic_time ();
  job->tick = g_timeout_add (PROGRESS_INTERVAL_MS, on_tick, job);
  g_autoptr (GTask) task = g_task_new (NULL, NULL, on_measured, job);
  g_task_set_task_data (task, job, NULL);
  g_task_run_in_thread (task, measure_thread);
  return job;
}

void
ms_live_job_stop (MsLiveJob *job)
{
  if (job)
    atomic_store (&job->stop, 1);
}
