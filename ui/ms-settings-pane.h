/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-settings-pane.h: the sweep settings (sizes, timing, memory modes),
 * bound to GSettings, with a summary or the engine's reason to refuse. */
#pragma once

#include <gtk/gtk.h>

#include "memsweep.h"

G_BEGIN_DECLS

#define MS_TYPE_SETTINGS_PANE (ms_settings_pane_get_type ())
G_DECLARE_FINAL_TYPE (MsSettingsPane, ms_settings_pane, MS, SETTINGS_PANE, GtkWidget)

/* Signal "changed": any setting changed. Property "summary" (read-only):
 * the cells the sweep will measure, or why it cannot run. */
GtkWidget *ms_settings_pane_new (void);
/* The sweep as set (device 0); TRUE if the engine accepts it, else FALSE
 * with its message in err. */
gboolean ms_settings_pane_get_sweep (MsSettingsPane *self, MsSweep *sweep, char *err,
                                     size_t err_size);
const char *ms_settings_pane_get_summary (MsSettingsPane *self);

G_END_DECLS
