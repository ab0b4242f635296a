/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-runs-trash.h: where the runs library (ms-runs-library.c) puts deleted
 * runs while their undo is offered (ms-runs-trash.c).
 *
 * Each library instance has a folder of its own under the runs folder's
 * .trash (made when the first run is deleted), and each deleted run gets
 * names of its own in it, so two deletes of one name, or two app instances
 * on one data folder, never meet. No symbolic link is followed on the way
 * in or out: a .trash that is a link is refused. Restoring never replaces
 * a file, and purging removes only what this instance put there. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _MsRunsTrash MsRunsTrash;

/* The trash of the runs folder folder; nothing is made yet. */
MsRunsTrash *ms_runs_trash_new (const char *folder);
/* Purges everything still in it, then frees it. */
void ms_runs_trash_free (MsRunsTrash *trash);

/* Moves the samples file (and its summary beside it, when there is one)
 * into the trash: their number (never 0) for the calls below, or 0 with
 * error, nothing moved. */
guint ms_runs_trash_put (MsRunsTrash *trash, const char *samples, GError **error);
/* Puts number id back where it was; refused (nothing moved) when a file
 * has taken its name there since. */
gboolean ms_runs_trash_restore (MsRunsTrash *trash, guint id, GError **error);
/* Deletes number id for good. */
void ms_runs_trash_purge (MsRunsTrash *trash, guint id);
/* Deletes everything this instance put in the trash, and its folder. */
void ms_runs_trash_purge_all (MsRunsTrash *trash);

/* Sets error to "path: errno e's words"; FALSE (for a return). */
gboolean ms_runs_errno_error (GError **error, int e, const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MsRunsTrash, ms_runs_trash_free)

G_END_DECLS
