/* ms-csv-read.c: reads samples files back through libcsv, rejecting
 * anything malformed with file:line and a reason. */
#define _GNU_SOURCE
#include <csv.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"

#include "memsweep.h"
#include "ms-csv-private.h"
#include "ms-gpu-state.h"

#define MS_CSV_MAX_FILE (256ull << 20)
#define MS_CSV_MAX_COLUMNS 4096
#define MS_CSV_MAX_ROWS 20000000ull
#define MS_CSV_MAX_REP 1000000

/* ---- reading ------------------------------------------------------------ */

enum {
  COL_MODE,
  COL_ELEMENTS,
  COL_REP,
  COL_PHASE,
  COL_LANE,
  COL_CHUNK,
  COL_HOST_START,
  COL_HOST,
  COL_GPU_START,
  COL_GPU,
  COL_BYTES,
  COL_STATUS,
  COL_MISMATCHES,
  COL_FIRST_MISMATCH,
  COL_MESSAGE,
  N_COLS
};

static const struct {
  const char *name;
  bool required;
} read_columns[N_COLS] = {
  [COL_MODE] = { "mode", true },
  [COL_ELEMENTS] = { "elements", true },
  [COL_REP] = { "rep", true },
  [COL_PHASE] = { "phase", true },
  [COL_LANE] = { "lane", false },
  [COL_CHUNK] = { "chunk", false },
  [COL_HOST_START] = { "host_start_us", true },
  [COL_HOST] = { "host_us", true },
  [COL_GPU_START] = { "gpu_start_us", false },
  [COL_GPU] = { "gpu_us", false },
  [COL_BYTES] = { "bytes", false },
  [COL_STATUS] = { "status", true },
  [COL_MISMATCHES] = { "mismatches", false },
  [COL_FIRST_MISMATCH] = { "first_mismatch", false },
  [COL_MESSAGE] = { "message", false },
};

typedef struct {
  MsCell cell;
  size_t cap_events;
  int cap_reps;
  bool *have_e2e;
  bool seen;
  long first_line;
} MsCellBuilder;

typedef struct {
  const char *path;
  long line;        /* line being parsed */
  long record_line; /* first line of the record being collected */
  char **fields;
  size_t n_fields, cap_fields;
  bool too_many_fields;
  bool have_header;
  int col[N_COLS];  /* index of each column, -1 if absent */
  int round_col;    /* the round and GPU state columns, -1 if absent */
  int state_col[MS_N_STATE_COLUMNS];
  MsCellBuilder *cells[MS_MODE_COUNT][MS_MAX_EXPONENT + 1];
  MsCellBuilder *order[MS_MODE_COUNT * (MS_MAX_EXPONENT + 1)]; /* as first seen */
  int n_order;
  unsigned long long rows;
  bool failed;
  char *err;
  size_t errlen;
} MsReader;

