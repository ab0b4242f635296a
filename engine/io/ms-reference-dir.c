/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-dir.c: the reference runs' folder (ms-reference-dir.h). */
#include <stdlib.h>
#include <sys/stat.h>

#include "ms-reference-dir.h"
#include "ms-source-tree.h"

static int
is_dir (const char *path)
{
  struct stat st;
  return path && path[0] && stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

const char *
ms_reference_runs_dir (void)
{
  const char *env = getenv ("MEMSWEEP_REFERENCE_DIR");
  if (is_dir (env))
    return env;
  if (is_dir (MS_REFERENCE_DIR))
    return MS_REFERENCE_DIR;
  const char *source = ms_source_data ("reference");
  return is_dir (source) ? source : NULL;
}
