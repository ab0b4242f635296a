/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-atomic.c: the writing policy of ms-atomic-file.c, file by file. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-atomic-file.h"

static char dir[64];

static const char *
in_dir (const char *name)
{
  static char path[4][512];
  static int next;
  next = (next + 1) % 4;
  snprintf (path[next], sizeof path[next], "%s/%s", dir, name);
  return path[next];
}

static void
put (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  fputs (text, f);
  fclose (f);
}

static char *
get (const char *path)
{
  static char buf[256];
  FILE *f = fopen (path, "r");
  size_t n = f ? fread (buf, 1, sizeof buf - 1, f) : 0;
  buf[n] = '\0';
  if (f)
    fclose (f);
  return buf;
}

static bool
write_text (const char *path, const char *text, char *err, size_t errlen)
{
  MsAtomicFile *file = ms_atomic_file_open (path, err, errlen);
  return file && ms_atomic_file_write (file, text, strlen (text)) &&
         ms_atomic_file_commit (file, err, errlen);
}

static int
count_entries (void)
{
  int n = 0;
  DIR *d = opendir (dir);
  for (struct dirent *e; (e = readdir (d));)
    n += e->d_name[0] != '.';
  closedir (d);
  return n;
}

static void
test_replace_keeps_mode (void)
{
  char err[512] = "";
  put (in_dir ("a.csv"), "old");
  chmod (in_dir ("a.csv"), 0640);
  g_assert_true (write_text (in_dir ("a.csv"), "new", err, sizeof err));
  g_assert_cmpstr (get (in_dir ("a.csv")), ==, "new");
  struct stat st;
  stat (in_dir ("a.csv"), &st);
  g_assert_true ((st.st_mode & 07777) == 0640);
  g_assert_cmpint (count_entries (), ==, 1);
  unlink (in_dir ("a.csv"));
}

