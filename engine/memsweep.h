/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memsweep.h: public interface of libmemsweep, the measuring engine.
 *
 * The engine depends on libc, libm, pthreads and libcsv only, so it builds on
 * a bare GPU server. A front end (the command line, the GTK app) describes a
 * sweep, validates it, runs it on a worker thread with a progress callback and
 * a cancel flag, reads the results and writes or reads them as CSV.
 *
 * Times are in microseconds, sizes in bytes, bandwidths in GB/s (10^9 B/s).
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ms-mode-list.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MS_VERSION "0.1.0"

/* Exponent bounds: N = 2^k float32 elements per vector. */
#define MS_MIN_EXPONENT 0
#define MS_MAX_EXPONENT 28
#define MS_MAX_REPS 100000
#define MS_MAX_WARMUP 1000
#define MS_MAX_STREAMS 64
/* Rounds of one run; a compare-grade run's processes each add theirs
 * (processes x rounds at most this many). */
#define MS_MAX_ROUNDS 64
#define MS_MAX_PROCESSES 32

/* The memory modes, from their one list (ms-mode-list.h). */
#define MS_MODE_ENUM_VALUE(id, cname, kind, file, name, title, explanation, to_device, to_host) \
  MS_MODE_##id,
typedef enum /*< skip >*/ {
  MS_MODE_LIST (MS_MODE_ENUM_VALUE)
  MS_MODE_COUNT
} MsMode;

/* Phases in the order they happen within one run. */
typedef enum {
  MS_PHASE_ALLOC,
  MS_PHASE_INIT,
  MS_PHASE_REGISTER,
  MS_PHASE_PREFETCH,
  MS_PHASE_H2D,
  MS_PHASE_KERNEL,
  MS_PHASE_D2H,
  MS_PHASE_VERIFY,
  MS_PHASE_UNREGISTER,
  MS_PHASE_FREE,
  /* Appended so that older files and the kernels keep their numbers: the
   * host's cost of enqueuing a kernel, timed apart from the kernel's GPU
   * time (which no longer includes it). */
  MS_PHASE_LAUNCH,
  /* The probe lessons' (ms-probe-cells.h): a host function run by a stream, and
   * a host call under study (cudaMalloc between two launches, a copy call
   * whose return is timed). */
  MS_PHASE_HOST_FUNC,
  MS_PHASE_CALL,
  MS_PHASE_COUNT
} MsPhase;

typedef enum {
  MS_ORDER_DEPTH_FIRST,  /*< nick=depth >*/
  MS_ORDER_BREADTH_FIRST /*< nick=breadth >*/
} MsIssueOrder;

typedef enum {
  MS_CELL_OK,
  MS_CELL_FAILED,      /* a CUDA error, an allocation failure, a refusal */
  MS_CELL_VERIFY_FAILED,
  MS_CELL_UNSUPPORTED, /* the device cannot run this mode */
  MS_CELL_CANCELLED,   /* stopped before any repetition was kept */
  MS_CELL_PARTIAL,     /* stopped part-way: the kept repetitions stay */
  MS_CELL_STATUS_COUNT
} MsCellStatus;

/* Lane 0 is the host thread; lane s + 1 is GPU stream s. */
#define MS_LANE_HOST 0

/* ---- modes and phases ------------------------------------------------- */

const char *ms_mode_name (MsMode mode);        /* "pinned" */
const char *ms_mode_title (MsMode mode);       /* "Pinned" */
const char *ms_mode_description (MsMode mode); /* one line */
bool ms_mode_from_name (const char *name, MsMode *out);
bool ms_mode_uses_gpu (MsMode mode);

const char *ms_phase_name (MsPhase phase); /* "h2d" */
bool ms_phase_from_name (const char *name, MsPhase *out);

/* The phase that moves the inputs to the device and the one that brings the
 * result back, or MS_PHASE_COUNT when the mode has none. */
MsPhase ms_mode_to_device_phase (MsMode mode);
MsPhase ms_mode_to_host_phase (MsMode mode);

const char *ms_cell_status_name (MsCellStatus status);
bool ms_cell_status_from_name (const char *name, MsCellStatus *out);

/* "4 KiB", "1 MiB", "1.5 GiB": binary units for buffer sizes. */
void ms_format_bytes (uint64_t bytes, char *buf, size_t len);

/* ---- sweep description ------------------------------------------------ */

/* A cell of an experiment (docs/lessons.md) carries the setting it was
 * measured under as a variant: "key=value" pairs joined by '/', such as
 * "R=4" or "queue=single/order=breadth"; "" in a plain sweep. Cells are
 * identified by (mode, size, variant). */
#define MS_VARIANT_LEN 48

/* How many repetitions a cell gets. */
typedef enum {
  MS_REPS_FIXED,    /* exactly reps */
  MS_REPS_ADAPTIVE, /* see ms_sweep_stop_rule */
} MsRepsRule;

/* What changes from one round to the next. Between processes on the lent
 * GPUs a cell's median moves by 3-20 %, far more than within one
 * (PITFALLS 28): where the process lands (its CPU, its pages, the order
 * its cells met the machine) is part of what a run measures. Varying the
 * placement every round lets the rounds of one process sample it. */
typedef enum {
  MS_VARY_NOTHING,   /* rounds repeat the same placement and order */
  MS_VARY_PLACEMENT, /* each round: a new random visit order, another measuring CPU,
                      * fresh pages for pageable buffers */
} MsVary;

