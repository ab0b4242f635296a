/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv.c: samples and summary files: round trip, locale independence,
 * tolerant reading, malformed input with file:line messages, safe writes. */
#define _GNU_SOURCE
#include <locale.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsweep.h"
#include "ms-modes.h"
#include "ms-backend-test.h"
#include "ms-csv-reader.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "files/ms-run-to-run-file.h"
#include "model/ms-results.h"
#include "run/ms-backend.h"
#include "run/ms-runner.h"
#include "lessons/ms-run-read.h"


static char *
read_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    return NULL;
  static char buf[1 << 20];
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose (f);
  return buf;
}

static MsResults *
make_results (void)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, 13, 4);
  ms_test_backend_config_init (&cfg);
  cfg.fail_mode = MS_MODE_UVA;
  cfg.fail_exponent = 11;
  cfg.fail_rep = 1;
  cfg.fail_phase = MS_PHASE_KERNEL;
  cfg.unsupported[MS_MODE_MANAGED] = true;
  MsBackend *b = ms_backend_new_test (&cfg);
  MsResults *r = NULL;
  char err[256];
  ms_sweep_run (&s, b, NULL, NULL, NULL, &r, err, sizeof err);
  ms_backend_free (b);
  /* Text that a spreadsheet would run, and a comma and a quote. */
  snprintf (r->device.name, sizeof r->device.name, "=Test \"GPU\", rev 2");
  /* The bus id keys a calibration profile made from these files. */
  snprintf (r->device.pci_bus_id, sizeof r->device.pci_bus_id, "00000000:41:00.0");
  return r;
}

static void
compare_results (const MsResults *a, const MsResults *b)
{
  g_assert_cmpuint (a->n_cells, ==, b->n_cells);
  g_assert_cmpstr (a->device.name, ==, b->device.name);
  g_assert_cmpstr (a->device.pci_bus_id, ==, b->device.pci_bus_id);
  g_assert_true (a->sweep.min_exp == b->sweep.min_exp);
  g_assert_true (a->sweep.reps == b->sweep.reps);
  g_assert_true (a->sweep.streams == b->sweep.streams);
  g_assert_true (a->device.pcie_gen == b->device.pcie_gen);
  for (size_t i = 0; i < a->n_cells && i < b->n_cells; i++) {
    const MsCell *x = &a->cells[i];
    const MsCell *y = ms_results_find (b, x->mode, x->exponent);
    g_assert_nonnull (y);
    if (!y)
      continue;
    g_assert_true (x->status == y->status);
    g_assert_true (x->n_reps == y->n_reps);
    g_assert_true (x->n_events == y->n_events);
    g_assert_cmpstr (x->message, ==, y->message);
    for (size_t e = 0; e < x->n_events && e < y->n_events; e++) {
      const MsEvent *p = &x->events[e], *q = &y->events[e];
      g_assert_true (p->phase == q->phase);
      g_assert_true (p->lane == q->lane);
      g_assert_true (p->rep == q->rep);
      g_assert_true (p->bytes == q->bytes);
      g_assert_true (fabs (p->host_us - q->host_us) < 1e-3);
      g_assert_true (fabs (p->gpu_us - q->gpu_us) < 1e-3);
    }
    g_assert_true (fabs (x->stats.e2e.median - y->stats.e2e.median) < 1e-3);
    g_assert_true (fabs (x->stats.h2d_gbps - y->stats.h2d_gbps) < 1e-3 * (1 + x->stats.h2d_gbps));
  }
}

static void
test_round_trip (void)
{
  MsResults *r = make_results ();
  char err[512] = "";
  const char *path = ms_test_tmp_path ("rt-samples.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  if (back) {
    compare_results (r, back);
    /* And again: what was read writes the same file. */
    const char *path2 = ms_test_tmp_path ("rt2-samples.csv");
    snprintf (back->label, sizeof back->label, "%s", r->label);
    g_assert_true (ms_csv_write_samples (back, path2, err, sizeof err));
    char *first = strdup (read_file (path));
    g_assert_cmpstr (first, ==, read_file (path2));
    free (first);
  }
  char *text = read_file (path);
  g_assert_null (strstr (text, "\"'injected fault"));
  g_assert_true (text[0] != '#');
  /* The metadata, in the sidecar: a JSON string, not run by a spreadsheet. */
  text = read_file (ms_test_tmp_path ("rt-meta.json"));
  g_assert_nonnull (strstr (text, "\"device\": \"=Test \\\"GPU\\\", rev 2\",\n"));
  ms_results_free (back);
  ms_results_free (r);
}

static void
test_locale (void)
{
  const char *locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE.utf8", NULL };
  const char *got = NULL;
  for (int i = 0; locales[i] && !got; i++)
    got = setlocale (LC_ALL, locales[i]);
  if (!got) {
    printf ("note: no comma-decimal locale installed; locale test uses C only\n");
    return;
  }
  char probe[16];
  snprintf (probe, sizeof probe, "%.1f", 3.5);
  g_assert_cmpstr (probe, ==, "3,5"); /* the locale really uses a comma */
  MsResults *r = make_results ();
  char err[512] = "";
  const char *path = ms_test_tmp_path ("locale-samples.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  g_assert_true (
    ms_csv_write_summary (r, ms_test_tmp_path ("locale-summary.csv"), err, sizeof err));
  MsResults *back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (back);
  if (back)
    compare_results (r, back);
  setlocale (LC_ALL, "C");
  MsResults *c_back = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (c_back);
  g_assert_true (strstr (read_file (ms_test_tmp_path ("locale-summary.csv")), ",0.") != NULL
                 || strstr (read_file (ms_test_tmp_path ("locale-summary.csv")), ".") != NULL);
  ms_results_free (c_back);
  ms_results_free (back);
  ms_results_free (r);
}

