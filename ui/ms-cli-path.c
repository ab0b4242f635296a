/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-path.c: where the memsweep command is. The one next to the
 * running program comes first, so that a build or an install uses its own
 * command line and not another version on PATH. */
#include <gio/gio.h>

#include "ms-cli-path.h"

char *
ms_cli_path_find (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self ? g_path_get_dirname (self) : NULL;
  const char *tries[] = { "memsweep", "../memsweep", "../cli/memsweep" };
  for (guint i = 0; dir && i < G_N_ELEMENTS (tries); i++) {
    g_autofree char *path = g_build_filename (dir, tries[i], NULL);
    if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR))
      return g_canonicalize_filename (path, NULL);
  }
  return g_find_program_in_path ("memsweep");
}
