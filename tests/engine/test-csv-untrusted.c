/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv-untrusted.c: the readers against files memsweep wrote and
 * files it did not: every kind of run written and read back, metadata
 * checked once where it is read and kept when unknown, one number rule,
 * bounded sniffing, line ends, names that are not UTF-8. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "memsweep.h"
#include "ms-backend-test.h"
#include "ms-csv-keep.h"
#include "ms-csv-pair.h"
#include "ms-meta.h"
#include "ms-peer-file.h"
#include "ms-utf8.h"
#include "ms-gz-test.h"
#include "ms-tmp-test.h"
#include "ms-sweep-test.h"
#include "files/ms-csv-io.h"
#include "files/ms-run-to-run-file.h"
#include "model/ms-results.h"
#include "model/ms-run-to-run.h"
#include "lessons/ms-run-read.h"

static char err_buf[1024];

/* A run's text in the inline form (its metadata in '#' lines, as files
 * before the sidecar had it) with extra lines after its first. */
static char *
reference_with (const char *file, const char *after_first_line)
{
  char *path = g_build_filename (MS_OLD_FORMAT_DIR, file, NULL), *text;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_free (path);
  char *nl = strchr (text, '\n');
  g_assert_nonnull (nl);
  *nl = '\0';
  char *out = g_strconcat (text, "\n", after_first_line, nl + 1, NULL);
  g_free (text);
  return out;
}