static const char *header =
  "mode,elements,bytes_per_vector,rep,phase,lane,chunk,host_start_us,host_us,gpu_start_us,"
  "gpu_us,bytes,verified,status,mismatches,first_mismatch,message\n";

static void
test_tolerant (void)
{
  char err[512] = "";
  /* BOM, CRLF, quoted fields, an extra column, columns in another order. */
  const char *text =
    "\xEF\xBB\xBF# memsweep samples file\r\n# device: Some GPU\r\n"
    "extra,phase,mode,elements,rep,host_start_us,host_us,gpu_start_us,gpu_us,status,bytes\r\n"
    "x,\"h2d\",\"pinned\",1024,0,1.5,2.5,1.0,3.25,ok,8192\r\n"
    "y,kernel,pinned,1024,0,4,1,4.5,0.5,\"ok\",0\r\n"
    "z,e2e,pinned,1024,0,,9.75,,,ok,\r\n";
  ms_test_tmp_file ("tolerant.csv", text);
  MsResults *r = ms_run_read_samples (ms_test_tmp_path ("tolerant.csv"), err, sizeof err);
  g_assert_nonnull (r);
  if (!r)
    return;
  g_assert_cmpstr (r->device.name, ==, "Some GPU");
  const MsCell *c = ms_results_find (r, MS_MODE_PINNED, 10);
  g_assert_true (c);
  g_assert_true (c->n_events == 2);
  g_assert_true (c->n_reps == 1);
  g_assert_cmpfloat (fabs ((double)(c->stats.phase[MS_PHASE_H2D].median) - (double)(3.25)), <=,
                     1e-9);
  g_assert_cmpfloat (fabs ((double)(c->stats.e2e.median) - (double)(9.75)), <=, 1e-9);
  g_assert_cmpfloat (fabs ((double)(c->stats.h2d_gbps) - (double)(8192 / 3.25 * 1e-3)), <=, 1e-9);
  ms_results_free (r);
}

typedef struct {
  const char *name;
  const char *body; /* after the header */
  const char *error; /* expected, after "path:" */
} BadCase;