static void
test_links_followed (void)
{
  char err[512] = "";
  put (in_dir ("target.csv"), "old");
  symlink ("target.csv", in_dir ("link.csv"));
  g_assert_true (write_text (in_dir ("link.csv"), "new", err, sizeof err));
  struct stat st;
  g_assert_true (lstat (in_dir ("link.csv"), &st) == 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpstr (get (in_dir ("target.csv")), ==, "new");
  /* A dangling link creates the file it names. */
  symlink ("made.csv", in_dir ("dangling.csv"));
  g_assert_true (write_text (in_dir ("dangling.csv"), "made", err, sizeof err));
  g_assert_cmpstr (get (in_dir ("made.csv")), ==, "made");
  unlink (in_dir ("link.csv"));
  unlink (in_dir ("target.csv"));
  unlink (in_dir ("dangling.csv"));
  unlink (in_dir ("made.csv"));
}

static void
test_refusals (void)
{
  char err[512] = "", want[512];
  put (in_dir ("ro.csv"), "mine");
  chmod (in_dir ("ro.csv"), 0444);
  g_assert_false (write_text (in_dir ("ro.csv"), "new", err, sizeof err));
  snprintf (want, sizeof want, "%s: is read-only: not replaced", in_dir ("ro.csv"));
  g_assert_cmpstr (err, ==, want);
  g_assert_cmpstr (get (in_dir ("ro.csv")), ==, "mine");
  g_assert_false (ms_atomic_file_check (dir, err, sizeof err));
  snprintf (want, sizeof want, "%s: is a folder", dir);
  g_assert_cmpstr (err, ==, want);
  char long_name[300];
  memset (long_name, 'x', 250);
  strcpy (long_name + 250, ".csv");
  g_assert_false (ms_atomic_file_check (in_dir (long_name), err, sizeof err));
  g_assert_nonnull (strstr (err, ": cannot write: File name too long"));
  g_assert_cmpint (count_entries (), ==, 1);
  unlink (in_dir ("ro.csv"));
}

static void
test_devices_in_place (void)
{
  char err[512] = "";
  struct stat st;
  g_assert_true (write_text ("/dev/null", "nothing", err, sizeof err));
  g_assert_true (stat ("/dev/null", &st) == 0);
  g_assert_true (S_ISCHR (st.st_mode));
}

static void
test_pair_and_cleanup (void)
{
  char err[512] = "";
  put (in_dir ("p-samples.csv"), "old samples");
  MsAtomicFile *a = ms_atomic_file_open (in_dir ("p-samples.csv"), err, sizeof err);
  MsAtomicFile *b = ms_atomic_file_open (in_dir ("p-summary.csv"), err, sizeof err);
  g_assert_true (a);
  g_assert_true (b);
  ms_atomic_file_write (a, "new samples", 11);
  ms_atomic_file_write (b, "new summary", 11);
  g_assert_cmpint (count_entries (), ==, 3);
  /* What a signal handler does: no temporary stays. */
  ms_atomic_file_remove_temporaries ();
  g_assert_cmpint (count_entries (), ==, 1);
  ms_atomic_file_abort (a);
  ms_atomic_file_abort (b);
  a = ms_atomic_file_open (in_dir ("p-samples.csv"), err, sizeof err);
  b = ms_atomic_file_open (in_dir ("p-summary.csv"), err, sizeof err);
  ms_atomic_file_write (a, "new samples", 11);
  ms_atomic_file_write (b, "new summary", 11);
  g_assert_true (ms_atomic_file_commit_pair (a, b, err, sizeof err));
  g_assert_cmpstr (get (in_dir ("p-samples.csv")), ==, "new samples");
  g_assert_cmpstr (get (in_dir ("p-summary.csv")), ==, "new summary");
  g_assert_cmpint (count_entries (), ==, 2);
  unlink (in_dir ("p-samples.csv"));
  unlink (in_dir ("p-summary.csv"));
}

/* /dev/fd/N and /proc/self/fd/N name the open file itself: written where
 * the descriptor stands (appending where it appends), never replaced. */
static void
test_descriptors_in_place (void)
{
  char err[512] = "", name[64];
  struct stat before, after;
  put (in_dir ("log"), "old\n");
  int fd = open (in_dir ("log"), O_WRONLY | O_APPEND);
  fstat (fd, &before);
  snprintf (name, sizeof name, "/dev/fd/%d", fd);
  g_assert_true (write_text (name, "new\n", err, sizeof err));
  snprintf (name, sizeof name, "/proc/self/fd/%d", fd);
  g_assert_true (write_text (name, "more\n", err, sizeof err));
  close (fd);
  g_assert_cmpstr (get (in_dir ("log")), ==, "old\nnew\nmore\n");
  stat (in_dir ("log"), &after);
  g_assert_true (before.st_ino == after.st_ino);
  g_assert_true (count_entries () == 1);
  unlink (in_dir ("log"));
  /* A pipe: its link reads "pipe:[N]", which is no file name at all. */
  int p[2];
  g_assert_true (pipe (p) == 0);
  snprintf (name, sizeof name, "/dev/fd/%d", p[1]);
  g_assert_true (write_text (name, "piped", err, sizeof err));
  close (p[1]);
  char buf[16] = "";
  g_assert_true (read (p[0], buf, sizeof buf - 1) == 5);
  g_assert_cmpstr (buf, ==, "piped");
  close (p[0]);
  /* A descriptor open for reading only is not written. */
  fd = open ("/dev/null", O_RDONLY);
  snprintf (name, sizeof name, "/dev/fd/%d", fd);
  g_assert_true (!write_text (name, "x", err, sizeof err));
  close (fd);
}

/* An input of the command is never an output, under any of its names. */
static void
test_inputs_protected (void)
{
  char err[512] = "", want[512];
  put (in_dir ("in.csv"), "input");
  symlink ("in.csv", in_dir ("alias.csv"));
  g_assert_true (ms_atomic_file_protect (in_dir ("in.csv")));
  g_assert_true (!write_text (in_dir ("alias.csv"), "new", err, sizeof err));
  snprintf (want, sizeof want, "%s: is one of the inputs: not replaced", in_dir ("alias.csv"));
  g_assert_cmpstr (err, ==, want);
  g_assert_true (!ms_atomic_file_check (in_dir ("in.csv"), err, sizeof err));
  int fd = open (in_dir ("in.csv"), O_WRONLY | O_APPEND);
  char name[64];
  snprintf (name, sizeof name, "/dev/fd/%d", fd);
  g_assert_true (!write_text (name, "new", err, sizeof err));
  close (fd);
  g_assert_cmpstr (get (in_dir ("in.csv")), ==, "input");
  unlink (in_dir ("alias.csv"));
  unlink (in_dir ("in.csv"));
}

/* A temporary a killed writer left (nobody holds its lock) is removed by
 * the next write to the same target; a live writer's, and files of the
 * user's that merely look alike, stay. */
static void
test_stale_temporaries (void)
{
  char err[512] = "";
  put (in_dir ("t.csv.memsweep-dead01"), "killed");
  put (in_dir ("t.csv.memsweep-live01"), "writing");
  put (in_dir ("t.csv.backup"), "mine");
  put (in_dir ("t.csv.memsweep-toolong1"), "mine too");
  int live = open (in_dir ("t.csv.memsweep-live01"), O_RDONLY);
  g_assert_true (flock (live, LOCK_EX) == 0);
  g_assert_true (write_text (in_dir ("t.csv"), "new", err, sizeof err));
  g_assert_true (access (in_dir ("t.csv.memsweep-dead01"), F_OK) != 0);
  g_assert_true (access (in_dir ("t.csv.memsweep-live01"), F_OK) == 0);
  g_assert_true (access (in_dir ("t.csv.backup"), F_OK) == 0);
  g_assert_true (access (in_dir ("t.csv.memsweep-toolong1"), F_OK) == 0);
  close (live);
  const char *names[] = { "t.csv", "t.csv.memsweep-live01", "t.csv.backup",
                          "t.csv.memsweep-toolong1" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    unlink (in_dir (names[i]));
}

/* A device or a pipe as a prefix gets every file; a name gets its suffix. */
static void
test_output_names (void)
{
  char out[512];
  g_assert_true (ms_atomic_file_output_name ("/dev/null", "-samples.csv", out, sizeof out));
  g_assert_cmpstr (out, ==, "/dev/null");
  g_assert_true (ms_atomic_file_output_name (in_dir ("p"), "-samples.csv", out, sizeof out));
  g_assert_cmpstr (out, ==, in_dir ("p-samples.csv"));
  g_assert_true (!ms_atomic_file_output_name (in_dir ("p"), "-samples.csv", out, 8));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  snprintf (dir, sizeof dir, "/tmp/memsweep-test-atomic-XXXXXX");
  if (!mkdtemp (dir))
    return 1;
  g_test_add_func ("/atomic/replace-keeps-mode", test_replace_keeps_mode);
  g_test_add_func ("/atomic/links-followed", test_links_followed);
  g_test_add_func ("/atomic/refusals", test_refusals);
  g_test_add_func ("/atomic/devices-in-place", test_devices_in_place);
  g_test_add_func ("/atomic/pair-and-cleanup", test_pair_and_cleanup);
  g_test_add_func ("/atomic/descriptors-in-place", test_descriptors_in_place);
  g_test_add_func ("/atomic/inputs-protected", test_inputs_protected);
  g_test_add_func ("/atomic/stale-temporaries", test_stale_temporaries);
  g_test_add_func ("/atomic/output-names", test_output_names);
  int rc = g_test_run ();
  rmdir (dir);
  return rc;
}
