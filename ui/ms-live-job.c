/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-live-job.c: `memsweep compare --live` in a process of its own. The job
 * owns itself until its done callback has run; the owner (the session) is
 * reached through a weak reference only, so it may go away meanwhile. */
#include <glib/gi18n.h>
#include <signal.h>
#include <string.h>

#include "ms-cli-path.h"
#include "ms-drawing.h"
#include "ms-engine.h"
#include "ms-live-job.h"

/* How often the progress follows the clock: the command prints nothing
 * until it ends, and the budget is its only schedule. */
#define PROGRESS_INTERVAL_MS 250

struct _MsLiveJob {
  GSubprocess *child;
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
  g_clear_object (&job->child);
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
read_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  LiveOutcome *o = g_new0 (LiveOutcome, 1);
  for (int s = 0; s < 2 && !o->error; s++)
    o->run[s] = read_side (data, "ab"[s], &o -> error);
  g_task_return_pointer (task, o, (GDestroyNotify)outcome_free);
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

static void
on_read (GObject *source, GAsyncResult *result, gpointer data)
{
  finish (data, g_task_propagate_pointer (G_TASK (result), NULL));
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

static void
on_child_exit (GObject *source, GAsyncResult *result, gpointer data)
{
  MsLiveJob *job = data;
  g_autofree char *err_text = NULL;
  g_autoptr (GError) error = NULL;
  g_clear_handle_id (&job->tick, g_source_remove);
  gboolean ok = g_subprocess_communicate_utf8_finish (job->child, result, NULL, &err_text, &error);
  int code = ok && g_subprocess_get_if_exited (job->child)
                 ? g_subprocess_get_exit_status (job->child)
                 : -1;
  /* compare's exit status: 0 nothing differs, 1 a cell differs; a stop by
   * SIGINT ends as the comparison of what was measured. */
  if (code != 0 && code != 1) {
    LiveOutcome *o = g_new0 (LiveOutcome, 1);
    g_autofree char *why = error ? g_strdup (error->message) : last_line (err_text);
    o->error = *why ? g_steal_pointer (&why)
                    : g_strdup_printf (_ ("memsweep compare --live failed (exit status %d)"), code);
    finish (job, o);
    return;
  }
  g_autoptr (GTask) task = g_task_new (NULL, NULL, on_read, job);
  g_task_set_task_data (task, g_strdup (job->prefix), g_free);
  g_task_run_in_thread (task, read_thread);
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
  g_auto (GStrv) argv = live_argv (cli, request);
  GSubprocess *child = g_subprocess_newv (
      (const char *const *)argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
      error);
  if (!child)
    return NULL;
  MsLiveJob *job = g_new0 (MsLiveJob, 1);
  job->child = child;
  g_weak_ref_init (&job->owner, owner);
  job->progress = progress;
  job->done = done;
  job->prefix = g_strdup (request->prefix);
  job->budget_s = request->budget_s;
  job->started_us = g_get_monotonic_time ();
  job->tick = g_timeout_add (PROGRESS_INTERVAL_MS, on_tick, job);
  g_subprocess_communicate_utf8_async (child, NULL, NULL, on_child_exit, job);
  return job;
}

void
ms_live_job_stop (MsLiveJob *job)
{
  if (job && job->child)
    g_subprocess_send_signal (job->child, SIGINT);
}
