/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runs-library.h: the runs library, $XDG_DATA_HOME/memsweep/runs/. Every
 * sweep and lesson run the app makes is kept there as a samples file and its
 * summary (the engine's atomic pair: the samples file is the truth), as it
 * completes and at every stop or close, under a readable name of its own.
 * Its entries are a GListModel of MsRunsEntry, newest first: runs, and the
 * damaged or foreign files of the folder with their reason (left alone).
 * GIO only, no widgets. */
#pragma once

#include <gio/gio.h>

#include "memsweep.h"
#include "ms-run.h"
#include "ms-runs-entry.h"

G_BEGIN_DECLS

#define MS_TYPE_RUNS_LIBRARY (ms_runs_library_get_type ())
G_DECLARE_FINAL_TYPE (MsRunsLibrary, ms_runs_library, MS, RUNS_LIBRARY, GObject)

/* Properties: "folder" (construct-only), "loading" (a listing is under way,
 * read-only), "writing" (a write is under way, read-only), "write-error" (why the last write failed; NULL once a write
 * works again; read-only).
 * Signal: "renamed" (old samples path, new samples path, new name): a
 * kept run was renamed, so that a window showing it can follow. */
MsRunsLibrary *ms_runs_library_new (const char *folder);
/* The app's library, in g_get_user_data_dir ()/memsweep/runs. */
MsRunsLibrary *ms_runs_library_get_default (void);
const char *ms_runs_library_get_folder (MsRunsLibrary *self);
GListModel *ms_runs_library_get_entries (MsRunsLibrary *self);
const char *ms_runs_library_get_write_error (MsRunsLibrary *self);

/* Writes run (from the app: a sweep or lesson run) into the folder; the same
 * run (while it lives) is written over its own files each time. FALSE with error (and "write-error" set) on
 * failure: run is untouched and stays the caller's. */
gboolean ms_runs_library_keep (MsRunsLibrary *self, const MsResults *run, GError **error);
/* The same on the library's writer thread (one: writes land in the order
 * asked), for a run from ms_run_new whose cells no longer change (a sweep
 * or lesson run that has ended); the application is held until the write
 * is done, so quitting waits for it. The outcome shows in "write-error". */
void ms_runs_library_keep_async (MsRunsLibrary *self, MsRun *run);
gboolean ms_runs_library_is_writing (MsRunsLibrary *self);
/* The samples file run is kept in (or being written to), or NULL. */
char *ms_runs_library_dup_path (MsRunsLibrary *self, const MsResults *run);

/* Lists the folder again on a worker thread; the model follows when done. */
void ms_runs_library_reload (MsRunsLibrary *self);
/* The entry whose samples file (or foreign file) is path, or NULL. */
MsRunsEntry *ms_runs_library_find (MsRunsLibrary *self, const char *path);

/* Renames entry's samples file and summary to name (refused when empty,
 * with '/' or a leading '.', or taken); a failure halfway puts the first
 * rename back. Damaged and foreign files are left alone. */
gboolean ms_runs_library_rename (MsRunsLibrary *self, MsRunsEntry *entry, const char *name,
                                 GError **error);
/* Deletes with undo: the files move aside (into this library's own folder
 * in .trash, ms-runs-trash.c) and the entry leaves the model;
 * ms_runs_library_undelete puts that entry's files back (never over a file
 * that has taken the name since), ms_runs_library_purge deletes them for
 * real, ms_runs_library_purge_all every one this library still has aside
 * (at quit); another instance's are left alone. */
gboolean ms_runs_library_delete (MsRunsLibrary *self, MsRunsEntry *entry, GError **error);
gboolean ms_runs_library_undelete (MsRunsLibrary *self, MsRunsEntry *entry, GError **error);
void ms_runs_library_purge (MsRunsLibrary *self, MsRunsEntry *entry);
void ms_runs_library_purge_all (MsRunsLibrary *self);

/* Shows entry's file in the file manager (org.freedesktop.FileManager1
 * ShowItems on the session bus), or else opens the folder. */
void ms_runs_library_show_in_folder (MsRunsLibrary *self, MsRunsEntry *entry,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data);
gboolean ms_runs_library_show_in_folder_finish (MsRunsLibrary *self, GAsyncResult *result,
                                                GError **error);

G_END_DECLS