/* Finding 7: a read-then-write round trip keeps every metadata line. */
static void
test_unknown_metadata_kept (void)
{
  static const char extra[] = "# node: gpu-node-17\n"
                              "# gpu-serials: 1654124007011 1654124006490\n"
                              "# gpu-pcie-links: gen5x16 gen5x16\n"
                              "# some-future-key: with: colons\n";
  char *text = reference_with ("h100-default-samples.csv", extra);
  const char *in = ms_test_tmp_file ("kept-in-samples.csv", text);
  const char *out = ms_test_tmp_path ("kept-out.csv");
  const char *sum = ms_test_tmp_path ("kept-out-summary.csv");
  char err[512];
  MsResults *r = ms_run_read_samples (in, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_true (ms_csv_write_samples (r, out, err, sizeof err));
  g_assert_true (ms_csv_write_summary (r, sum, err, sizeof err));
  /* Both in the run's sidecar, each line a member, as read. */
  static const char kept[] = "    \"node\": \"gpu-node-17\",\n"
                             "    \"gpu-serials\": \"1654124007011 1654124006490\",\n"
                             "    \"gpu-pcie-links\": \"gen5x16 gen5x16\",\n"
                             "    \"some-future-key\": \"with: colons\",\n";
  char *back;
  g_assert_true (g_file_get_contents (ms_test_tmp_path ("kept-out-meta.json"), &back, NULL, NULL));
  g_assert_nonnull (strstr (back, kept));
  g_assert_nonnull (strstr (back, "\"samples\": { \"name\": \"kept-out.csv\""));
  g_assert_nonnull (strstr (back, "\"summary\": { \"name\": \"kept-out-summary.csv\""));
  g_free (back);
  MsResults *again = ms_run_read_samples (out, err, sizeof err);
  g_assert_nonnull (again);
  g_assert_cmpstr (again->kept_metadata, ==, extra);
  ms_results_free (again);
  /* And again from the summary. */
  MsResults *s = ms_csv_read_summary (sum, err, sizeof err);
  g_assert_nonnull (s);
  g_assert_cmpstr (s->kept_metadata, ==, extra);
  ms_results_free (s);
  ms_results_free (r);
  g_free (text);
}

/* Finding 8: sizes named by metadata are checked where they are read. */
static void
test_metadata_ranges (void)
{
  char *text = reference_with ("h100-lesson-reuse-samples.csv",
                               "# step: 0\n# max-exp: 2000000000\n# min-exp: -3\n"
                               "# streams: 0x10\n# reps: +5\n# ci-target-pct: nan\n"
                               "# cell-budget-ms: 1e300\n# rounds: 999\n");
  const char *in = ms_test_tmp_file ("ranges-samples.csv", text);
  char err[512];
  MsResults *r = ms_run_read_samples (in, err, sizeof err);
  g_assert_nonnull (r);
  /* Every bad value was ignored; the file's own (later) lines stand. */
  g_assert_cmpint (r->sweep.step, >=, 1);
  g_assert_cmpint (r->sweep.step, <=, MS_MAX_EXPONENT);
  g_assert_cmpint (r->sweep.max_exp, <=, MS_MAX_EXPONENT);
  g_assert_cmpint (r->sweep.min_exp, >=, MS_MIN_EXPONENT);
  g_assert_cmpint (r->sweep.streams, <=, MS_MAX_STREAMS);
  g_assert_true (isfinite (r->sweep.ci_target_pct));
  g_assert_cmpfloat (r->sweep.cell_budget_ms, <=, MS_MAX_CELL_BUDGET_MS);
  g_assert_cmpint (r->sweep.rounds, <=, MS_MAX_ROUNDS);
  g_assert_cmpint (r->metadata_refused, ==, 8);
  ms_results_free (r);
  g_free (text);

  /* Forms of their own with negative numbers, where nothing else is said. */
  in = ms_test_tmp_file ("forms-samples.csv",
                         "# compute-capability: -9.-1\n# pcie-link: gen-5 x-16 (max gen5 x16)\n"
                         "# gpu-warmup: -5 ms to an SM clock of -1 MHz\n"
                         "mode,elements,rep,phase,host_start_us,host_us,status\n"
                         "host,1024,0,e2e,,1.5,ok\n");
  r = ms_run_read_samples (in, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpint (r->device.cc_major, >=, 0);
  g_assert_cmpint (r->device.cc_minor, >=, 0);
  g_assert_cmpint (r->device.pcie_gen, >=, 0);
  g_assert_cmpint (r->device.pcie_width, >=, 0);
  g_assert_cmpfloat (r->device.warmup_ms, >=, 0);
  ms_results_free (r);

  /* Where the file names nothing else: the bad values alone. */
  int v = 7;
  g_assert_false (ms_meta_int (MS_META_STEP, "0", &v));
  g_assert_false (ms_meta_int (MS_META_MAX_EXP, "2000000000", &v));
  g_assert_false (ms_meta_int (MS_META_MAX_EXP, "99999999999999999999", &v));
  g_assert_false (ms_meta_int (MS_META_STREAMS, " 4", &v));
  g_assert_false (ms_meta_int (MS_META_STREAMS, "0x10", &v));
  g_assert_cmpint (v, ==, 7);
  g_assert_true (ms_meta_int (MS_META_STEP, "2", &v));
  g_assert_cmpint (v, ==, 2);
  g_assert_true (ms_meta_int (MS_META_DEVICE_INDEX, "-1", &v));
}

/* Every key the writers print is in the table, once. */
static void
test_meta_table (void)
{
  for (int i = 0; i < MS_META_N_KEYS; i++) {
    const MsMetaKey *k = ms_meta_table ((MsMetaId) i);
    g_assert_nonnull (k->key);
    g_assert_cmpint (ms_meta_lookup (k->key), ==, i);
  }
  g_assert_cmpint (ms_meta_lookup ("run-to-run-sd-pinned"), ==, MS_META_RUN_TO_RUN_SD);
  g_assert_cmpint (ms_meta_lookup ("node"), ==, MS_META_N_KEYS);
  /* A file written now has no line the table does not know. */
  char err[512], *path = g_build_filename (MS_REFERENCE_DIR, "h200-lesson-reuse-samples.csv.gz",
                                           NULL);
  MsResults *r = ms_run_read_samples (path, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpstr (r->kept_metadata, ==, "");
  ms_results_free (r);
  g_free (path);
}

/* Finding 9: the summary beside a samples file is sniffed, never read
 * whole: a 4 GiB first line without an end took 24 s. */
static void
test_pair_sniff_bounded (void)
{
  const char *samples = ms_test_tmp_path ("big-samples.csv");
  const char *summary = ms_test_tmp_path ("big-summary.csv");
  char *ref = g_build_filename (MS_REFERENCE_DIR, "h100-default-samples.csv.gz", NULL), *text;
  gsize len;
  text = ms_test_read_plain (ref, &len);
  g_assert_true (g_file_set_contents (samples, text, (gssize) len, NULL));
  int fd = open (summary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "# run-id: ", 10), ==, 10);
  /* Sparse: no disk, and no line end in 4 GiB. */
  g_assert_cmpint (ftruncate (fd, (off_t) 4 << 30), ==, 0);
  close (fd);
  char err[1024], value[64];
  gint64 t0 = g_get_monotonic_time ();
  ms_csv_pair_check (samples, err, sizeof err);
  ms_csv_meta_value (summary, "run-id", value, sizeof value);
  double s = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_cmpfloat (s, <, 2.0);
  g_unlink (summary);
  g_free (text);
  g_free (ref);
}

/* Cells of a and b the same by identity and median. */
static void
assert_same_cells (const MsResults *a, const MsResults *b)
{
  g_assert_cmpuint (a->n_cells, ==, b->n_cells);
  for (size_t i = 0; i < a->n_cells; i++) {
    const MsCell *x = &a->cells[i], *y = &b->cells[i];
    g_assert_cmpint (x->mode, ==, y->mode);
    g_assert_cmpint (x->exponent, ==, y->exponent);
    g_assert_cmpint (x->status, ==, y->status);
    g_assert_cmpstr (x->variant, ==, y->variant);
    g_assert_cmpfloat_with_epsilon (x->stats.e2e.median, y->stats.e2e.median,
                                    1e-3 + 1e-6 * x->stats.e2e.median);
  }
}

/* Writes r as samples and summary, reads both back and checks them; then
 * the same from the run read from the summary (findings 11 and 12). */
static void
round_trip (const MsResults *r, const char *name)
{
  const char *samples = ms_test_tmp_path ("rt-samples.csv");
  const char *summary = ms_test_tmp_path ("rt-summary.csv");
  char err[1024];
  g_test_message ("%s", name);
  g_assert_true (ms_csv_write_pair (r, samples, summary, err, sizeof err));
  MsResults *a = ms_run_read_samples (samples, err, sizeof err);
  if (!a)
    g_error ("%s: samples did not read back: %s", name, err);
  MsResults *b = ms_csv_read_summary (summary, err, sizeof err);
  if (!b)
    g_error ("%s: summary did not read back: %s", name, err);
  assert_same_cells (r, a);
  assert_same_cells (r, b);
  /* A run opened from a summary: its summary again, the same; samples are
   * refused with a reason and nothing is written. */
  const char *again = ms_test_tmp_path ("rt-again-summary.csv");
  const char *none = ms_test_tmp_path ("rt-none-samples.csv");
  g_assert_true (ms_csv_write_summary (b, again, err, sizeof err));
  MsResults *c = ms_csv_read_summary (again, err, sizeof err);
  if (!c)
    g_error ("%s: summary of a summary did not read back: %s", name, err);
  assert_same_cells (b, c);
  g_assert_false (ms_csv_write_samples (b, none, err, sizeof err));
  g_assert_nonnull (strstr (err, "summary"));
  g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));
  ms_results_free (a);
  ms_results_free (b);
  ms_results_free (c);
}