#define MS_MAX_CI_TARGET_PCT 100.0
#define MS_MAX_CELL_BUDGET_MS 3600000.0 /* an hour */

/* The settings the lessons vary (docs/lessons.md); all zero in a plain
 * sweep, and a mode ignores those it has no use for. */
typedef enum {
  MS_ACCESS_READ_WRITE,      /* the kernel reads a and b, writes c */
  MS_ACCESS_READ,            /* reads a and b; c goes to device memory and is copied back */
  MS_ACCESS_WRITE,           /* computes a and b itself and writes c once per kernel, R kernels */
  MS_ACCESS_WRITE_IN_KERNEL, /* the same, one kernel storing each element R times in a row */
  MS_ACCESS_COUNT
} MsAccess;

typedef enum {
  MS_STORES_STREAMED, /*< nick=streamed >*/ /* the host writes the inputs with streaming stores */
  MS_STORES_ORDINARY, /*< nick=ordinary >*/ /* with ordinary stores: dirty lines in the CPU cache */
  MS_STORES_FRESH,    /*< nick=fresh >*/ /* into pinned buffers allocated anew each repetition */
  MS_STORES_COUNT /*< skip >*/
} MsHostStores;

typedef enum {
  MS_DUPLEX_NONE, /* the pipeline as always */
  MS_DUPLEX_H2D,  /* pinned: one vector to the device alone */
  MS_DUPLEX_D2H,  /* one vector to the host alone */
  MS_DUPLEX_BOTH, /* both at once on two streams */
  MS_DUPLEX_COUNT
} MsDuplex;

#define MS_MAX_REUSE 64
#define MS_LESSON_OPTIONS_LEN 128

typedef struct {
  int reuse;           /* R reads (writes) per element; 0: the plain kernel */
  MsAccess access;     /* zero-copy */
  MsHostStores stores; /* pinned, write-combined */
  /* The host writes the inputs before the first repetition only and the
   * later ones send them again as they are (clean lines, maybe still in
   * the CPU cache): the state a loop that copies the same buffers meets. */
  bool inputs_kept;
  bool read_wc;        /* write-combined: the result too, so verify reads WC memory */
  MsDuplex duplex;     /* pinned */
  bool host_work;      /* streams: the host computes while the copies run */
  bool resident;       /* managed: a first kernel brings the pages, the timed one reuses them */
  bool um_counts;      /* managed: one more, untimed repetition counted by CUPTI (MsUmCounts) */
  /* The issue-order lesson's observer effect: the cell's end-to-end times
   * come from instrumented repetitions (an event pair around every step)
   * and no plain ones run. */
  bool timers_per_step;
} MsKnobs;

typedef struct {
  bool modes[MS_MODE_COUNT];
  int min_exp;
  int max_exp;
  int step;
  int reps;           /* the count under MS_REPS_FIXED */
  int warmup;
  int streams;
  MsIssueOrder order;
  int device;
  int rounds; /* the sweep visits every cell this many times, interleaved */
  MsVary vary; /* what changes between rounds */
  /* A compare-grade run: this many processes, each running `rounds`
   * rounds, their rounds merged into one run (round k was measured by
   * process k / rounds). 1: one process. */
  int processes;
  MsRepsRule reps_rule;
  int min_reps;          /* MS_REPS_ADAPTIVE: at least this many, */
  double ci_target_pct;  /* then until the median's 95% interval is within +- this, */
  double cell_budget_ms; /* or this much time has gone into the cell */
  /* How many of a cell's kept repetitions (the first ones) are paired with
   * an instrumented one, whose phases give the breakdown and the
   * timeline; the rest are plain alone. 0: every one (files written
   * before the setting existed read so). */
  int instr_reps;
  char variant[MS_VARIANT_LEN]; /* given to every cell; "" in a plain sweep */
  MsKnobs knobs;
  /* A lesson's own options, "key=value,key=value" (ms_lesson_options);
   * "" for their defaults, and in a plain sweep. */
  char options[MS_LESSON_OPTIONS_LEN];
} MsSweep;

void ms_sweep_init_default (MsSweep *sweep);

/* Returns true when valid; otherwise writes a specific message. */
bool ms_sweep_validate (const MsSweep *sweep, char *err, size_t errlen);

/* Parses "pinned,managed" or "all"; false with a message on unknown names. */
bool ms_sweep_set_modes (MsSweep *sweep, const char *list, char *err, size_t errlen);
void ms_sweep_format_modes (const MsSweep *sweep, char *buf, size_t len);

typedef enum {
  MS_STOP_CONTINUE,    /* take another repetition */
  MS_STOP_FIXED_COUNT, /* MS_REPS_FIXED: reps taken */
  MS_STOP_CI_REACHED,  /* the interval is within the target */
  MS_STOP_BUDGET,      /* the cell's time budget is spent */
  MS_STOP_MAX_REPS,    /* MS_MAX_REPS taken */
} MsStopReason;

/* Whether a cell with n timed repetitions (samples: their times, any order)
 * that has spent elapsed_ms so far needs another. MS_REPS_ADAPTIVE: at least
 * min_reps; then stop once the median's 95% interval lies within
 * +-ci_target_pct of the median (both sides; never below 6 samples), or once
 * elapsed_ms >= cell_budget_ms, or at MS_MAX_REPS. Past min_reps the interval
 * is evaluated when n is a multiple of max (1, n / 32), so calling this after
 * every repetition costs O(n log n) in all and overshoots by at most 1/32. */
