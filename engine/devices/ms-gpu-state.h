/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-gpu-state.h: the GPU's state around the measurements (NVML clocks,
 * the warm-up to a steady clock, the measuring thread's CPU), rounds and
 * steady-state copy bookkeeping, and their CSV columns. Private to the
 * engine and its tests. */
#pragma once

/* Needs _GNU_SOURCE before the first system header (cpu_set_t). */
#include <sched.h>

#include "memsweep.h"

/* ---- NVML (ms-nvml.c) --------------------------------------------------- */

typedef struct MsNvml MsNvml;

/* NULL when NVML or the device is not there: everything below then reports
 * nothing, and state fields stay empty. */
MsNvml *ms_nvml_open (const char *pci_bus_id);
void ms_nvml_close (MsNvml *nvml);
/* false (and out->valid false) when NVML did not answer. */
bool ms_nvml_sample (MsNvml *nvml, MsGpuState *out);
/* The PCIe link as trained now; false (both 0) when NVML does not say. */
bool ms_nvml_link (MsNvml *nvml, int *gen, int *width);
/* The PCIe replay counter; false when NVML does not give it. */
bool ms_nvml_replays (MsNvml *nvml, uint64_t *count);
/* CPUs NVML calls close to the GPU; false when it does not say. */
bool ms_nvml_near_cpus (MsNvml *nvml, cpu_set_t *set);
/* PCIe link (current and maximum) and the driver release through NVML,
 * loaded at run time; unknown fields stay 0 or "". Needs info->pci_bus_id. */
void ms_nvml_query (MsDeviceInfo *info);

/* ---- warm-up and pinning (ms-gpu-state.c) ------------------------------- */

/* Keeps the GPU busy for about ms milliseconds; false on failure. */
typedef bool (*MsSpinFunc) (void *user, double ms);

/* Spins until NVML's SM clock holds still (three readings within 1 %, at
 * most 2 s), or for MS_WARM_BLIND_MS without NVML. Returns the time spent
 * in ms and the clock reached (0 unknown); never changes any clock. */
#define MS_WARM_BLIND_MS 200.0
double ms_gpu_warm (MsNvml *nvml, MsSpinFunc spin, void *user, int *steady_sm_mhz);

/* Samples the state before a cell; when the SM clock has fallen below 60 %
 * of steady_sm_mhz (back towards idle), spins briefly and samples again. */
void ms_gpu_state_before_cell (MsNvml *nvml, MsSpinFunc spin, void *user, int steady_sm_mhz,
                               MsGpuState *out);

/* Pins the calling thread to one CPU: the one it runs on when that is
 * allowed and close to the GPU, else the first such CPU, else the one it
 * runs on. Returns the CPU or -1; saved receives the old mask for
 * ms_unpin_thread, near (may be NULL) the CPUs near the GPU as text. */
int ms_pin_thread (MsNvml *nvml, cpu_set_t *saved, char *near, size_t nearlen);
/* The same; fixed: the first allowed CPU near the GPU whatever CPU the
 * thread runs on, so that every process measures on the same one. */
int ms_pin_thread_at (MsNvml *nvml, bool fixed, cpu_set_t *saved, char *near, size_t nearlen);
/* Pins the calling thread to a CPU drawn at random (rand_r on seed) from
 * those of allowed near the GPU (all of allowed where NVML cannot say):
 * a round of a run that varies its placement. The CPU, or -1. */
int ms_pin_thread_random (MsNvml *nvml, const cpu_set_t *allowed, unsigned *seed);
void ms_unpin_thread (const cpu_set_t *saved);
/* The NUMA node the calling thread runs on, or -1. */
int ms_current_node (void);
/* The calling thread's memory from node (preferred), or back to the
 * default policy with node < 0; false when the kernel refused. */
bool ms_prefer_node (int node);

/* "0-15 32-47": a CPU set in runs. */
void ms_format_cpu_set (const cpu_set_t *set, char *buf, size_t len);

/* ---- rounds (ms-rounds.c) ----------------------------------------------- */

/* Appends one round's run of a cell (reps numbered from 0, one entry in
 * rounds, copies of that round) to dst, renumbering its repetitions after
 * dst's; recomputes the statistics. */
bool ms_cell_append_round (MsCell *dst, const MsCell *round);
/* Records that repetition rep belongs to round (reading files). */
bool ms_cell_note_rep_round (MsCell *cell, int rep, int round);
bool ms_cell_add_copy (MsCell *cell, const MsCopySample *sample);

/* ---- CSV columns of the GPU state --------------------------------------- */

enum {
  MS_STATE_COL_SM_START,
  MS_STATE_COL_SM_END,
  MS_STATE_COL_MEM_START,
  MS_STATE_COL_MEM_END,
  MS_STATE_COL_TEMP_START,
  MS_STATE_COL_TEMP_END,
  MS_STATE_COL_PSTATE_START,
  MS_STATE_COL_PSTATE_END,
  MS_STATE_COL_THROTTLE_START,
  MS_STATE_COL_THROTTLE_END,
  MS_STATE_COL_FLAGS,
  MS_STATE_COL_STOP, /* why the round's repetitions ended */
  MS_N_STATE_COLUMNS
};
/* Their names are in the CSV files' column list (ms_state_column_name). */
#define MS_STATE_FIELD_LEN 48
/* "steady", "clock-changed", "throttled" or both. */
const char *ms_state_flags_text (int flags);
/* Fields of a round's state as text; the state's are empty when it is
 * unknown, the stop reason's when that is. */
void ms_state_format (const MsCellRound *round, char fields[][MS_STATE_FIELD_LEN]);
/* Parses them back (NULL entries: absent columns); false on a malformed
 * value. All empty leaves the states invalid. */
bool ms_state_parse (const char *const fields[MS_N_STATE_COLUMNS], MsGpuState *start,
                     MsGpuState *end);
/* Reading a samples file: the round column of a row (NULL or "": round 0)
 * and, on end-to-end rows, the state columns (NULL entries: absent); a
 * copy row (phase MS_COPY_PHASE_*) with its GPU time and bytes. Both
 * false with why set on a malformed value. */
bool ms_cell_read_round (MsCell *cell, int rep, bool is_e2e, const char *round,
                         const char *const state[MS_N_STATE_COLUMNS], char *why, size_t whylen);
/* The same with the round already parsed (0 to MS_MAX_ROUNDS - 1). */
bool ms_cell_read_round_number (MsCell *cell, int rep, bool is_e2e, int round,
                                const char *const state[MS_N_STATE_COLUMNS], char *why,
                                size_t whylen);
bool ms_cell_read_copy (MsCell *cell, const char *phase, const char *round, double gpu_us,
                        uint64_t bytes, char *why, size_t whylen);
/* "h2d_copy", "d2h_copy": the samples file's rows for steady copies. */
#define MS_COPY_PHASE_H2D "h2d_copy"
#define MS_COPY_PHASE_D2H "d2h_copy"
