/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sweep-settings.h: the sweep as the user set it, one property per
 * setting, bound to GSettings: the settings pane binds its widgets to it
 * and the runner reads it (ms_sweep_settings_get_sweep). */
#pragma once

#include <gio/gio.h>

#include "memsweep.h"

G_BEGIN_DECLS

#define MS_TYPE_SWEEP_SETTINGS (ms_sweep_settings_get_type ())
G_DECLARE_FINAL_TYPE (MsSweepSettings, ms_sweep_settings, MS, SWEEP_SETTINGS, GObject)

/* Properties: one per GSettings key of the engine's setting table
 * (ms-setting-table.h), named by the key, with its range and default:
 * "min-exp", "reps", "ci-target", ... (int; double for a double setting;
 * int for a choice such as "order", its enum's value); "modes" (GStrv of
 * mode names, as saved); "gpu-present" (FALSE: the modes that need a GPU
 * read as off, their saved choice kept). The count "reps" is exact under
 * the fixed rule and the least taken under the adaptive one (the default,
 * as the command line's). */

/* Bound to `settings` (the app's schema); NULL: plain defaults, unbound. */
MsSweepSettings *ms_sweep_settings_new (GSettings *settings);
/* The sweep these settings describe, on device 0; FALSE with err when they
 * do not make a valid sweep. */
gboolean ms_sweep_settings_get_sweep (MsSweepSettings *self, MsSweep *sweep, char *err,
                                      size_t err_size);
/* Whether this machine can run mode (a GPU mode needs a GPU). */
gboolean ms_sweep_settings_mode_available (MsSweepSettings *self, MsMode mode);
void ms_sweep_settings_set_mode (MsSweepSettings *self, MsMode mode, gboolean on);

G_END_DECLS
