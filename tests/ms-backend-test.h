/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-backend-test.h: an in-process backend with deterministic timings and
 * fault injection, for tests that must run without a GPU. It runs cells
 * through the engine's cell driver (engine/run/ms-cell-driver.h). Test-only: the
 * production engine library does not contain it. */
#pragma once

#include "memsweep.h"

#define MS_TEST_MAX_DEVICES 16

typedef struct MsProbeArgs MsProbeArgs;
typedef struct MsProbeSample MsProbeSample;

typedef struct {
  /* Time model: t = latency + bytes / bandwidth, exact, per mode. */
  double latency_us;
  double bandwidth_gbps[MS_MODE_COUNT];
  /* Fault injection: fail phase `fail_phase` of repetition `fail_rep`
   * (warm-ups are -warmup .. -1; alloc belongs to the first, -warmup) of
   * (fail_mode, fail_exponent); exponent -1: none. */
  MsMode fail_mode;
  int fail_exponent;
  int fail_rep;
  MsPhase fail_phase;
  MsCellStatus fail_status; /* MS_CELL_FAILED or MS_CELL_VERIFY_FAILED (see
                             * fail_at_step) */
  bool unsupported[MS_MODE_COUNT];
  /* Sets the cancel flag at the start of this repetition (counted from 0
   * over all repetitions the backend ran, warm-ups included); -1: never. */
  long cancel_at_run;
  /* Sets the cancel flag just before this step (counted from 0 over all
   * steps: alloc and every modelled phase or stream chunk); -1: never. */
  long cancel_at_step;
  /* Fails this step with fail_status; MS_CELL_VERIFY_FAILED means wrong
   * results, which only a verify step can show (elsewhere it does nothing).
   * -1: never. */
  long fail_at_step;
  bool no_device;
  uint64_t device_free_mem;
  /* End-to-end times scaled by a seeded factor in 1 +- noise_pct / 100
   * (the model's clock does not move): quiet or noisy cells for the
   * repetition rule. 0: exact. */
  double noise_pct;
  /* What the timers cost: an instrumented repetition's end-to-end time is
   * the plain one's plus this (microseconds), its model clock moves by as
   * much; plain repetitions record their steps like instrumented ones (the
   * driver drops them). 0: the two kinds take the same time. */
  double instr_cost_us;
  /* Steady-state copy bursts after the repetitions of pinned cells: one
   * latency per burst of MS_COPY_BURST copies, so they beat the single
   * copy. */
  bool copy_bursts;
  /* Managed cells asked for unified-memory counts (knobs.um_counts) get
   * them from a model after their repetitions: the pages the cell's
   * movement touches, 64 KiB per GPU fault group and 4 KiB per CPU fault,
   * with none for what is already resident or prefetched. With
   * um_unavailable they get um_reason instead, as from a refusing CUPTI. */
  bool um_unavailable;
  const char *um_reason;
  /* The counts of a CUPTI that lost records: first touch without GPU
   * faults and with half the bytes (the engine must call them unknown). */
  bool um_lost;
  /* Several devices (ms-multi.c): how many are visible (default 1), one
   * whose query fails (-1: none), the device the fail_* injection above
   * applies to (-1: every device), and how long each cell holds its thread
   * in real time so that cells of different devices overlap. Counters and
   * clocks are safe to use from one thread per device. */
  int n_devices;
  int missing_device;
  int fail_device;
  int hold_us;
  /* The probe lessons' samples (engine/lessons/ms-probe.h): a model of the
   * lesson's GPU, given the sample's arguments; instr_cost_us is added to
   * instrumented samples after it. NULL: every probe takes latency_us. */
  MsCellStatus (*probe) (const MsProbeArgs *args, MsProbeSample *out, void *user);
  void *probe_user;
  /* The PCIe link the cells read under load: 0 reads the device's
   * maximum (gen4 x16), -1 cannot be read; else, e.g. gen 4 width 8, a
   * link trained down. */
  int link_gen, link_width;
} MsTestBackendConfig;

void ms_test_backend_config_init (MsTestBackendConfig *config);
MsBackend *ms_backend_new_test (const MsTestBackendConfig *config);

/* Buffers allocated and not yet freed, over all runs so far. */
long ms_test_backend_live_buffers (MsBackend *backend);
/* Steps started over all runs so far (see cancel_at_step). */
long ms_test_backend_steps (MsBackend *backend);
/* Samples the costs lesson took. */
long ms_test_backend_cost_calls (MsBackend *backend);
/* The most cells that ran at the same time, and how many cells started
 * while another device had not yet finished an earlier cell (a broken
 * start barrier). */
int ms_test_backend_max_concurrent (MsBackend *backend);
long ms_test_backend_barrier_violations (MsBackend *backend);
