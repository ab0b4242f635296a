/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-summary.c: reads a summary file (one row of statistics per cell)
 * back into results that hold statistics only: no repetitions, no events.
 * Charts and tables need nothing more; the timeline and the breakdown say
 * why they are unavailable (MsResults.from_summary).
 *
 * A summary is small (a row per cell): the file is read whole, up to a
 * bound, and every malformed row is refused with file:line. */
#define _GNU_SOURCE
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-csv-column-table.h"
#include "ms-csv-io.h"
#include "ms-csv-private.h"
#include "ms-csv-reader.h"
#include "ms-i18n.h"
#include "ms-input.h"
#include "ms-meta-sidecar.h"
#include "ms-modes.h"
#include "ms-results.h"
#include "ms-utf8.h"
#include "ms-variant.h"

/* A summary has at most MS_MODE_COUNT x 19 rows of about 2 KiB. */
#define SUMMARY_MAX_BYTES (16u << 20)
#define SUMMARY_MAX_FIELDS 256

/* The samples reader's state holds the path, the error, the line, the
 * header's presence and the bounds, and fails as it does (ms_csv_fail). */
typedef struct {
  MsReader rd;
  MsResults *results;
  /* The header's names, then the current record's fields. */
  char names[SUMMARY_MAX_FIELDS][MS_CSV_FIELD_MAX + 1];
  int n_names;
  char fields[SUMMARY_MAX_FIELDS][MS_CSV_FIELD_MAX + 1];
  int n_fields;
} SummaryReader;

static void
on_field (void *data, size_t len, void *user)
{
  SummaryReader *sr = user;
  if (sr->rd.failed)
    return;
  if (len > MS_CSV_MAX_FIELD_BYTES) {
    ms_csv_fail (&sr->rd, sr->rd.line, MS_CSV_LONG_FIELD, MS_CSV_MAX_FIELD_BYTES >> 10);
    return;
  }
  if (sr->n_fields >= SUMMARY_MAX_FIELDS) {
    ms_csv_fail (&sr->rd, sr->rd.line, "more than %d fields", SUMMARY_MAX_FIELDS);
    return;
  }
  size_t n = len < MS_CSV_FIELD_MAX ? len : MS_CSV_FIELD_MAX;
  memcpy (sr->fields[sr->n_fields], data, n);
  sr->fields[sr->n_fields][n] = '\0';
  sr->n_fields++;
}

/* The field of the column called name, or NULL when the header lacks it. */
static const char *
field (const SummaryReader *sr, const char *name)
{
  for (int i = 0; i < sr->n_names && i < sr->n_fields; i++)
    if (strcmp (sr->names[i], name) == 0)
      return sr->fields[i];
  return NULL;
}

/* The name of a summary column (MS_SUMMARY_COLUMN_ID), as the list has it. */
#define COLUMN(ID) (ms_summary_columns[MS_SUMMARY_COLUMN_##ID].name)

/* An empty field is "no value": false, and *out untouched. Times and
 * rates follow the samples reader's number rule (ms-csv-number.h). */
static bool
number (SummaryReader *sr, const char *name, double *out)
{
  const char *s = field (sr, name);
  if (!s || !*s)
    return false;
  if (!ms_csv_parse_decimal (s, strlen (s), out)) {
    ms_csv_fail (&sr->rd, sr->rd.line, "column '%s': '%s' is not a number", name, s);
    return false;
  }
  return true;
}

/* A statistic from its columns, named after its median's as a phase's
 * are in the list ("<prefix>median_us" to "<prefix>ci_high_us"; into host,
 * where not NULL, "<prefix>host_median_us"). The file states the interval
 * only for e2e (e2e_ci_95); the others have one from 6 repetitions on
 * (ms_median_ci). parts_sum's extremes and every other "<prefix>ci_95" are
 * no columns of memsweep's, but a file from elsewhere that has them is
 * read by them. */
