/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-setup-differences.h: what the files of two runs record differently
 * about the machine and the settings that can move a cell's figure, in one
 * sentence that every front end shows (the Compare page, `memsweep
 * compare`), so that a difference of the host, a switch or a setting is
 * not read as the GPU's.
 *
 * Plain C, no GLib; the sentence is in the program's language (ms-i18n.h). */
#pragma once

#include "memsweep.h"

/* "Not the same setup: GPU (H100 / H200), CPU core of the measuring
 * thread (5 / 1) differ (A / B) ..."; NULL when nothing recorded differs
 * (or out of memory). Free with free(). */
char *ms_setup_differences (const MsResults *a, const MsResults *b);
