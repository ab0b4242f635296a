/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-atomic.c: the writing policy of ms-atomic-file.c, file by file. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-atomic-file.h"
#include "ms-test.h"

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
  MS_CHECK (write_text (in_dir ("a.csv"), "new", err, sizeof err), "%s", err);
  MS_CHECK_STR (get (in_dir ("a.csv")), "new");
  struct stat st;
  stat (in_dir ("a.csv"), &st);
  MS_CHECK ((st.st_mode & 07777) == 0640, "mode %o", st.st_mode & 07777);
  MS_CHECK (count_entries () == 1, "%d entries", count_entries ());
  unlink (in_dir ("a.csv"));
}

static void
test_links_followed (void)
{
  char err[512] = "";
  put (in_dir ("target.csv"), "old");
  symlink ("target.csv", in_dir ("link.csv"));
  MS_CHECK (write_text (in_dir ("link.csv"), "new", err, sizeof err), "%s", err);
  struct stat st;
  MS_CHECK (lstat (in_dir ("link.csv"), &st) == 0 && S_ISLNK (st.st_mode), "link replaced");
  MS_CHECK_STR (get (in_dir ("target.csv")), "new");
  /* A dangling link creates the file it names. */
  symlink ("made.csv", in_dir ("dangling.csv"));
  MS_CHECK (write_text (in_dir ("dangling.csv"), "made", err, sizeof err), "%s", err);
  MS_CHECK_STR (get (in_dir ("made.csv")), "made");
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
  MS_CHECK (!write_text (in_dir ("ro.csv"), "new", err, sizeof err), "read-only replaced");
  snprintf (want, sizeof want, "%s: is read-only: not replaced", in_dir ("ro.csv"));
  MS_CHECK_STR (err, want);
  MS_CHECK_STR (get (in_dir ("ro.csv")), "mine");
  MS_CHECK (!ms_atomic_file_check (dir, err, sizeof err), "a folder passed");
  snprintf (want, sizeof want, "%s: is a folder", dir);
  MS_CHECK_STR (err, want);
  char long_name[300];
  memset (long_name, 'x', 250);
  strcpy (long_name + 250, ".csv");
  MS_CHECK (!ms_atomic_file_check (in_dir (long_name), err, sizeof err), "long name passed");
  MS_CHECK (strstr (err, ": cannot write: File name too long") != NULL, "%s", err);
  MS_CHECK (count_entries () == 1, "%d entries", count_entries ());
  unlink (in_dir ("ro.csv"));
}

static void
test_devices_in_place (void)
{
  char err[512] = "";
  struct stat st;
  MS_CHECK (write_text ("/dev/null", "nothing", err, sizeof err), "%s", err);
  MS_CHECK (stat ("/dev/null", &st) == 0 && S_ISCHR (st.st_mode), "/dev/null replaced");
}

static void
test_pair_and_cleanup (void)
{
  char err[512] = "";
  put (in_dir ("p-samples.csv"), "old samples");
  MsAtomicFile *a = ms_atomic_file_open (in_dir ("p-samples.csv"), err, sizeof err);
  MsAtomicFile *b = ms_atomic_file_open (in_dir ("p-summary.csv"), err, sizeof err);
  MS_CHECK (a && b, "%s", err);
  ms_atomic_file_write (a, "new samples", 11);
  ms_atomic_file_write (b, "new summary", 11);
  MS_CHECK (count_entries () == 3, "two temporaries: %d entries", count_entries ());
  /* What a signal handler does: no temporary stays. */
  ms_atomic_file_remove_temporaries ();
  MS_CHECK (count_entries () == 1, "after removal: %d entries", count_entries ());
  ms_atomic_file_abort (a);
  ms_atomic_file_abort (b);
  a = ms_atomic_file_open (in_dir ("p-samples.csv"), err, sizeof err);
  b = ms_atomic_file_open (in_dir ("p-summary.csv"), err, sizeof err);
  ms_atomic_file_write (a, "new samples", 11);
  ms_atomic_file_write (b, "new summary", 11);
  MS_CHECK (ms_atomic_file_commit_pair (a, b, err, sizeof err), "%s", err);
  MS_CHECK_STR (get (in_dir ("p-samples.csv")), "new samples");
  MS_CHECK_STR (get (in_dir ("p-summary.csv")), "new summary");
  MS_CHECK (count_entries () == 2, "%d entries", count_entries ());
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
  MS_CHECK (write_text (name, "new\n", err, sizeof err), "%s", err);
  snprintf (name, sizeof name, "/proc/self/fd/%d", fd);
  MS_CHECK (write_text (name, "more\n", err, sizeof err), "%s", err);
  close (fd);
  MS_CHECK_STR (get (in_dir ("log")), "old\nnew\nmore\n");
  stat (in_dir ("log"), &after);
  MS_CHECK (before.st_ino == after.st_ino, "the file was replaced");
  MS_CHECK (count_entries () == 1, "%d entries", count_entries ());
  unlink (in_dir ("log"));
  /* A pipe: its link reads "pipe:[N]", which is no file name at all. */
  int p[2];
  MS_CHECK (pipe (p) == 0, "pipe");
  snprintf (name, sizeof name, "/dev/fd/%d", p[1]);
  MS_CHECK (write_text (name, "piped", err, sizeof err), "%s", err);
  close (p[1]);
  char buf[16] = "";
  MS_CHECK (read (p[0], buf, sizeof buf - 1) == 5, "read");
  MS_CHECK_STR (buf, "piped");
  close (p[0]);
  /* A descriptor open for reading only is not written. */
  fd = open ("/dev/null", O_RDONLY);
  snprintf (name, sizeof name, "/dev/fd/%d", fd);
  MS_CHECK (!write_text (name, "x", err, sizeof err), "a read-only descriptor was written");
  close (fd);
}