static MsResults *
run_test_sweep (int rounds, bool adaptive)
{
  MsSweep s;
  MsTestBackendConfig cfg;
  ms_test_sweep_init (&s, NULL, 10, 12, 4);
  s.reps_rule = adaptive ? MS_REPS_ADAPTIVE : MS_REPS_FIXED;
  s.rounds = rounds;
  ms_test_backend_config_init (&cfg);
  cfg.unsupported[MS_MODE_MANAGED] = true;
  cfg.copy_bursts = true;
  return ms_test_sweep_run (&s, &cfg);
}

/* The property: every bundled reference run (sweeps and every lesson) and
 * every kind of run the app holds (a sweep, several rounds, one with a
 * failed mode, one read from a summary) writes and reads back. */
static void
test_every_kind_round_trips (void)
{
  DIR *dir = opendir (MS_REFERENCE_DIR);
  g_assert_nonnull (dir);
  struct dirent *e;
  int n = 0;
  while ((e = readdir (dir))) {
    if (!g_str_has_suffix (e->d_name, "-samples.csv.gz"))
      continue;
    char err[512], *path = g_build_filename (MS_REFERENCE_DIR, e->d_name, NULL);
    MsResults *r = ms_run_read_samples (path, err, sizeof err);
    if (!r)
      g_error ("%s", err);
    round_trip (r, e->d_name);
    ms_results_free (r);
    g_free (path);
    n++;
  }
  closedir (dir);
  g_assert_cmpint (n, >=, 15);
  MsResults *r = run_test_sweep (1, false);
  round_trip (r, "test sweep");
  ms_results_free (r);
  r = run_test_sweep (3, true);
  round_trip (r, "three rounds, adaptive");
  ms_results_free (r);
}

