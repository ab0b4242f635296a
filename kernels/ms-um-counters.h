/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-um-counters.h: unified-memory page faults and migrations counted with
 * CUPTI's activity API (ms-um-counters.c, docs/lessons.md).
 *
 * The counters slow the faults they count, so a caller times with them off
 * and counts in a separate pass: ms_k_um_begin, the repetition (whose
 * measured part the mode brackets with ms_k_um_window), ms_k_um_end. Only
 * records that arrive while the window is open count: the caller leaves
 * the device idle at both edges, and each edge waits until CUPTI's records
 * stop arriving (tens of milliseconds, in the counted repetition only). Without CUPTI (not built with
 * it, or the driver refuses) the counts come back unavailable with the
 * reason. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int available;       /* 1: the counts below were measured */
  uint64_t gpu_faults; /* GPU page-fault records (page-fault groups) */
  uint64_t cpu_faults; /* CPU page-fault records */
  uint64_t h2d_bytes;  /* bytes migrated host to device */
  uint64_t d2h_bytes;  /* bytes migrated device to host */
  uint64_t dropped;    /* records CUPTI dropped (buffers full) */
  char reason[200];    /* available == 0: why, with CUPTI's error text */
} MsKUmCounts;

/* Whether this build has CUPTI at all. */
int ms_k_um_built (void);
/* Enables the counters (after the CUDA context exists); 0, or -1 with the
 * reason in out (out->available = 0). */
int ms_k_um_begin (MsKUmCounts *out);
/* Once per process, before the first counted cell's buffers exist: an
 * empty session, so that CUPTI tracks the buffers made after it. */
void ms_k_um_prepare (void);
/* Opens (1) or closes (0) the measured window; does nothing unless a
 * counted pass is running. */
void ms_k_um_window (int open);
/* Flushes the records, disables the counters and sums the window's records
 * into out; 0, or -1 with the reason. */
int ms_k_um_end (MsKUmCounts *out);

#ifdef __cplusplus
}
#endif
