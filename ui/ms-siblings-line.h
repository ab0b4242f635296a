/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-siblings-line.h: a host's sibling check (engine/files/
 * ms-siblings-file.h) said in one line for the GPUs page: its result and,
 * where a GPU differs, in which modes and by how much. */
#pragma once

#include <glib.h>

#include "ms-engine.h"

G_BEGIN_DECLS

/* "Sibling check (4 GPUs, 68 s): alike — ...", translated; plain text,
 * never markup (mode names come from the file). Free with g_free. */
char *ms_siblings_line (const MsSiblingsFile *file);

G_END_DECLS
