/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-modes.h: the memory modes, the phases and the cell statuses by name
 * and in words, the knobs a mode takes, and bytes, links and CUDA versions
 * put in words. Defined in ms-modes.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memsweep.h"

const char *ms_mode_name (MsMode mode);        /* "pinned" */

const char *ms_mode_title (MsMode mode);       /* "Pinned" */

const char *ms_mode_short_name (MsMode mode);  /* "mgd+pf": narrow table columns */

const char *ms_mode_description (MsMode mode); /* one line */

bool ms_mode_from_name (const char *name, MsMode *out);

bool ms_mode_uses_gpu (MsMode mode);

MsModeMemory ms_mode_memory (MsMode mode);

MsModeNeed ms_mode_need (MsMode mode);

/* When the host writes a mode's inputs a and b under --host-prep once (the
 * default, MsHostPrep in memsweep.h). */
typedef enum {
  MS_INPUTS_FIRST_REP, /* before a cell's first repetition only */
  MS_INPUTS_EVERY_REP, /* before every repetition */
  MS_INPUTS_NONE,      /* never: a kernel fills them on the device */
} MsModeInputs;

MsModeInputs ms_mode_inputs_written (MsMode mode);

const char *ms_phase_name (MsPhase phase); /* "h2d" */

const char *ms_phase_description (MsPhase phase); /* "copies host to device" */

bool ms_phase_from_name (const char *name, MsPhase *out);

/* The phase that moves the inputs to the device and the one that brings the
 * result back, or MS_PHASE_COUNT when the mode has none. */
MsPhase ms_mode_to_device_phase (MsMode mode);

MsPhase ms_mode_to_host_phase (MsMode mode);

const char *ms_cell_status_name (MsCellStatus status);

bool ms_cell_status_from_name (const char *name, MsCellStatus *out);

/* "4 KiB", "1 MiB", "1.5 GiB": binary units for buffer sizes. */
void ms_format_bytes (uint64_t bytes, char *buf, size_t len);
/* Cuts first's unit (its last word) where second ends in the same one, so
 * that a pair reads "45 or 49 µs", "4–16 KiB". */
void ms_format_unit_once (char *first, const char *second);

/* Whether mode honours knob (its record's .takes, ms-modes.c); other modes
 * run as without it. */
bool ms_sweep_knob_applies (MsSweepKnob knob, MsMode mode);

/* Theoretical PCIe payload rate per direction in GB/s for a link, or 0. */
double ms_pcie_theoretical_gbps (int gen, int width);

void ms_format_version (int cuda_version, char *buf, size_t len); /* 13000 -> "13.0" */