MsStopReason ms_sweep_stop_rule (const MsSweep *sweep, const double *samples, int n,
                                 double elapsed_ms);
const char *ms_stop_reason_name (MsStopReason reason);

int ms_sweep_n_sizes (const MsSweep *sweep);
int ms_sweep_n_modes (const MsSweep *sweep);
int ms_sweep_n_cells (const MsSweep *sweep);

/* The knobs a plain sweep (the CLI's run, the app's pane) may set. */
typedef enum { MS_KNOB_REUSE, MS_KNOB_STORES } MsSweepKnob;
/* Whether mode honours knob; other modes run as without it. */
bool ms_sweep_knob_applies (MsSweepKnob knob, MsMode mode);
/* "streamed", "ordinary" or "fresh", and back. */
const char *ms_sweep_stores_name (MsHostStores stores);
/* "nothing" or "placement". */
const char *ms_vary_name (MsVary vary);
/* How many processes measured the run's rounds: 1 unless a compare-grade
 * run (processes > 1). */
int ms_sweep_n_processes (const MsSweep *sweep);
bool ms_sweep_stores_from_name (const char *name, MsHostStores *out);
/* The knobs and variant of mode's cells: a lesson part's as they are; in a
 * plain sweep (empty variant) reuse and stores where they apply, named in
 * the variant ("R=4/stores=ordinary"), cleared elsewhere. */
void ms_sweep_cell_knobs (const MsSweep *sweep, MsMode mode, MsKnobs *knobs, char *variant,
                          size_t len);

/* ---- device facts ----------------------------------------------------- */

typedef struct {
  bool present;            /* false: no usable device, see error */
  char error[256];         /* why not, with the CUDA error text */
  int index;
  int count;               /* devices visible */
  char name[256];
  int cc_major, cc_minor;
  uint64_t total_mem;
  uint64_t free_mem;
  int driver_version;      /* CUDA driver API version, e.g. 13000 */
  char driver_release[32]; /* the kernel driver, e.g. "580.159.04" (NVML) */
  int runtime_version;
  int pcie_gen;            /* 0 when unknown */
  int pcie_width;          /* 0 when unknown */
  int pcie_gen_max;
  int pcie_width_max;
  bool can_map_host_memory;
  bool concurrent_managed_access;
  bool pageable_memory_access;
  bool managed_memory;
  bool unified_addressing;
  int async_engine_count;
  /* cudaDevAttrConcurrentKernels; and the stream priorities' range
   * (cudaDeviceGetStreamPriorityRange: greatest is the most urgent, a
   * lower number; both 0 when the device has none). All 0 in files from
   * before they were recorded. */
  int concurrent_kernels;
  int priority_least, priority_greatest;
  int multiprocessors;
  int l2_bytes;
  char pci_bus_id[32];
  char host_cpu_affinity[64]; /* CPUs the measuring thread may run on */
  char gpu_near_cpus[64];     /* CPUs NVML says are close to the GPU, or "" */
  bool pinned;                /* the measuring thread was pinned ... */
  int measuring_cpu;          /* ... to this CPU */
  int steady_sm_mhz;          /* SM clock after the warm-up, 0 when unknown */
  double warmup_ms;           /* time spent bringing the GPU to that clock */
  bool node_known;            /* the NUMA node of measuring_cpu is known: */
  int measuring_node;
  /* The experiment switches the sweep ran under (MEMSWEEP_EXPERIMENT,
   * HACKING.md), "" for none. */
  char experiment_switches[64];
} MsDeviceInfo;

/* Theoretical PCIe payload rate per direction in GB/s for a link, or 0. */
double ms_pcie_theoretical_gbps (int gen, int width);
void ms_format_version (int cuda_version, char *buf, size_t len); /* 13000 -> "13.0" */

/* ---- results ---------------------------------------------------------- */

/* One per phase row of a file: its small fields share one word, which
 * keeps the struct at 48 bytes (checked in ms-results.c). */
typedef struct {
  MsPhase phase : 8;
  signed int lane : 12;  /* MS_LANE_HOST or stream + 1 */
  signed int chunk : 12; /* stream chunk, 0 otherwise */
  int rep;
  double host_start_us; /* from the start of the run, host monotonic clock */
  double host_us;       /* duration of the API call as the host saw it */
  double gpu_start_us;  /* from the run's reference event; < 0 when none */
  double gpu_us;        /* < 0 when not on a stream */
  uint64_t bytes;       /* bytes moved, 0 when the phase moves none */
} MsEvent;

/* The median's 95% interval [ci_low, ci_high] is distribution-free: two
 * order statistics chosen from the binomial distribution (see
 * ms_median_ci_ranks). Below 6 samples no pair of order statistics reaches
 * 95%; then ci_valid is false and the interval is min..max. */
typedef struct {
  int n;
  double median, min, max;
  double ci_low, ci_high;
  bool ci_valid;
} MsStat;

/* A cell whose repetitions fall into two clusters of times (a GPU or
 * host state that flipped while the cell ran, not noise around one
 * value): the median of each cluster and the slow one's share, so that
 * neither the CSV nor the charts draw the median as if it were one value
 * (ms_two_states_find). */
