/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-write.c: samples and summary files through libcsv.
 *
 * Every file goes through ms-atomic-file.c (temporary, sync, rename); the
 * stdio stream that libcsv writes to is a cookie stream on top of it, so
 * that every write's status reaches the file's error. A pair carries one
 * run id in both files' metadata, which ms_csv_pair_check compares.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-atomic-file.h"
#include "ms-csv-pair.h"
#include "ms-file-kinds.h"
#include "ms-gzip-file.h"
#include "ms-csv-private.h"
#include "ms-csv-writer.h"
#include "ms-data.h"
#include "ms-gpu-state.h"
#include "ms-i18n.h"
#include "ms-meta-sidecar.h"
#include "ms-meta.h"
#include "ms-summary.h"
#include "ms-um-counts.h"
#include "ms-csv-io.h"
#include "ms-run-to-run-file.h"
#include "ms-rounds.h"
#include "ms-modes.h"
#include "ms-sweep.h"
#include "ms-health-meta.h"
#include "ms-rounds-private.h"

static ssize_t
cookie_write (void *sink, const char *data, size_t len)
{
  MsWriteSink *s = sink;
  if (s->hashing)
    ms_fnv1a (&s->hash, data, len);
  if (s->gz ? !ms_gzip_writer_put (s->gz, data, len, false)
            : s->file && !ms_atomic_file_write (s->file, data, len))
    return -1;
  s->written += (long long) len;
  return (ssize_t) len;
}

/* w's stream onto w->sink, whatever that writes to; false (errno kept)
 * when it cannot be made. */
static bool
open_stream (MsWriter *w)
{
  static const cookie_io_functions_t io = { .write = cookie_write };
  w->f = fopencookie (&w->sink, "w", io);
  if (w->f && setvbuf (w->f, NULL, _IOFBF, 1 << 16) == 0)
    return true;
  int saved = errno;
  if (w->f)
    fclose (w->f);
  errno = saved;
  return false;
}

static bool
writer_open (MsWriter *w, const char *path, const char *run_id, const MsRunSummary *summary,
             char *err, size_t errlen)
{
  *w = (MsWriter){
    .path = path, .run_id = run_id, .summary = summary, .first_in_row = true, .run_id_offset = -1
  };
  w->sink.hash = MS_FNV1A_BASIS;
  w->file = w->sink.file = ms_atomic_file_open (path, err, errlen);
  if (!w->file)
    return false;
  if (!open_stream (w)) {
    snprintf (err, errlen, ms_gettext ("%s: cannot write: %s"), path, strerror (errno));
    ms_atomic_file_abort (w->file);
    return false;
  }
  return true;
}

/* Flushes the stream into the temporary file and syncs and closes it; the
 * rename is left to the caller. False with a message, the file aborted. */
static bool
writer_finish (MsWriter *w, char *err, size_t errlen)
{
  ms_writer_flush_line (w);
  bool ok = !w->failed && !ferror (w->f);
  if (fclose (w->f) != 0)
    ok = false;
  w->f = NULL;
  bool finished = ms_atomic_file_finish (w->file, err, errlen);
  if (!finished || !ok) {
    /* A stream error that never reached the file (no errno of its own). */
    if (finished)
      snprintf (err, errlen, ms_gettext ("%s: write failed: %s"), w->path, strerror (EIO));
    ms_atomic_file_abort (w->file);
    w->file = NULL;
    return false;
  }
  return true;
}

/* The modes whose inputs --host-prep once writes when, in the mode list's
 * order: "a, b and c". */
static void
modes_with_inputs (MsModeInputs when, char *buf, size_t len)
{
  int n = 0, count = 0;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    count += ms_mode_inputs_written ((MsMode) m) == when;
  buf[0] = '\0';
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    if (ms_mode_inputs_written ((MsMode) m) != when)
      continue;
    size_t at = strlen (buf);
    snprintf (buf + at, len - at, "%s%s", n == 0 ? "" : n + 1 == count ? " and " : ", ",
              ms_mode_name ((MsMode) m));
    n++;
  }
}

/* The state the copies meet, named in every file (docs/csv.md): how the
 * host last wrote the inputs changes pageable copies most (PITFALLS 18). */