/* An input of the command is never an output, under any of its names. */
static void
test_inputs_protected (void)
{
  char err[512] = "", want[512];
  put (in_dir ("in.csv"), "input");
  symlink ("in.csv", in_dir ("alias.csv"));
  MS_CHECK (ms_atomic_file_protect (in_dir ("in.csv")), "protect");
  MS_CHECK (!write_text (in_dir ("alias.csv"), "new", err, sizeof err), "an input replaced");
  snprintf (want, sizeof want, "%s: is one of the inputs: not replaced", in_dir ("alias.csv"));
  MS_CHECK_STR (err, want);
  MS_CHECK (!ms_atomic_file_check (in_dir ("in.csv"), err, sizeof err), "check passed");
  int fd = open (in_dir ("in.csv"), O_WRONLY | O_APPEND);
  char name[64];
  snprintf (name, sizeof name, "/dev/fd/%d", fd);
  MS_CHECK (!write_text (name, "new", err, sizeof err), "an input appended to");
  close (fd);
  MS_CHECK_STR (get (in_dir ("in.csv")), "input");
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
  MS_CHECK (flock (live, LOCK_EX) == 0, "lock");
  MS_CHECK (write_text (in_dir ("t.csv"), "new", err, sizeof err), "%s", err);
  MS_CHECK (access (in_dir ("t.csv.memsweep-dead01"), F_OK) != 0, "the stale one stayed");
  MS_CHECK (access (in_dir ("t.csv.memsweep-live01"), F_OK) == 0, "a live one was removed");
  MS_CHECK (access (in_dir ("t.csv.backup"), F_OK) == 0, "the user's file was removed");
  MS_CHECK (access (in_dir ("t.csv.memsweep-toolong1"), F_OK) == 0, "a look-alike was removed");
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
  MS_CHECK (ms_atomic_file_output_name ("/dev/null", "-samples.csv", out, sizeof out), "fits");
  MS_CHECK_STR (out, "/dev/null");
  MS_CHECK (ms_atomic_file_output_name (in_dir ("p"), "-samples.csv", out, sizeof out), "fits");
  MS_CHECK_STR (out, in_dir ("p-samples.csv"));
  MS_CHECK (!ms_atomic_file_output_name (in_dir ("p"), "-samples.csv", out, 8), "too long");
}

int
main (void)
{
  snprintf (dir, sizeof dir, "/tmp/memsweep-test-atomic-XXXXXX");
  if (!mkdtemp (dir))
    return 1;
  MS_RUN (test_replace_keeps_mode);
  MS_RUN (test_links_followed);
  MS_RUN (test_refusals);
  MS_RUN (test_devices_in_place);
  MS_RUN (test_pair_and_cleanup);
  MS_RUN (test_descriptors_in_place);
  MS_RUN (test_inputs_protected);
  MS_RUN (test_stale_temporaries);
  MS_RUN (test_output_names);
  rmdir (dir);
  return ms_test_finish ();
}
