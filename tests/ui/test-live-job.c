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
#include <unistd.h>

#include "ms-live-job.h"

#define SIDE "--modes host --min-exp 10 --max-exp 10 --reps 3 --rounds 1"

/* TMPDIR, set before any thread. */
static char *tmp;

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

/* A child of this process that leads a process group of its own: 1; a
 * child in this process's group: -1; none: 0. */
static int
child_group (void)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  int found = 0;
  while (proc && (name = g_dir_read_name (proc))) {
    g_autofree char *path = g_strdup_printf ("/proc/%s/stat", name);
    g_autofree char *text = NULL;
    if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &text, NULL, NULL))
      continue;
    const char *end = strrchr (text, ')');
    int ppid = 0, pgid = 0;
    char state;
    if (!end || sscanf (end + 1, " %c %d %d", &state, &ppid, &pgid) != 3 || ppid != getpid ())
      continue;
    found = pgid == atoi (name) ? 1 : -1;
  }
  return found;
}

/* Entries of folder named memsweep-live-PID-... for this process. */
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
  g_autoptr (GError) error = NULL;
  MsLiveJob *job = ms_live_job_start (owner, &request, NULL, on_done, &error);
  g_assert_no_error (error);
  g_assert_nonnull (job);
  int group = 0, folders = 0;
  gint64 seen = 0;
  gint64 until = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (!o.done && g_get_monotonic_time () < until) {
    g_main_context_iteration (NULL, FALSE);
    if (!group && (group = child_group ()))
      seen = g_get_monotonic_time ();
    folders = MAX (folders, own_folders (tmp));
    if (stop_early && group && g_get_monotonic_time () > seen + G_USEC_PER_SEC / 4) {
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
  g_assert_cmpint (group, ==, 1);
  g_assert_cmpint (folders, ==, 1);
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
  g_test_add_func ("/live-job/supervised", test_supervised);
  g_test_add_func ("/live-job/stopped", test_stopped);
  int rc = g_test_run ();
  /* Empty by now, or the test failed before. */
  g_rmdir (tmp);
  g_free (tmp);
  return rc;
}
