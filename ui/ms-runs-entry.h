/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runs-entry.h: one file in the runs library's folder, as its header
 * describes it. Immutable; read on a worker thread. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define MS_TYPE_RUNS_ENTRY (ms_runs_entry_get_type ())
G_DECLARE_FINAL_TYPE (MsRunsEntry, ms_runs_entry, MS, RUNS_ENTRY, GObject)

/* Properties, all read-only: "file" (GFile: the samples file, or the
 * foreign file), "name" (the file's name without "-samples.csv"), "date"
 * (GDateTime: when it was measured; the file's modification time when the
 * file does not say), "device", "kind" ("sweep" or a lesson's name),
 * "size" (bytes of the samples file and its summary), "reason" (why it
 * is not a run memsweep can open: damaged or foreign; NULL for a run),
 * "stopped" (gboolean: the run was stopped part-way, as `memsweep show`
 * tells: a cell partial or cancelled, or fewer cells than its own settings
 * planned), "completeness-unknown" (gboolean: no cell says it stopped and
 * the run's settings are unknown, no sidecar: whether cells are missing
 * cannot be told; never judged against the default plan). */

/* Reads the header of file (at most 64 KiB; blocking: call it on a worker).
 * Never fails: what cannot be read is an entry with a reason. */
MsRunsEntry *ms_runs_entry_read (GFile *file, GCancellable *cancellable);

GFile *ms_runs_entry_get_file (MsRunsEntry *self);
const char *ms_runs_entry_get_name (MsRunsEntry *self);
GDateTime *ms_runs_entry_get_date (MsRunsEntry *self);
const char *ms_runs_entry_get_device (MsRunsEntry *self);
const char *ms_runs_entry_get_kind (MsRunsEntry *self);
guint64 ms_runs_entry_get_size (MsRunsEntry *self);
const char *ms_runs_entry_get_reason (MsRunsEntry *self);
gboolean ms_runs_entry_get_stopped (MsRunsEntry *self);
gboolean ms_runs_entry_get_completeness_unknown (MsRunsEntry *self);

/* Newest first, for sorting the library. */
int ms_runs_entry_compare (gconstpointer a, gconstpointer b);

G_END_DECLS
