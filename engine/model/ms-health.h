/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-health.h: the link and clock health of a run (ms-health.c): the PCIe
 * link as trained under load per cell against the device's maximum, the
 * cells that throttled or whose clock moved, the PCIe correctable-error
 * and replay counters around the run, in words and per size; and how they
 * travel through the samples file's metadata:
 *
 *   # pcie-link-under-load: gen5 x16 of gen5 x16
 *   # pcie-link-under-load-cell: MODE ELEMENTS VARIANT ROUND gen4 x8
 *   # pcie-correctable-errors: 0 before, 0 after
 *   # pcie-replays: not readable
 *
 * The first line holds what most GPU cells saw, a -cell line each round
 * that saw something else ("unknown" where it was not read). Files without
 * the lines read as unknown, never as a healthy link or zero errors.
 * Plain C, no GLib. */
#pragma once

#include <stdio.h>

#include "memsweep.h"
#include "devices/ms-pcie-aer.h"

typedef struct {
  int gen, width;            /* the link under load in most GPU cells; 0 unknown */
  int gen_max, width_max;    /* the device's maximum; 0 unknown */
  int slow_gen, slow_width;  /* the slowest link read; 0 unknown */
  int n_gpu_cells;           /* GPU cells with repetitions */
  int n_link_known, n_below; /* of them: link read; read and below the maximum */
  int n_state_known, n_throttled, n_clock_moved;
  /* Cells of GPU modes whose rounds the file does not hold (a summary
   * file): their link and clocks are unknown, not absent. */
  int n_gpu_cells_unread;
} MsHealth;

/* The health of one size (every GPU cell of that exponent). */
typedef struct {
  int exponent;
  int gen, width; /* the slowest link read at this size; 0 unknown */
  bool below;     /* below the device's maximum */
  bool state_known, throttled, clock_moved;
} MsHealthPoint;

/* The slowest link a cell's rounds read under load; false when none. */
bool ms_cell_link_under_load (const MsCell *cell, int *gen, int *width);
void ms_health_compute (const MsResults *results, MsHealth *health);
/* Whether the app should warn: the link ran below its maximum or a cell
 * throttled. */
bool ms_health_warns (const MsHealth *health);
/* Per size with GPU cells, ascending; returns how many (at most max). */
int ms_health_points (const MsResults *results, MsHealthPoint *points, int max);
/* "gen5 x16", or "unknown" (translated). */
void ms_health_format_link (int gen, int width, char *buf, size_t len);
/* "PCIe link under load: gen5 x16 (its maximum); no throttling; correctable
 * errors: not readable; replays: 0 during the run". */
void ms_health_describe (const MsResults *results, char *buf, size_t len);

/* ---- reading the counters (engine only) --------------------------------- */

typedef struct MsNvml MsNvml;
/* Before (true) or after the run: both counters into results. */
void ms_link_counters_read (MsNvml *nvml, const char *pci_bus_id, MsResults *results, bool before);
