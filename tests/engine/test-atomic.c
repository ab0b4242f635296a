/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-atomic.c: the writing policy of ms-atomic-file.c, file by file. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-atomic-file.h"
#include "ms-tmp-test.h"


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
  DIR *d = opendir (ms_test_tmp_dir ());
  for (struct dirent *e; (e = readdir (d));)
    n += e->d_name[0] != '.';
  closedir (d);
  return n;
}

static void
test_replace_keeps_mode (void)
{
  char err[512] = "";
  put (ms_test_tmp_path ("a.csv"), "old");
  chmod (ms_test_tmp_path ("a.csv"), 0640);
  g_assert_true (write_text (ms_test_tmp_path ("a.csv"), "new", err, sizeof err));
  g_assert_cmpstr (get (ms_test_tmp_path ("a.csv")), ==, "new");
  struct stat st;
  stat (ms_test_tmp_path ("a.csv"), &st);
  g_assert_true ((st.st_mode & 07777) == 0640);
  g_assert_cmpint (count_entries (), ==, 1);
  unlink (ms_test_tmp_path ("a.csv"));
}

static void
test_links_followed (void)
{
  char err[512] = "";
  put (ms_test_tmp_path ("target.csv"), "old");
  symlink ("target.csv", ms_test_tmp_path ("link.csv"));
  g_assert_true (write_text (ms_test_tmp_path ("link.csv"), "new", err, sizeof err));
  struct stat st;
  g_assert_true (lstat (ms_test_tmp_path ("link.csv"), &st) == 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpstr (get (ms_test_tmp_path ("target.csv")), ==, "new");
  /* A dangling link creates the file it names. */
  symlink ("made.csv", ms_test_tmp_path ("dangling.csv"));
  g_assert_true (write_text (ms_test_tmp_path ("dangling.csv"), "made", err, sizeof err));
  g_assert_cmpstr (get (ms_test_tmp_path ("made.csv")), ==, "made");
  unlink (ms_test_tmp_path ("link.csv"));
  unlink (ms_test_tmp_path ("target.csv"));
  unlink (ms_test_tmp_path ("dangling.csv"));
  unlink (ms_test_tmp_path ("made.csv"));
}

static void
test_refusals (void)
{
  char err[512] = "", want[512];
  put (ms_test_tmp_path ("ro.csv"), "mine");
  chmod (ms_test_tmp_path ("ro.csv"), 0444);
  g_assert_false (write_text (ms_test_tmp_path ("ro.csv"), "new", err, sizeof err));
  snprintf (want, sizeof want, "%s: is read-only: not replaced", ms_test_tmp_path ("ro.csv"));
  g_assert_cmpstr (err, ==, want);
  g_assert_cmpstr (get (ms_test_tmp_path ("ro.csv")), ==, "mine");
  g_assert_false (ms_atomic_file_check (ms_test_tmp_dir (), err, sizeof err));
  snprintf (want, sizeof want, "%s: is a folder", ms_test_tmp_dir ());
  g_assert_cmpstr (err, ==, want);
  char long_name[300];
  memset (long_name, 'x', 250);
  strcpy (long_name + 250, ".csv");
  g_assert_false (ms_atomic_file_check (ms_test_tmp_path (long_name), err, sizeof err));
  g_assert_nonnull (strstr (err, ": cannot write: File name too long"));
  g_assert_cmpint (count_entries (), ==, 1);
  unlink (ms_test_tmp_path ("ro.csv"));
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
  put (ms_test_tmp_path ("p-samples.csv"), "old samples");
  MsAtomicFile *a = ms_atomic_file_open (ms_test_tmp_path ("p-samples.csv"), err, sizeof err);
  MsAtomicFile *b = ms_atomic_file_open (ms_test_tmp_path ("p-summary.csv"), err, sizeof err);
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
  a = ms_atomic_file_open (ms_test_tmp_path ("p-samples.csv"), err, sizeof err);
  b = ms_atomic_file_open (ms_test_tmp_path ("p-summary.csv"), err, sizeof err);
  ms_atomic_file_write (a, "new samples", 11);
  ms_atomic_file_write (b, "new summary", 11);
  MsAtomicFile *pair[] = { a, b };
  g_assert_true (ms_atomic_file_commit_group (pair, 2, NULL, err, sizeof err));
  g_assert_cmpstr (get (ms_test_tmp_path ("p-samples.csv")), ==, "new samples");
  g_assert_cmpstr (get (ms_test_tmp_path ("p-summary.csv")), ==, "new summary");
  g_assert_cmpint (count_entries (), ==, 2);
  unlink (ms_test_tmp_path ("p-samples.csv"));
  unlink (ms_test_tmp_path ("p-summary.csv"));
}

/* /dev/fd/N and /proc/self/fd/N name the open file itself: written where
 * the descriptor stands (appending where it appends), never replaced. */
static void
test_descriptors_in_place (void)
{
  char err[512] = "", name[64];
  struct stat before, after;
  put (ms_test_tmp_path ("log"), "old\n");
  int fd = open (ms_test_tmp_path ("log"), O_WRONLY | O_APPEND);
  fstat (fd, &before);
  snprintf (name, sizeof name, "/dev/fd/%d", fd);
  g_assert_true (write_text (name, "new\n", err, sizeof err));
  snprintf (name, sizeof name, "/proc/self/fd/%d", fd);
  g_assert_true (write_text (name, "more\n", err, sizeof err));
  close (fd);
  g_assert_cmpstr (get (ms_test_tmp_path ("log")), ==, "old\nnew\nmore\n");
  stat (ms_test_tmp_path ("log"), &after);
  g_assert_true (before.st_ino == after.st_ino);
  g_assert_true (count_entries () == 1);
  unlink (ms_test_tmp_path ("log"));
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
  put (ms_test_tmp_path ("in.csv"), "input");
  symlink ("in.csv", ms_test_tmp_path ("alias.csv"));
  g_assert_true (ms_atomic_file_protect (ms_test_tmp_path ("in.csv")));
  g_assert_true (!write_text (ms_test_tmp_path ("alias.csv"), "new", err, sizeof err));
  snprintf (want, sizeof want, "%s: is one of the inputs: not replaced",
            ms_test_tmp_path ("alias.csv"));
  g_assert_cmpstr (err, ==, want);
  g_assert_true (!ms_atomic_file_check (ms_test_tmp_path ("in.csv"), err, sizeof err));
  int fd = open (ms_test_tmp_path ("in.csv"), O_WRONLY | O_APPEND);
  char name[64];
  snprintf (name, sizeof name, "/dev/fd/%d", fd);
  g_assert_true (!write_text (name, "new", err, sizeof err));
  close (fd);
  g_assert_cmpstr (get (ms_test_tmp_path ("in.csv")), ==, "input");
  unlink (ms_test_tmp_path ("alias.csv"));
  unlink (ms_test_tmp_path ("in.csv"));
}

/* A temporary a killed writer left (it carries memsweep's mark and nobody
 * holds its lock) is removed by the next write to the same target; a live
 * writer's, and files of the user's that merely look alike (a name of the
 * temporaries' shape without the mark), stay. */
static void
test_stale_temporaries (void)
{
  char err[512] = "", value[8];
  put (ms_test_tmp_path ("t.csv.memsweep-dead01"), "killed");
  put (ms_test_tmp_path ("t.csv.memsweep-live01"), "writing");
  put (ms_test_tmp_path ("t.csv.memsweep-backup"), "mine, shaped like one");
  put (ms_test_tmp_path ("t.csv.backup"), "mine");
  put (ms_test_tmp_path ("t.csv.memsweep-toolong1"), "mine too");
  bool marks = setxattr (ms_test_tmp_path ("t.csv.memsweep-dead01"), "user.memsweep.temporary",
                         "1", 1, 0) == 0;
  setxattr (ms_test_tmp_path ("t.csv.memsweep-live01"), "user.memsweep.temporary", "1", 1, 0);
  int live = open (ms_test_tmp_path ("t.csv.memsweep-live01"), O_RDONLY);
  g_assert_true (flock (live, LOCK_EX) == 0);
  g_assert_true (write_text (ms_test_tmp_path ("t.csv"), "new", err, sizeof err));
  /* Without extended attributes nothing is marked, and nothing removed. */
  g_assert_true ((access (ms_test_tmp_path ("t.csv.memsweep-dead01"), F_OK) != 0) == marks);
  g_assert_true (access (ms_test_tmp_path ("t.csv.memsweep-live01"), F_OK) == 0);
  g_assert_cmpstr (get (ms_test_tmp_path ("t.csv.memsweep-backup")), ==, "mine, shaped like one");
  g_assert_true (access (ms_test_tmp_path ("t.csv.backup"), F_OK) == 0);
  g_assert_true (access (ms_test_tmp_path ("t.csv.memsweep-toolong1"), F_OK) == 0);
  /* The written file is no temporary: it keeps no mark. */
  g_assert_true (getxattr (ms_test_tmp_path ("t.csv"), "user.memsweep.temporary", value,
                           sizeof value) < 0);
  close (live);
  const char *names[] = { "t.csv", "t.csv.memsweep-live01", "t.csv.backup",
                          "t.csv.memsweep-toolong1", "t.csv.memsweep-dead01",
                          "t.csv.memsweep-backup" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    unlink (ms_test_tmp_path (names[i]));
}

/* A device or a pipe as a prefix gets every file; a name gets its suffix. */
static void
test_output_names (void)
{
  char out[512];
  g_assert_true (ms_atomic_file_output_name ("/dev/null", "-samples.csv", out, sizeof out));
  g_assert_cmpstr (out, ==, "/dev/null");
  g_assert_true (
    ms_atomic_file_output_name (ms_test_tmp_path ("p"), "-samples.csv", out, sizeof out));
  g_assert_cmpstr (out, ==, ms_test_tmp_path ("p-samples.csv"));
  g_assert_true (!ms_atomic_file_output_name (ms_test_tmp_path ("p"), "-samples.csv", out, 8));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/atomic/replace-keeps-mode", test_replace_keeps_mode);
  g_test_add_func ("/atomic/links-followed", test_links_followed);
  g_test_add_func ("/atomic/refusals", test_refusals);
  g_test_add_func ("/atomic/devices-in-place", test_devices_in_place);
  g_test_add_func ("/atomic/pair-and-cleanup", test_pair_and_cleanup);
  g_test_add_func ("/atomic/descriptors-in-place", test_descriptors_in_place);
  g_test_add_func ("/atomic/inputs-protected", test_inputs_protected);
  g_test_add_func ("/atomic/stale-temporaries", test_stale_temporaries);
  g_test_add_func ("/atomic/output-names", test_output_names);
  return g_test_run ();
}
