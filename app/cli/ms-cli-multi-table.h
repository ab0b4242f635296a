/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-multi-table.h: what multi, peer and portable measured as tables
 * (ms-cli-output.h), for their --format csv, markdown and json and their
 * exports (ms-cli-multi-table.c). */
#pragma once

#include "ms-cli-output.h"
#include "ms-engine.h"

/* The cell of slot's run in r (none where r or that run is NULL). */
const MsCell *ms_cli_multi_cell (const MsMultiResults *r, int slot, MsMode mode, int e);
/* A row per device, mode and size, together and (alone non-NULL, one per
 * device) alone. */
MsCliTable *ms_cli_multi_table (const MsSweep *sweep, const MsMultiResults *together,
                                MsMultiResults *const *alone);
/* A row per method, direction, source and destination; the reference loop
 * as method "reference". */
MsCliTable *ms_cli_peer_table (const MsPeerResults *r);
/* A row per case and device. */
MsCliTable *ms_cli_portable_table (const MsPortableResults *r);