typedef struct {
  bool found;
  double low_us, high_us; /* each cluster's median */
  double high_share;      /* the slow cluster's share of the repetitions */
} MsTwoStates;

typedef struct {
  MsStat phase[MS_PHASE_COUNT];      /* per-rep phase time, GPU time if any */
  MsStat phase_host[MS_PHASE_COUNT]; /* per-rep host time of the phase */
  MsStat e2e;       /* plain repetitions (older files: instrumented ones) */
  MsStat e2e_instr; /* instrumented repetitions; n == 0 when the cell has none */
  MsStat parts_sum; /* sum of h2d + kernel + d2h event times per rep */
  double h2d_gbps;  /* to-device bytes / median to-device time; 0 if none */
  double d2h_gbps;
  double e2e_gbps;  /* 3N*4 bytes / median e2e */
  MsTwoStates states; /* the plain repetitions fell into two states */
} MsCellStats;

/* The GPU's power state as NVML reports it; valid is false without NVML. */
typedef struct {
  bool valid;
  int sm_mhz;
  int mem_mhz;
  int temp_c;
  int pstate;        /* 0 is the fastest */
  uint64_t throttle; /* NVML's clock throttle (event) reason bits */
} MsGpuState;

/* Throttle reasons that slow the GPU down (power cap, slowdown, thermal,
 * power brake): idle and the application-clock setting are not. */
#define MS_THROTTLE_SLOWING 0xecull

/* One round's visit to a cell: which repetitions it ran and the GPU's
 * state at its start and end. */
typedef struct {
  int round;
  int first_rep;
  int n_reps;
  MsGpuState start, end;
  MsStopReason stop; /* why its repetitions ended; CONTINUE: unknown */
  /* The PCIe link as trained under load: read right after the round's
   * last copy (idle links train down, so a reading at rest proves
   * nothing); 0 unknown. ms-health.h says it in words. */
  int link_gen, link_width;
} MsCellRound;

/* Flags for a round whose numbers the GPU's state may have moved. */
enum {
  MS_STATE_CLOCK_CHANGED = 1 << 0, /* SM clock moved by more than 5 % */
  MS_STATE_THROTTLED = 1 << 1,     /* a slowing throttle reason was set */
};

/* Steady-state copies: MS_COPY_BURST back-to-back copies of one vector
 * between one event pair, MS_COPY_SAMPLES times per cell and round. */
#define MS_COPY_BURST 8
#define MS_COPY_SAMPLES 5
#define MS_MAX_COPY_SAMPLES (2 * MS_COPY_SAMPLES * MS_MAX_ROUNDS)

typedef struct {
  int round;
  bool to_device;
  double gpu_us;  /* GPU time of the whole burst */
  uint64_t bytes; /* bytes the whole burst moved */
} MsCopySample;

/* Unified-memory counts of a managed cell (the managed-touch lesson,
 * docs/lessons.md): CUPTI's unified-memory counters over one extra
 * repetition after the timed ones, so the counters' overhead never reaches
 * the times. They cover the end-to-end window of that repetition. */
typedef enum {
  MS_UM_NONE,        /* not asked for (every other cell), or an older file */
  MS_UM_COUNTED,     /* the counts below were measured */
  MS_UM_UNAVAILABLE, /* asked for, but CUPTI could not count: see reason */
  MS_UM_UNKNOWN,     /* counted, but the counts cannot be true (records lost): the
                      * numbers below are what CUPTI gave, reason says why they are
                      * not shown (ms_um_counts_judge) */
} MsUmState;

typedef struct {
  MsUmState state;
  uint64_t gpu_faults; /* GPU page-fault records (one per faulting page group) */
  uint64_t cpu_faults; /* CPU page faults */
  uint64_t h2d_bytes;  /* bytes migrated to the device */
  uint64_t d2h_bytes;  /* bytes migrated to the host */
  char reason[200];    /* MS_UM_UNAVAILABLE, MS_UM_UNKNOWN: why, with CUPTI's error text */
} MsUmCounts;

/* Whether counts CUPTI gave for the counted repetition of a managed cell
 * (mode, n elements; resident: the pages were brought to the device before
 * it) can be true. A first touch moves a and b to the device (the host
 * wrote them last), so fewer bytes than that means records were lost, and
 * without a prefetch those bytes move only on GPU faults, so none means
 * the same; in every variant c, made on the device, comes back to the
 * host. An implausible MS_UM_COUNTED becomes MS_UM_UNKNOWN with the
 * reason; any other state is left as it is. */
void ms_um_counts_judge (MsMode mode, uint64_t n, bool resident, MsUmCounts *um);

typedef struct {
  MsMode mode;
  int exponent;
  uint64_t elements;
  char variant[MS_VARIANT_LEN];
  MsCellStatus status;
  char message[384];
  uint64_t mismatches;     /* verification: count of wrong elements */
  uint64_t first_mismatch; /* and the first index */
  int n_reps;              /* kept (timed) repetitions */
  double *e2e_us;          /* n_reps entries: plain repetitions' end-to-end times */
  /* n_reps entries, each the end-to-end time of the instrumented
   * repetition that ran beside plain repetition i (< 0: none); NULL when
   * the cell has none (files from before plain repetitions, summaries). */
  double *e2e_instr_us;
  MsEvent *events;
  size_t n_events;
  MsCellStats stats;
  /* Up to MS_MAX_ROUNDS, allocated as they come (ms_cell_add_round): a
   * compare-grade run's cells have dozens, and inline they made every
   * cell three times larger. Freed by ms_cell_clear, copied by
   * ms_cell_copy. */
  MsCellRound *rounds;
  int n_rounds;
  /* Up to MS_MAX_COPY_SAMPLES, allocated as they come (ms_cell_add_copy):
   * most cells have none, and a reader's cell holds only what its file
   * gave. Freed by ms_cell_clear, copied by ms_cell_copy. */
  MsCopySample *copies;
  int n_copies;
  MsUmCounts um;
} MsCell;

