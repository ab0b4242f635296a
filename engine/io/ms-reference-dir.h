/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-dir.h: where the reference runs recorded on the lent GPUs
 * are (ms-reference-dir.c), for the app's menu and the command line's
 * lessons on a machine without a GPU. */
#pragma once

/* MEMSWEEP_REFERENCE_DIR when it names a folder, else the installed
 * folder, else the source tree's (an uninstalled build); NULL when none
 * exists. */
const char *ms_reference_runs_dir (void);