static bool
read_stat (SummaryReader *sr, const char *median, MsStat *st, int n, MsStat *host)
{
  char name[MS_N_SUMMARY_PHASE_COLUMNS + 1][64];
  const char *suffix = ms_summary_phase_columns[MS_SUMMARY_PHASE_COLUMN_MEDIAN_US].name;
  int prefix = (int)(strlen (median) - strlen (suffix));
  for (int k = 0; k <= MS_N_SUMMARY_PHASE_COLUMNS; k++)
    snprintf (name[k], sizeof name[k], "%.*s%s", prefix, median,
              k < MS_N_SUMMARY_PHASE_COLUMNS ? ms_summary_phase_columns[k].name : "ci_95");
  if (!number (sr, name[MS_SUMMARY_PHASE_COLUMN_MEDIAN_US], &st->median))
    return false;
  st->n = n;
  st->min = st->max = st->median;
  number (sr, name[MS_SUMMARY_PHASE_COLUMN_MIN_US], &st->min);
  number (sr, name[MS_SUMMARY_PHASE_COLUMN_MAX_US], &st->max);
  bool lo = number (sr, name[MS_SUMMARY_PHASE_COLUMN_CI_LOW_US], &st->ci_low);
  bool hi = number (sr, name[MS_SUMMARY_PHASE_COLUMN_CI_HIGH_US], &st->ci_high);
  double stated = 1;
  number (sr, name[MS_N_SUMMARY_PHASE_COLUMNS], &stated);
  st->ci_valid = lo && hi && n >= 6 && stated != 0;
  if (host) {
    number (sr, name[MS_SUMMARY_PHASE_COLUMN_HOST_MEDIAN_US], &host->median);
    host->n = n;
  }
  return true;
}

static bool
cell_identity (SummaryReader *sr, MsCell *c)
{
  const char *mode = field (sr, COLUMN (MODE)), *status = field (sr, COLUMN (STATUS));
  const char *elements = field (sr, COLUMN (ELEMENTS));
  if (!mode || !ms_mode_from_name (mode, &c->mode)) {
    ms_csv_fail (&sr->rd, sr->rd.line, "unknown mode '%s'", mode ? mode : "");
    return false;
  }
  if (!status || !ms_cell_status_from_name (status, &c->status)) {
    ms_csv_fail (&sr->rd, sr->rd.line, "unknown status '%s'", status ? status : "");
    return false;
  }
  char *end;
  errno = 0;
  unsigned long long n = elements ? strtoull (elements, &end, 10) : 0;
  int e = n ? __builtin_ctzll (n) : 0;
  if (!elements || *end || errno || !n || (n & (n - 1)) || e < MS_MIN_EXPONENT ||
      e > MS_MAX_EXPONENT) {
    ms_csv_fail (&sr->rd, sr->rd.line, "elements '%s' is not a power of two from 2^%d to 2^%d",
                 elements ? elements : "", MS_MIN_EXPONENT, MS_MAX_EXPONENT);
    return false;
  }
  c->exponent = e;
  c->elements = n;
  /* Summaries from before variants have no such column: "". */
  const char *variant = field (sr, COLUMN (VARIANT));
  if (variant && !ms_variant_valid (variant)) {
    ms_csv_fail (&sr->rd, sr->rd.line, "'%s' is not a variant", variant);
    return false;
  }
  snprintf (c->variant, sizeof c->variant, "%s", variant ? variant : "");
  if (ms_results_find_variant (sr->results, c->mode, e, c->variant)) {
    ms_csv_fail (&sr->rd, sr->rd.line, "a second row for %s at 2^%d", mode, e);
    return false;
  }
  return true;
}

