/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-runs.h: the reference runs installed with memsweep (data/
 * reference/): where their folder is and which runs it holds. The window's
 * menu and the lesson cards both read them, so they live apart from both. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The folder of the reference runs (MEMSWEEP_REFERENCE_DIR, the installed
 * one, else the source tree's), or NULL when there is none. */
const char *ms_reference_dir (void);
/* For g_ptr_array_sort over an array of strings: by name. */
int ms_compare_names (gconstpointer a, gconstpointer b);
/* The samples files in the reference folder ("h100-default-samples.csv"),
 * by name; empty without a folder. */
GPtrArray *ms_reference_runs_list (void);

G_END_DECLS
