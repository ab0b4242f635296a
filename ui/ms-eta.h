/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-eta.h: the time a sweep has left, from what its cells cost so far: per
 * mode, seconds per repetition = latency + size x cost per element, fitted
 * to the measured cells and applied to the cells still to come. GLib only. */
#pragma once

#include <glib.h>

#include "memsweep.h"

G_BEGIN_DECLS

typedef struct _MsEta MsEta;

MsEta *ms_eta_new (const MsSweep *sweep);
void ms_eta_free (MsEta *eta);
/* Cell `index` of the plan (as the runner counts: rounds, sizes, modes)
 * finished after `seconds` of wall time. */
void ms_eta_add (MsEta *eta, int index, const MsCell *cell, double seconds);
/* Seconds left, or -1 while a mode still to come has fewer than two sizes
 * measured (one point cannot tell latency from cost per byte). */
double ms_eta_seconds_left (const MsEta *eta);
/* "about 40 s left", "about 3 min 10 s left", or "estimating time left". */
char *ms_eta_format (double seconds_left);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MsEta, ms_eta_free)

G_END_DECLS
