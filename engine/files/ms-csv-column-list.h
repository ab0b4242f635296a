/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-column-list.h: every column of the samples and summary files
 * once, in the files' order: the one table that the writer's header and
 * rows, the readers' column names, the summary's kept columns, the Table
 * Schemas' fields in data/schema/ and the column tables of docs/csv.md are
 * made from (the last two written by tools/csv-columns.c: `ninja -C build
 * update-csv-docs`; the csv-docs test fails while they are stale). A line is
 *
 *   X (ID, "name", TYPE, "unit", "description", PART, value)
 *
 * ID      its id: MS_SAMPLES_COLUMN_ID, MS_SUMMARY_COLUMN_ID or
 *         MS_SUMMARY_PHASE_COLUMN_ID (ms-csv-column-table.h);
 * "name"  its name in the header (a phase's column: what follows
 *         "<phase>_"; never change one: old files are read by it);
 * TYPE    STRING, INTEGER or NUMBER, as its Table Schema types it;
 * "unit"  us, GB/s, bytes, MHz, C, or "" (a count, a name, a flag, a ratio);
 * "description"  one sentence: what the value is, for the Table Schema
 *         and docs/csv.md (a phase's column says "the phase", which each
 *         phase's field of the schema names: "the h2d phase (copies host
 *         to device)");
 * PART    in the samples file, how often the value changes: CELL (the
 *         same on every row of a cell: formatted once per cell), ROW, or
 *         STATE (one of the GPU's state fields of the round, formatted by
 *         ms_state_format; value is its MS_STATE_COL_ index, the STATE
 *         lines in that order); in the summary, ALWAYS (written even when
 *         empty in every row: the summary reader needs it) or IF_ANY (left
 *         out of a file with a sidecar when empty in every row);
 * value   how the writer (ms-csv-write.c) writes it: PUT_TEXT (text),
 *         PUT_U64 (count), PUT_INT (int), PUT_US (number, present): three
 *         decimals, empty unless present, or PUT_RAW (unquoted text). In
 *         the samples file from c (the cell, const MsCell *), s (the row,
 *         const MsSampleRow *, ms-csv-writer.h) and ev (its event or NULL);
 *         in the summary from s (const MsCellSummary *, ms-summary.h: the
 *         figures the model computed for the row), c (its cell), st (the
 *         cell's statistics), ok (s->ok) and, in a phase's columns, p.
 *
 * Only preprocessor data, expanded where it is used (ms-csv-column-table.c,
 * ms-csv-write.c). HACKING.md: "Add a CSV column". */
#pragma once

/* The cell's columns that both files start with, of the PART given. */
#define MS_CSV_CELL_COLUMNS(X, PART)                                                               \
  X (MODE, "mode", STRING, "", "Memory mode of the cell (docs/modes.md).", PART,                   \
     PUT_TEXT (ms_mode_name (c->mode)))                                                            \
  X (ELEMENTS, "elements", INTEGER, "",                                                            \
     "float32 elements per vector: the size of the cell (2^exponent).", PART,                      \
     PUT_U64 (c->elements))                                                                        \
  X (BYTES_PER_VECTOR, "bytes_per_vector", INTEGER, "bytes", "Bytes of one vector: 4 x elements.", \
     PART, PUT_U64 (ms_vector_bytes (c->elements)))

/* The samples file (PREFIX-samples.csv): one row per event. */
#define MS_SAMPLES_COLUMN_LIST(X)                                                                  \
  MS_CSV_CELL_COLUMNS (X, CELL)                                                                    \
  X (REP, "rep", INTEGER, "",                                                                      \
     "Repetition (counted across rounds), or the burst index on h2d_copy and d2h_copy rows.", ROW, \
     PUT_INT (s->rep))                                                                             \
  X (PHASE, "phase", STRING, "",                                                                   \
     "The event: a phase (alloc, init, register, prefetch, h2d, kernel, d2h, verify, unregister, " \
     "free, launch, host-func, call), e2e (a plain repetition, its end-to-end time in host_us), "  \
     "e2e_instrumented (an instrumented one), h2d_copy or d2h_copy (a steady-state copy burst), "  \
     "or none (a cell without data, with the reason in message).",                                 \
     ROW, PUT_TEXT (s->phase))                                                                     \
  X (LANE, "lane", INTEGER, "", "0 for host-side events, 1 and up for GPU streams.", ROW,          \
     PUT_INT (ev ? ev->lane : 0))                                                                  \
  X (CHUNK, "chunk", INTEGER, "", "Chunk of the vector in the streams mode; 0 otherwise.", ROW,    \
     PUT_INT (ev ? ev->chunk : 0))                                                                 \
  X (HOST_START_US, "host_start_us", NUMBER, "us",                                                 \
     "Start on the host clock in microseconds from the repetition's origin.", ROW,                 \
     PUT_US (ev ? ev->host_start_us : 0, ev != NULL))                                              \
  X (HOST_US, "host_us", NUMBER, "us",                                                             \
     "Host time of the event in microseconds; on e2e rows the end-to-end time.", ROW,              \
     PUT_US (ev ? ev->host_us : s->e2e_us, ev != NULL || s->e2e_us >= 0))                          \
  X (GPU_START_US, "gpu_start_us", NUMBER, "us",                                                   \
     "GPU start on the same host timeline in microseconds (docs/measuring.md, \"GPU times on the " \
     "host clock\"); empty for host-only events.",                                                 \
     ROW, PUT_US (ev ? ev->gpu_start_us : 0, ev && ev->gpu_us >= 0))                               \
  X (GPU_US, "gpu_us", NUMBER, "us",                                                               \
     "GPU time of the event in microseconds (CUDA events); empty for host-only events.", ROW,      \
     PUT_US (ev ? ev->gpu_us : 0, ev && ev->gpu_us >= 0))                                          \
  X (BYTES, "bytes", INTEGER, "bytes", "Bytes moved by the event (a burst: all its copies).", ROW, \
     PUT_U64 (ev ? ev->bytes : 0))                                                                 \
  /* A partial cell's kept repetitions were verified too. */                                       \
  X (VERIFIED, "verified", INTEGER, "",                                                            \
     "1 when the cell's result was checked and correct (ok and partial cells), else 0.", CELL,     \
     PUT_INT (c->status == MS_CELL_OK || c->status == MS_CELL_PARTIAL ? 1 : 0))                    \
  X (STATUS, "status", STRING, "", "Status of the cell.", CELL,                                    \
     PUT_TEXT (ms_cell_status_name (c->status)))                                                   \
  X (MISMATCHES, "mismatches", INTEGER, "", "Wrong result elements found by the check.", CELL,     \
     PUT_U64 (c->mismatches))                                                                      \
  X (FIRST_MISMATCH, "first_mismatch", INTEGER, "",                                                \
     "Index of the first wrong element (0 when none).", CELL, PUT_U64 (c->first_mismatch))         \
  X (MESSAGE, "message", STRING, "",                                                               \
     "Why a cell has no data or stopped part-way; empty otherwise.", CELL, PUT_TEXT (c->message))  \
  X (ROUND, "round", INTEGER, "",                                                                  \
     "The round (visit of every cell) that the row belongs to, from 0.", ROW, PUT_INT (s->round))  \
  X (SM_MHZ_START, "sm_mhz_start", INTEGER, "MHz",                                                 \
     "SM clock in MHz at the start of the round of the cell (NVML); e2e rows only.", STATE,        \
     MS_STATE_COL_SM_START)                                                                        \
  X (SM_MHZ_END, "sm_mhz_end", INTEGER, "MHz",                                                     \
     "SM clock in MHz at the end of the round of the cell.", STATE, MS_STATE_COL_SM_END)           \
  X (MEM_MHZ_START, "mem_mhz_start", INTEGER, "MHz",                                               \
     "Memory clock in MHz at the start of the round.", STATE, MS_STATE_COL_MEM_START)              \
  X (MEM_MHZ_END, "mem_mhz_end", INTEGER, "MHz", "Memory clock in MHz at the end of the round.",   \
     STATE, MS_STATE_COL_MEM_END)                                                                  \
  X (TEMP_C_START, "temp_c_start", INTEGER, "C",                                                   \
     "GPU temperature in degrees C at the start of the round.", STATE, MS_STATE_COL_TEMP_START)    \
  X (TEMP_C_END, "temp_c_end", INTEGER, "C",                                                       \
     "GPU temperature in degrees C at the end of the round.", STATE, MS_STATE_COL_TEMP_END)        \
  X (PSTATE_START, "pstate_start", STRING, "",                                                     \
     "Performance state at the start of the round (P0 is the fastest).", STATE,                    \
     MS_STATE_COL_PSTATE_START)                                                                    \
  X (PSTATE_END, "pstate_end", STRING, "", "Performance state at the end of the round.", STATE,    \
     MS_STATE_COL_PSTATE_END)                                                                      \
  X (THROTTLE_START, "throttle_start", STRING, "",                                                 \
     "NVML throttle reason bits at the start of the round, hexadecimal (0x...).", STATE,           \
     MS_STATE_COL_THROTTLE_START)                                                                  \
  X (THROTTLE_END, "throttle_end", STRING, "",                                                     \
     "NVML throttle reason bits at the end of the round, hexadecimal.", STATE,                     \
     MS_STATE_COL_THROTTLE_END)                                                                    \
  X (GPU_STATE, "gpu_state", STRING, "",                                                           \
     "steady, clock-changed (SM clock moved more than 5%), throttled (a power, thermal or "        \
     "slowdown reason was set), or both joined by +.",                                             \
     STATE, MS_STATE_COL_FLAGS)                                                                    \
  X (STOP, "stop", STRING, "",                                                                     \
     "Why the round's repetitions ended: fixed-count, ci-reached, budget or max-reps.", STATE,     \
     MS_STATE_COL_STOP)                                                                            \
  X (VARIANT, "variant", STRING, "",                                                               \
     "Empty in a plain sweep; the knobs a plain run set where they applied "                       \
     "(R=4/stores=ordinary), or the setting of an experiment (a lesson) that the cell had.",       \
     CELL, PUT_TEXT (c->variant))

/* The summary file (PREFIX-summary.csv): one row per cell. PHASES () is
 * where every phase's columns go, phase by phase. */
#define MS_SUMMARY_COLUMN_LIST(X, PHASES)                                                          \
  MS_CSV_CELL_COLUMNS (X, ALWAYS)                                                                  \
  X (STATUS, "status", STRING, "", "Status of the cell.", ALWAYS,                                  \
     PUT_TEXT (ms_cell_status_name (c->status)))                                                   \
  X (REPS, "reps", INTEGER, "", "Plain repetitions with data (all rounds pooled).", ALWAYS,        \
     PUT_INT (c->n_reps))                                                                          \
  X (E2E_MEDIAN_US, "e2e_median_us", NUMBER, "us",                                                 \
     "Median of the end-to-end time of plain repetitions in microseconds.", ALWAYS,                \
     PUT_US (st->e2e.median, ok))                                                                  \
  X (E2E_MIN_US, "e2e_min_us", NUMBER, "us",                                                       \
     "Shortest end-to-end time of plain repetitions in microseconds.", IF_ANY,                     \
     PUT_US (st->e2e.min, ok))                                                                     \
  X (E2E_MAX_US, "e2e_max_us", NUMBER, "us",                                                       \
     "Longest end-to-end time of plain repetitions in microseconds.", IF_ANY,                      \
     PUT_US (st->e2e.max, ok))                                                                     \
  X (E2E_CI_LOW_US, "e2e_ci_low_us", NUMBER, "us",                                                 \
     "Lower bound of the 95% confidence interval of the median of the end-to-end time of plain "   \
     "repetitions.",                                                                               \
     IF_ANY, PUT_US (st->e2e.ci_low, ok))                                                          \
  X (E2E_CI_HIGH_US, "e2e_ci_high_us", NUMBER, "us",                                               \
     "Upper bound of the 95% confidence interval of the median of the end-to-end time of plain "   \
     "repetitions.",                                                                               \
     IF_ANY, PUT_US (st->e2e.ci_high, ok))                                                         \
  X (E2E_CI_95, "e2e_ci_95", INTEGER, "",                                                          \
     "1 when the e2e interval is a 95% interval; 0 when fewer than 6 samples made it min..max.",   \
     IF_ANY, PUT_RAW (ok ? (st->e2e.ci_valid ? "1" : "0") : ""))                                   \
  X (E2E_RR_LOW_US, "e2e_rr_low_us", NUMBER, "us",                                                 \
     "Lower bound of the interval for another run's median, when a run-to-run profile was "        \
     "applied.",                                                                                   \
     IF_ANY, PUT_US (s->rr_low_us, s->run_to_run))                                                 \
  X (E2E_RR_HIGH_US, "e2e_rr_high_us", NUMBER, "us",                                               \
     "Upper bound of the interval for another run's median, when a run-to-run profile was "        \
     "applied.",                                                                                   \
     IF_ANY, PUT_US (s->rr_high_us, s->run_to_run))                                                \
  X (E2E_GBPS, "e2e_gbps", NUMBER, "GB/s",                                                         \
     "3 x bytes_per_vector / median end-to-end time, in GB/s (1e9 bytes).", IF_ANY,                \
     PUT_US (st->e2e_gbps, ok && st->e2e_gbps > 0))                                                \
  X (H2D_GBPS, "h2d_gbps", NUMBER, "GB/s",                                                         \
     "Bytes copied host to device per repetition / median h2d time, in GB/s; empty for modes "     \
     "without copies.",                                                                            \
     IF_ANY, PUT_US (st->h2d_gbps, ok && st->h2d_gbps > 0))                                        \
  X (D2H_GBPS, "d2h_gbps", NUMBER, "GB/s",                                                         \
     "Bytes copied device to host per repetition / median d2h time, in GB/s; empty for modes "     \
     "without copies.",                                                                            \
     IF_ANY, PUT_US (st->d2h_gbps, ok && st->d2h_gbps > 0))                                        \
  X (E2E_INSTR_MEDIAN_US, "e2e_instr_median_us", NUMBER, "us",                                     \
     "Median end-to-end time of the instrumented repetitions.", IF_ANY,                            \
     PUT_US (st->e2e_instr.median, s->overhead))                                                   \
  X (INSTR_OVERHEAD_RATIO, "instr_overhead_ratio", NUMBER, "",                                     \
     "e2e_instr_median_us / e2e_median_us: what memsweep's own timers cost.", IF_ANY,              \
     PUT_US (s->overhead_ratio, s->overhead))                                                      \
  X (INSTR_OVERHEAD_US, "instr_overhead_us", NUMBER, "us", "e2e_instr_median_us - e2e_median_us.", \
     IF_ANY, PUT_US (s->overhead_us, s->overhead))                                                 \
  X (PARTS_SUM_MEDIAN_US, "parts_sum_median_us", NUMBER, "us",                                     \
     "Median over repetitions of the sum of the phases.", IF_ANY,                                  \
     PUT_US (st->parts_sum.median, ok && st->parts_sum.n > 0))                                     \
  X (PARTS_SUM_CI_LOW_US, "parts_sum_ci_low_us", NUMBER, "us", "Lower bound of its 95% interval.", \
     IF_ANY, PUT_US (st->parts_sum.ci_low, ok && st->parts_sum.n > 0))                             \
  X (PARTS_SUM_CI_HIGH_US, "parts_sum_ci_high_us", NUMBER, "us",                                   \
     "Upper bound of its 95% interval.", IF_ANY,                                                   \
     PUT_US (st->parts_sum.ci_high, ok && st->parts_sum.n > 0))                                    \
  PHASES ()                                                                                        \
  X (H2D_COPY_GBPS, "h2d_copy_gbps", NUMBER, "GB/s",                                               \
     "Median rate of the steady-state host-to-device copy bursts, GB/s.", IF_ANY,                  \
     PUT_US (s->h2d_copy_gbps, ok && s->h2d_copy_gbps > 0))                                        \
  X (D2H_COPY_GBPS, "d2h_copy_gbps", NUMBER, "GB/s",                                               \
     "Median rate of the steady-state device-to-host copy bursts, GB/s.", IF_ANY,                  \
     PUT_US (s->d2h_copy_gbps, ok && s->d2h_copy_gbps > 0))                                        \
  X (GPU_STATE, "gpu_state", STRING, "",                                                           \
     "The worst GPU state of the cell's rounds (see the samples file).", IF_ANY,                   \
     PUT_RAW (s->state_known ? ms_state_flags_text (s->state_flags) : ""))                         \
  X (VARIANT, "variant", STRING, "",                                                               \
     "Empty in a plain sweep; the knobs a plain run set where they applied "                       \
     "(R=4/stores=ordinary), or the setting of an experiment (a lesson) that the cell had.",       \
     IF_ANY, PUT_TEXT (c->variant))                                                                \
  X (FIT_LATENCY_US, "fit_latency_us", NUMBER, "us",                                               \
     "End-to-end fit of the row's mode (or variant): latency in microseconds.", IF_ANY,            \
     PUT_US (s->fit.latency_us, s->fitted))                                                        \
  X (FIT_GBPS, "fit_gbps", NUMBER, "GB/s", "End-to-end fit: bandwidth in GB/s.", IF_ANY,           \
     PUT_US (s->fit.bandwidth_gbps, s->fitted && s->fit.bandwidth_gbps > 0))                       \
  /* Three decimals of a ratio: 0.1%, finer than the timings' noise. */                            \
  X (FIT_R2, "fit_r2", NUMBER, "", "End-to-end fit: R^2.", IF_ANY, PUT_US (s->fit.r2, s->fitted))  \
  X (FIT_RESIDUAL, "fit_residual", NUMBER, "",                                                     \
     "(measured - fit) / measured at this size, a fraction.", IF_ANY,                              \
     PUT_US (s->fit_residual, s->fitted))                                                          \
  X (FIT_DESCRIBES_DATA, "fit_describes_data", INTEGER, "",                                        \
     "1 when R^2 >= 0.95 and every |residual| <= 0.25, else 0.", IF_ANY,                           \
     PUT_RAW (s->fitted ? (s->fit.describes_data ? "1" : "0") : ""))                               \
  X (E2E_STATES, "e2e_states", INTEGER, "",                                                        \
     "1, or 2 when the end-to-end times fall into two states.", IF_ANY,                            \
     PUT_RAW (ok ? (st->states.found ? "2" : "1") : ""))                                           \
  X (E2E_STATE_LOW_US, "e2e_state_low_us", NUMBER, "us",                                           \
     "With two states: the fast state's median.", IF_ANY,                                          \
     PUT_US (st->states.low_us, ok && st->states.found))                                           \
  X (E2E_STATE_HIGH_US, "e2e_state_high_us", NUMBER, "us",                                         \
     "With two states: the slow state's median.", IF_ANY,                                          \
     PUT_US (st->states.high_us, ok && st->states.found))                                          \
  X (E2E_STATE_HIGH_SHARE, "e2e_state_high_share", NUMBER, "",                                     \
     "With two states: the share of repetitions in the slow state.", IF_ANY,                       \
     PUT_US (st->states.high_share, ok && st->states.found))                                       \
  X (MESSAGE, "message", STRING, "",                                                               \
     "Why a cell has no data or stopped part-way; empty otherwise.", IF_ANY,                       \
     PUT_TEXT (c->message))

/* Each phase's columns in the summary, named "<phase>_name". */
#define MS_SUMMARY_PHASE_COLUMN_LIST(X)                                                            \
  X (MEDIAN_US, "median_us", NUMBER, "us",                                                         \
     "Median time of the phase in microseconds (its GPU time where it has one).", IF_ANY,          \
     PUT_US (st->phase[p].median, s->has_phase[p]))                                                \
  X (MIN_US, "min_us", NUMBER, "us", "Shortest time of the phase in microseconds.", IF_ANY,        \
     PUT_US (st->phase[p].min, s->has_phase[p]))                                                   \
  X (MAX_US, "max_us", NUMBER, "us", "Longest time of the phase in microseconds.", IF_ANY,         \
     PUT_US (st->phase[p].max, s->has_phase[p]))                                                   \
  X (CI_LOW_US, "ci_low_us", NUMBER, "us",                                                         \
     "Lower bound of the 95% confidence interval of the median time of the phase.", IF_ANY,        \
     PUT_US (st->phase[p].ci_low, s->has_phase[p]))                                                \
  X (CI_HIGH_US, "ci_high_us", NUMBER, "us",                                                       \
     "Upper bound of the 95% confidence interval of the median time of the phase.", IF_ANY,        \
     PUT_US (st->phase[p].ci_high, s->has_phase[p]))                                               \
  X (HOST_MEDIAN_US, "host_median_us", NUMBER, "us",                                               \
     "Median host time of the phase in microseconds.", IF_ANY,                                     \
     PUT_US (st->phase_host[p].median, s->has_phase[p]))