static void
read_cell (SummaryReader *sr)
{
  MsCell c = { 0 };
  if (!cell_identity (sr, &c))
    return;
  const char *reps = field (sr, COLUMN (REPS));
  uint64_t count = 0;
  if (reps && *reps && (!ms_csv_parse_count (reps, strlen (reps), &count) || count > MS_MAX_REPS)) {
    ms_csv_fail (&sr->rd, sr->rd.line, "column 'reps': '%s' is not a repetition count", reps);
    return;
  }
  int n = (int) count;
  read_stat (sr, COLUMN (E2E_MEDIAN_US), &c.stats.e2e, n, NULL);
  read_stat (sr, COLUMN (PARTS_SUM_MEDIAN_US), &c.stats.parts_sum, n, NULL);
  /* Files from before plain repetitions have no instrumented median: the
   * overhead stays unknown (n == 0). The ratio and difference columns are
   * derived from the two medians. */
  if (number (sr, COLUMN (E2E_INSTR_MEDIAN_US), &c.stats.e2e_instr.median) &&
      c.stats.e2e_instr.median > 0)
    c.stats.e2e_instr.n = n > 0 ? n : 1;
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    /* The cell driver allocates and frees once per cell (ms-cell-driver.h);
     * the other phases come from the instrumented repetitions alone, the
     * first instr_reps of a cell (0: every one). */
    int instr = sr->results->sweep.instr_reps;
    int times = p == MS_PHASE_ALLOC || p == MS_PHASE_FREE ? 1
                : instr > 0 && instr < n                  ? instr
                                                          : n;
    char median[64];
    ms_summary_phase_column_name (MS_SUMMARY_PHASE_COLUMN_MEDIAN_US, (MsPhase)p, median,
                                  sizeof median);
    read_stat (sr, median, &c.stats.phase[p], times, &c.stats.phase_host[p]);
  }
  number (sr, COLUMN (E2E_GBPS), &c.stats.e2e_gbps);
  /* Summaries from before two states were told apart have no such columns. */
  double states = 1;
  MsTwoStates *two = &c.stats.states;
  if (number (sr, COLUMN (E2E_STATES), &states) && states == 2 &&
      number (sr, COLUMN (E2E_STATE_LOW_US), &two->low_us) &&
      number (sr, COLUMN (E2E_STATE_HIGH_US), &two->high_us) &&
      number (sr, COLUMN (E2E_STATE_HIGH_SHARE), &two->high_share) && two->high_share <= 1)
    two->found = true;
  else
    memset (two, 0, sizeof *two);
  number (sr, COLUMN (H2D_GBPS), &c.stats.h2d_gbps);
  number (sr, COLUMN (D2H_GBPS), &c.stats.d2h_gbps);
  const char *message = field (sr, COLUMN (MESSAGE));
  ms_utf8_copy (c.message, sizeof c.message, message ? message : "");
  c.message[ms_utf8_prefix (c.message, strlen (c.message))] = '\0';
  if (!sr->rd.failed && !ms_results_add_cell (sr->results, &c))
    ms_csv_fail (&sr->rd, sr->rd.line, "out of memory");
}

static void
on_record (int term, void *user)
{
  SummaryReader *sr = user;
  if (sr->rd.failed)
    return;
  if (!sr->rd.have_header) {
    memcpy (sr->names, sr->fields, sizeof sr->names);
    sr->n_names = sr->n_fields;
    sr->rd.have_header = true;
    if (!field (sr, COLUMN (MODE)) || !field (sr, COLUMN (E2E_MEDIAN_US)))
      ms_csv_fail (&sr->rd, sr->rd.line,
                   "not a memsweep summary header (no 'mode' or 'e2e_median_us' column)");
  } else if (sr->n_fields != sr->n_names) {
    ms_csv_fail (&sr->rd, sr->rd.line, "%d fields where the header has %d", sr->n_fields,
                 sr->n_names);
  } else {
    read_cell (sr);
  }
  sr->n_fields = 0;
}

/* Metadata lines, then the table through libcsv a line at a time so that
 * errors can name the line. */