/* One point per size: a mode has at most this many. */
#define MS_FIT_MAX_POINTS (MS_MAX_EXPONENT - MS_MIN_EXPONENT + 1)
/* Below this R^2, or with a point further than MS_FIT_MAX_RESIDUAL from the
 * line (relative), the fit does not describe the data: report it as such. */
#define MS_FIT_MIN_R2 0.95
#define MS_FIT_MAX_RESIDUAL 0.25

typedef struct {
  bool valid;            /* at least 2 points */
  int n_points;
  double latency_us;     /* >= 0 */
  double bandwidth_gbps; /* 0 when the time does not grow with size */
  double r2;             /* weighted like the fit; may be < 0 at a bound */
  bool at_bound;         /* the free fit had latency < 0 (or slope < 0) */
  bool describes_data;   /* r2 >= MS_FIT_MIN_R2, residuals within bounds */
  double max_abs_residual;
  int exponent[MS_FIT_MAX_POINTS];   /* the size of each point */
  double residual[MS_FIT_MAX_POINTS]; /* (measured - fit) / measured */
} MsFit;

/* How far one invocation's median lands from another's on this machine:
 * the standard deviation of ln(median) between whole runs, measured by
 * `memsweep calibrate` (separate processes). The spread lies between runs
 * (clock, host and buffer state), so no single run can see it; see
 * ms-run-to-run.c for how it widens a run's intervals. */
#define MS_RR_MAX_RUNS 64
typedef struct {
  bool valid;
  int runs;      /* invocations the spread was measured over, >= 3 */
  char date[40]; /* when */
  /* Where it came from, in words: "calibration ..." or "shipped profile
   * ..."; "" when only the file's metadata said. */
  char source[160];
  /* < 0 where the profile has no value */
  double sd[MS_MODE_COUNT][MS_MAX_EXPONENT + 1];
} MsRunToRun;
#define MS_EXPERIMENT_LEN 32
/* A counter read before and after a run; UNKNOWN: not recorded (older
 * files), NOT_READABLE: the host did not expose it. Never read as zero. */
typedef enum { MS_COUNTER_UNKNOWN, MS_COUNTER_NOT_READABLE, MS_COUNTER_READ } MsCounterState;
typedef struct {
  MsCounterState state;
  uint64_t before, after;
} MsLinkCounter;
#define MS_EXPERIMENT_SETTINGS_LEN 256
#define MS_KEPT_METADATA_LEN 8192

typedef struct {
  MsSweep sweep;
  MsDeviceInfo device;
  MsRunToRun run_to_run;  /* valid when a calibration profile was applied */
  char date[40];          /* ISO 8601 UTC */
  char version[32];
  char label[160];        /* e.g. file name, for comparisons */
  /* The experiment that made these results ("" for a plain sweep, written
   * as "sweep") and its own settings in words, e.g. "R=1,2,4,8,16". */
  char experiment[MS_EXPERIMENT_LEN];
  char experiment_settings[MS_EXPERIMENT_SETTINGS_LEN];
  bool from_summary;      /* read from a summary file: statistics, no samples or events */
  char note[512];         /* the user's note on the run, one line; "" when none */
  /* Metadata lines memsweep does not know (a fleet node's, say), as read,
   * each ending in '\n': written back as they were (ms-meta.c). */
  char kept_metadata[MS_KEPT_METADATA_LEN];
  int metadata_refused; /* metadata lines whose value was out of its kind or range */
  /* Why the run's metadata is unknown: a file without metadata lines whose
   * sidecar (PREFIX-meta.json) is missing, damaged or another run's; ""
   * when the metadata was read. */
  char metadata_unknown[768];
  /* PCIe AER correctable errors and NVML replays around the run (ms-health.h). */
  MsLinkCounter aer_correctable, replays;
  MsCell *cells;
  size_t n_cells;
  size_t cap_cells;
} MsResults;

MsResults *ms_results_new (const MsSweep *sweep, const MsDeviceInfo *device);
void ms_results_free (MsResults *results);
/* Takes a deep copy of cell. */
bool ms_results_add_cell (MsResults *results, const MsCell *cell);
/* The cell of a plain sweep (variant ""); where there is none, the one
 * cell of that mode and size whatever its variant (a plain sweep whose
 * knobs name it); NULL when there is none or there are several. */
const MsCell *ms_results_find (const MsResults *results, MsMode mode, int exponent);
/* The cell of (mode, size, variant); NULL variant reads as "". */
const MsCell *ms_results_find_variant (const MsResults *results, MsMode mode, int exponent,
                                       const char *variant);

/* Variants (ms-variant.c). Valid: "" or shorter than MS_VARIANT_LEN, made
 * of letters, digits and "=/._,+:-", starting with a letter or digit. */
