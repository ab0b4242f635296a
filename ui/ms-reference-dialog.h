/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-reference-dialog.h: the Reference Runs dialog: the reference runs of a
 * folder, grouped by GPU and by kind (default sweeps, lessons, others), to
 * choose one or several and open them. It only asks: the window hands the
 * chosen files to its loader, which adds their runs to the session. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define MS_TYPE_REFERENCE_DIALOG (ms_reference_dialog_get_type ())
G_DECLARE_FINAL_TYPE (MsReferenceDialog, ms_reference_dialog, MS, REFERENCE_DIALOG, AdwWindow)

/* Property "folder" (construct-only; NULL: none installed) and "n-chosen"
 * (guint, read-only: the runs ticked). Signal "open" (GStrv paths): the
 * user opened the runs ticked (the Open button, or Ctrl+Enter), in the
 * order listed; the dialog closes after it. */
MsReferenceDialog *ms_reference_dialog_new (const char *folder);

G_END_DECLS