static void
write_inputs_metadata (MsWriter *w, const MsResults *r)
{
  static const char *const how[MS_STORES_COUNT] = { "with streaming stores",
                                                     "with ordinary stores",
                                                     "into new pinned buffers" };
  const char *written =
    (unsigned) r->sweep.knobs.stores < MS_STORES_COUNT ? how[r->sweep.knobs.stores] : "?";
  /* --host-prep once (MsHostPrep): each mode named as the mode list and
   * ms_mode_inputs_written say. */
  if (r->sweep.host_prep == MS_HOST_PREP_ONCE && !r->sweep.knobs.inputs_kept) {
    char once[512], every[512];
    modes_with_inputs (MS_INPUTS_FIRST_REP, once, sizeof once);
    modes_with_inputs (MS_INPUTS_EVERY_REP, every, sizeof every);
    ms_meta_printf (w->f, MS_META_HOST_INPUTS,
                    "a and b written %s before the first repetition only in %s, before every "
                    "repetition in %s; c poisoned with streaming stores while the last result "
                    "was verified; a cell's variant names its own where it differs",
                    written, once, every);
    return;
  }
  /* Who wrote and checked large vectors: helpers move some cells by a few
   * percent (docs/measurements.md), so a file says whether they did. Files
   * of one thread say what they always said. */
  char threads[160] = "";
  if (r->device.prep_threads > 1)
    snprintf (threads, sizeof threads,
              ", from 2^%d elements by the measuring thread and up to %d helper thread%s "
              "(managed inputs by the measuring thread alone)",
              MS_DATA_HELPERS_FROM_EXP, r->device.prep_threads - 1,
              r->device.prep_threads > 2 ? "s" : "");
  ms_meta_printf (w->f, MS_META_HOST_INPUTS,
                  "a and b written %s %s%s; c poisoned with streaming stores; a cell's "
                  "variant names its own where it differs",
                  written,
                  r->sweep.knobs.inputs_kept ? "before the first repetition only"
                                             : "before every repetition",
                  threads);
}

/* Rounds, where the measuring thread ran and how the GPU was warmed. */
static void
write_state_metadata (MsWriter *w, const MsResults *r)
{
  const MsDeviceInfo *d = &r->device;
  ms_meta_put_field (w->f, MS_META_ROUNDS, r);
  /* Only where they differ from one process of fixed rounds, so that the
   * files of other runs stay as they were. */
  if (r->sweep.vary != MS_VARY_NOTHING)
    ms_meta_printf (w->f, MS_META_VARY, "%s", ms_vary_name (r->sweep.vary));
  if (r->sweep.processes > 1)
    ms_meta_put_field (w->f, MS_META_PROCESSES, r);
  if (r->sweep.processes > 1 && r->sweep.grade_target_pct > 0) {
    ms_meta_put_field (w->f, MS_META_GRADE_TARGET_PCT, r);
    ms_meta_put_field (w->f, MS_META_GRADE_WIDE, r);
  }
  if (d->pinned)
    ms_meta_printf (w->f, MS_META_MEASURING_CPU, "%d", d->measuring_cpu);
  if (d->pinned && d->node_known)
    ms_meta_printf (w->f, MS_META_MEASURING_NODE, "%d", d->measuring_node);
  if (d->experiment_switches[0])
    ms_meta_put_field (w->f, MS_META_EXPERIMENT_SWITCHES, r);
  /* Only where helpers shared the work, so that other files stay as
   * they were: a file without it was written by one thread. */
  if (d->prep_threads > 1)
    ms_meta_put_field (w->f, MS_META_PREP_THREADS, r);
  if (d->gpu_near_cpus[0])
    ms_meta_put_field (w->f, MS_META_GPU_NEAR_CPUS, r);
  if (d->warmup_ms > 0)
    ms_meta_printf (w->f, MS_META_GPU_WARMUP, "%.0f ms to an SM clock of %d MHz", d->warmup_ms,
                    d->steady_sm_mhz);
}

