/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-kernels.h: plain C interface to the CUDA side of memsweep.
 *
 * One implementation per memory mode lives in mode-*.cu; this header is all
 * the engine sees of them, so the engine itself needs no CUDA headers. Phase
 * and lane numbers are the engine's (memsweep.h) and are checked there with
 * static assertions; modes are not: the kernels know a mode by its steps
 * (MsKRun.steps) and the few they treat specially by MsKNamedMode.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int phase;
  int lane;   /* 0 host, s + 1 for stream s */
  int chunk;
  int rep;
  double host_start_us;
  double host_us;
  double gpu_start_us; /* < 0 when none */
  double gpu_us;       /* < 0 when none */
  uint64_t bytes;
} MsKEvent;

typedef enum {
  MS_K_OK = 0,
  MS_K_FAILED,
  MS_K_VERIFY_FAILED,
  MS_K_UNSUPPORTED,
  MS_K_CANCELLED
} MsKStatus;

/* The memory modes the kernels treat specially (the steady-state copies,
 * fresh pinned inputs, the probe lessons' pinned or pageable source), by
 * numbers of the kernels' own: the CUDA backend translates MsMode
 * (engine/run/ms-backend.c), so a mode's line may go anywhere in the
 * engine's mode list. Every other mode is MS_K_MODE_OTHER. */
typedef enum {
  MS_K_MODE_OTHER = 0,
  MS_K_MODE_PAGEABLE,
  MS_K_MODE_PINNED,
  MS_K_MODE_REGISTERED,
  MS_K_MODE_WRITE_COMBINED
} MsKNamedMode;

/* Events one step (alloc or one repetition) may record: 3 per stream for
 * up to 64 streams, and the host phases. */
#define MS_K_MAX_STEP_EVENTS 256

/* A GPU mode's steps: ms_k_mode_CNAME of kernels/mode-FILE.cu, named by
 * its line of the engine's mode list, which the CUDA backend expands. */
typedef struct MsKMode MsKMode;

/* One (mode, size) cell of a GPU mode. The engine's cell driver
 * (engine/run/ms-cell-driver.h) decides what runs when; these are its steps. */
typedef struct {
  /* in, fixed for the cell */
  int mode;              /* MsMode value, for messages */
  MsKNamedMode named;    /* what the kernels treat specially */
  const MsKMode *steps;  /* the mode's allocation and repetition */
  int device;
  uint64_t n;            /* elements per vector */
  int streams;           /* chunks and streams for the streams mode */
  int breadth_first;
  /* The lessons' settings (MsKnobs in memsweep.h); all 0 in a sweep. */
  int reuse;       /* R accesses per element with the reuse kernel; 0: plain */
  int access;      /* MsAccess */
  int stores;      /* MsHostStores */
  int read_wc;
  int duplex;      /* MsDuplex */
  int host_work;
  int resident;
  int inputs_kept; /* inputs written before the first repetition only */
  double spin_us;  /* streams: each step one block spinning, no copies; 0: off */
  /* The result poisoned in the pass that verifies it (--host-prep once),
   * so the next repetition's init need not poison it again. */
  int verify_poisons;
  /* in, set before each repetition: 1 instrumented (the latch, an event
   * pair around every step, every phase recorded), 0 plain (the
   * application's sequence alone: no latch, no event between steps, one
   * synchronisation, the host clock around it). */
  int instrumented;
  /* in, set before each repetition: 1 the host checks the result, 0 it
   * leaves it (the engine checks a sample of repetitions). */
  int verify;
  /* Cancel points inside a repetition ask this; the engine answers. */
  int (*is_cancelled) (void *user);
  void *user;
  /* out, reset by each step */
  MsKEvent events[MS_K_MAX_STEP_EVENTS]; /* host_start_us on the host
                                          * monotonic clock (absolute) */
  int n_events;
  double e2e_us;         /* host time, first movement to result readable on
                          * the host; < 0 when the step gave none */
  uint64_t mismatches;
  uint64_t first_mismatch;
  char error[256];       /* the cell's first error */
} MsKRun;

typedef struct MsKCell MsKCell;

