/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-backend.h: the backends as a front end sees them: the system's,
 * its devices and which modes they can run. Defined in ms-backend.c;
 * what a backend implements is ms-backend-private.h. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

/* The real backend: CUDA for the GPU modes, the host for the CPU mode. */
MsBackend *ms_backend_new_system (void);
/* Deterministic timings for tests: tests/fixtures/ms-backend-test.h (test-only). */

void ms_backend_free (MsBackend *backend);


/* Fills info for device index; false with info->error set when none. */
bool ms_backend_query_device (MsBackend *backend, int index, MsDeviceInfo *info);

/* Whether a mode can run on the device, with the reason when not. */
bool ms_backend_supports (MsBackend *backend, const MsDeviceInfo *info, MsMode mode,
                          char *why, size_t whylen);