/* A file's metadata lines; a summary's end with the fit's. */
static void
write_metadata (MsWriter *w, const MsResults *r, MsFileKind kind)
{
  const MsDeviceInfo *d = &r->device;
  char modes[256], drv[16], rt[16];
  /* A text value read from a file may hold a line break (a CR-only file's
   * lines hold LF): ms_meta_printf keeps each on one line. */
  ms_sweep_format_modes (&r->sweep, modes, sizeof modes);
  ms_format_version (d->driver_version, drv, sizeof drv);
  ms_format_version (d->runtime_version, rt, sizeof rt);

  fprintf (w->f, "%s\n", ms_file_kind_info (kind)->title);
  if (w->run_id) {
    ms_meta_printf (w->f, MS_META_RUN_ID, "%s", w->run_id);
  } else {
    /* The id is worked out while the file is written: its line hashed as
     * ms_csv_write_run_id hashes it (an empty id), written with room for
     * the id, which write_samples_file puts in. */
    static const char hashed[] = "# run-id: \n";
    if (fflush (w->f) != 0)
      w->failed = true;
    ms_fnv1a (&w->sink.hash, hashed, sizeof hashed - 1);
    w->sink.hashing = false;
    w->run_id_offset = w->sink.written + (long long) strlen ("# run-id: ");
    ms_meta_printf (w->f, MS_META_RUN_ID, "%016x", 0);
    if (fflush (w->f) != 0)
      w->failed = true;
    w->sink.hashing = true;
  }
  ms_meta_put_field (w->f, MS_META_VERSION, r);
  ms_meta_put_field (w->f, MS_META_DATE, r);
  if (r->label[0])
    ms_meta_put_field (w->f, MS_META_LABEL, r);
  if (r->note[0])
    ms_meta_put_field (w->f, MS_META_NOTE, r);
  ms_meta_printf (w->f, MS_META_DEVICE, "%s", d->name[0] ? d->name : "none");
  ms_meta_put_field (w->f, MS_META_DEVICE_INDEX, r);
  if (d->pci_bus_id[0])
    ms_meta_put_field (w->f, MS_META_PCI_BUS_ID, r);
  ms_meta_printf (w->f, MS_META_COMPUTE_CAPABILITY, "%d.%d", d->cc_major, d->cc_minor);
  ms_meta_put_field (w->f, MS_META_MEMORY_TOTAL, r);
  ms_meta_put_field (w->f, MS_META_MEMORY_FREE, r);
  ms_meta_printf (w->f, MS_META_DRIVER, "%s", drv);
  ms_meta_put_field (w->f, MS_META_NVIDIA_DRIVER, r);
  ms_meta_printf (w->f, MS_META_CUDA_RUNTIME, "%s", rt);
  if (d->pcie_gen > 0)
    ms_meta_printf (w->f, MS_META_PCIE_LINK, "gen%d x%d (max gen%d x%d)", d->pcie_gen,
                    d->pcie_width, d->pcie_gen_max, d->pcie_width_max);
  else
    ms_meta_printf (w->f, MS_META_PCIE_LINK, "unknown");
  /* The device's flags and counts, each a plain key, in the table's order. */
  for (MsMetaId id = MS_META_CAN_MAP_HOST_MEMORY; id <= MS_META_L2_BYTES; id++)
    ms_meta_put_field (w->f, id, r);
  ms_meta_printf (w->f, MS_META_CPU_AFFINITY, "%s",
                  d->host_cpu_affinity[0] ? d->host_cpu_affinity : "unknown");
  ms_meta_printf (w->f, MS_META_MODES, "%s", modes);
  for (MsMetaId id = MS_META_MIN_EXP; id <= MS_META_REPS; id++)
    ms_meta_put_field (w->f, id, r);
  ms_meta_printf (w->f, MS_META_REPS_RULE, "%s",
                  r->sweep.reps_rule == MS_REPS_FIXED ? "fixed" : "adaptive");
  for (MsMetaId id = MS_META_MIN_REPS; id <= MS_META_STREAMS; id++)
    ms_meta_put_field (w->f, id, r);
  ms_meta_printf (w->f, MS_META_ORDER, "%s",
                  r->sweep.order == MS_ORDER_BREADTH_FIRST ? "breadth" : "depth");
  write_inputs_metadata (w, r);
  write_state_metadata (w, r);
  ms_run_to_run_write_metadata (&r->run_to_run, w->f);
  /* Which experiment made the results, why, and its own settings; the
   * cells' variant column says which setting each cell had. */
  ms_meta_put_field (w->f, MS_META_EXPERIMENT, r);
  if (r->experiment_settings[0])
    ms_meta_put_field (w->f, MS_META_EXPERIMENT_SETTINGS, r);
  if (r->experiment_reason)
    ms_meta_printf (w->f, MS_META_EXPERIMENT_REASON, "%s", r->experiment_reason);
  ms_um_write_metadata (w->f, r);
  ms_health_write_metadata (w->f, r, &w->summary->health);
  fputs (r->kept_metadata, w->f); /* the lines kept as they were read */
  ms_meta_printf (w->f, MS_META_UNITS,
                  "times in microseconds; bytes per direction; GB = 1e9 bytes");
  if (kind == MS_FILE_KIND_SUMMARY)
    ms_meta_printf (w->f, MS_META_FIT,
                    "e2e time = latency + bytes / bandwidth per mode, weighted 1/t^2, "
                    "latency >= 0; describes the data when R^2 >= %g and |residual| <= %g",
                    MS_FIT_MIN_R2, MS_FIT_MAX_RESIDUAL);
}

/* How a column's value is written (ms-csv-column-list.h): PUT_VALUE
 * writes it, or in scan_sample_fields says whether it is present. */
#define PUT_TEXT(text) PUT_VALUE (put_text (w, (text)), true)
#define PUT_U64(count) PUT_VALUE (put_u64 (w, (count)), true)
#define PUT_INT(value) PUT_VALUE (put_int (w, (value)), true)
#define PUT_US(value, present) PUT_VALUE (put_us (w, (value), (present)), (present))
#define PUT_RAW(text) PUT_VALUE (put_raw (w, (text)), true)
#define PUT_VALUE(put, present) put

/* The GPU state fields of a round on a plain end-to-end row (the same for
 * all its repetitions: formatted once), empty fields on other rows. */
