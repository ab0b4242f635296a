/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-live-job.c: the app's live comparison (ms-live-job.h) runs
 * `memsweep compare --live` through the engine's supervisor, as every
 * process memsweep starts: the command in a process group of its own (a
 * Ctrl+C at the terminal reaches the app alone), its standard error in a
 * private folder TMPDIR/memsweep-live-PID-XXXXXX while it runs, and
 * nothing left in TMPDIR afterwards, a stop included.
 * The command line comes from PATH (meson puts app/cli there). Needs no
 * GPU: the CPU baseline at one size. */
#include <dirent.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "ms-live-job.h"

#define SIDE "--modes host --min-exp 10 --max-exp 10 --reps 3 --rounds 1"

/* TMPDIR, set before any thread; the folder of the wrapper put first on
 * PATH, which notes the command's pid and group, then runs it. */
static char *tmp, *bin;

typedef struct {
  gboolean done;
  MsRun *a, *b;
  char *error;
} Outcome;

static void
on_done (GObject *owner, MsRun *a, MsRun *b, const char *error)
{
  Outcome *o = g_object_get_data (owner, "outcome");
  o->done = TRUE;
  o->a = a;
  o->b = b;
  o->error = g_strdup (error);
}

/* The command, started: its pid and process group as the wrapper put on
 * PATH wrote them (0 0 while it has not started). The command says so
 * itself, so that no sampling of /proc can miss a short one. */
static void
started_as (int *pid, int *group)
{
  g_autofree char *path = g_build_filename (bin, "started", NULL);
  g_autofree char *text = NULL;
  *pid = *group = 0;
  if (g_file_get_contents (path, &text, NULL, NULL))
    g_assert_cmpint (sscanf (text, "%d %d", pid, group), ==, 2);
}

/* Folders named memsweep-live-PID-... for this process made in folder
 * since watch began (inotify: each one counts, however short it lived). */
static int
own_folders_made (int watch)
{
  g_autofree char *prefix = g_strdup_printf ("memsweep-live-%d-", (int) getpid ());
  char buf[64 * 1024] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
  int n = 0;
  ssize_t len;
  while ((len = read (watch, buf, sizeof buf)) > 0)
    for (char *p = buf; p < buf + len; p += sizeof (struct inotify_event) + ((struct inotify_event *) p)->len) {
      const struct inotify_event *e = (const struct inotify_event *) p;
      g_assert_false (e->mask & IN_Q_OVERFLOW);
      n += (e->mask & IN_CREATE) && (e->mask & IN_ISDIR) && e->len && g_str_has_prefix (e->name, prefix);
    }
  return n;
}

/* Entries named memsweep-live-PID-... for this process in folder now. */
static int
own_folders (const char *folder)
{
  g_autofree char *prefix = g_strdup_printf ("memsweep-live-%d-", (int) getpid ());
  g_autoptr (GDir) d = g_dir_open (folder, 0, NULL);
  const char *name;
  int n = 0;
  while (d && (name = g_dir_read_name (d)))
    n += g_str_has_prefix (name, prefix);
  return n;
}

static void
run_live (gboolean stop_early)
{
  gboolean was_stopped = stop_early;
  g_autofree char *prefix = g_build_filename (tmp, "L", NULL);
  MsLiveRequest request = { SIDE, SIDE, 2, 5, prefix };
  g_autoptr (GObject) owner = g_object_new (G_TYPE_OBJECT, NULL);
  Outcome o = { 0 };
  g_object_set_data (owner, "outcome", &o);
  g_autofree char *started = g_build_filename (bin, "started", NULL);
  g_unlink (started);
  int watch = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  g_assert_cmpint (watch, >=, 0);
  g_assert_cmpint (inotify_add_watch (watch, tmp, IN_CREATE), >=, 0);
  g_autoptr (GError) error = NULL;
  MsLiveJob *job = ms_live_job_start (owner, &request, NULL, on_done, &error);
  g_assert_no_error (error);
  g_assert_nonnull (job);
  int pid = 0, group = 0;
  gint64 until = g_get_monotonic_time () + 120 * G_USEC_PER_SEC, stop_at = 0;
  while (!o.done && g_get_monotonic_time () < until) {
    g_main_context_iteration (NULL, FALSE);
    if (stop_early && !stop_at && (started_as (&pid, &group), pid))
      stop_at = g_get_monotonic_time () + G_USEC_PER_SEC / 4; /* at work by then */
    if (stop_early && stop_at && g_get_monotonic_time () >= stop_at) {
      ms_live_job_stop (job);
      stop_early = FALSE;
    }
    g_usleep (1000);
  }
  g_assert_true (o.done);
  /* Stopped at once, a side may have measured nothing: then the command's
   * own words say so. */
  /* Stopped, the command keeps what both sides measured, or, where a side
   * measured nothing yet, says so (or was ended before it started). */
  if (o.error)
    g_test_message ("the job's error: %s", o.error);
  g_assert_true ((o.a && o.b && !o.error) || (was_stopped && o.error));
  /* The command ran in a process group of its own, its standard error in
   * the supervisor's private folder, which is gone now. */
  started_as (&pid, &group);
  g_assert_cmpint (pid, >, 0);
  g_assert_cmpint (group, ==, pid);
  g_assert_cmpint (own_folders_made (watch), ==, 1);
  close (watch);
  g_assert_cmpint (own_folders (tmp), ==, 0);
  g_clear_object (&o.a);
  g_clear_object (&o.b);
  g_free (o.error);
  for (const char *s = "ab"; *s; s++)
    for (int k = 0; k < 3; k++) {
      const char *kind[] = { "samples.csv", "summary.csv", "meta.json" };
      g_autofree char *f = g_strdup_printf ("%s-%c-%s", prefix, *s, kind[k]);
      g_unlink (f);
    }
}

static void
test_supervised (void)
{
  run_live (FALSE);
}

static void
test_stopped (void)
{
  run_live (TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmp = g_dir_make_tmp ("memsweep-live-job-XXXXXX", NULL);
  g_assert_nonnull (tmp);
  g_setenv ("TMPDIR", tmp, TRUE);
  bin = g_dir_make_tmp ("memsweep-test-bin-XXXXXX", NULL);
  g_autofree char *real = g_find_program_in_path ("memsweep");
  g_assert_nonnull (bin);
  g_assert_nonnull (real);
  g_autofree char *wrapper = g_build_filename (bin, "memsweep", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n"
                                             "cut -d' ' -f1,5 /proc/$$/stat >'%s/started.new'\n"
                                             "mv '%s/started.new' '%s/started'\n"
                                             "exec '%s' \"$@\"\n",
                                             bin, bin, bin, real);
  g_assert_true (g_file_set_contents (wrapper, script, -1, NULL));
  g_assert_cmpint (g_chmod (wrapper, 0755), ==, 0);
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  g_setenv ("PATH", path, TRUE);
  g_test_add_func ("/live-job/supervised", test_supervised);
  g_test_add_func ("/live-job/stopped", test_stopped);
  int rc = g_test_run ();
  /* Empty by now, or the test failed before. */
  g_rmdir (tmp);
  g_free (tmp);
  g_autofree char *started = g_build_filename (bin, "started", NULL);
  g_unlink (started);
  g_unlink (wrapper);
  g_rmdir (bin);
  g_free (bin);
  return rc;
}
