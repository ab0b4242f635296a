/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-shipped-sidecars.c: every CSV file that ships (data/reference/,
 * data/profiles/) opens with its metadata through the engine's own sidecar
 * reader: the sidecar its name gives is there, of a version memsweep
 * reads, and names the file with the size and hash of its plain content.
 * tools/shipped-sidecars.py --check holds the same files to what
 * docs/csv.md offers outside memsweep (the shipped name, `zcat F |
 * sha256sum`); this is the reader that the app and the command line use. */
#include <dirent.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-input.h"
#include "ms-meta-sidecar.h"

/* Each CSV file in dir, plain or gzipped, read with its metadata; their
 * count. */
static int
check_folder (const char *dir)
{
  DIR *d = opendir (dir);
  g_assert_nonnull (d);
  int n = 0;
  for (struct dirent *e; (e = readdir (d));) {
    if (!g_str_has_suffix (e->d_name, ".csv") && !g_str_has_suffix (e->d_name, ".csv.gz"))
      continue;
    g_autofree char *path = g_build_filename (dir, e->d_name, NULL);
    char err[1024] = "", why[2048] = "";
    MsInput *in = ms_input_open (path, false, err, sizeof err);
    if (!in)
      g_error ("%s", err);
    uint64_t size = ms_input_size (in);
    ms_input_close (in);
    g_assert_cmpuint (size, !=, MS_INPUT_SIZE_UNKNOWN);
    char *lines = ms_meta_sidecar_lines (path, (long long) size, why, sizeof why);
    if (!lines)
      g_error ("%s: its metadata is not read: %s (python3 tools/shipped-sidecars.py --check "
               "says why)",
               path, why);
    g_assert_true (g_str_has_prefix (lines, "# run-id: "));
    free (lines);
    n++;
  }
  closedir (d);
  return n;
}

static void
test_shipped_files (void)
{
  g_autofree char *profiles = g_build_filename (MS_REFERENCE_DIR, "..", "profiles", NULL);
  int runs = check_folder (MS_REFERENCE_DIR);
  int kept = check_folder (profiles);
  /* The folders were read: some files in each. */
  g_assert_cmpint (runs, >, 0);
  g_assert_cmpint (kept, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shipped-sidecars/every-file", test_shipped_files);
  return g_test_run ();
}
