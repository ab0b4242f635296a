/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-draw-helper.c: plot, report and compare --plot handed over to
 * memsweep-draw, the same command line built with the drawing library
 * (meson -Dcli_draw=helper). It is looked for beside this program first
 * (a build tree), then where it is installed (MS_DRAW_HELPER). */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ms-cli-draw-helper.h"
#include "ms-cli-common.h"
#include "ms-cli-options.h"
#include "ms-cli-parse.h"
#include "ms-i18n.h"

bool
ms_cli_draw_helper_wanted (int argc, char **argv)
{
  if (strcmp (argv[0], "plot") == 0 || strcmp (argv[0], "report") == 0)
    return true;
  /* compare's options name --plot, abbreviated or not, read by the one
   * parser as compare will read them. */
  return strcmp (argv[0], "compare") == 0
         && ms_cli_args_give (ms_cli_command_find ("compare"), argc, argv, 'p');
}

/* memsweep-draw beside this program, or "" when it is not there. */
static void
helper_beside_self (char *path, size_t len)
{
  char self[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  path[0] = '\0';
  if (n <= 0)
    return;
  self[n] = '\0';
  char *slash = strrchr (self, '/');
  if (slash)
    snprintf (path, len, "%.*s/memsweep-draw", (int)(slash - self), self);
  if (access (path, X_OK) != 0)
    path[0] = '\0';
}

int
ms_cli_draw_helper_run (char **argv)
{
  char beside[PATH_MAX + 16];
  helper_beside_self (beside, sizeof beside);
  const char *helper = beside[0] ? beside : MS_DRAW_HELPER;
  fflush (NULL);
  execv (helper, argv);
  /* TRANSLATORS: %s is a command (plot, report or compare); memsweep-plot
   * is a package's name. */
  fprintf (stderr,
           ms_gettext ("memsweep %s: drawing needs memsweep-draw, which is not installed "
                       "(the package memsweep-plot, or a build with Cairo and Pango)\n"),
           argv[1]);
  return EXIT_USAGE;
}