bool ms_variant_valid (const char *variant);
/* The value of key in a variant ("order" in "queue=single/order=breadth"
 * gives "breadth"); false when absent. */
bool ms_variant_get (const char *variant, const char *key, char *value, size_t len);
/* The same as a whole number; false when absent or not a number. */
bool ms_variant_get_int (const char *variant, const char *key, int *value);
/* The distinct variants of the cells of a mode (all modes with
 * MS_MODE_COUNT), in the order first seen: at most max pointers into the
 * cells' own strings; returns how many it wrote. */
int ms_results_variants (const MsResults *results, MsMode mode, const char **variants, int max);

void ms_cell_clear (MsCell *cell);
/* The instrumentation overhead of a cell: median instrumented end-to-end
 * time over the median plain one, and their difference in microseconds.
 * false when the cell has no instrumented or no plain median (older files,
 * failed cells, the timers=per-step cells). */
bool ms_cell_instr_overhead (const MsCell *cell, double *ratio, double *diff_us);
/* The repetitions that have a timeline (the instrumented ones: the first
 * sweep.instr_reps of each round; every one in older files), in order:
 * writes up to max indices to reps (may be NULL) and returns how many
 * there are. 0 for a summary file's cells. */
int ms_cell_timeline_reps (const MsCell *cell, int *reps, int max);
/* The k-th (from 0) of those repetitions; -1 when there is none. */
int ms_cell_timeline_rep (const MsCell *cell, int k);
/* The repetition a timeline opens on: the second with a timeline (the
 * first also shows the allocation, made before the warm-ups), else the
 * first, else 0. */
int ms_cell_default_timeline_rep (const MsCell *cell);
bool ms_cell_copy (MsCell *dst, const MsCell *src);
void ms_cell_compute_stats (MsCell *cell);
/* The same with scratch memory kept between calls (zero it before the
 * first), for callers that summarise many cells; free it with
 * ms_stats_scratch_clear. */
typedef struct {
  void *data;
  size_t size;
} MsStatsScratch;
void ms_cell_compute_stats_scratch (MsCell *cell, MsStatsScratch *scratch);
void ms_stats_scratch_clear (MsStatsScratch *scratch);

/* time = latency + bytes / bandwidth over the OK cells of a mode (its plain
 * cells, or its one variant's as in ms_results_find), by least
 * squares weighted 1/t^2 (relative residuals) with latency >= 0 and
 * bandwidth > 0 enforced exactly. which: MS_PHASE_H2D or MS_PHASE_D2H for
 * copy bandwidth, or MS_PHASE_COUNT for end-to-end. */
MsFit ms_results_fit (const MsResults *results, MsMode mode, MsPhase which);
/* The same over the cells of one variant. */
MsFit ms_results_fit_variant (const MsResults *results, MsMode mode, const char *variant,
                              MsPhase which);
/* The relative residual of the point at exponent; false when none. */
bool ms_fit_residual_at (const MsFit *fit, int exponent, double *residual);

/* Run-to-run spread (ms-run-to-run.c). */
void ms_run_to_run_clear (MsRunToRun *rr);
/* From the results of n >= 3 separate invocations of one sweep. */
bool ms_run_to_run_measure (MsRunToRun *rr, MsResults *const *runs, int n, char *err,
                            size_t errlen);
/* Half-width in ln units of the 95% interval for another invocation's
 * median, 0 when the profile knows nothing of the mode. */
double ms_run_to_run_half_width (const MsRunToRun *rr, MsMode mode, int exponent);
/* The standard deviation of ln(median) between processes for a cell, its
 * own value moderated by the mode's pooled one in the same size band
 * (below 2^14, from 2^14), and the degrees of freedom of that estimate;
 * false when the profile knows nothing of the mode. */
bool ms_run_to_run_between (const MsRunToRun *rr, MsMode mode, int exponent, double *sd,
                            int *df);
/* The shipped profile of the GPU model named device (data/profiles/, or
 * MEMSWEEP_PROFILES_DIR): true with rr filled and rr->source set. */
bool ms_run_to_run_load_shipped (MsRunToRun *rr, const char *device);
/* The cell's end-to-end median with an interval that covers both the
 * within-run interval and the run-to-run spread; false without a profile
 * value for the cell. */
bool ms_run_to_run_interval (const MsRunToRun *rr, const MsCell *cell, double *lo, double *hi);
bool ms_run_to_run_write_profile (const MsRunToRun *rr, const MsResults *like, const char *path,
                                  char *err, size_t errlen);
/* device: the profile's device name, so callers can refuse a mismatch. */
bool ms_run_to_run_read_profile (MsRunToRun *rr, const char *path, char *device, size_t device_len,
                                 char *err, size_t errlen);
/* The per-device default: $XDG_DATA_HOME/memsweep (or ~/.local/share/memsweep)
 * /run-to-run-<host name>-<PCI bus id>.csv; false when no home is known.
 * Loading falls back to the older run-to-run-<PCI bus id>.csv. */
bool ms_run_to_run_default_path (const MsDeviceInfo *device, char *buf, size_t len);
/* The device's default profile when there is one and it names the same
 * GPU; false (rr cleared) otherwise. path gets the file's name. */
bool ms_run_to_run_load_default (MsRunToRun *rr, const MsDeviceInfo *device, char *path,
                                 size_t len);
