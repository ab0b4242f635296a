/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-path.h: where the memsweep command is, for the work the app hands
 * to it in a process of its own (isolated lesson parts, live
 * comparisons). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The command line next to this program (installed: the same folder; a
 * build: app/cli/ beside app/gtk/), else on PATH; NULL when none. */
char *ms_cli_path_find (void);

G_END_DECLS