static MsResults *
read_summary_text (const char *name, const char *text, char *err, size_t errlen)
{
  const char *path = ms_test_tmp_file (name, text);
  MsResults *r = ms_csv_read_summary (path, err, errlen);
  return r;
}

/* A summary with one data row; value goes in e2e_median_us. */
static char *
summary_with (const char *value, const char *eol)
{
  return g_strdup_printf ("# memsweep summary file%s# run-id: 1%s"
                          "mode,elements,status,reps,e2e_median_us,variant%s"
                          "pinned,1024,ok,5,%s,%s",
                          eol, eol, eol, value, eol);
}

/* Finding 18: one number rule for both readers. */
static void
test_summary_numbers (void)
{
  static const char *bad[] = { "-5.00", "0x10", "1e300", "inf", "nan", "5.", "+5", "1_5" };
  char err[512];
  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++) {
    char *text = summary_with (bad[i], "\n");
    MsResults *r = read_summary_text ("numbers-summary.csv", text, err, sizeof err);
    if (r)
      g_error ("'%s' was read as %g", bad[i], r->cells[0].stats.e2e.median);
    g_assert_nonnull (strstr (err, "not a number"));
    g_free (text);
  }
  char *text = summary_with ("12.500", "\n");
  MsResults *r = read_summary_text ("numbers-summary.csv", text, err, sizeof err);
  g_assert_nonnull (r);
  g_assert_cmpfloat (r->cells[0].stats.e2e.median, ==, 12.5);
  ms_results_free (r);
  g_free (text);
}

/* Finding 23: CR-only line ends, as the samples reader reads them; and the
 * variant column (finding 11). */
static void
test_summary_line_ends_and_variants (void)
{
  static const char *eols[] = { "\n", "\r\n", "\r" };
  char err[512];
  for (size_t i = 0; i < G_N_ELEMENTS (eols); i++) {
    char *one = summary_with ("3.0", eols[i]);
    char *text = g_strdup_printf ("%spinned,1024,ok,5,4.0,R=2%s", one, eols[i]);
    MsResults *r = read_summary_text ("eol-summary.csv", text, err, sizeof err);
    if (!r)
      g_error ("line end %zu: %s", i, err);
    g_assert_cmpuint (r->n_cells, ==, 2);
    g_assert_cmpstr (r->cells[1].variant, ==, "R=2");
    ms_results_free (r);
    g_free (text);
    g_free (one);
  }
  /* The same variant twice is still a second row. */
  char *one = summary_with ("3.0", "\n");
  char *text = g_strconcat (one, "pinned,1024,ok,5,4.0,\n", NULL);
  g_assert_null (read_summary_text ("dup-summary.csv", text, err, sizeof err));
  g_assert_nonnull (strstr (err, "second row"));
  g_free (text);
  g_free (one);
}