/* Samples and summary metadata lines, and their reading. */
void ms_run_to_run_write_metadata (const MsRunToRun *rr, FILE *f);
bool ms_run_to_run_read_metadata (MsRunToRun *rr, const char *key, const char *value);

/* Rounds and steady-state copies (ms-rounds.c). */
const MsCellRound *ms_cell_round_of_rep (const MsCell *cell, int rep);
int ms_cell_round_flags (const MsCellRound *round); /* MS_STATE_* bits */
/* Any round of the cell flagged. */
int ms_cell_state_flags (const MsCell *cell);
/* Median steady-state copy rate in GB/s for a direction, 0 when none. */
double ms_cell_copy_gbps (const MsCell *cell, bool to_device);
/* A new round at the end of the cell's, zeroed but for its pstates (-1:
 * unknown); NULL at MS_MAX_ROUNDS or out of memory. */
MsCellRound *ms_cell_add_round (MsCell *cell);
/* Adds or replaces the cell with the same mode, size and variant. */
bool ms_results_put_cell (MsResults *results, const MsCell *cell);
/* The rounds of process number `process` (from 0) of a compare-grade run,
 * src, joined to dst's cells: src's round k becomes process * rounds + k.
 * dst then counts at least process + 1 processes. */
bool ms_results_append_process (MsResults *dst, const MsResults *src, int process);

/* Whether values (n times, reordered in place) fall into two states: a
 * split into a fast and a slow cluster, each with at least 20% of the
 * values (and 3), whose medians differ by at least MS_TWO_STATES_MIN_RATIO
 * and stand apart by Ashman's D >= 3 (robust spreads from the median
 * absolute deviation, floored at 0.5%). Fewer than 10 values: never. */
#define MS_TWO_STATES_MIN_RATIO 1.15
bool ms_two_states_find (double *values, int n, MsTwoStates *out);

/* The two-sided 95% quantile of Student's t with df degrees of freedom
 * (infinite below 1). */
double ms_student_t_975 (int df);

/* Median of values (sorted copy); 0 for n == 0. */
double ms_median (const double *values, int n);
MsStat ms_stat_compute (const double *values, int n);
/* The same, reordering values in place (selections, no full sort). */
void ms_stat_compute_in_place (MsStat *st, double *values, int n);

/* Median of values (need not be sorted) and its distribution-free 95%
 * confidence interval. Returns false when n is too small for 95% (n < 6);
 * lo and hi are then min and max. */
bool ms_median_ci (const double *values, int n, double *median, double *lo, double *hi);
/* 1-based ranks l and n + 1 - l of the order statistics that bound the
 * median with at least 95% coverage, l as large as possible: n = 10 gives 2
 * and 9. False for n < 6, with the ranks 1 and n. */
bool ms_median_ci_ranks (int n, int *lo_rank, int *hi_rank);

/* ---- backends and running -------------------------------------------- */

typedef struct MsBackend MsBackend;

/* The real backend: CUDA for the GPU modes, the host for the CPU mode. */
MsBackend *ms_backend_new_system (void);
/* Deterministic timings for tests: tests/fixtures/ms-backend-test.h (test-only). */
void ms_backend_free (MsBackend *backend);
const char *ms_backend_name (const MsBackend *backend);

/* Fills info for device index; false with info->error set when none. */
bool ms_backend_query_device (MsBackend *backend, int index, MsDeviceInfo *info);

/* Whether a mode can run on the device, with the reason when not. */
bool ms_backend_supports (MsBackend *backend, const MsDeviceInfo *info, MsMode mode,
                          char *why, size_t whylen);

/* Called from the running thread after each cell, with the finished cell.
 * The cell belongs to the engine: copy what you keep. */
typedef void (*MsProgressFunc) (int cell_index, int n_cells, const MsCell *cell,
                                void *user_data);

typedef enum {
  MS_RUN_OK,
  MS_RUN_CANCELLED,
  MS_RUN_NO_DEVICE, /* see results->device.error */
  MS_RUN_INVALID    /* sweep did not validate */
} MsRunStatus;

/* Runs the sweep synchronously on the calling thread. *out receives the
 * results (also partial ones on cancel) unless the sweep is invalid. The
 * cancel flag may be set from any thread; the current run stops at its next
 * phase boundary and frees what it allocated. A cell stopped that way keeps
 * the repetitions it finished (MS_CELL_PARTIAL), or none (MS_CELL_CANCELLED). */
MsRunStatus ms_sweep_run (const MsSweep *sweep, MsBackend *backend, MsProgressFunc progress,
                          void *user_data, atomic_int *cancel, MsResults **out, char *err,
                          size_t errlen);

/* ---- lessons (ms-lesson-table.c, ms-lesson-run.c; docs/lessons.md) ---- */

/* A lesson as everyone sees it: the public part of its record
 * (engine/lessons/ms-lesson-record.h); its cards and captions are in
 * ms-lesson-caption.h. Texts are untranslated (MS_N_): show
 * them through ms_gettext; files store them as they are. */