static void
write_state_fields (MsWriter *w, const MsCellRound *state)
{
  static const char empty[MS_N_STATE_COLUMNS + 1] = { [0 ... MS_N_STATE_COLUMNS - 1] = ',' };
  if (!state) {
    /* Most rows: empty fields. */
    put_bytes (w, empty, (size_t) w->n_state_written);
    return;
  }
  if (state != w->state_round) {
    char fields[MS_N_STATE_COLUMNS][MS_STATE_FIELD_LEN];
    ms_state_format (state, fields);
    w->state_len = 0;
    for (int i = 0; i < MS_N_STATE_COLUMNS; i++) {
      if (!w->state_written[i])
        continue;
      size_t n = strnlen (fields[i], MS_STATE_FIELD_LEN - 1);
      w->state[w->state_len++] = ',';
      memcpy (w->state + w->state_len, fields[i], n);
      w->state_len += n;
    }
    w->state_round = state;
  }
  put_bytes (w, w->state, w->state_len);
}

/* A samples column's line as the step of its PART: each function below
 * defines CELL_STEP, ROW_STEP and STATE_STEP (ID, value) and expands
 * MS_SAMPLES_COLUMN_LIST (STEP_BY_PART). */
#define STEP_BY_PART(ID, name, type, unit, description, part, value) part##_STEP (ID, value)

/* The fields every row of cell c repeats, each run of CELL columns
 * written once into w->cell_text with the row's own functions, at the
 * start of the row buffer. A run after the first starts with its comma. */
static void
make_cell_strings (MsWriter *w, const MsCell *c)
{
  bool first = w->first_in_row, in_cell = false;
  size_t used = 0;
  int run = 0;
  ms_writer_flush_line (w);
#define END_RUN                                                                              \
  if (in_cell) {                                                                             \
    w->cell_run_start[run] = used;                                                           \
    w->cell_run_len[run] = w->len < sizeof w->cell_text - used ? w->len                      \
                                                              : sizeof w->cell_text - used;  \
    memcpy (w->cell_text + used, w->line, w->cell_run_len[run]);                             \
    used += w->cell_run_len[run++];                                                          \
    w->len = 0;                                                                              \
    in_cell = false;                                                                         \
  }
#define CELL_STEP(ID, value)                                                                 \
  if (!in_cell)                                                                              \
    w->first_in_row = MS_SAMPLES_COLUMN_##ID == 0;                                           \
  in_cell = true;                                                                            \
  value;
#define ROW_STEP(ID, value) END_RUN
#define STATE_STEP(ID, value) END_RUN
  MS_SAMPLES_COLUMN_LIST (STEP_BY_PART)
  END_RUN
#undef CELL_STEP
#undef ROW_STEP
#undef STATE_STEP
#undef END_RUN
  w->first_in_row = first;
  w->cell = c;
}

/* A row's fields in the list's order: the cell's runs as made, the row's
 * own, the round's GPU state as one run. */