/* The reference peer file in its form with metadata lines (still read),
 * one line replaced: the sidecar's values pass the same checks. */
static MsPeerFile *
read_peer_with (const char *from, const char *to, char *err, size_t errlen)
{
  char *path = g_build_filename (MS_OLD_FORMAT_DIR, "h200x2-peer.csv", NULL), *text;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  char *at = strstr (text, from);
  g_assert_nonnull (at);
  *at = '\0';
  char *changed = g_strconcat (text, to, at + strlen (from), NULL);
  const char *tmp = ms_test_tmp_file ("changed-peer.csv", changed);
  MsPeerFile *f = ms_peer_file_read (tmp, err, errlen);
  g_free (changed);
  g_free (text);
  g_free (path);
  return f;
}

/* Finding 20 and its kin: names that are not UTF-8 are refused where they
 * are read, as are negative PCIe links and rates the writer cannot keep. */
static void
test_peer_file_checks (void)
{
  char err[512];
  MsPeerFile *f = read_peer_with ("gpu-0-name: NVIDIA H200", "gpu-0-name: NVIDIA \xC3", err,
                                  sizeof err);
  g_assert_null (f);
  g_assert_nonnull (strstr (err, "UTF-8"));
  g_assert_nonnull (strstr (err, ":11:"));
  g_assert_null (read_peer_with ("host: vm", "host: \xff\xfe", err, sizeof err));
  g_assert_null (read_peer_with ("gpu-1-pcie: gen5 x16", "gpu-1-pcie: gen-5 x16", err, sizeof err));
  g_assert_nonnull (strstr (err, "PCIe"));
  g_assert_null (read_peer_with ("gpu-1-pcie: gen5 x16", "gpu-1-pcie: gen5 x-16", err, sizeof err));
  g_assert_null (read_peer_with ("bytes: 268435456", "bites: 268435456", err, sizeof err));
  g_assert_null (read_peer_with ("393.351", "0.0001", err, sizeof err));
  g_assert_null (read_peer_with ("393.351", "0x10", err, sizeof err));
  g_assert_null (read_peer_with ("393.351", "1e3", err, sizeof err));
  /* Finding 18's rule in the small files: digits, no sign, space or hex. */
  g_assert_null (read_peer_with ("devices: 2", "devices: +2", err, sizeof err));
  g_assert_null (read_peer_with ("devices: 2", "devices:  2", err, sizeof err));
  g_assert_null (read_peer_with ("reps: 11", "reps: 0xb", err, sizeof err));
  g_assert_null (read_peer_with ("gpu-1-index: 1", "gpu-1-index: 1e0", err, sizeof err));
  /* Valid UTF-8 passes. */
  f = read_peer_with ("gpu-0-name: NVIDIA H200", "gpu-0-name: NVIDIA H200 \xC3\xA9\xE2\x82\xAC",
                      err, sizeof err);
  g_assert_nonnull (f);
  free (f);
}

/* The run-to-run profile's spreads: the same number rule. */
static void
test_profile_numbers (void)
{
  static const char *bad[] = { "10=0x0.1", "10=-0.1", "10=1e-2", "+10=0.1", "10=0.1 x" };
  char err[512], device[256];
  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++) {
    char *text = g_strdup_printf ("# memsweep run-to-run profile\n# device: X\n"
                                  "# run-to-run: 3 runs, 2026-11-22T14:36:16Z\n"
                                  "# run-to-run-sd-pinned: %s 11=0.0200\n"
                                  "# run-to-run-sd-pageable: 11=0.0300\n", bad[i]);
    const char *path = ms_test_tmp_file ("profile.csv", text);
    MsRunToRun rr;
    g_assert_true (ms_run_to_run_read_profile (&rr, path, device, sizeof device, err, sizeof err));
    /* The damaged line is dropped whole; the other mode's is kept. */
    g_assert_cmpfloat (rr.sd[MS_MODE_PINNED][11], <, 0);
    g_assert_cmpfloat (rr.sd[MS_MODE_PAGEABLE][11], ==, 0.03);
    ms_run_to_run_clear (&rr);
    g_free (text);
    /* With no other line the profile holds no spread: refused, not a
     * profile that widens nothing. */
    text = g_strdup_printf ("# memsweep run-to-run profile\n# device: X\n"
                            "# run-to-run: 3 runs, 2026-11-22T14:36:16Z\n"
                            "# run-to-run-sd-pinned: %s 11=0.0200\n", bad[i]);
    path = ms_test_tmp_file ("profile.csv", text);
    g_assert_false (ms_run_to_run_read_profile (&rr, path, device, sizeof device, err, sizeof err));
    g_assert_nonnull (strstr (err, "no rows"));
    ms_run_to_run_clear (&rr);
    g_free (text);
  }
}

