/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-run.h: one run the app shows, as an object: the engine's MsResults
 * (owned by the run, freed with it) with the name, note, source file and
 * kind the user sees. A view keeps the run (a reference) it draws, so
 * closing a run can never leave a view with a dangling cell. */
#pragma once

#include <glib-object.h>

#include "memsweep.h"

G_BEGIN_DECLS

/* Where a run came from. */
typedef enum {
  MS_RUN_KIND_SWEEP,     /* measured here, by the sweep */
  MS_RUN_KIND_LESSON,    /* measured or opened by a lesson */
  MS_RUN_KIND_REFERENCE, /* a file: a reference run or any samples file */
  MS_RUN_KIND_SUMMARY,   /* one GPU of a sweep on several GPUs */
} MsRunKind;

#define MS_TYPE_RUN (ms_run_get_type ())
G_DECLARE_FINAL_TYPE (MsRun, ms_run, MS, RUN, GObject)

/* Takes `results` (from the engine; freed with the run). */
MsRun *ms_run_new (MsResults *results, MsRunKind kind);
MsResults *ms_run_get_results (MsRun *self);
MsRunKind ms_run_get_kind (MsRun *self);
/* The name is the results' label (what pickers, legends, the table and
 * exported files say): short, editable, unique in the session. */
const char *ms_run_get_name (MsRun *self);
void ms_run_set_name (MsRun *self, const char *name);
/* The run in full (GPU, kind, date, the setting that sets it apart) for
 * tooltips; the name where none was given. */
const char *ms_run_get_description (MsRun *self);
void ms_run_set_description (MsRun *self, const char *description);
/* A short name for a run, "H100 11-24": the GPU's model and the day
 * (month-day) it was measured; the session numbers names that clash.
 * Free with g_free. */
char *ms_run_short_name (const MsResults *results);
/* One line, saved in the CSV files the run is exported to. */
const char *ms_run_get_note (MsRun *self);
void ms_run_set_note (MsRun *self, const char *note);
/* The samples file it was read from, or NULL. */
const char *ms_run_get_source_file (MsRun *self);
/* Whether a and b were read from one file (the same run read twice). */
gboolean ms_run_same_file (MsRun *a, MsRun *b);
void ms_run_set_source_file (MsRun *self, const char *path);
/* The run's short name on a slide: its file's name less "-samples.csv"
 * (and ".gz"), "h100-lesson-reuse"; the run's name where it has no file.
 * Free with g_free. */
char *ms_run_file_stem (MsRun *self);
/* A measured cell (a copy is kept): emits "cells-changed". */
void ms_run_put_cell (MsRun *self, const MsCell *cell);
/* Emits "cells-changed" after the results were changed in place. */
void ms_run_cells_changed (MsRun *self);

/* An array of run references (MsRun*). */
GPtrArray *ms_run_array_new (void);
/* The results of an array of runs (MsRun*), in order; the runs must outlive
 * the array, which holds no references. */
GPtrArray *ms_run_array_results (GPtrArray *runs);

G_END_DECLS