static void
reader_fail (MsReader *rd, long line, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static void
reader_fail (MsReader *rd, long line, const char *fmt, ...)
{
  if (rd->failed)
    return;
  rd->failed = true;
  int n = snprintf (rd->err, rd->errlen, "%s:%ld: ", rd->path, line);
  if (n < 0 || (size_t) n >= rd->errlen)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (rd->err + n, rd->errlen - n, fmt, ap);
  va_end (ap);
}

static void
on_field (void *data, size_t len, void *user)
{
  MsReader *rd = user;
  if (rd->failed)
    return;
  if (rd->n_fields == 0)
    rd->record_line = rd->line;
  if (rd->n_fields >= MS_CSV_MAX_COLUMNS) {
    rd->too_many_fields = true;
    return;
  }
  if (rd->n_fields == rd->cap_fields) {
    size_t cap = rd->cap_fields ? rd->cap_fields * 2 : 32;
    char **f = realloc (rd->fields, cap * sizeof (char *));
    if (!f) {
      reader_fail (rd, rd->line, "out of memory");
      return;
    }
    rd->fields = f;
    rd->cap_fields = cap;
  }
  char *copy = malloc (len + 1);
  if (!copy) {
    reader_fail (rd, rd->line, "out of memory");
    return;
  }
  if (len)
    memcpy (copy, data, len);
  copy[len] = '\0';
  rd->fields[rd->n_fields++] = copy;
}

static const char *
field (MsReader *rd, int col)
{
  int i = rd->col[col];
  return (i >= 0 && (size_t) i < rd->n_fields) ? rd->fields[i] : "";
}

static bool
parse_u64 (const char *s, uint64_t *out)
{
  if (!*s || *s == '-' || *s == '+')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull (s, &end, 10);
  if (errno || *end)
    return false;
  *out = v;
  return true;
}

static bool
parse_int (const char *s, long lo, long hi, long *out)
{
  if (!*s)
    return false;
  char *end;
  errno = 0;
  long v = strtol (s, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

/* Empty means absent (-1). Anything else must be a finite number >= 0. */
static bool
parse_time (const char *s, double *out, bool allow_empty)
{
  if (!*s) {
    *out = -1;
    return allow_empty;
  }
  char *end;
  errno = 0;
  double v = strtod (s, &end);
  if (errno || *end || !isfinite (v) || v < 0 || v > 1e12)
    return false;
  *out = v;
  return true;
}

static MsCellBuilder *
get_cell (MsReader *rd, MsMode mode, int exponent)
{
  MsCellBuilder *b = rd->cells[mode][exponent];
  if (b)
    return b;
  b = calloc (1, sizeof *b);
  if (!b)
    return NULL;
  b->cell.mode = mode;
  b->cell.exponent = exponent;
  b->cell.elements = 1ull << exponent;
  b->first_line = rd->record_line;
  rd->cells[mode][exponent] = b;
  rd->order[rd->n_order++] = b;
  return b;
}

static bool
builder_reserve_rep (MsCellBuilder *b, int rep)
{
  if (rep < b->cap_reps)
    return true;
  int cap = b->cap_reps ? b->cap_reps : 16;
  while (cap <= rep)
    cap *= 2;
  double *e2e = realloc (b->cell.e2e_us, cap * sizeof (double));
  if (!e2e)
    return false;
  b->cell.e2e_us = e2e;
  bool *have = realloc (b->have_e2e, cap * sizeof (bool));
  if (!have)
    return false;
  b->have_e2e = have;
  for (int i = b->cap_reps; i < cap; i++) {
    b->have_e2e[i] = false;
    b->cell.e2e_us[i] = 0;
  }
  b->cap_reps = cap;
  return true;
}

/* ---- rounds, GPU state and steady-state copies (optional columns) ---- */

static void
find_round_columns (MsReader *rd)
{
  rd->round_col = -1;
  for (int c = 0; c < MS_N_STATE_COLUMNS; c++)
    rd->state_col[c] = -1;
  for (size_t i = 0; i < rd->n_fields; i++) {
    if (strcmp (rd->fields[i], "round") == 0)
      rd->round_col = (int) i;
    for (int c = 0; c < MS_N_STATE_COLUMNS; c++)
      if (strcmp (rd->fields[i], ms_state_columns[c]) == 0)
        rd->state_col[c] = (int) i;
  }
}

static const char *
field_at (MsReader *rd, int i)
{
  return (i >= 0 && (size_t) i < rd->n_fields) ? rd->fields[i] : NULL;
}

/* The round of a row and, on end-to-end rows, the GPU state (ms-rounds.c);
 * steady-state copy rows are read whole there too. */
static void
read_round_fields (MsReader *rd, MsCell *cell, long line, long rep, bool is_e2e,
                   const char *copy_phase, uint64_t bytes)
{
  const char *state[MS_N_STATE_COLUMNS];
  char why[160] = "";
  double gpu = -1;
  for (int c = 0; c < MS_N_STATE_COLUMNS; c++)
    state[c] = field_at (rd, rd->state_col[c]);
  if (copy_phase && (!parse_time (field (rd, COL_GPU), &gpu, false) || gpu <= 0))
    snprintf (why, sizeof why, "steady-state copy time '%.40s' is not a positive time",
              field (rd, COL_GPU));
  else if (copy_phase)
    ms_cell_read_copy (cell, copy_phase, field_at (rd, rd->round_col), gpu, bytes, why,
                       sizeof why);
  else
    ms_cell_read_round (cell, (int) rep, is_e2e, field_at (rd, rd->round_col), state, why,
                        sizeof why);
  if (why[0])
    reader_fail (rd, line, "%s", why);
}

static void
handle_header (MsReader *rd)
{
  for (int c = 0; c < N_COLS; c++)
    rd->col[c] = -1;
  for (size_t i = 0; i < rd->n_fields; i++) {
    for (int c = 0; c < N_COLS; c++) {
      if (strcmp (rd->fields[i], read_columns[c].name) != 0)
        continue;
      if (rd->col[c] >= 0) {
        reader_fail (rd, rd->record_line, "column '%s' appears twice", read_columns[c].name);
        return;
      }
      rd->col[c] = (int) i;
    }
  }
  find_round_columns (rd);
  for (int c = 0; c < N_COLS; c++)
    if (read_columns[c].required && rd->col[c] < 0) {
      reader_fail (rd, rd->record_line,
                   "missing column '%s' (is this a memsweep samples file?)",
                   read_columns[c].name);
      return;
    }
  rd->have_header = true;
}

static void
handle_row (MsReader *rd)
{
  long line = rd->record_line;
  MsMode mode;
  MsCellStatus status;
  MsPhase phase = MS_PHASE_COUNT;
  uint64_t elements, bytes = 0, mism = 0, first_bad = 0;
  long rep, lane = 0, chunk = 0;
  const char *phase_s = field (rd, COL_PHASE);

  if (++rd->rows > MS_CSV_MAX_ROWS) {
    reader_fail (rd, line, "too many rows (more than %llu)", MS_CSV_MAX_ROWS);
    return;
  }
  if (!ms_mode_from_name (field (rd, COL_MODE), &mode)) {
    reader_fail (rd, line, "unknown mode '%.40s'", field (rd, COL_MODE));
    return;
  }
  if (!parse_u64 (field (rd, COL_ELEMENTS), &elements) || elements == 0 ||
      (elements & (elements - 1)) || elements > (1ull << MS_MAX_EXPONENT)) {
    reader_fail (rd, line, "elements '%.40s' is not a power of two from 1 to 2^%d",
                 field (rd, COL_ELEMENTS), MS_MAX_EXPONENT);
    return;
  }
  int exponent = 0;
  while ((1ull << exponent) < elements)
    exponent++;
  if (!parse_int (field (rd, COL_REP), 0, MS_CSV_MAX_REP - 1, &rep)) {
    reader_fail (rd, line, "rep '%.40s' is not a whole number from 0 to %d",
                 field (rd, COL_REP), MS_CSV_MAX_REP - 1);
    return;
  }
  bool is_e2e = strcmp (phase_s, "e2e") == 0, is_none = strcmp (phase_s, "none") == 0;
  bool is_copy = strcmp (phase_s, MS_COPY_PHASE_H2D) == 0 ||
                 strcmp (phase_s, MS_COPY_PHASE_D2H) == 0;
  if (!is_e2e && !is_none && !is_copy && !ms_phase_from_name (phase_s, &phase)) {
    reader_fail (rd, line, "unknown phase '%.40s'", phase_s);
    return;
  }
  if (!ms_cell_status_from_name (field (rd, COL_STATUS), &status)) {
    reader_fail (rd, line, "unknown status '%.40s'", field (rd, COL_STATUS));
    return;
  }
  if (rd->col[COL_LANE] >= 0 && !parse_int (field (rd, COL_LANE), 0, MS_MAX_STREAMS, &lane)) {
    reader_fail (rd, line, "lane '%.40s' is not a whole number from 0 to %d",
                 field (rd, COL_LANE), MS_MAX_STREAMS);
    return;
  }
  if (rd->col[COL_CHUNK] >= 0 &&
      !parse_int (field (rd, COL_CHUNK), 0, MS_MAX_STREAMS - 1, &chunk)) {
    reader_fail (rd, line, "chunk '%.40s' is not a whole number from 0 to %d",
                 field (rd, COL_CHUNK), MS_MAX_STREAMS - 1);
    return;
  }
  if (rd->col[COL_BYTES] >= 0 && *field (rd, COL_BYTES) &&
      (!parse_u64 (field (rd, COL_BYTES), &bytes) ||
       bytes > (is_copy ? MS_COPY_BURST : 3) * elements * sizeof (float))) {
    reader_fail (rd, line, "bytes '%.40s' is not a byte count up to three vectors",
                 field (rd, COL_BYTES));
    return;
  }
  if ((rd->col[COL_MISMATCHES] >= 0 && *field (rd, COL_MISMATCHES) &&
       (!parse_u64 (field (rd, COL_MISMATCHES), &mism) || mism > elements)) ||
      (rd->col[COL_FIRST_MISMATCH] >= 0 && *field (rd, COL_FIRST_MISMATCH) &&
       (!parse_u64 (field (rd, COL_FIRST_MISMATCH), &first_bad) || first_bad >= elements))) {
    reader_fail (rd, line, "mismatch count or index out of range");
    return;
  }

  MsCellBuilder *b = get_cell (rd, mode, exponent);
  if (!b) {
    reader_fail (rd, line, "out of memory");
    return;
  }
  MsCell *cell = &b->cell;
  if (!b->seen) {
    b->seen = true;
    cell->status = status;
    cell->mismatches = mism;
    cell->first_mismatch = first_bad;
    const char *msg = field (rd, COL_MESSAGE);
    if (msg[0] == '\'' && strchr ("=+-@", msg[1]) && msg[1])
      msg++;
    snprintf (cell->message, sizeof cell->message, "%s", msg);
  } else if (cell->status != status) {
    reader_fail (rd, line, "status '%s' contradicts '%s' given for %s 2^%d on line %ld",
                 ms_cell_status_name (status), ms_cell_status_name (cell->status),
                 ms_mode_name (mode), exponent, b->first_line);
    return;
  }
  if (is_none)
    return;
  if (status != MS_CELL_OK && status != MS_CELL_PARTIAL) {
    reader_fail (rd, line, "%s row for a cell whose status is '%s'", phase_s,
                 ms_cell_status_name (status));
    return;
  }
  read_round_fields (rd, cell, line, rep, is_e2e, is_copy ? phase_s : NULL, bytes);
  if (is_copy)
    return;

  double host_start, host, gpu_start = -1, gpu = -1;
  if (!builder_reserve_rep (b, (int) rep)) {
    reader_fail (rd, line, "out of memory");
    return;
  }
  if (is_e2e) {
    if (!parse_time (field (rd, COL_HOST), &host, false)) {
      reader_fail (rd, line, "end-to-end time '%.40s' is not a time in microseconds",
                   field (rd, COL_HOST));
      return;
    }
    if (b->have_e2e[rep]) {
      reader_fail (rd, line, "duplicate end-to-end row for %s 2^%d repetition %ld",
                   ms_mode_name (mode), exponent, rep);
      return;
    }
    b->have_e2e[rep] = true;
    cell->e2e_us[rep] = host;
  } else {
    if (!parse_time (field (rd, COL_HOST_START), &host_start, false) ||
        !parse_time (field (rd, COL_HOST), &host, false) ||
        !parse_time (field (rd, COL_GPU_START), &gpu_start, true) ||
        !parse_time (field (rd, COL_GPU), &gpu, true)) {
      reader_fail (rd, line, "a time field is not a number of microseconds >= 0");
      return;
    }
    if ((gpu < 0) != (gpu_start < 0)) {
      reader_fail (rd, line, "gpu_us and gpu_start_us must both be given or both be empty");
      return;
    }
    if (cell->n_events == b->cap_events) {
      size_t cap = b->cap_events ? b->cap_events * 2 : 64;
      MsEvent *ev = realloc (cell->events, cap * sizeof (MsEvent));
      if (!ev) {
        reader_fail (rd, line, "out of memory");
        return;
      }
      cell->events = ev;
      b->cap_events = cap;
    }
    MsEvent *ev = &cell->events[cell->n_events++];
    ev->phase = phase;
    ev->lane = (int) lane;
    ev->chunk = (int) chunk;
    ev->rep = (int) rep;
    ev->host_start_us = host_start;
    ev->host_us = host;
    ev->gpu_start_us = gpu_start;
    ev->gpu_us = gpu;
    ev->bytes = bytes;
  }
  if ((int) rep + 1 > cell->n_reps)
    cell->n_reps = (int) rep + 1;
}

static void
on_record (int term, void *user)
{
  (void) term;
  MsReader *rd = user;
  if (!rd->failed) {
    if (rd->too_many_fields)
      reader_fail (rd, rd->record_line, "more than %d columns", MS_CSV_MAX_COLUMNS);
    else if (!rd->have_header)
      handle_header (rd);
    else
      handle_row (rd);
  }
  for (size_t i = 0; i < rd->n_fields; i++)
    free (rd->fields[i]);
  rd->n_fields = 0;
  rd->too_many_fields = false;
}

static void
parse_metadata (MsResults *r, const char *line, size_t len)
{
  char buf[512], *key, *value;
  if (len >= sizeof buf)
    len = sizeof buf - 1;
  memcpy (buf, line, len);
  buf[len] = '\0';
  while (len && (buf[len - 1] == '\r' || buf[len - 1] == '\n'))
    buf[--len] = '\0';
  key = buf + 1;
  while (*key == ' ')
    key++;
  value = strstr (key, ": ");
  if (!value)
    return;
  *value = '\0';
  value += 2;

  MsDeviceInfo *d = &r->device;
  MsSweep *s = &r->sweep;
  int a, b, c, e;
  /* Unknown or malformed metadata is ignored: it describes, it does not
   * drive, the data. */
  if (ms_read_state_metadata (r, key, value))
    return;
#define INT_KEY(name, dst)                                                    \
  if (strcmp (key, name) == 0) {                                              \
    long v;                                                                   \
    if (parse_int (value, -1, 1 << 30, &v))                                   \
      dst = (int) v;                                                          \
    return;                                                                   \
  }
  INT_KEY ("device-index", d->index);
  INT_KEY ("min-exp", s->min_exp);
  INT_KEY ("max-exp", s->max_exp);
  INT_KEY ("step", s->step);
  INT_KEY ("reps", s->reps);
  INT_KEY ("warmup", s->warmup);
  INT_KEY ("streams", s->streams);
  INT_KEY ("async-engine-count", d->async_engine_count);
  INT_KEY ("multiprocessors", d->multiprocessors);
  INT_KEY ("l2-bytes", d->l2_bytes);
#undef INT_KEY
#define BOOL_KEY(name, dst)                                                   \
  if (strcmp (key, name) == 0) {                                              \
    dst = strcmp (value, "1") == 0;                                           \
    return;                                                                   \
  }
  BOOL_KEY ("can-map-host-memory", d->can_map_host_memory);
  BOOL_KEY ("concurrent-managed-access", d->concurrent_managed_access);
  BOOL_KEY ("pageable-memory-access", d->pageable_memory_access);
  BOOL_KEY ("managed-memory", d->managed_memory);
  BOOL_KEY ("unified-addressing", d->unified_addressing);
#undef BOOL_KEY
  if (ms_csv_read_rule_metadata (s, key, value))
    return;
  if (strcmp (key, "memsweep-version") == 0)
    snprintf (r->version, sizeof r->version, "%s", value);
  else if (strcmp (key, "date") == 0)
    snprintf (r->date, sizeof r->date, "%s", value);
  else if (strcmp (key, "label") == 0)
    snprintf (r->label, sizeof r->label, "%s", value);
  else if (strcmp (key, "device") == 0) {
    snprintf (d->name, sizeof d->name, "%s", value);
    d->present = strcmp (value, "none") != 0;
  } else if (strcmp (key, "compute-capability") == 0 && sscanf (value, "%3d.%3d", &a, &b) == 2) {
    d->cc_major = a;
    d->cc_minor = b;
  } else if (strcmp (key, "memory-total-bytes") == 0)
    parse_u64 (value, &d->total_mem);
  else if (strcmp (key, "memory-free-bytes") == 0)
    parse_u64 (value, &d->free_mem);
  /* Field widths bound the numbers: no overflow from a hostile file. */
  else if (strcmp (key, "driver") == 0 && sscanf (value, "%4d.%2d", &a, &b) == 2)
    d->driver_version = a * 1000 + b * 10;
  else if (strcmp (key, "cuda-runtime") == 0 && sscanf (value, "%4d.%2d", &a, &b) == 2)
    d->runtime_version = a * 1000 + b * 10;
  else if (strcmp (key, "pcie-link") == 0 &&
           sscanf (value, "gen%2d x%3d (max gen%2d x%3d)", &a, &b, &c, &e) == 4) {
    d->pcie_gen = a;
    d->pcie_width = b;
    d->pcie_gen_max = c;
    d->pcie_width_max = e;
  } else if (strcmp (key, "cpu-affinity") == 0)
    snprintf (d->host_cpu_affinity, sizeof d->host_cpu_affinity, "%s", value);
  else if (strcmp (key, "order") == 0)
    s->order = strcmp (value, "breadth") == 0 ? MS_ORDER_BREADTH_FIRST : MS_ORDER_DEPTH_FIRST;
  else if (strcmp (key, "modes") == 0) {
    char err[128];
    MsSweep tmp = *s;
    if (ms_sweep_set_modes (&tmp, value, err, sizeof err))
      *s = tmp;
  }
}

static char *
slurp (const char *path, size_t *len, char *err, size_t errlen)
{
  FILE *f = fopen (path, "rb");
  if (!f) {
    snprintf (err, errlen, "%s: cannot open: %s", path, strerror (errno));
    return NULL;
  }
  size_t cap = 1 << 16, used = 0;
  char *buf = malloc (cap);
  while (buf) {
    if (used == cap) {
      if (cap >= MS_CSV_MAX_FILE) {
        snprintf (err, errlen, "%s: file is larger than %llu MiB", path,
                  MS_CSV_MAX_FILE >> 20);
        free (buf);
        fclose (f);
        return NULL;
      }
      char *bigger = realloc (buf, cap * 2);
      if (!bigger) {
        free (buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
    size_t n = fread (buf + used, 1, cap - used, f);
    used += n;
    if (n == 0)
      break;
  }
  if (!buf) {
    snprintf (err, errlen, "%s: out of memory", path);
    fclose (f);
    return NULL;
  }
  if (ferror (f)) {
    snprintf (err, errlen, "%s: read error: %s", path, strerror (errno));
    free (buf);
    fclose (f);
    return NULL;
  }
  fclose (f);
  *len = used;
  return buf;
}

/* Checks every cell and hands them over in the file's order. */
static MsResults *
finish_results (MsReader *rd, MsResults *r)
{
  for (int i = 0; i < rd->n_order && !rd->failed; i++) {
    MsCellBuilder *b = rd->order[i];
    for (int rep = 0; rep < b->cell.n_reps; rep++)
      if (!b->have_e2e[rep]) {
        reader_fail (rd, b->first_line,
                     "%s 2^%d has no end-to-end row for repetition %d (file cut short?)",
                     ms_mode_name (b->cell.mode), b->cell.exponent, rep);
        return r;
      }
    ms_cell_compute_stats (&b->cell);
    if (!ms_results_add_cell (r, &b->cell))
      reader_fail (rd, rd->line, "out of memory");
  }
  return r;
}

MsResults *
ms_csv_read_samples (const char *path, char *err, size_t errlen)
{
  size_t len = 0;
  char *data = slurp (path, &len, err, errlen);
  if (!data)
    return NULL;

  MsReader rd = { .path = path, .err = err, .errlen = errlen, .line = 1 };
  MsResults *r = ms_results_new (NULL, NULL);
  struct csv_parser parser;
  bool parser_ready = false;
  locale_t old = ms_csv_enter_c_locale ();
  size_t pos = 0;

  if (!r) {
    snprintf (err, errlen, "%s: out of memory", path);
    goto out;
  }
  r->date[0] = '\0';
  /* Files from before the adaptive rule have no reps-rule key: fixed count. */
  r->sweep.reps_rule = MS_REPS_FIXED;
  snprintf (r->label, sizeof r->label, "%s", strrchr (path, '/') ? strrchr (path, '/') + 1 : path);
  if (memchr (data, '\0', len)) {
    long line = 1;
    for (const char *p = data; *p; p++)
      line += *p == '\n';
    reader_fail (&rd, line, "binary data (a NUL byte): not a CSV file");
    goto out;
  }
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    pos = 3;

  /* Leading '#' lines are metadata; libcsv sees only what follows. */
  while (pos < len && data[pos] == '#') {
    const char *nl = memchr (data + pos, '\n', len - pos);
    size_t line_len = nl ? (size_t) (nl - (data + pos)) : len - pos;
    parse_metadata (r, data + pos, line_len);
    pos += line_len + (nl ? 1 : 0);
    rd.line++;
  }

  if (csv_init (&parser, CSV_APPEND_NULL) != 0) {
    reader_fail (&rd, rd.line, "out of memory");
    goto out;
  }
  parser_ready = true;
  /* Feed line by line so that errors can name the line. */
  while (pos < len && !rd.failed) {
    const char *nl = memchr (data + pos, '\n', len - pos);
    size_t chunk = nl ? (size_t) (nl - (data + pos)) + 1 : len - pos;
    if (csv_parse (&parser, data + pos, chunk, on_field, on_record, &rd) != chunk) {
      reader_fail (&rd, rd.line, "malformed CSV: %s", csv_strerror (csv_error (&parser)));
      break;
    }
    pos += chunk;
    if (nl)
      rd.line++;
  }
  if (!rd.failed)
    csv_fini (&parser, on_field, on_record, &rd);
  if (!rd.failed && !rd.have_header)
    reader_fail (&rd, rd.line, "no header row: the file holds no samples");
  if (!rd.failed)
    finish_results (&rd, r);

out:
  ms_csv_leave_c_locale (old);
  if (parser_ready)
    csv_free (&parser);
  for (size_t i = 0; i < rd.n_fields; i++)
    free (rd.fields[i]);
  free (rd.fields);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    for (int e = 0; e <= MS_MAX_EXPONENT; e++)
      if (rd.cells[m][e]) {
        ms_cell_clear (&rd.cells[m][e]->cell);
        free (rd.cells[m][e]->have_e2e);
        free (rd.cells[m][e]);
      }
  free (data);
  if (rd.failed || !r) {
    ms_results_free (r);
    return NULL;
  }
  return r;
}