static const BadCase bad_cases[] = {
  { "unknown-mode", "bogus,1024,4096,0,h2d,1,0,0,1,0,1,8192,1,ok,0,0,\n", "3: unknown mode 'bogus'" },
  { "not-pow2", "pinned,1000,4000,0,h2d,1,0,0,1,0,1,8000,1,ok,0,0,\n",
    "3: elements '1000' is not a power of two from 1 to 2^28" },
  { "huge", "pinned,1073741824,0,0,h2d,1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: elements '1073741824' is not a power of two from 1 to 2^28" },
  { "negative-size", "pinned,-1024,0,0,h2d,1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: elements '-1024' is not a power of two from 1 to 2^28" },
  { "bad-phase", "pinned,1024,4096,0,teleport,1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: unknown phase 'teleport'" },
  { "bad-number", "pinned,1024,4096,0,h2d,1,0,0,abc,0,1,0,1,ok,0,0,\n",
    "3: a time field is not a number of microseconds >= 0" },
  { "negative-time", "pinned,1024,4096,0,h2d,1,0,0,-5,0,1,0,1,ok,0,0,\n",
    "3: a time field is not a number of microseconds >= 0" },
  { "comma-decimal", "pinned,1024,4096,0,h2d,1,0,0,\"1,5\",0,1,0,1,ok,0,0,\n",
    "3: a time field is not a number of microseconds >= 0" },
  { "bad-rep", "pinned,1024,4096,x,h2d,1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: rep 'x' is not a whole number from 0 to 999999" },
  { "bad-status", "pinned,1024,4096,0,h2d,1,0,0,1,0,1,0,1,great,0,0,\n",
    "3: unknown status 'great'" },
  { "half-gpu", "pinned,1024,4096,0,h2d,1,0,0,1,,1,0,1,ok,0,0,\n",
    "3: gpu_us and gpu_start_us must both be given or both be empty" },
  { "dup-e2e",
    "pinned,1024,4096,0,e2e,0,0,,5,,,0,1,ok,0,0,\npinned,1024,4096,0,e2e,0,0,,5,,,0,1,ok,0,0,\n",
    "4: duplicate end-to-end row for pinned 2^10 repetition 0" },
  { "missing-e2e", "pinned,1024,4096,0,h2d,1,0,0,1,0,1,8192,1,ok,0,0,\n",
    "3: pinned 2^10 has no end-to-end row for repetition 0 (file cut short?)" },
  { "status-clash",
    "pinned,1024,4096,0,e2e,0,0,,5,,,0,1,ok,0,0,\npinned,1024,4096,0,none,0,0,,,,,0,0,failed,0,0,x\n",
    "4: status 'failed' contradicts 'ok' given for pinned 2^10 on line 3" },
  /* memsweep ends every line: a row without its end was cut. */
  { "truncated", "pinned,1024,4096,0,h2d,1,0,0,1",
    "3: its last row is cut: the file ends inside it" },
  /* A field too many is said as such, not as the field it shifts. */
  { "field-too-many", "pinned,1024,4096,0,h2d,1,0,0,0,1,0,1,8192,1,ok,0,0,\n",
    "3: too many fields: 18 where the header has 17" },
  { "field-after-last", "pinned,1024,4096,0,h2d,1,0,0,1,0,1,8192,1,ok,0,0,,1\n",
    "3: too many fields: 18 where the header has 17" },
  { "bad-lane", "pinned,1024,4096,0,h2d,99,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: lane '99' is not a whole number from 0 to 64" },
  { "bytes-too-big", "pinned,1024,4096,0,h2d,1,0,0,1,0,1,99999999,1,ok,0,0,\n",
    "3: bytes '99999999' is not a byte count up to three vectors" },
  /* Duplicates are refused alike, phase rows too (they used to be summed). */
  { "dup-phase",
    "pinned,1024,4096,0,h2d,1,0,0,1,0,1,8192,1,ok,0,0,\npinned,1024,4096,0,h2d,1,0,0,1,0,1,8192,1,ok,0,0,\n",
    "4: duplicate h2d row for pinned 2^10 repetition 0 lane 1 chunk 0 (also on line 3)" },
  { "dup-phase-apart",
    "pinned,1024,4096,0,kernel,1,0,0,1,0,1,0,1,ok,0,0,\npinned,1024,4096,1,kernel,1,0,0,1,0,1,0,1,ok,0,0,\n"
    "pinned,1024,4096,0,kernel,1,0,0,1,0,1,0,1,ok,0,0,\npinned,1024,4096,0,e2e,0,0,,5,,,0,1,ok,0,0,\n"
    "pinned,1024,4096,1,e2e,0,0,,5,,,0,1,ok,0,0,\n",
    "3: duplicate kernel row for pinned 2^10 repetition 0 lane 1 chunk 0" },
  { "dup-none",
    "uva,1024,4096,0,none,0,0,,,,,0,0,failed,0,0,x\nuva,1024,4096,0,none,0,0,,,,,0,0,failed,0,0,x\n",
    "4: duplicate 'none' row for uva 2^10 (first on line 3)" },
  /* Only the number forms memsweep writes. */
  { "hex", "pinned,1024,4096,0,h2d,1,0,0,0x10,0,1,0,1,ok,0,0,\n",
    "3: a time field is not a number of microseconds >= 0" },
  { "hex-exponent", "pinned,1024,4096,0,h2d,1,0,0,0x1p3,0,1,0,1,ok,0,0,\n",
    "3: a time field is not a number of microseconds >= 0" },
  { "minus-zero", "pinned,1024,4096,0,h2d,1,0,-0,1,0,1,0,1,ok,0,0,\n",
    "3: a time field is not a number of microseconds >= 0" },
  { "exponent", "pinned,1024,4096,0,e2e,0,0,,1e3,,,0,1,ok,0,0,\n",
    "3: end-to-end time '1e3' is not a time in microseconds" },
  { "plus", "pinned,1024,4096,0,e2e,0,0,,+5,,,0,1,ok,0,0,\n",
    "3: end-to-end time '+5' is not a time in microseconds" },
  { "space", "pinned,1024,4096,0,e2e,0,0,,\" 5\",,,0,1,ok,0,0,\n",
    "3: end-to-end time ' 5' is not a time in microseconds" },
  { "bare-dot", "pinned,1024,4096,0,e2e,0,0,,5.,,,0,1,ok,0,0,\n",
    "3: end-to-end time '5.' is not a time in microseconds" },
  { "inf", "pinned,1024,4096,0,e2e,0,0,,inf,,,0,1,ok,0,0,\n",
    "3: end-to-end time 'inf' is not a time in microseconds" },
  { "rep-plus", "pinned,1024,4096,+1,h2d,1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: rep '+1' is not a whole number from 0 to 999999" },
  { "rep-minus-zero", "pinned,1024,4096,-0,h2d,1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: rep '-0' is not a whole number from 0 to 999999" },
  { "lane-hex", "pinned,1024,4096,0,h2d,0x1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: lane '0x1' is not a whole number from 0 to 64" },
  { "none-ok", "pinned,1024,4096,0,none,0,0,,,,,0,1,ok,0,0,\n",
    "3: a 'none' row is for a cell without samples, but its status is 'ok'" },
  /* Control characters from the file do not reach the message raw. */
  { "control", "pin\033[2Jned,1024,4096,0,h2d,1,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: unknown mode 'pin\\x1b[2Jned'" },
};

/* Each case's file is head and its body; the reader must refuse it with
 * exactly its error. */
static void
check_bad_cases (const char *head, const BadCase *cases, size_t n)
{
  char err[512], want[600], body[4096];
  for (size_t i = 0; i < n; i++) {
    snprintf (body, sizeof body, "%s%s", head, cases[i].body);
    const char *path = ms_test_tmp_file (cases[i].name, body);
    err[0] = '\0';
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    g_assert_null (r);
    snprintf (want, sizeof want, "%s:%s", path, cases[i].error);
    g_assert_cmpstr (err, ==, want);
    ms_results_free (r);
  }
}

/* A file whose cells all failed has no times: the writer leaves the time
 * columns out (empty in every row), and the reader takes it; a row that
 * needs a time is still refused without them. */
