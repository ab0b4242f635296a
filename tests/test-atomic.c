/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-atomic.c: the writing policy of ms-atomic-file.c, file by file. */
#define _GNU_SOURCE
#include <dirent.h>
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
  rmdir (dir);
  return ms_test_finish ();
}