typedef struct {
  /* The one name: `memsweep lesson NAME`, `memsweep-gtk --lesson NAME`,
   * the metadata's experiment, reference files lesson-NAME-samples.csv. */
  const char *name;
  /* An older name that settings, scripts or files may still hold: accepted
   * on input, never written; NULL when none. */
  const char *alias;
  const char *experiment; /* name, or "" for a lesson a plain sweep measures */
  const char *modes;      /* the modes it compares ("pageable,pinned") */
  bool plain;             /* a plain sweep of these modes answers it too */
  const char *title;
  const char *question;
  const char *reason;     /* why it is measured, and what to look for */
} MsLessonTopicInfo;

/* The lessons with an experiment of their own (`memsweep lesson NAME`), in
 * the order of their cards; a lesson that a plain sweep measures is not
 * one of them. */
int ms_lesson_count (void);
const MsLessonTopicInfo *ms_lesson_nth (int index);
/* By name or alias; NULL when unknown. */
const MsLessonTopicInfo *ms_lesson_find (const char *name);
/* The lesson's reason, or NULL for a plain sweep ("", "sweep") or an
 * unknown name. */
const char *ms_lesson_reason (const char *name);

/* A lesson runs as parts: one sweep (or the costs table) per setting, in
 * this process or, isolated, in a fresh one with an environment variable
 * set or removed (CUDA_DEVICE_MAX_CONNECTIONS must be set before the CUDA
 * context exists; the first context's cost needs a process without one). */
#define MS_LESSON_MAX_PARTS 48

typedef struct {
  MsSweep sweep;       /* modes, knobs and variant of this part */
  bool costs;          /* the costs table instead of a sweep */
  bool isolated;       /* in a fresh process */
  const char *env;     /* for an isolated part: "NAME=VALUE" to set, or */
  const char *env_unset; /* a name to remove from the environment; or NULL */
  bool probe;          /* a probe lesson's part: its cells (ms-probe-cells.h) */
  int probe_part;      /* which of the probe's parts, its own numbering */
} MsLessonPart;

/* The parts of lesson name on the sizes, repetitions and device of base;
 * 0 for an unknown name. */
int ms_lesson_parts (const char *name, const MsSweep *base, MsLessonPart *parts, int max);
/* The issue-order lesson's variant: "queue=single/order=depth/K=4"
 * (ms-lesson-issue-order.c). */
void ms_lesson_streams_variant (char *buf, size_t len, bool single_queue, MsIssueOrder order,
                                int streams);
/* Whether lesson name is a probe lesson (one figure per cell, not a
 * vector add: the streams chapter and the others of docs/lessons.md). */
bool ms_lesson_is_probe (const char *name);
/* The experiment's settings in words, for the metadata. */
const char *ms_lesson_settings (const char *name);

/* A lesson's option (`memsweep lesson NAME --option KEY=VALUE`): a number
 * with its default and range. help is untranslated (MS_N_). */
typedef struct {
  const char *key; /* "kernel-us" */
  double def, min, max;
  bool integer;
  const char *help;
} MsLessonOption;

/* The options of lesson name, ending with a NULL key; NULL when it has
 * none or is unknown. */
const MsLessonOption *ms_lesson_options (const char *name);
/* Whether options ("key=value,key=value", each key once) are the lesson's,
 * numbers of their kind and within their ranges; a message otherwise. */
bool ms_lesson_check_options (const char *name, const char *options, char *err, size_t errlen);
/* The value of key in sweep->options, or its default (0 for an unknown
 * key). Call after ms_lesson_check_options. */
double ms_lesson_option (const char *name, const MsSweep *sweep, const char *key);

/* Runs parts (indices into ms_lesson_parts) in a fresh process, all with
 * the same environment, and returns their results; the front end provides
 * it (the command line runs itself). NULL with a message on failure. */
typedef MsResults *(*MsIsolatedFunc) (const char *name, const MsSweep *base, const int *parts,
                                      int n_parts, void *user, char *err, size_t errlen);

/* Runs the parts given in this process (the isolated child uses it). */
MsRunStatus ms_lesson_run_parts (const char *name, const MsSweep *base, const int *parts,
                                 int n_parts, MsBackend *backend, MsProgressFunc progress,
                                 void *user_data, atomic_int *cancel, MsResults **out,
                                 char *err, size_t errlen);
/* Runs a whole lesson: its parts in order, the isolated ones through
 * isolated (in this process when NULL), every cell merged into one result
 * with the experiment's name and settings. */
MsRunStatus ms_lesson_run (const char *name, const MsSweep *base, MsBackend *backend,
                           MsIsolatedFunc isolated, void *isolated_user, MsProgressFunc progress,
                           void *user_data, atomic_int *cancel, MsResults **out, char *err,
                           size_t errlen);

/* ---- CSV -------------------------------------------------------------- */

/* Both return false with a message; writing goes through a temporary file
 * renamed over path, so a failure leaves an existing file intact. */
bool ms_csv_write_samples (const MsResults *results, const char *path, char *err, size_t errlen);
bool ms_csv_write_summary (const MsResults *results, const char *path, char *err, size_t errlen);

/* Reads a samples file back into results with statistics computed. Errors
 * name file:line and the reason. */
MsResults *ms_csv_read_samples (const char *path, char *err, size_t errlen);
/* A summary file (ms-csv-summary.c): cells with statistics only, and
 * from_summary set. ms_csv_read_samples hands a summary file to it. */
MsResults *ms_csv_read_summary (const char *path, char *err, size_t errlen);
bool ms_csv_is_summary (const char *path);

#ifdef __cplusplus
}
#endif