static void
write_sample_fields (MsWriter *w, const MsSampleRow *s)
{
  const MsEvent *ev = s->event;
  bool in_cell = false, in_state = false;
  int run = 0;
#define CELL_STEP(ID, value)                                                                 \
  if (!in_cell) {                                                                            \
    put_bytes (w, w->cell_text + w->cell_run_start[run], w->cell_run_len[run]);              \
    run++;                                                                                   \
    w->first_in_row = false;                                                                 \
  }                                                                                          \
  in_cell = true;                                                                            \
  in_state = false;
#define ROW_STEP(ID, value)                                                                  \
  in_cell = in_state = false;                                                                \
  if (w->row_written[MS_SAMPLES_COLUMN_##ID]) {                                              \
    value;                                                                                   \
  }
#define STATE_STEP(ID, value)                                                                \
  if (!in_state)                                                                             \
    write_state_fields (w, s->state);                                                        \
  in_cell = false;                                                                           \
  in_state = true;
  MS_SAMPLES_COLUMN_LIST (STEP_BY_PART)
#undef CELL_STEP
#undef ROW_STEP
#undef STATE_STEP
  (void) in_cell;
  (void) in_state;
}

/* Marks in w->row_written the ROW columns that hold a value in row s: as
 * write_sample_fields would write them, without formatting. */
static void
scan_sample_fields (MsWriter *w, const MsSampleRow *s)
{
  const MsEvent *ev = s->event;
  bool used;
#undef PUT_VALUE
#define PUT_VALUE(put, present) used = (present)
#define CELL_STEP(ID, value)
#define STATE_STEP(ID, value)
#define ROW_STEP(ID, value)                                                                  \
  value;                                                                                     \
  w->row_written[MS_SAMPLES_COLUMN_##ID] |= used;
  MS_SAMPLES_COLUMN_LIST (STEP_BY_PART)
#undef CELL_STEP
#undef ROW_STEP
#undef STATE_STEP
#undef PUT_VALUE
#define PUT_VALUE(put, present) put
  (void) ev;
}

/* state_fields: the GPU's state of the round on a plain end-to-end row. */
static void
write_row_in_round (MsWriter *w, const MsCell *c, int rep, int round, const char *phase,
                    const MsEvent *ev, double e2e, bool state_fields)
{
  if (c != w->cell)
    make_cell_strings (w, c);
  const MsCellRound *state = ms_cell_round_of_rep (c, rep);
  MsSampleRow row = { .cell = c, .rep = rep, .phase = phase, .event = ev, .e2e_us = e2e,
                      .round = round,
                      .state = state_fields && ev == NULL && e2e >= 0 ? state : NULL };
  if (w->scanning) {
    scan_sample_fields (w, &row);
    return;
  }
  write_sample_fields (w, &row);
  end_row (w);
}

static void
write_sample_row (MsWriter *w, const MsCell *c, int rep, const char *phase, const MsEvent *ev,
                  double e2e)
{
  const MsCellRound *round = ms_cell_round_of_rep (c, rep);
  write_row_in_round (w, c, rep, round ? round->round : 0, phase, ev, e2e,
                      strcmp (phase, MS_E2E_INSTR_ROW) != 0);
}

static void write_rows (MsWriter *w, const MsResults *results);

/* Which of the row's own columns to write: all inline, with a sidecar those
 * that hold a value in some row. A column without any value would read as
 * text in polars and DuckDB, and its Table Schema types it a number. */
static void
choose_row_columns (MsWriter *w, const MsResults *results)
{
  /* Only numbers are left out (a text column without a value reads as
   * text), and nothing from a file without rows, as in the summary. */
  size_t rows = 0;
  for (size_t i = 0; i < results->n_cells; i++)
    rows += results->cells[i].n_reps + results->cells[i].n_events + 1;
  for (int i = 0; i < MS_N_SAMPLES_COLUMNS; i++)
    w->row_written[i] = !w->sidecar || rows == 0 || ms_samples_columns[i].type != MS_CSV_NUMBER;
  if (!w->sidecar || rows == 0)
    return;
  w->scanning = true;
  write_rows (w, results);
  w->scanning = false;
  w->cell = NULL;
}

static void
write_samples (MsWriter *w, const MsResults *results)
{
  locale_t old = ms_csv_enter_c_locale ();
  /* Which GPU state columns to write: all inline (the form files had), with
   * a sidecar those that hold a value in some round of some cell. */
  char fields[MS_N_STATE_COLUMNS][MS_STATE_FIELD_LEN];
  for (int i = 0; i < MS_N_STATE_COLUMNS; i++)
    w->state_written[i] = !w->sidecar;
  for (size_t i = 0; w->sidecar && i < results->n_cells; i++)
    for (int k = 0; k < results->cells[i].n_rounds; k++) {
      ms_state_format (&results->cells[i].rounds[k], fields);
      for (int c = 0; c < MS_N_STATE_COLUMNS; c++)
        w->state_written[c] = w->state_written[c] || fields[c][0];
    }
  w->n_state_written = 0;
  for (int i = 0; i < MS_N_STATE_COLUMNS; i++)
    w->n_state_written += w->state_written[i];
  choose_row_columns (w, results);
  if (!w->sidecar)
    write_metadata (w, results, MS_FILE_KIND_SAMPLES);
  for (int i = 0; i < MS_N_SAMPLES_COLUMNS; i++) {
    const MsCsvColumn *column = &ms_samples_columns[i];
    bool own = !column->row || w->row_written[i];
    if (own && (column->state < 0 || w->state_written[column->state]))
      put_raw (w, column->name);
  }
  end_row (w);
  write_rows (w, results);
  ms_csv_leave_c_locale (old);
}

/* A cell's rows of repetitions [first, end): their phases, their plain
 * end-to-end times and their instrumented ones. */
static void
write_rep_rows (MsWriter *w, const MsCell *c, int first, int end)
{
  for (size_t e = 0; e < c->n_events; e++)
    if (c->events[e].rep >= first && c->events[e].rep < end)
      write_sample_row (w, c, c->events[e].rep, ms_phase_name (c->events[e].phase),
                        &c->events[e], -1);
  for (int r = first; r < end; r++)
    write_sample_row (w, c, r, "e2e", NULL, c->e2e_us[r]);
  for (int r = first; c->e2e_instr_us && r < end; r++)
    if (c->e2e_instr_us[r] >= 0)
      write_sample_row (w, c, r, MS_E2E_INSTR_ROW, NULL, c->e2e_instr_us[r]);
}

/* Every row of the samples file, cell by cell and, within a cell, round by
 * round: a data tool that types a column from a file's first rows
 * (polars reads 100) meets the phase times and the GPU state of the
 * first round there, not after the hundreds of rows of a compare-grade
 * run's other rounds. */
static void
write_rows (MsWriter *w, const MsResults *results)
{
  for (size_t i = 0; i < results->n_cells; i++) {
    const MsCell *c = &results->cells[i];
    if (c->n_reps == 0) {
      /* A cell without data still says why. */
      write_sample_row (w, c, 0, "none", NULL, -1);
      continue;
    }
    int done = 0;
    for (int k = 0; k < c->n_rounds; k++) {
      int end = c->rounds[k].first_rep + c->rounds[k].n_reps;
      if (c->rounds[k].first_rep == done && end > done && end <= c->n_reps) {
        write_rep_rows (w, c, done, end);
        done = end;
      }
    }
    /* Repetitions no round claims in order (a file of the older form). */
    write_rep_rows (w, c, done, c->n_reps);
    /* The steady-state copy bursts: rep is a burst's index in the cell. */
    for (int k = 0; k < c->n_copies; k++) {
      const MsCopySample *s = &c->copies[k];
      MsEvent ev = { .lane = 1, .gpu_us = s->gpu_us, .bytes = s->bytes };
      write_row_in_round (w, c, k, s->round, s->to_device ? MS_COPY_PHASE_H2D : MS_COPY_PHASE_D2H,
                          &ev, -1, false);
    }
  }
}

/* The summary's header, its k-th column named where it is written; or,
 * with choose set, which are written whatever the rows hold: every one
 * inline, those a reader needs, and all of a summary without rows. */
typedef struct {
  MsWriter *w;
  int k;
  bool choose;
} SummaryHeader;

static void
put_header_name (const MsCsvColumn *column, const char *name, void *data)
{
  SummaryHeader *h = data;
  MsWriter *w = h->w;
  if (h->choose)
    w->summary_written[h->k] = !w->sidecar || w->summary->n_cells == 0 || column->always;
  else if (w->summary_written[h->k])
    put_raw (w, name);
  h->k++;
}

/* A row of the summary: the figures the model computed, formatted; while
 * scanning, the columns that hold a value in it marked as written (a value
 * put_us or put_raw leaves empty is none). */
static void
write_summary_row (MsWriter *w, const MsCellSummary *s)
{
  const MsCell *c = s->cell;
  const MsCellStats *st = &c->stats;
  bool ok = s->ok;
  int k = 0;
#undef PUT_VALUE
#undef PUT_US
#undef PUT_RAW
#define PUT_VALUE(put, present)                                                              \
  if (w->scanning)                                                                           \
    w->summary_written[k++] |= (present);                                                    \
  else if (w->summary_written[k++])                                                          \
    put
#define PUT_US(value, present)                                                               \
  PUT_VALUE (put_us (w, (value), (present)), (present) && isfinite (value))
#define PUT_RAW(text) PUT_VALUE (put_raw (w, (text)), (text)[0] != '\0')
#define X(ID, name, type, unit, description, part, value) value;
#define PHASES()                                                                             \
  for (int p = 0; p < MS_PHASE_COUNT; p++) {                                                 \
    MS_SUMMARY_PHASE_COLUMN_LIST (X)                                                         \
  }
  MS_SUMMARY_COLUMN_LIST (X, PHASES)
#undef PHASES
#undef X
  if (!w->scanning)
    end_row (w);
}

/* A file whose target is a file gets its metadata in the sidecar; one
 * written in place (a device, a pipe) keeps it inline, where it has
 * nowhere else to go. The file's bytes are hashed as they are written. */
static void
choose_sidecar (MsWriter *w, const char *meta)
{
  w->sink.hashing = w->sidecar = meta && ms_atomic_file_is_file (w->file);
}

/* With a sidecar the columns empty in every row (phases the run did not
 * measure) are left out: data tools would type them as text. */
static bool
write_summary_file (MsWriter *w, const MsResults *results, const MsRunSummary *summary,
                    const char *path, const char *meta, const char *run_id, char *err,
                    size_t errlen)
{
  if (!writer_open (w, path, run_id, summary, err, errlen))
    return false;
  choose_sidecar (w, meta);
  locale_t old = ms_csv_enter_c_locale ();
  SummaryHeader choose = { w, 0, true }, header = { w, 0, false };
  ms_summary_columns_foreach (put_header_name, &choose);
  w->scanning = w->sidecar;
  for (size_t i = 0; w->scanning && i < w->summary->n_cells; i++)
    write_summary_row (w, &w->summary->cells[i]);
  w->scanning = false;
  if (!w->sidecar)
    write_metadata (w, results, MS_FILE_KIND_SUMMARY);
  ms_summary_columns_foreach (put_header_name, &header);
  end_row (w);
  for (size_t i = 0; i < w->summary->n_cells; i++)
    write_summary_row (w, &w->summary->cells[i]);
  ms_csv_leave_c_locale (old);
  return writer_finish (w, err, errlen);
}

/* The samples file through a stream of its own onto w's sink, closed
 * whatever happened (an open stream would be flushed at exit, into a sink
 * gone by then); false where a write was refused. */
static bool
write_samples_through (MsWriter *w, const MsResults *results)
{
  if (!open_stream (w))
    return false;
  write_samples (w, results);
  ms_writer_flush_line (w);
  bool ok = !w->failed && !ferror (w->f);
  return fclose (w->f) == 0 && ok;
}

/* The run id is a fingerprint (FNV-1a) of the samples file as written
 * without it: a pair written together shares it, writing the same results
 * again gives the same file, and another run gives another id. */
static uint64_t
hash_samples (const MsResults *results, const MsRunSummary *summary, bool sidecar)
{
  MsWriter w = { .run_id = "", .first_in_row = true, .sidecar = sidecar, .summary = summary };
  w.sink = (MsWriteSink){ .hashing = true, .hash = MS_FNV1A_BASIS };
  write_samples_through (&w, results);
  return w.sink.hash;
}

void
ms_csv_write_run_id (const MsResults *results, const MsRunSummary *run, char *run_id)
{
  snprintf (run_id, 32, "%016llx", (unsigned long long) hash_samples (results, run, false));
}

char *
ms_csv_write_metadata_text (const MsResults *results, const MsRunSummary *summary)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  if (!f)
    return NULL;
  MsWriter w = { .f = f, .run_id = "", .first_in_row = true, .summary = summary };
  locale_t old = ms_csv_enter_c_locale ();
  write_metadata (&w, results, MS_FILE_KIND_SUMMARY);
  ms_csv_leave_c_locale (old);
  if (fclose (f) != 0) {
    free (text);
    return NULL;
  }
  return text;
}

/* Writes the samples file up to its rename and leaves its run id in
 * run_id[32]. With a sidecar (meta) the file holds no metadata and the id
 * comes from its hash (sidecar_run_id). Inline, where the target can be
 * overwritten (a temporary) the id is hashed as the file is written and
 * put in place at the end: the rows are formatted once. A device or a
 * pipe, written in place, gets a first pass that only hashes. */
static bool
write_samples_file (MsWriter *w, const MsResults *results, const MsRunSummary *summary,
                    const char *path, const char *meta, char *run_id, char *err, size_t errlen)
{
  /* A summary holds statistics, no samples: a samples file of it would
   * claim cells without data, which the reader rightly refuses. */
  if (results->from_summary) {
    snprintf (err, errlen,
              ms_gettext ("%s: this run was read from a summary file and holds statistics "
                          "only, no samples: export it as a summary"), path);
    return false;
  }
  if (!writer_open (w, path, NULL, summary, err, errlen))
    return false;
  choose_sidecar (w, meta);
  if (w->sidecar) {
    w->run_id = "";
  } else if (ms_atomic_file_can_patch (w->file)) {
    w->sink.hashing = true;
  } else {
    ms_csv_write_run_id (results, summary, run_id);
    w->run_id = run_id;
  }
  write_samples (w, results);
  if (!w->run_id) {
    ms_writer_flush_line (w);
    if (fflush (w->f) != 0)
      w->failed = true;
    snprintf (run_id, 32, "%016llx", (unsigned long long) w->sink.hash);
    if (!ms_atomic_file_patch (w->file, w->run_id_offset, run_id, 16))
      w->failed = true;
  }
  if (!writer_finish (w, err, errlen))
    return false;
  if (w->sidecar)
    ms_meta_sidecar_run_id (meta, w->sink.hash, run_id);
  return true;
}

/* The files of one run and their sidecar, renamed as one: the CSV files
 * first, the sidecar last, so that a crash between the renames leaves CSV
 * files whose sidecar is missing or names other sizes, which the readers
 * say (ms_meta_sidecar_lines), never a sidecar that claims them wrongly.
 * writers[i]->file is taken; taken as for ms_atomic_file_commit_group. */
static bool
commit_with_sidecar (MsWriter **writers, const char **roles, int n, const char *meta,
                     const char *run_id, bool *taken, char *err, size_t errlen)
{
  MsAtomicFile *files[MS_ATOMIC_MAX_GROUP];
  MsSidecarFile described[MS_ATOMIC_MAX_GROUP];
  char path[4096];
  char kept[MS_ATOMIC_MAX_GROUP][256];
  int n_files = 0, n_described = n;
  for (int i = 0; i < n; i++) {
    files[n_files++] = writers[i]->file;
    described[i] = (MsSidecarFile){ roles[i], writers[i]->path, writers[i]->sink.written,
                                    writers[i]->sink.hash };
    ms_atomic_file_sha256 (writers[i]->file, described[i].sha256);
  }
  bool sidecar = writers[0]->sidecar;
  MsAtomicFile *side = NULL;
  if (sidecar && !ms_meta_sidecar_path (writers[0]->path, path, sizeof path)) {
    snprintf (err, errlen, ms_gettext ("%s: cannot write: %s"), writers[0]->path,
              strerror (ENAMETOOLONG));
  } else if (sidecar) {
    /* A file of the run written alone (samples, then summary) keeps what
     * the sidecar says of the run's other file. */
    if (n == 1)
      n_described += ms_meta_sidecar_kept (path, run_id, roles[0], described + n, kept, 1);
    side = ms_meta_sidecar_open (path, run_id, meta, described, n_described, err, errlen);
  }
  if (sidecar && !side) {
    for (int i = 0; i < n_files; i++)
      ms_atomic_file_abort (files[i]);
    return false;
  }
  if (side)
    files[n_files++] = side;
  if (n_files == 1)
    return ms_atomic_file_commit (files[0], err, errlen);
  return ms_atomic_file_commit_group (files, n_files, taken, err, errlen);
}

MsRunSummary *
ms_csv_write_summarize (const MsResults *results, const char *path, char *err, size_t errlen)
{
  MsRunSummary *summary = ms_results_summarize (results);
  if (!summary)
    snprintf (err, errlen, ms_gettext ("%s: cannot write: %s"), path, strerror (ENOMEM));
  return summary;
}

bool
ms_csv_write_summary_alone (const MsResults *results, const MsRunSummary *run, const char *path,
                            const char *meta, const char *run_id, char *err, size_t errlen)
{
  MsWriter summary, *writers[] = { &summary };
  const char *role = "summary";
  return write_summary_file (&summary, results, run, path, meta, run_id, err, errlen)
         && commit_with_sidecar (writers, &role, 1, meta, run_id, NULL, err, errlen);
}

bool
ms_csv_write_samples (const MsResults *results, const char *path, char *err, size_t errlen)
{
  return ms_csv_write_pair_at (results, path, NULL, NULL, err, errlen);
}

bool
ms_csv_write_summary (const MsResults *results, const char *path, char *err, size_t errlen)
{
  return ms_csv_write_pair_at (results, NULL, path, NULL, err, errlen);
}

bool
ms_csv_write_pair_at (const MsResults *results, const char *samples_path, const char *summary_path,
                      bool *taken, char *err, size_t errlen)
{
  MsWriter samples, summary, *writers[2];
  const char *roles[2];
  char run_id[32];
  int n = 0;
  MsRunSummary *run = ms_csv_write_summarize (results, samples_path ? samples_path : summary_path,
                                              err, errlen);
  if (!run)
    return false;
  /* The summary's metadata: the samples' and the fit's. */
  char *meta = ms_csv_write_metadata_text (results, run);
  bool ok = true;
  if (samples_path) {
    ok = write_samples_file (&samples, results, run, samples_path, meta, run_id, err, errlen);
    writers[n] = &samples;
    roles[n++] = "samples";
  } else if (meta) {
    /* Alone, a summary's id is the one its samples would have. */
    ms_meta_sidecar_run_id (meta, hash_samples (results, run, true), run_id);
  } else {
    ms_csv_write_run_id (results, run, run_id);
  }
  if (ok && summary_path) {
    writers[n] = &summary;
    roles[n++] = "summary";
    ok = write_summary_file (&summary, results, run, summary_path, meta, run_id, err, errlen);
    if (!ok && n == 2)
      ms_atomic_file_abort (samples.file);
  }
  if (ok && n == 2 && samples.sidecar != summary.sidecar) {
    /* One written in place (a pipe), the other a file: the file's sidecar
     * describes it alone. */
    int in_place = samples.sidecar ? 1 : 0;
    bool placed = ms_atomic_file_commit (writers[in_place]->file, err, errlen);
    ok = commit_with_sidecar (&writers[1 - in_place], &roles[1 - in_place], 1, meta, run_id,
                              NULL, err, errlen) && placed;
  } else if (ok) {
    ok = commit_with_sidecar (writers, roles, n, meta, run_id, taken, err, errlen);
  }
  free (meta);
  free (run);
  return ok;
}

bool
ms_csv_write_samples_gzipped (const MsResults *results, const MsRunSummary *run, const char *run_id,
                              MsGzipSink put, void *to)
{
  MsWriter w = {
    .run_id = run_id, .first_in_row = true, .summary = run, .sink.gz = ms_gzip_writer_new (put, to)
  };
  /* A write the gzip writer refused left the stream's error. */
  bool ok = w.sink.gz && write_samples_through (&w, results) &&
            ms_gzip_writer_put (w.sink.gz, NULL, 0, true);
  ms_gzip_writer_free (w.sink.gz);
  return ok;
}

bool
ms_csv_write_pair_new (const MsResults *results, const char *samples_path,
                       const char *summary_path, bool *taken, char *err, size_t errlen)
{
  *taken = false;
  return ms_csv_write_pair_at (results, samples_path, summary_path, taken, err, errlen);
}