static void
test_without_times (void)
{
  char err[512];
  const char *head = "mode,elements,bytes_per_vector,rep,phase,lane,chunk,bytes,verified,status,"
                     "mismatches,first_mismatch,message,round,variant\n";
  char *text = g_strdup_printf ("%s%s", head,
                                "\"pinned\",1024,4096,0,\"none\",0,0,0,0,\"unsupported\",0,0,"
                                "\"one NUMA node\",0,\"\"\n");
  MsResults *r = ms_run_read_samples (ms_test_tmp_file ("none-samples.csv", text), err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpuint (r->n_cells, ==, 1);
  g_assert_cmpint (r->cells[0].status, ==, MS_CELL_UNSUPPORTED);
  const char *out = ms_test_tmp_path ("none-out-samples.csv");
  g_assert_true (ms_csv_write_samples (r, out, err, sizeof err));
  char *written = NULL;
  g_assert_true (g_file_get_contents (out, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, text);
  ms_results_free (r);
  g_free (written);
  g_free (text);
  text = g_strdup_printf ("%s%s", head, "pinned,1024,4096,0,e2e,0,0,0,1,ok,0,0,,0,\n");
  g_assert_null (ms_run_read_samples (ms_test_tmp_file ("e2e-samples.csv", text), err, sizeof err));
  g_assert_nonnull (strstr (err, "e2e-samples.csv:2: end-to-end time '' is not a time"));
  g_free (text);
}

static void
test_malformed (void)
{
  char err[512], head[1024];
  snprintf (head, sizeof head, "# memsweep samples file\n%s", header);
  check_bad_cases (head, bad_cases, sizeof bad_cases / sizeof bad_cases[0]);
  /* Whole-file failures. */
  ms_test_tmp_file ("empty.csv", "");
  g_assert_false (ms_run_read_samples (ms_test_tmp_path ("empty.csv"), err, sizeof err));
  g_assert_nonnull (strstr (err, "empty.csv:1: no header row"));
  ms_test_tmp_file ("nohead.csv", "a,b,c\n1,2,3\n");
  g_assert_false (ms_run_read_samples (ms_test_tmp_path ("nohead.csv"), err, sizeof err));
  g_assert_nonnull (strstr (err, "nohead.csv:1: missing column 'mode'"));
  FILE *f = fopen (ms_test_tmp_path ("nul.csv"), "wb");
  fwrite ("mode,elements\n\0\0garbage", 1, 23, f);
  fclose (f);
  g_assert_false (ms_run_read_samples (ms_test_tmp_path ("nul.csv"), err, sizeof err));
  g_assert_nonnull (strstr (err, "nul.csv:2: binary data"));
  g_assert_false (ms_run_read_samples (ms_test_tmp_path ("does-not-exist.csv"), err, sizeof err));
  g_assert_nonnull (strstr (err, "does-not-exist.csv: cannot open: No such file"));
  g_assert_false (ms_run_read_samples (ms_test_tmp_dir (), err, sizeof err));
}

/* The round, GPU state and steady-state copy columns follow the same rules:
 * strict forms, duplicates refused, file:line in every error. */
static const char *round_header =
  "mode,elements,bytes_per_vector,rep,phase,lane,chunk,host_start_us,host_us,gpu_start_us,"
  "gpu_us,bytes,verified,status,mismatches,first_mismatch,message,round,sm_mhz_start,"
  "sm_mhz_end,mem_mhz_start,mem_mhz_end,temp_c_start,temp_c_end,pstate_start,pstate_end,"
  "throttle_start,throttle_end,gpu_state,stop\n";
#define E2E_ROW(status, round, state) \
  "pinned,1024,4096,0,e2e,0,0,,5,,,0,1," status ",0,0,," round "," state "\n"
#define STATE_OK "1980,1980,2619,2619,41,-3,P0,P2,0x0,0x4,steady,"
#define COPY_ROW(phase, rep, gpu, bytes) COPY_ROW_STATUS ("ok", phase, rep, gpu, bytes)
#define COPY_ROW_STATUS(status, phase, rep, gpu, bytes) \
  "pinned,1024,4096," rep "," phase ",1,0,0,0,0," gpu "," bytes ",1," status ",0,0,,1,,,,,,,,,,,,\n"

static const BadCase bad_round_cases[] = {
  { "round-range", E2E_ROW ("ok", "256", STATE_OK), "2: round '256' is not a whole number from 0 to 255" },
  { "round-plus", E2E_ROW ("ok", "+1", STATE_OK), "2: round '+1' is not a whole number from 0 to 255" },
  { "state-space", E2E_ROW ("ok", "0", "\" 1980\",1980,,,,,,,,,,"),
    "2: GPU state field sm_mhz_start ' 1980' is malformed" },
  { "state-plus", E2E_ROW ("ok", "0", "1980,1980,2619,2619,+41,41,P0,P0,0x0,0x0,steady,"),
    "2: GPU state field temp_c_start '+41' is malformed" },
  { "state-pstate", E2E_ROW ("ok", "0", "1980,1980,2619,2619,41,41,Px,P0,0x0,0x0,steady,"),
    "2: GPU state field pstate_start 'Px' is malformed" },
  { "state-throttle", E2E_ROW ("ok", "0", "1980,1980,2619,2619,41,41,P0,P0,0x,0x0,steady,"),
    "2: GPU state field throttle_start '0x' is malformed" },
  { "state-range", E2E_ROW ("ok", "0", "1980,1980,2619,2619,41,41,P99,P0,0x0,0x0,steady,"),
    "2: a GPU state field (clocks, temperature, pstate, throttle) is malformed" },
  { "stop-unknown", E2E_ROW ("ok", "0", ",,,,,,,,,,,forever"),
    "2: stop 'forever' is not a reason memsweep writes" },
  { "copy-dup",
    E2E_ROW ("ok", "0", STATE_OK) COPY_ROW ("h2d_copy", "0", "2.5", "32768")
      COPY_ROW ("d2h_copy", "0", "2.5", "32768"),
    "4: duplicate steady-state copy row 0 for pinned 2^10" },
  { "copy-bytes", COPY_ROW ("h2d_copy", "0", "2.5", "32769"),
    "2: bytes '32769' is not a byte count up to 8 vectors" },
  { "copy-zero-time", COPY_ROW ("d2h_copy", "0", "0", "32768"),
    "2: steady-state copy time '0' is not a positive time" },
  { "copy-no-time", COPY_ROW ("d2h_copy", "0", "", "32768"),
    "2: steady-state copy time '' is not a positive time" },
  { "copy-index", COPY_ROW ("d2h_copy", "2560", "1", "32768"),
    "2: steady-state copy index 2560 is not below 2560" },
  { "cancelled-row", E2E_ROW ("cancelled", "0", STATE_OK),
    "2: e2e row for a cell whose status is 'cancelled'" },
};

static void
test_round_columns (void)
{
  char err[512], body[4096];
  check_bad_cases (round_header, bad_round_cases,
                   sizeof bad_round_cases / sizeof bad_round_cases[0]);
  /* A partial cell keeps its rows; its copies and round state come back. */
  snprintf (body, sizeof body, "%s%s%s%s", round_header, E2E_ROW ("partial", "0", STATE_OK),
            COPY_ROW_STATUS ("partial", "h2d_copy", "0", "2.5", "32768"),
            COPY_ROW_STATUS ("partial", "d2h_copy", "1", "4", "32768"));
  ms_test_tmp_file ("partial.csv", body);
  MsResults *r = ms_run_read_samples (ms_test_tmp_path ("partial.csv"), err, sizeof err);
  g_assert_nonnull (r);
  const MsCell *c = r ? ms_results_find (r, MS_MODE_PINNED, 10) : NULL;
  g_assert_true (c);
  g_assert_cmpint (c->status, ==, MS_CELL_PARTIAL);
  g_assert_true (c->n_reps == 1);
  g_assert_true (c->n_rounds == 1);
  g_assert_true (c);
  g_assert_true (c->rounds[0].start.valid);
  g_assert_true (c->rounds[0].end.temp_c == -3);
  g_assert_true (c->rounds[0].end.pstate == 2);
  g_assert_true (c->rounds[0].end.throttle == 4);
  g_assert_true (c);
  g_assert_true (c->n_copies == 2);
  g_assert_true (c->copies[0].to_device);
  g_assert_false (c->copies[1].to_device);
  g_assert_true (c->copies[1].round == 1);
  g_assert_true (c->copies[1].gpu_us == 4);
  g_assert_true (c->copies[1].bytes == 32768);
  ms_results_free (r);
}

/* A cell of reps repetitions, two chunks of h2d and a kernel each, with
 * times that vary by repetition. */
static void
make_stats_cell (MsCell *c, int reps, double scale)
{
  memset (c, 0, sizeof *c);
  c->mode = MS_MODE_PINNED;
  c->exponent = 10;
  c->elements = 1024;
  c->n_reps = reps;
  c->e2e_us = calloc (reps, sizeof (double));
  c->events = calloc ((size_t) reps * 3, sizeof (MsEvent));
  for (int r = 0; r < reps; r++) {
    double t = scale * (1 + (r * 7 % 11));
    c->e2e_us[r] = 3 * t + 1;
    for (int k = 0; k < 3; k++)
      c->events[c->n_events++] = (MsEvent) {
        .phase = k < 2 ? MS_PHASE_H2D : MS_PHASE_KERNEL, .lane = k + 1, .chunk = k % 2, .rep = r,
        .host_start_us = k * t, .host_us = t, .gpu_start_us = k * t * 0.5, .gpu_us = t * 0.9,
        .bytes = 2048,
      };
  }
}

/* Statistics computed with one scratch reused over cells of several sizes
 * equal those computed alone: nothing of one cell leaks into the next. */
static void
test_stats_scratch (void)
{
  static const int reps[] = { 40, 3, 17, 40, 1 };
  MsStatsScratch scratch = { 0 };
  for (size_t i = 0; i < sizeof reps / sizeof reps[0]; i++) {
    MsCell a, b;
    make_stats_cell (&a, reps[i], 1.0 + (double) i);
    make_stats_cell (&b, reps[i], 1.0 + (double) i);
    ms_cell_compute_stats_scratch (&a, &scratch);
    ms_cell_compute_stats (&b);
    g_assert_true (a.stats.e2e.n == reps[i]);
    g_assert_true (a.stats.phase[MS_PHASE_H2D].n == reps[i]);
    g_assert_true (memcmp (&a.stats, &b.stats, sizeof a.stats) == 0);
    ms_cell_clear (&a);
    ms_cell_clear (&b);
  }
  g_assert_true (scratch.size > 0);
  ms_stats_scratch_clear (&scratch);
}

/* A FIFO (or a device) is refused at once instead of blocking forever. */
static void
test_not_regular (void)
{
  char err[512];
  const char *fifo = ms_test_tmp_path ("fifo.csv");
  g_assert_true (mkfifo (fifo, 0600) == 0);
  alarm (10); /* a hang fails the test instead of the suite's timeout */
  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  g_assert_false (ms_run_read_samples (fifo, err, sizeof err));
  clock_gettime (CLOCK_MONOTONIC, &t1);
  alarm (0);
  g_assert_true ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9 < 1.0);
  g_assert_nonnull (strstr (err, "fifo.csv: not a regular file (a pipe)"));
  /* ... and says where a pipe is read instead. */
  g_assert_nonnull (strstr (err, "as standard input"));
  g_assert_false (ms_run_read_samples ("/dev/zero", err, sizeof err));
  g_assert_cmpstr (err, ==, "/dev/zero: not a regular file (a device)");
  unlink (fifo);
}

/* Repetition numbers reserve memory only as far as the file could hold
 * their end-to-end rows. */
static void
test_rep_claims (void)
{
  char err[512], body[8192];
  size_t n = snprintf (body, sizeof body, "%s", header);
  for (int e = 0; e <= MS_MAX_EXPONENT; e++)
    n += snprintf (body + n, sizeof body - n,
                   "managed,%d,0,999999,h2d,1,0,1.0,2.0,,,0,1,ok,0,0,\n", 1 << e);
  ms_test_tmp_file ("claims.csv", body);
  g_assert_false (ms_run_read_samples (ms_test_tmp_path ("claims.csv"), err, sizeof err));
  g_assert_nonnull (strstr (err, "claims.csv:2: repetition 999999 of managed 2^0 needs 1000000 "
                                 "end-to-end rows in all, more than a file of"));
  /* Many repetitions that the file does hold are read. */
  n = snprintf (body, sizeof body, "%s", header);
  for (int rep = 0; rep < 100; rep++)
    n += snprintf (body + n, sizeof body - n, "host,1,4,%d,e2e,0,0,,%d.5,,,0,1,ok,0,0,\n", rep,
                   rep);
  ms_test_tmp_file ("many-reps.csv", body);
  MsResults *r = ms_run_read_samples (ms_test_tmp_path ("many-reps.csv"), err, sizeof err);
  g_assert_true (r);
  g_assert_true (r->n_cells == 1);
  g_assert_true (r->cells[0].n_reps == 100);
  if (r)
    g_assert_cmpfloat (fabs ((double)(r->cells[0].e2e_us[99]) - (double)(99.5)), <=, 0);
  ms_results_free (r);
}

/* Rows of two cells taking turns: each cell's events are trimmed when the
 * other's rows start, and must grow again from one event (a heap overflow
 * the fuzzer found). */
static void
test_cells_take_turns (void)
{
  char err[512], body[16384];
  size_t n = snprintf (body, sizeof body, "%s", header);
  for (int rep = 0; rep < 40; rep++)
    for (int m = 0; m < 2; m++)
      n += snprintf (body + n, sizeof body - n, "%s,1024,4096,%d,h2d,1,0,0,%d,,,0,1,ok,0,0,\n",
                     m ? "uva" : "pinned", rep, rep);
  for (int rep = 0; rep < 40; rep++)
    for (int m = 0; m < 2; m++)
      n += snprintf (body + n, sizeof body - n, "%s,1024,4096,%d,e2e,0,0,,9,,,0,1,ok,0,0,\n",
                     m ? "uva" : "pinned", rep);
  ms_test_tmp_file ("turns.csv", body);
  MsResults *r = ms_run_read_samples (ms_test_tmp_path ("turns.csv"), err, sizeof err);
  g_assert_true (r);
  g_assert_true (r->n_cells == 2);
  for (size_t c = 0; r && c < r->n_cells; c++) {
    g_assert_true (r->cells[c].n_events == 40);
    g_assert_true (r->cells[c].n_reps == 40);
    for (size_t e = 0; e < r->cells[c].n_events; e++)
      g_assert_true (r->cells[c].events[e].host_us == (double)e);
  }
  ms_results_free (r);
}

/* What memsweep writes, memsweep reads: there is no size cap. The bulk is
 * comment lines, which cost neither parsing nor memory. */
static void
test_no_size_cap (void)
{
  char err[512];
  const char *path = ms_test_tmp_path ("big.csv");
  FILE *f = fopen (path, "wb");
  static char line[1 << 20];
  memset (line, 'x', sizeof line);
  line[0] = '#';
  line[sizeof line - 1] = '\n';
  for (int i = 0; i < 260; i++)
    fwrite (line, 1, sizeof line, f);
  fputs (header, f);
  fputs ("pinned,1024,4096,0,e2e,0,0,,5,,,0,1,ok,0,0,\n", f);
  fclose (f);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_true (r);
  g_assert_true (r->n_cells == 1);
  ms_results_free (r);
  unlink (path);
}

/* A file whose lines end in CR alone reads like its LF twin; UTF-16 is
 * named as such. */
static void
test_encodings (void)
{
  char err[512];
  const char *lf = "# memsweep samples file\n# device: CR GPU\n"
                   "mode,elements,rep,phase,host_start_us,host_us,gpu_start_us,gpu_us,status\n"
                   "pinned,1024,0,h2d,1.5,2.5,1.0,3.25,ok\npinned,1024,0,e2e,,9.75,,,ok\n";
  char cr[512];
  snprintf (cr, sizeof cr, "%s", lf);
  for (char *p = cr; *p; p++)
    if (*p == '\n')
      *p = '\r';
  ms_test_tmp_file ("lf.csv", lf);
  ms_test_tmp_file ("cr.csv", cr);
  MsResults *a = ms_run_read_samples (ms_test_tmp_path ("lf.csv"), err, sizeof err);
  MsResults *b = ms_run_read_samples (ms_test_tmp_path ("cr.csv"), err, sizeof err);
  g_assert_true (a);
  g_assert_true (b);
  if (a && b) {
    compare_results (a, b);
    g_assert_cmpstr (b->device.name, ==, "CR GPU");
  }
  ms_results_free (a);
  ms_results_free (b);
  /* A CR-only file's errors name the right line. */
  snprintf (cr, sizeof cr, "# x\rmode,elements,rep,phase,host_start_us,host_us,status\r"
                           "pinned,1024,0,h2d,1,2,ok\rpinned,1024,0,warp,1,2,ok\r");
  ms_test_tmp_file ("cr-bad.csv", cr);
  g_assert_false (ms_run_read_samples (ms_test_tmp_path ("cr-bad.csv"), err, sizeof err));
  g_assert_nonnull (strstr (err, "cr-bad.csv:4: unknown phase 'warp'"));
  static const char *utf16[] = { "\xff\xfem\0o\0d\0e\0", "\xfe\xff\0m\0o\0d\0e",
                                 "m\0o\0d\0e\0" };
  for (int i = 0; i < 3; i++) {
    FILE *f = fopen (ms_test_tmp_path ("utf16.csv"), "wb");
    fwrite (utf16[i], 1, 10 - 2 * (i == 2), f);
    fclose (f);
    g_assert_false (ms_run_read_samples (ms_test_tmp_path ("utf16.csv"), err, sizeof err));
    g_assert_nonnull (
        strstr (err, "utf16.csv:1: UTF-16 text is not supported: save the file as UTF-8"));
  }
  /* NUL bytes first, in no UTF-16 pattern, are binary data (as a NUL later
   * is), not UTF-16; in a summary too; and in the small files. */
  static const struct {
    const char *bytes;
    size_t len;
  } leading[] = { { "\0\0\0\0\0\0", 6 }, { "\0", 1 }, { "\0mode,elements\n", 15 },
                  { "\0\0mode", 6 } };
  for (guint i = 0; i < G_N_ELEMENTS (leading); i++) {
    FILE *f = fopen (ms_test_tmp_path ("lead-nul.csv"), "wb");
    fwrite (leading[i].bytes, 1, leading[i].len, f);
    fclose (f);
    g_assert_false (ms_run_read_samples (ms_test_tmp_path ("lead-nul.csv"), err, sizeof err));
    if (!strstr (err, "lead-nul.csv:1: binary data (a NUL byte): not a CSV file"))
      g_error ("case %u: %s", i, err);
  }
  FILE *f = fopen (ms_test_tmp_path ("nul-summary.csv"), "wb");
  fwrite ("# memsweep summary file\n# note: a\0b\n", 1, 37, f);
  fclose (f);
  g_assert_false (ms_run_read_samples (ms_test_tmp_path ("nul-summary.csv"), err, sizeof err));
  g_assert_cmpstr (strstr (err, "nul-summary.csv:"), ==,
                   "nul-summary.csv:2: binary data (a NUL byte): not a CSV file");
  f = fopen (ms_test_tmp_path ("nul-profile.csv"), "wb");
  fwrite ("# memsweep run-to-run profile\n\0", 1, 31, f);
  fclose (f);
  MsRunToRun rr;
  char device[128];
  g_assert_false (ms_run_to_run_read_profile (&rr, ms_test_tmp_path ("nul-profile.csv"), device,
                                              sizeof device, err, sizeof err));
  g_assert_nonnull (strstr (err, "nul-profile.csv: binary data (a NUL byte): not a memsweep file"));
}

/* The decimal parser gives strtod's value for every form it accepts. */
static void
test_decimals (void)
{
  static const char *texts[] = { "0", "0.000", "1", "12.345", "0.1", "0.3", "123456.789",
                                 "999999999999.999", "1000000000000", "4503599627370497",
                                 "9007199254740993", "0.30000000000000004441",
                                 "123.45678901234567890123", "00012.5" };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    double got = -1;
    bool ok = ms_csv_parse_decimal (texts[i], strlen (texts[i]), &got);
    double want = strtod (texts[i], NULL);
    g_assert_cmpint (ok, ==, (want <= 1e12));
    if (ok)
      g_assert_true (memcmp (&got, &want, sizeof got) == 0);
  }
  /* And on every value the writer's "%.3f" makes of random times. */
  srand (7);
  for (int i = 0; i < 100000; i++) {
    char buf[64];
    double v = (double) rand () / RAND_MAX * pow (10, rand () % 13);
    snprintf (buf, sizeof buf, "%.3f", v);
    double got = -1, want = strtod (buf, NULL);
    if (want > 1e12)
      continue;
    g_assert_true (ms_csv_parse_decimal (buf, strlen (buf), &got));
    g_assert_true (got == want);
  }
}

