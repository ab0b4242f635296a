/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sweep.h: a sweep's description: its defaults, validation, modes,
 * sizes and the knobs each of its cells runs with. Defined in
 * ms-sweep.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "memsweep.h"

void ms_sweep_init_default (MsSweep *sweep);

/* Returns true when valid; otherwise writes a specific message. */
bool ms_sweep_validate (const MsSweep *sweep, char *err, size_t errlen);

/* Parses "pinned,managed" or "all"; false with a message on unknown names. */
bool ms_sweep_set_modes (MsSweep *sweep, const char *list, char *err, size_t errlen);

void ms_sweep_format_modes (const MsSweep *sweep, char *buf, size_t len);

int ms_sweep_n_sizes (const MsSweep *sweep);

int ms_sweep_n_modes (const MsSweep *sweep);

/* Whether any mode the sweep selects runs on the GPU. */
bool ms_sweep_uses_gpu (const MsSweep *sweep);

int ms_sweep_n_cells (const MsSweep *sweep);

/* "streamed", "ordinary" or "fresh". */
const char *ms_sweep_stores_name (MsHostStores stores);

/* "nothing" or "placement". */
const char *ms_vary_name (MsVary vary);

/* How many processes measured the run's rounds: 1 unless a compare-grade
 * run (processes > 1). */
int ms_sweep_n_processes (const MsSweep *sweep);

/* The knobs and variant of mode's cells: a lesson part's as they are; in a
 * plain sweep (empty variant) reuse and stores where they apply, named in
 * the variant ("R=4/stores=ordinary"), cleared elsewhere. */
void ms_sweep_cell_knobs (const MsSweep *sweep, MsMode mode, MsKnobs *knobs, char *variant,
                          size_t len);
