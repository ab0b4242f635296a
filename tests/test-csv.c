/* test-csv.c: samples and summary files: round trip, locale independence,
 * tolerant reading, malformed input with file:line messages, safe writes. */
#define _GNU_SOURCE
#include <locale.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-test.h"

static char tmpdir[256];

static const char *
tmp_path (const char *name)
{
  static char buf[4][512];
  static int i;
  i = (i + 1) % 4;
  snprintf (buf[i], sizeof buf[i], "%s/%s", tmpdir, name);
  return buf[i];
}

static void
write_file (const char *path, const char *content)
{
  FILE *f = fopen (path, "wb");
  fputs (content, f);
  fclose (f);
}

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
  ms_sweep_init_default (&s);
  s.min_exp = 10;
  s.max_exp = 13;
  s.reps = 4;
  s.reps_rule = MS_REPS_FIXED;
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
  return r;
}

static void
compare_results (const MsResults *a, const MsResults *b)
{
  MS_CHECK (a->n_cells == b->n_cells, "cells %zu vs %zu", a->n_cells, b->n_cells);
  MS_CHECK_STR (a->device.name, b->device.name);
  MS_CHECK (a->sweep.min_exp == b->sweep.min_exp && a->sweep.reps == b->sweep.reps &&
              a->sweep.streams == b->sweep.streams && a->device.pcie_gen == b->device.pcie_gen,
            "metadata");
  for (size_t i = 0; i < a->n_cells && i < b->n_cells; i++) {
    const MsCell *x = &a->cells[i];
    const MsCell *y = ms_results_find (b, x->mode, x->exponent);
    MS_CHECK (y != NULL, "cell %s 2^%d missing", ms_mode_name (x->mode), x->exponent);
    if (!y)
      continue;
    MS_CHECK (x->status == y->status && x->n_reps == y->n_reps && x->n_events == y->n_events,
              "%s 2^%d status/reps/events", ms_mode_name (x->mode), x->exponent);
    MS_CHECK_STR (x->message, y->message);
    for (size_t e = 0; e < x->n_events && e < y->n_events; e++) {
      const MsEvent *p = &x->events[e], *q = &y->events[e];
      MS_CHECK (p->phase == q->phase && p->lane == q->lane && p->rep == q->rep &&
                  p->bytes == q->bytes && fabs (p->host_us - q->host_us) < 1e-3 &&
                  fabs (p->gpu_us - q->gpu_us) < 1e-3,
                "event %zu of %s", e, ms_mode_name (x->mode));
    }
    MS_CHECK (fabs (x->stats.e2e.median - y->stats.e2e.median) < 1e-3, "e2e median");
    MS_CHECK (fabs (x->stats.h2d_gbps - y->stats.h2d_gbps) < 1e-3 * (1 + x->stats.h2d_gbps),
              "h2d GB/s");
  }
}

static void
test_round_trip (void)
{
  MsResults *r = make_results ();
  char err[512] = "";
  const char *path = tmp_path ("rt-samples.csv");
  MS_CHECK (ms_csv_write_samples (r, path, err, sizeof err), "%s", err);
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (back != NULL, "%s", err);
  if (back) {
    compare_results (r, back);
    /* And again: what was read writes the same file. */
    const char *path2 = tmp_path ("rt2-samples.csv");
    snprintf (back->label, sizeof back->label, "%s", r->label);
    MS_CHECK (ms_csv_write_samples (back, path2, err, sizeof err), "%s", err);
    char *first = strdup (read_file (path));
    MS_CHECK (strcmp (first, read_file (path2)) == 0, "second write differs: diff %s %s", path,
              path2);
    free (first);
  }
  char *text = read_file (path);
  MS_CHECK (strstr (text, "# device: =Test \"GPU\", rev 2\n") != NULL, "metadata line");
  MS_CHECK (strstr (text, "\"'injected fault") == NULL, "plain message not neutralised");
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
  MS_CHECK_STR (probe, "3,5"); /* the locale really uses a comma */
  MsResults *r = make_results ();
  char err[512] = "";
  const char *path = tmp_path ("locale-samples.csv");
  MS_CHECK (ms_csv_write_samples (r, path, err, sizeof err), "%s", err);
  MS_CHECK (ms_csv_write_summary (r, tmp_path ("locale-summary.csv"), err, sizeof err), "%s", err);
  MsResults *back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (back != NULL, "%s", err);
  if (back)
    compare_results (r, back);
  setlocale (LC_ALL, "C");
  MsResults *c_back = ms_csv_read_samples (path, err, sizeof err);
  MS_CHECK (c_back != NULL, "read in C: %s", err);
  MS_CHECK (strstr (read_file (tmp_path ("locale-summary.csv")), ",0.") != NULL ||
              strstr (read_file (tmp_path ("locale-summary.csv")), ".") != NULL,
            "dot decimals");
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
  write_file (tmp_path ("tolerant.csv"), text);
  MsResults *r = ms_csv_read_samples (tmp_path ("tolerant.csv"), err, sizeof err);
  MS_CHECK (r != NULL, "%s", err);
  if (!r)
    return;
  MS_CHECK_STR (r->device.name, "Some GPU");
  const MsCell *c = ms_results_find (r, MS_MODE_PINNED, 10);
  MS_CHECK (c && c->n_events == 2 && c->n_reps == 1, "events");
  MS_CHECK_NEAR (c->stats.phase[MS_PHASE_H2D].median, 3.25, 1e-9);
  MS_CHECK_NEAR (c->stats.e2e.median, 9.75, 1e-9);
  MS_CHECK_NEAR (c->stats.h2d_gbps, 8192 / 3.25 * 1e-3, 1e-9);
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
  { "truncated", "pinned,1024,4096,0,h2d,1,0,0,1", "3: unknown status ''" },
  { "bad-lane", "pinned,1024,4096,0,h2d,99,0,0,1,0,1,0,1,ok,0,0,\n",
    "3: lane '99' is not a whole number from 0 to 64" },
  { "bytes-too-big", "pinned,1024,4096,0,h2d,1,0,0,1,0,1,99999999,1,ok,0,0,\n",
    "3: bytes '99999999' is not a byte count up to three vectors" },
};