/* Whether name stands in text as a word of its own ("managed" is not in
 * "managed-prefetch"), and where; NULL when it does not. */
static const char *
find_mode_name (const char *text, const char *name)
{
  size_t len = strlen (name);
  for (const char *p = strstr (text, name); p; p = strstr (p + 1, name)) {
    bool starts = p == text || p[-1] == ' ';
    bool ends = p[len] == ',' || p[len] == ' ' || p[len] == ';';
    if (starts && ends)
      return p;
  }
  return NULL;
}

/* The host-inputs metadata of --host-prep once names every mode whose
 * inputs the host writes, in the half that ms_mode_inputs_written gives it
 * and in the mode list's order, from the list itself: a mode added to
 * ms-mode-list.h is named without an edit of the writer. */
static void
test_host_inputs_names_every_mode (void)
{
  MsResults *r = make_results ();
  char err[512] = "";
  r->sweep.host_prep = MS_HOST_PREP_ONCE;
  r->sweep.knobs.inputs_kept = false;
  const char *path = ms_test_tmp_path ("inputs-samples.csv");
  g_assert_true (ms_csv_write_samples (r, path, err, sizeof err));
  const char *key = "\"host-inputs\": \"";
  const char *start = strstr (read_file (ms_test_tmp_path ("inputs-meta.json")), key);
  g_assert_nonnull (start);
  char *sentence = g_strndup (start + strlen (key), strcspn (start + strlen (key), "\""));
  char *every = strstr (sentence, " before every repetition in ");
  g_assert_nonnull (every);
  g_assert_nonnull (strstr (sentence, " before the first repetition only in "));
  const char *last[MS_MODE_COUNT] = { 0 };
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    const char *at = find_mode_name (sentence, ms_mode_name ((MsMode) m));
    MsModeInputs when = ms_mode_inputs_written ((MsMode) m);
    g_test_message ("%s: %s", ms_mode_name ((MsMode) m), at ? at : "(not named)");
    if (when == MS_INPUTS_NONE) {
      g_assert_null (at);
      continue;
    }
    g_assert_nonnull (at);
    g_assert_true ((at > every) == (when == MS_INPUTS_EVERY_REP));
    g_assert_true (!last[when] || last[when] < at);
    last[when] = at;
  }
  g_free (sentence);
  ms_results_free (r);
}

