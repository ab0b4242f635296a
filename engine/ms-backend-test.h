/* ms-backend-test.h: an in-process backend with deterministic timings and
 * fault injection, for tests that must run without a GPU. */
#pragma once

#include "memsweep.h"

typedef struct {
  /* Time model: t = latency + bytes / bandwidth, exact, per mode. */
  double latency_us;
  double bandwidth_gbps[MS_MODE_COUNT];
  /* Fault injection: fail phase `fail_phase` of repetition `fail_rep`
   * (-1: a warm-up run) of (fail_mode, fail_exponent); exponent -1: none. */
  MsMode fail_mode;
  int fail_exponent;
  int fail_rep;
  MsPhase fail_phase;
  MsCellStatus fail_status; /* MS_CELL_FAILED or MS_CELL_VERIFY_FAILED */
  bool unsupported[MS_MODE_COUNT];
  /* Sets the cancel flag in the middle of this run (counted from 0 over all
   * run_once calls); -1: never. */
  long cancel_at_run;
  bool no_device;
  uint64_t device_free_mem;
} MsTestBackendConfig;

void ms_test_backend_config_init (MsTestBackendConfig *config);
MsBackend *ms_backend_new_test (const MsTestBackendConfig *config);

/* Buffers allocated and not yet freed, over all runs so far. */
long ms_test_backend_live_buffers (MsBackend *backend);