static void
test_malformed (void)
{
  char err[512], want[600], body[4096];
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    const char *path = tmp_path (bad_cases[i].name);
    snprintf (body, sizeof body, "# memsweep samples file\n%s%s", header, bad_cases[i].body);
    write_file (path, body);
    err[0] = '\0';
    MsResults *r = ms_csv_read_samples (path, err, sizeof err);
    MS_CHECK (r == NULL, "%s accepted", bad_cases[i].name);
    snprintf (want, sizeof want, "%s:%s", path, bad_cases[i].error);
    MS_CHECK (strcmp (err, want) == 0, "%s: got '%s'", bad_cases[i].name, err);
    ms_results_free (r);
  }
  /* Whole-file failures. */
  write_file (tmp_path ("empty.csv"), "");
  MS_CHECK (!ms_csv_read_samples (tmp_path ("empty.csv"), err, sizeof err), "empty");
  MS_CHECK (strstr (err, "empty.csv:1: no header row") != NULL, "%s", err);
  write_file (tmp_path ("nohead.csv"), "a,b,c\n1,2,3\n");
  MS_CHECK (!ms_csv_read_samples (tmp_path ("nohead.csv"), err, sizeof err), "no header");
  MS_CHECK (strstr (err, "nohead.csv:1: missing column 'mode'") != NULL, "%s", err);
  FILE *f = fopen (tmp_path ("nul.csv"), "wb");
  fwrite ("mode,elements\n\0\0garbage", 1, 23, f);
  fclose (f);
  MS_CHECK (!ms_csv_read_samples (tmp_path ("nul.csv"), err, sizeof err), "NUL");
  MS_CHECK (strstr (err, "nul.csv:2: binary data") != NULL, "%s", err);
  MS_CHECK (!ms_csv_read_samples (tmp_path ("does-not-exist.csv"), err, sizeof err), "missing");
  MS_CHECK (strstr (err, "does-not-exist.csv: cannot open: No such file") != NULL, "%s", err);
  MS_CHECK (!ms_csv_read_samples (tmpdir, err, sizeof err), "a folder");
}

static void
test_safe_writes (void)
{
  MsResults *r = make_results ();
  char err[512] = "";
  MS_CHECK (!ms_csv_write_samples (r, "/nonexistent-folder/x.csv", err, sizeof err), "no dir");
  MS_CHECK (strstr (err, "/nonexistent-folder/x.csv: cannot write: No such file") != NULL, "%s",
            err);
  MS_CHECK (!ms_csv_write_samples (r, tmpdir, err, sizeof err), "folder");
  if (access ("/dev/full", W_OK) == 0) {
    MS_CHECK (!ms_csv_write_samples (r, "/dev/full", err, sizeof err), "/dev/full");
    MS_CHECK (strstr (err, "/dev/full: write failed: No space left on device") != NULL, "%s",
              err);
  }
  /* An existing file survives a failed write: limit the file size so the
   * write fails part-way. */
  const char *keep = tmp_path ("keep.csv");
  write_file (keep, "precious\n");
  struct rlimit old, small = { 4096, 4096 };
  getrlimit (RLIMIT_FSIZE, &old);
  signal (SIGXFSZ, SIG_IGN);
  small.rlim_max = old.rlim_max;
  setrlimit (RLIMIT_FSIZE, &small);
  bool ok = ms_csv_write_samples (r, keep, err, sizeof err);
  setrlimit (RLIMIT_FSIZE, &old);
  MS_CHECK (!ok, "write past the size limit succeeded");
  MS_CHECK (strstr (err, "write failed") != NULL, "%s", err);
  MS_CHECK_STR (read_file (keep), "precious\n");
  char cmd[600];
  snprintf (cmd, sizeof cmd, "ls %s | grep -c 'keep.csv.' > %s/count", tmpdir, tmpdir);
  MS_CHECK (system (cmd) >= 0, "ls");
  MS_CHECK_STR (read_file (tmp_path ("count")), "0\n");
  MS_CHECK (ms_csv_write_summary (r, keep, err, sizeof err), "%s", err);
  char *text = read_file (keep);
  MS_CHECK (strstr (text, "mode,elements,bytes_per_vector,status,reps,e2e_median_us") != NULL,
            "summary header");
  MS_CHECK (strstr (text, "\"uva\",2048,8192,\"failed\",0,,,,") != NULL, "failed row");
  ms_results_free (r);
}

int
main (void)
{
  snprintf (tmpdir, sizeof tmpdir, "/tmp/memsweep-test-csv-XXXXXX");
  if (!mkdtemp (tmpdir))
    return 99;
  MS_RUN (test_round_trip);
  MS_RUN (test_tolerant);
  MS_RUN (test_malformed);
  MS_RUN (test_safe_writes);
  MS_RUN (test_locale);
  char cmd[300];
  snprintf (cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (ms_test_failures)
    return ms_test_finish ();
  if (system (cmd) != 0)
    fprintf (stderr, "could not remove %s\n", tmpdir);
  return ms_test_finish ();
}