static void
test_safe_writes (void)
{
  MsResults *r = make_results ();
  char err[512] = "";
  g_assert_false (ms_csv_write_samples (r, "/nonexistent-folder/x.csv", err, sizeof err));
  g_assert_nonnull (strstr (err, "/nonexistent-folder/x.csv: cannot write: No such file"));
  g_assert_false (ms_csv_write_samples (r, ms_test_tmp_dir (), err, sizeof err));
  if (access ("/dev/full", W_OK) == 0) {
    g_assert_false (ms_csv_write_samples (r, "/dev/full", err, sizeof err));
    g_assert_nonnull (strstr (err, "/dev/full: write failed: No space left on device"));
  }
  /* An existing file survives a failed write: limit the file size so the
   * write fails part-way. */
  const char *keep = ms_test_tmp_file ("keep.csv", "precious\n");
  struct rlimit old, small = { 4096, 4096 };
  getrlimit (RLIMIT_FSIZE, &old);
  signal (SIGXFSZ, SIG_IGN);
  small.rlim_max = old.rlim_max;
  setrlimit (RLIMIT_FSIZE, &small);
  bool ok = ms_csv_write_samples (r, keep, err, sizeof err);
  setrlimit (RLIMIT_FSIZE, &old);
  g_assert_false (ok);
  g_assert_nonnull (strstr (err, "write failed"));
  g_assert_cmpstr (read_file (keep), ==, "precious\n");
  char cmd[600];
  snprintf (cmd, sizeof cmd, "ls %s | grep -c 'keep.csv.' > %s/count", ms_test_tmp_dir (),
            ms_test_tmp_dir ());
  g_assert_true (system (cmd) >= 0);
  g_assert_cmpstr (read_file (ms_test_tmp_path ("count")), ==, "0\n");
  g_assert_true (ms_csv_write_summary (r, keep, err, sizeof err));
  char *text = read_file (keep);
  g_assert_nonnull (strstr (text, "mode,elements,bytes_per_vector,status,reps,e2e_median_us"));
  g_assert_nonnull (strstr (text, "\"uva\",2048,8192,\"failed\",0,,,,"));
  ms_results_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv/round-trip", test_round_trip);
  g_test_add_func ("/csv/tolerant", test_tolerant);
  g_test_add_func ("/csv/malformed", test_malformed);
  g_test_add_func ("/csv/without-times", test_without_times);
  g_test_add_func ("/csv/round-columns", test_round_columns);
  g_test_add_func ("/csv/stats-scratch", test_stats_scratch);
  g_test_add_func ("/csv/safe-writes", test_safe_writes);
  g_test_add_func ("/csv/locale", test_locale);
  g_test_add_func ("/csv/not-regular", test_not_regular);
  g_test_add_func ("/csv/rep-claims", test_rep_claims);
  g_test_add_func ("/csv/no-size-cap", test_no_size_cap);
  g_test_add_func ("/csv/cells-take-turns", test_cells_take_turns);
  g_test_add_func ("/csv/encodings", test_encodings);
  g_test_add_func ("/csv/host-inputs-names-every-mode", test_host_inputs_names_every_mode);
  g_test_add_func ("/csv/decimals", test_decimals);
  return g_test_run ();
}
