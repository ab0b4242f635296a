/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-settings-pane.h: the sweep settings (sizes, timing, memory modes): its
 * widgets are bound to an MsSweepSettings, with a summary or the engine's
 * reason to refuse. */
#pragma once

#include <gtk/gtk.h>

#include "ms-sweep-settings.h"

G_BEGIN_DECLS

#define MS_TYPE_SETTINGS_PANE (ms_settings_pane_get_type ())
G_DECLARE_FINAL_TYPE (MsSettingsPane, ms_settings_pane, MS, SETTINGS_PANE, GtkWidget)

/* Signal "changed": any setting changed. Properties: "summary"
 * (read-only): the cells the sweep will measure, or why it cannot run;
 * "sweep-settings": what the widgets show and change (a new pane has its
 * own, bound to GSettings, until one is set). */
const char *ms_settings_pane_get_summary (MsSettingsPane *self);

G_END_DECLS
