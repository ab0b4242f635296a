/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-runs.h: the reference runs installed with memsweep (data/
 * reference/): where their folder is, which runs it holds, and what each
 * file's name says of it (its GPU and kind). The Reference Runs dialog and
 * the lesson cards both read them, so they live apart from both. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The folder of the reference runs (MEMSWEEP_REFERENCE_DIR, the installed
 * one, else the source tree's), or NULL when there is none. */
const char *ms_reference_dir (void);
/* For g_ptr_array_sort over an array of file names: by the run's name, a
 * sweep before its repeats ("h100-default" before "h100-default-1"). */
int ms_compare_names (gconstpointer a, gconstpointer b);
/* The samples files in the folder dir ("h100-default-samples.csv"), by
 * name; empty for NULL. */
GPtrArray *ms_reference_runs_list_in (const char *dir);

/* What a reference run is, by its file's name. */
typedef enum {
  MS_REFERENCE_DEFAULT, /* a default sweep: GPU-default[-N]-samples.csv */
  MS_REFERENCE_LESSON,  /* a lesson's run: GPU-lesson-NAME-samples.csv */
  MS_REFERENCE_OTHER,   /* any other sweep ("h100-large") */
} MsReferenceKind;

/* Reads a reference file's name: its kind, the GPU it was measured on
 * ("h100", the name's first word; "" when the name has none) in *gpu and
 * what the row shows ("Default sweep", "Default sweep, run 2", a lesson's
 * translated title, else the name past the GPU) in *title, both newly
 * allocated and valid UTF-8. */
MsReferenceKind ms_reference_run_describe (const char *file, char **gpu, char **title);

G_END_DECLS