/* Text cut to a buffer keeps whole characters (finding 22's root). */
static void
test_utf8_cuts (void)
{
  char buf[6];
  ms_utf8_copy (buf, sizeof buf, "ab\xE2\x82\xAC\xE2\x82\xAC");
  g_assert_cmpstr (buf, ==, "ab\xE2\x82\xAC");
  ms_utf8_copy (buf, sizeof buf, "abcd\xC3\xA9");
  g_assert_cmpstr (buf, ==, "abcd");
  ms_utf8_copy (buf, sizeof buf, "abc\xC3\xA9");
  g_assert_cmpstr (buf, ==, "abc\xC3\xA9");
  g_assert_true (ms_utf8_valid ("\xF0\x9F\x98\x80", 4, NULL));
  size_t bad;
  g_assert_false (ms_utf8_valid ("a\xED\xA0\x80", 4, &bad)); /* a surrogate */
  g_assert_cmpuint (bad, ==, 1);
  g_assert_false (ms_utf8_valid ("\xC0\xAF", 2, NULL)); /* overlong */
  g_assert_false (ms_utf8_valid ("\xF4\x90\x80\x80", 4, NULL)); /* past U+10FFFF */

  /* A long label and note read from a samples file are cut whole. */
  GString *label = g_string_new ("# label: ");
  GString *note = g_string_new ("# note: ");
  for (int i = 0; i < 300; i++) {
    g_string_append (label, "\xE2\x82\xAC");
    g_string_append (note, "\xC3\xA9");
  }
  g_string_append_c (label, '\n');
  g_string_append_c (note, '\n');
  char *lines = g_strconcat (label->str, note->str, NULL);
  char *text = reference_with ("h100-default-samples.csv", lines);
  const char *in = ms_test_tmp_file ("long-samples.csv", text);
  MsResults *r = ms_run_read_samples (in, err_buf, sizeof err_buf);
  g_assert_nonnull (r);
  g_assert_true (ms_utf8_valid (r->label, strlen (r->label), NULL));
  g_assert_true (ms_utf8_valid (r->note, strlen (r->note), NULL));
  g_assert_cmpuint (strlen (r->label), >, 100);
  ms_results_free (r);
  g_free (text);
  g_free (lines);
  g_string_free (label, TRUE);
  g_string_free (note, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv/metadata/unknown-kept", test_unknown_metadata_kept);
  g_test_add_func ("/csv/metadata/ranges", test_metadata_ranges);
  g_test_add_func ("/csv/metadata/table", test_meta_table);
  g_test_add_func ("/csv/pair/sniff-bounded", test_pair_sniff_bounded);
  g_test_add_func ("/csv/round-trip/every-kind", test_every_kind_round_trips);
  g_test_add_func ("/csv/summary/numbers", test_summary_numbers);
  g_test_add_func ("/csv/summary/line-ends-variants", test_summary_line_ends_and_variants);
  g_test_add_func ("/csv/peer/checks", test_peer_file_checks);
  g_test_add_func ("/csv/utf8/cuts", test_utf8_cuts);
  g_test_add_func ("/csv/profile/numbers", test_profile_numbers);
  return g_test_run ();
}
