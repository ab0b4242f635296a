/* SPDX-License-Identifier: GPL-3.0-or-later */
/* file-kinds-table.c: prints the table of kinds' JSON entries (name,
 * schema, version, schema file), one a line, for test-cli-json-kinds.py
 * to hold the documents the writers write against. */
#include <stdio.h>

#include "ms-file-kinds.h"

int
main (void)
{
  for (int k = 0; k < MS_N_FILE_KINDS; k++) {
    const MsFileKindInfo *info = ms_file_kind_info ((MsFileKind) k);
    if (info && info->schema)
      printf ("%s %s %d %s\n", info->name, info->schema, info->schema_version,
              info->schema_file ? info->schema_file : "-");
  }
  return 0;
}