static void
parse_summary (SummaryReader *sr, char *buf, size_t len, bool too_large)
{
  struct csv_parser parser;
  if (csv_init (&parser, 0) != 0) {
    ms_csv_fail (&sr->rd, sr->rd.line, "out of memory");
    return;
  }
  size_t pos = len >= 3 && memcmp (buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  /* CR alone ends lines in files from classic Mac OS tools, as the samples
   * reader allows; libcsv takes CR as a row's end. */
  char end = sr->rd.eol = ms_csv_line_end (buf, len);
  while (pos < len && !sr->rd.failed) {
    sr->rd.line++;
    char *eol = memchr (buf + pos, end, len - pos);
    size_t n = eol ? (size_t) (eol - (buf + pos)) + 1 : len - pos;
    /* The real cause, as the samples reader says it: not a field that
     * seems to end early. */
    if (memchr (buf + pos, '\0', n))
      ms_csv_fail (&sr->rd, sr->rd.line, "binary data (a NUL byte): not a CSV file");
    else if (buf[pos] == '#' && !sr->rd.have_header && sr->rd.line > MS_CSV_MAX_EMPTY_LINES)
      ms_csv_fail (&sr->rd, sr->rd.line, MS_CSV_EMPTY_LINES, MS_CSV_MAX_EMPTY_LINES);
    else if (buf[pos] == '#' && !sr->rd.have_header)
      ms_csv_take_metadata_line (NULL, sr->results, buf + pos, eol ? n - 1 : n);
    else
      /* In parts, as the samples reader reads: libcsv holds no more of a
       * field than the limit before it is refused. */
      for (size_t at = 0; at < n && !sr->rd.failed; at += MS_CSV_MAX_FIELD_BYTES)
        ms_csv_feed_to (&sr->rd, &parser, buf + pos + at,
                        n - at < MS_CSV_MAX_FIELD_BYTES ? n - at : MS_CSV_MAX_FIELD_BYTES,
                        on_field, on_record, sr);
    pos += n;
  }
  /* Said as before the limits of every line: without a line. */
  if (!sr->rd.failed && too_large) {
    snprintf (sr->rd.err, sr->rd.errlen, ms_gettext ("%s: not a regular file of at most %u MiB"),
              sr->rd.path, SUMMARY_MAX_BYTES >> 20);
    sr->rd.failed = true;
  }
  ms_csv_end_rows (&sr->rd, &parser, on_field, on_record, sr);
  if (!sr->rd.failed && !sr->rd.have_header)
    ms_csv_fail (&sr->rd, sr->rd.line, "no header row: the file holds no cells");
  /* No writer of memsweep's leaves a header without rows. */
  if (!sr->rd.failed && sr->results->n_cells == 0)
    ms_csv_fail (&sr->rd, sr->rd.line, "no rows: the file holds its header only");
}

MsResults *
ms_csv_read_summary_input (MsInput *in, const char *path, char *err, size_t errlen)
{
  size_t len = 0;
  bool too_large = false;
  /* The file whole, or its first SUMMARY_MAX_BYTES; the sidecar's check
   * hashes the bytes as they are read. */
  MsSidecarHash *pending = ms_meta_sidecar_hash_begin (in, path);
  char *buf = ms_input_read_all (in, SUMMARY_MAX_BYTES, &len, &too_large, err, errlen);
  ms_meta_sidecar_hash_end (in, pending);
  if (!buf)
    return NULL;
  SummaryReader *sr;
  MsResults *r = ms_csv_results_for_reading (path, (void **) &sr, sizeof *sr, err, errlen);
  if (!r) {
    free (buf);
    return NULL;
  }
  *sr = (SummaryReader){ .rd = { .path = path, .err = err, .errlen = errlen }, .results = r };
  r->from_summary = true;
  locale_t old = ms_csv_enter_c_locale ();
  if (!ms_csv_take_sidecar (NULL, r, path, buf, len, len, NULL, err, errlen))
    sr->rd.failed = true;
  else
    parse_summary (sr, buf, len, too_large);
  ms_csv_leave_c_locale (old);
  bool failed = sr->rd.failed;
  free (sr);
  free (buf);
  if (failed) {
    ms_results_free (r);
    return NULL;
  }
  return r;
}

MsResults *
ms_csv_read_summary (const char *path, char *err, size_t errlen)
{
  MsInput *in = ms_input_open (path, true, err, errlen);
  if (!in)
    return NULL;
  MsResults *r = ms_csv_read_summary_input (in, path, err, errlen);
  ms_input_close (in);
  return r;
}