typedef enum {
  MS_K_ORIGIN_CELL,       /* record the cell's reference event */
  MS_K_ORIGIN_CELL_AGAIN, /* time the repetition against the cell's */
  MS_K_ORIGIN_REP         /* record a new reference event for it */
} MsKOrigin;

/* A cell's state (buffers, timing context) for run, which must outlive it.
 * NULL when out of host memory. */
MsKCell *ms_k_cell_new (MsKRun *run);
/* Selects the device (MS_K_ORIGIN_CELL) and sets the reference event that
 * GPU start times of the next step are relative to. */
MsKStatus ms_k_cell_origin (MsKCell *cell, MsKOrigin origin);
/* Allocates the mode's buffers (MS_K_OK or MS_K_FAILED). */
MsKStatus ms_k_cell_alloc (MsKCell *cell);
/* One repetition, init .. verify: MS_K_OK (mismatches set after verifying),
 * MS_K_FAILED or MS_K_CANCELLED (stopped at a cancel point). */
MsKStatus ms_k_cell_rep (MsKCell *cell);
/* One burst of steady-state copies: `burst` back-to-back copies of one
 * vector between one event pair. */
typedef struct {
  int to_device;
  double gpu_us;  /* the whole burst */
  uint64_t bytes; /* the whole burst */
} MsKCopy;

/* After the repetitions: `samples` bursts of `burst` copies each way with
 * the cell's own buffers (out: room for 2 * samples, h2d and d2h
 * alternating). MS_K_UNSUPPORTED for the modes without explicit copies of
 * their own host memory (zero-copy, uva, managed, streams, device). */
MsKStatus ms_k_cell_copy_bursts (MsKCell *cell, int samples, int burst, MsKCopy *out);
/* Drains queued work and frees whatever alloc got; then frees cell. */
void ms_k_cell_free (MsKCell *cell);

typedef struct {
  int ok;
  char error[256];
  /* No NVIDIA driver at all (libcuda.so.1 not found): the engine says so in
   * the reader's language, which a kernel file cannot. */
  int no_driver;
  int count;
  char name[256];
  int cc_major, cc_minor;
  uint64_t total_mem, free_mem;
  int driver_version, runtime_version;
  int can_map_host_memory;
  int concurrent_managed_access;
  int pageable_memory_access;
  int managed_memory;
  int unified_addressing;
  int async_engine_count;
  int concurrent_kernels;
  int priority_least, priority_greatest;
  int multiprocessors;
  int l2_bytes;
  char pci_bus_id[32];
} MsKDeviceInfo;

/* Device facts; ok == 0 with the CUDA error text when there is no device. */
void ms_k_device_query (int index, MsKDeviceInfo *info);

/* Free device memory right now (bytes), or 0 with error text on failure. */
uint64_t ms_k_device_free_memory (int index, char *err, size_t errlen);

/* The host buffer before each sample of the reference benchmark. */
typedef enum {
  MS_K_HOST_REUSED,       /* one pinned buffer, warmed once: the reference */
  MS_K_HOST_FRESH,        /* a new pinned buffer per sample (first-use cost) */
  MS_K_HOST_CPU_WRITTEN,  /* memset by the CPU, lines left dirty in its cache */
  MS_K_HOST_CPU_STREAMED  /* written by the CPU with streaming stores */
} MsKHostState;

/* Reference microbenchmark: median GPU time (us) of one cudaMemcpyAsync of
 * bytes between pinned host memory and device memory, timed with events
 * around copies_per_sample back-to-back copies on a non-blocking stream. */
double ms_k_reference_copy_us (int device, uint64_t bytes, int to_device, int warmup,
                               int samples, int copies_per_sample, MsKHostState host_state,
                               char *err, size_t errlen);

/* Keeps every SM busy for about ms milliseconds (the warm-up to a steady
 * clock); 0, or -1 with the error text. Never changes any clock. */
int ms_k_spin (int device, double ms, char *err, size_t errlen);

/* The add kernel at n elements, timed `samples` times each way,
 * interleaved: medians of its GPU time with the stream latch (the work
 * only), without it (events around the launch, as memsweep timed it
 * before), and of the host's launch call. 0, or -1 with the error text. */
int ms_k_kernel_probe (int device, uint64_t n, int samples, double *latched_us,
                       double *unlatched_us, double *launch_us, char *err, size_t errlen);

