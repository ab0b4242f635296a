/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-implicit-sync-model.h: GPUs for the implicit-sync lesson's tests
 * (the test backend's probe hook): which operations serialise the two
 * kernels, per stream kind and queues, decides the sample's time; the
 * instrumented samples get the call and the kernels as events. */
#pragma once

#include "ms-backend-test.h"
#include "ms-implicit-sync.h"
#include "ms-probe.h"

/* arg[] as engine/lessons/ms-lesson-implicit-sync.c fills it. */
enum { MODEL_OP, MODEL_NON_BLOCKING, MODEL_KERNEL_US, MODEL_KIB, MODEL_DEFAULT_QUEUES };

typedef struct {
  /* Per operation and column (MS_SYNC_COLUMN): serialised or not. */
  bool serial[MS_SYNC_OP_COUNT][MS_SYNC_N_COLUMNS];
  /* The call's own host time in kernel times, per operation. */
  double call_share[MS_SYNC_OP_COUNT];
} MsSyncModel;

/* The material's rule: allocations, frees, registration, memory sets,
 * device copies serialise everywhere, a legacy-stream kernel on blocking
 * streams. */
static inline void
ms_sync_model_material (MsSyncModel *m)
{
  memset (m, 0, sizeof *m);
  for (int op = MS_SYNC_OP_MALLOC; op < MS_SYNC_OP_COUNT; op++)
    for (int col = 0; col < MS_SYNC_N_COLUMNS; col++)
      m->serial[op][col] = ms_implicit_sync_op_listed ((MsSyncOp) op) &&
                           (op != MS_SYNC_OP_KERNEL_LEGACY || col < 2);
  for (int op = 0; op < MS_SYNC_OP_COUNT; op++)
    m->call_share[op] = 0.05;
}

static inline MsCellStatus
ms_sync_model_probe (const MsProbeArgs *args, MsProbeSample *out, void *user)
{
  const MsSyncModel *m = user;
  int op = args->arg[MODEL_OP];
  double k = args->arg[MODEL_KERNEL_US];
  int col = MS_SYNC_COLUMN (args->arg[MODEL_NON_BLOCKING] != 0,
                            args->arg[MODEL_DEFAULT_QUEUES] != 0);
  double call = op > MS_SYNC_OP_NONE ? m->call_share[op] * k : 0;
  bool serial = m->serial[op][col];
  double second = op == MS_SYNC_OP_ALONE ? -1 : serial ? k : 5 + call;
  out->value_us = op == MS_SYNC_OP_ALONE ? k + 10 : (serial ? 2 * k + 10 : k + 15 + call);
  if (!args->instrumented)
    return MS_CELL_OK;
  MsEvent ev[3] = {
    { .phase = MS_PHASE_KERNEL, .lane = 1, .host_start_us = 0, .gpu_start_us = 3, .gpu_us = k },
    { .phase = MS_PHASE_CALL, .lane = MS_LANE_HOST, .host_start_us = 2, .host_us = call,
      .gpu_start_us = -1, .gpu_us = -1 },
    { .phase = MS_PHASE_KERNEL, .lane = 2, .host_start_us = 0, .gpu_start_us = 3 + second,
      .gpu_us = k },
  };
  for (int i = 0; i < 3; i++)
    if ((i != 1 || op > MS_SYNC_OP_NONE) && (i != 2 || second >= 0))
      out->events[out->n_events++] = ev[i];
  return MS_CELL_OK;
}

/* The lesson run on model m with the test backend (in this process). */
static inline MsResults *
ms_sync_model_run (MsSyncModel *m, const char *options)
{
  MsTestBackendConfig cfg;
  MsSweep s;
  MsResults *r = NULL;
  char err[256] = "";
  ms_test_backend_config_init (&cfg);
  /* No model: the backend's own constant time. */
  cfg.probe = m ? ms_sync_model_probe : NULL;
  cfg.probe_user = m;
  ms_sweep_init_default (&s);
  s.reps = 3;
  s.reps_rule = MS_REPS_FIXED;
  s.warmup = 0;
  if (!m) {
    s.min_exp = 16; /* as the app test makes its runs */
    s.max_exp = 18;
    s.step = 2;
  }
  snprintf (s.options, sizeof s.options, "%s", options ? options : "");
  MsBackend *b = ms_backend_new_test (&cfg);
  MsRunStatus st =
    ms_lesson_run ("implicit-sync", &s, b, NULL, NULL, NULL, NULL, NULL, &r, err, sizeof err);
  ms_backend_free (b);
  if (st != MS_RUN_OK)
    g_error ("implicit-sync on the model: %s", err);
  return r;
}
