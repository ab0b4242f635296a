/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-peer-doubt.h: whether the topology memsweep read is to be believed,
 * checked against the copies measured over it (ms-peer-doubt.c). A copy
 * faster than the link that was named cannot have used that link: the
 * link is misread (PITFALLS 36), and every view and file says so instead
 * of showing the two figures side by side. Plain C, no GLib. */
#pragma once

#include <stdbool.h>

#include "model/ms-multi-results.h"

/* How far above the nominal rate a copy may read before the link named is
 * doubted: timing noise, not a faster link. */
#define MS_PEER_DOUBT_MARGIN 1.02

/* The fastest one-way copy measured between slots i and j, either way,
 * over every method and the plain loop; 0 without one. */
double ms_peer_best_gbps (const MsPeerResults *results, int i, int j);

/* True when that copy is above the nominal rate per direction of the link
 * memsweep names between slots i and j (ms_peer_nominal_gbps). */
bool ms_peer_link_in_doubt (const MsPeerResults *results, const MsDeviceInfo *info, int i,
                            int j);

/* How many unordered pairs are in doubt. */
int ms_peer_pairs_in_doubt (const MsPeerResults *results, const MsDeviceInfo *info);
