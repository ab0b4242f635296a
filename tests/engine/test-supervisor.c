/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-supervisor.c: where a child that could say nothing kept its files. */
#define _GNU_SOURCE
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <utime.h>

#include "ms-supervisor.h"

/* A kept folder in dir holding one run's summary stamped at t (0: now). */
static char *
kept_folder (const char *dir, time_t t)
{
  char *folder = g_build_filename (dir, "memsweep-kept-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (folder));
  char *summary = g_build_filename (folder, "p1-summary.csv", NULL);
  g_assert_true (g_file_set_contents (summary, "x\n", -1, NULL));
  struct utimbuf at = { t, t };
  if (t)
    g_assert_cmpint (utime (summary, &at), ==, 0);
  g_free (summary);
  return folder;
}

/* A child that writes nothing to its log; how it ended. */
static MsChildEnd
silent_child (const char *log)
{
  MsChild child;
  char *argv[] = { "true", NULL };
  g_assert_true (ms_supervisor_spawn (&child, "/bin/true", argv, NULL, log));
  return ms_supervisor_wait (&child, NULL);
}

/* On a full disk each of a child's failed writes to its log still bumps
 * the log's times (tmpfs does): a kept folder written before its last
 * attempt is its all the same. */
static void
test_kept_found_after_log_changed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ms-supervisor-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "run1.log", NULL);
  MsChildEnd end = silent_child (log);
  g_autofree char *kept = kept_folder (dir, 0);
  g_usleep (1100 * 1000);
  g_assert_cmpint (g_chmod (log, 0600), ==, 0); /* its ctime, as a failed write */
  char said[1024];
  ms_supervisor_child_said (&end, log, said, sizeof said);
  g_assert_nonnull (strstr (said, kept));
  g_assert_null (strstr (said, "lost"));
}

/* A kept folder older than the child is another command's. */
static void
test_older_kept_not_named (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ms-supervisor-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "run1.log", NULL);
  g_autofree char *kept = kept_folder (dir, time (NULL) - 60);
  MsChildEnd end = silent_child (log);
  char said[1024];
  ms_supervisor_child_said (&end, log, said, sizeof said);
  g_assert_null (strstr (said, kept));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/supervisor/kept-found-after-log-changed", test_kept_found_after_log_changed);
  g_test_add_func ("/supervisor/older-kept-not-named", test_older_kept_not_named);
  return g_test_run ();
}