/* The costs lesson: one sample of a call's cost. */
enum {
  MS_K_COST_CONTEXT_FIRST, /* the process's first context (cudaFree (0)) */
  MS_K_COST_CONTEXT,       /* a context again, after cudaDeviceReset */
  MS_K_COST_FIRST_MALLOC,  /* the first cudaMalloc in a new context */
  MS_K_COST_DEVICE_MALLOC, /* cudaMalloc and cudaFree */
  MS_K_COST_MALLOC_HOST,   /* cudaMallocHost and cudaFreeHost */
  MS_K_COST_MALLOC,        /* malloc with its first touch, and free */
  MS_K_COST_REGISTER,      /* cudaHostRegister and cudaHostUnregister */
  /* cudaMallocAsync and cudaFreeAsync from the device's default pool, each
   * with a synchronisation: from a pool trimmed to nothing, then the
   * steady state with the release threshold at 0 and at "keep all". */
  MS_K_COST_POOL_FIRST,
  MS_K_COST_POOL_RELEASE,
  MS_K_COST_POOL_KEEP,
  MS_K_COST_COUNT
};
/* 0 with the allocating and the freeing call's host times, or -1 with the
 * error text ("unsupported: ..." where the device or driver cannot).
 * CONTEXT and FIRST_MALLOC reset the device: nothing else may hold memory
 * on it. keep_bytes: POOL_KEEP's release threshold. pool, where given,
 * gets the default pool's reserved and used bytes after the free (0 for
 * the other calls); the pool gives back what it kept before the call
 * returns. */
int ms_k_cost_sample (int device, int what, uint64_t bytes, uint64_t keep_bytes, double *alloc_us,
                      double *free_us, uint64_t pool[2], char *err, size_t errlen);

/* ---- probe lessons (engine/lessons/ms-probe-cells.h; kernels/lesson-NAME.cu) ---------- */

#define MS_K_PROBE_N_ARGS 8
#define MS_K_PROBE_MAX_EVENTS 256

/* One sample of a probe lesson's cell. */
typedef struct {
  /* in */
  int device;
  MsKNamedMode mode; /* the source's memory, where the probe takes one */
  uint64_t bytes;
  int arg[MS_K_PROBE_N_ARGS]; /* the probe's settings, named in its file */
  /* 0: the plain sample, the figure, host clock only around the work;
   * 1: with the timers that draw the timeline (its value is kept apart). */
  int instrumented;
  /* out */
  double value_us; /* the figure */
  MsKEvent events[MS_K_PROBE_MAX_EVENTS]; /* host_start_us and gpu_start_us
                                           * from the sample's start */
  int n_events;
  char error[256];
} MsKProbe;

/* A probe lesson's sample: kernels/lesson-NAME.cu defines it as
 * ms_k_lesson_NAME (with C linkage, KP_LESSON_SAMPLE), and the CUDA backend
 * finds it through the lesson's line of engine/ms-lesson-list.h.
 * MS_K_OK with value_us; MS_K_UNSUPPORTED when the device, driver or
 * toolkit cannot (error says which); MS_K_FAILED with the CUDA error. */
typedef MsKStatus (*MsKLessonSample) (MsKProbe *probe);
/* Takes one sample with sample on probe->device. */
MsKStatus ms_k_probe_run (MsKProbe *probe, MsKLessonSample sample);
/* Frees what the probes keep from sample to sample (ms_k_shutdown calls it). */
void ms_k_probe_release (void);

/* Releases the calling thread's cached events; call when done with the GPU. */
void ms_k_shutdown (void);

/* Experiments on the run-to-run spread (engine/run/ms-experiment.h), for the
 * whole process (kernels/ms-buffers.cu): malloc'd host buffers on
 * transparent huge pages; host, pinned and device buffers kept from cell
 * to cell of one size. Both off unless set. */
void ms_k_set_buffer_options (int hugepages, int keep_buffers);
/* Frees the buffers kept for the next cell. */
void ms_k_buffers_release (void);
/* Copies 1 MiB each way back to back for about ms: the copy engines warmed
 * before a cell. 0, or -1 with the error text. */
int ms_k_copy_warm (int device, double ms, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
