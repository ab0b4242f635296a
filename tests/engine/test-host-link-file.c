/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-host-link-file.c: the host link file: every rate and device fact
 * comes back as written, the table plain and the metadata in its sidecar,
 * gzip bytes under a .gz name; without a sidecar the rows still read;
 * malformed files are refused with their line. The fixture
 * (tests/data/host-link/h200x4-host-link.csv) is the 4x H200 run of
 * 2026-11-27 converted from the table memsweep host-link printed
 * (docs/measurements/2026-11-27-h200x4-host-link-reference/host-link/
 * memsweep.txt) through this writer: checked here to be what the writer
 * makes of that log (MS_HOST_LINK_FIXTURE_OUT=DIR writes it there). */
#define _GNU_SOURCE
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ms-file-kinds.h"
#include "ms-host-link-file.h"
#include "ms-meta-sidecar.h"
#include "ms-tmp-test.h"

#define FIXTURE MS_TESTS_DATA_DIR "/host-link/h200x4-host-link.csv"
#define LOG_NAME "docs/measurements/2026-11-27-h200x4-host-link-reference/host-link/memsweep.txt"
#define LOG MS_TESTS_DATA_DIR "/../../" LOG_NAME

static char *
read_text (const char *path)
{
  gchar *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* One line of the log: a size and direction's total, or a GPU's rates. */
static void
take_log_line (MsHostLinkFile *f, const char *line, int *s, int *d)
{
  MsHostLinkResults *r = &f->link;
  int e, gpu;
  char dir[8];
  double t, a;
  if (sscanf (line, "2^%d floats (%*d MiB) %7s", &e, dir) == 2) {
    for (*d = 0; strcmp (ms_host_link_direction_keys[*d], dir) != 0; (*d)++)
      g_assert_cmpint (*d, <, MS_HOST_LINK_COUNT - 1);
    if (r->n_sizes == 0 || r->exps[r->n_sizes - 1] != e)
      r->exps[r->n_sizes++] = e;
    *s = r->n_sizes - 1;
  } else if (sscanf (line, " gpu %d %lf GB/s at once (%*f%% of the total), alone %lf", &gpu, &t,
                     &a) == 3) {
    int i = 0;
    while (i < r->n_devices && r->devices[i] != gpu)
      i++;
    if (i == r->n_devices)
      r->devices[r->n_devices++] = gpu;
    r->together[*d][*s][i] = t;
    r->alone[*d][*s][i] = a;
  }
}

/* The 4x H200 run of 2026-11-27 from the table memsweep host-link printed
 * (one decimal), labelled as converted from it. */
static MsHostLinkFile *
file_from_log (void)
{
  MsHostLinkFile *f = g_new0 (MsHostLinkFile, 1);
  g_autofree char *text = read_text (LOG);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  int s = 0, d = 0;
  for (char **l = lines; *l; l++)
    take_log_line (f, *l, &s, &d);
  g_assert_cmpint (f->link.n_devices, ==, 4);
  g_assert_cmpint (f->link.n_sizes, ==, 7);
  for (int i = 0; i < f->link.n_devices; i++) {
    f->device[i].index = f->link.devices[i];
    snprintf (f->device[i].name, sizeof f->device[i].name, "NVIDIA H200");
  }
  f->reps = 7; /* "median of 7 samples a cell" */
  snprintf (f->date, sizeof f->date, "2026-11-27T01:40:10Z");
  snprintf (f->host, sizeof f->host, "a lent 4x H200 host");
  snprintf (f->version, sizeof f->version, "unknown");
  snprintf (f->note, sizeof f->note,
            "converted from %s (memsweep host-link's printed table, one decimal), not measured "
            "by this writer", LOG_NAME);
  return f;
}

static void
compare (const MsHostLinkFile *a, const MsHostLinkFile *b, gboolean meta)
{
  const MsHostLinkResults *x = &a->link, *y = &b->link;
  g_assert_cmpint (y->n_devices, ==, x->n_devices);
  g_assert_cmpint (y->n_sizes, ==, x->n_sizes);
  for (int s = 0; s < x->n_sizes; s++) {
    g_assert_cmpint (y->exps[s], ==, x->exps[s]);
    for (int d = 0; d < MS_HOST_LINK_COUNT; d++)
      for (int i = 0; i < x->n_devices; i++) {
        g_assert_cmpfloat (fabs (x->together[d][s][i] - y->together[d][s][i]), <=, 0.0005);
        g_assert_cmpfloat (fabs (x->alone[d][s][i] - y->alone[d][s][i]), <=, 0.0005);
      }
  }
  for (int i = 0; i < x->n_devices; i++) {
    g_assert_cmpint (y->devices[i], ==, x->devices[i]);
    if (meta)
      g_assert_cmpstr (b->device[i].name, ==, a->device[i].name);
  }
  if (meta) {
    g_assert_cmpint (b->reps, ==, a->reps);
    g_assert_cmpstr (b->date, ==, a->date);
    g_assert_cmpstr (b->host, ==, a->host);
    g_assert_cmpstr (b->note, ==, a->note);
  }
}

/* Written plain and gzipped, with its sidecar, and read back the same. */
static void
test_round_trip (void)
{
  static const char *const names[] = { "rt-host-link.csv", "rt-host-link.csv.gz" };
  g_autofree MsHostLinkFile *f = file_from_log ();
  f->link.together[MS_HOST_LINK_BOTH][0][2] = 0; /* a failed copy: empty */
  for (size_t n = 0; n < G_N_ELEMENTS (names); n++) {
    char err[512] = "", path[512], side[512];
    snprintf (path, sizeof path, "%s", ms_test_tmp_path (names[n]));
    g_assert_true (ms_host_link_file_write (f, path, err, sizeof err));
    g_assert_true (ms_meta_sidecar_path (path, side, sizeof side));
    g_assert_true (g_str_has_suffix (side, "rt-host-link-meta.json"));
    g_autofree char *meta = read_text (side);
    g_assert_nonnull (strstr (meta, "\"host-link\""));
    g_assert_nonnull (strstr (meta, "converted from docs/measurements/"));
    g_autofree char *text = read_text (path);
    if (n == 0) {
      g_assert_true (g_str_has_prefix (
        text, "direction,exponent,bytes,gpu,gbps,alone_gbps,ratio,share\n"
              "h2d,22,16777216,\"0\",39.000,54.900,0.710,0.249\n"));
      g_assert_nonnull (strstr (text, "\nh2d,22,16777216,\"all\",156.800,219.700,0.714,1.000\n"));
      g_assert_nonnull (strstr (text, "\nboth,22,16777216,\"2\",,100.500,0.000,0.000\n"));
      g_assert_cmpint (ms_file_kind (path), ==, MS_FILE_KIND_HOST_LINK);
    } else {
      g_assert_true ((unsigned char) text[0] == 0x1f && (unsigned char) text[1] == 0x8b);
    }
    g_autofree MsHostLinkFile *g = ms_host_link_file_read (path, err, sizeof err);
    g_assert_nonnull (g);
    g_assert_cmpstr (g->meta_unknown, ==, "");
    compare (f, g, TRUE);
  }
  char err[256];
  f->link.n_devices = 0;
  g_assert_false (ms_host_link_file_write (f, ms_test_tmp_path ("none-host-link.csv"), err,
                                           sizeof err));
}

/* The fixture is the writer's own from the log, and reads back as the
 * log's figures; without its sidecar its rows still read. */
static void
test_fixture (void)
{
  g_autofree MsHostLinkFile *f = file_from_log ();
  char err[512] = "";
  const char *out = g_getenv ("MS_HOST_LINK_FIXTURE_OUT");
  if (out) {
    g_autofree char *path = g_build_filename (out, "h200x4-host-link.csv", NULL);
    g_assert_true (ms_host_link_file_write (f, path, err, sizeof err));
  }
  const char *path = ms_test_tmp_path ("fx-host-link.csv");
  g_assert_true (ms_host_link_file_write (f, path, err, sizeof err));
  g_autofree char *made = read_text (path), *shipped = read_text (FIXTURE);
  g_assert_cmpstr (made, ==, shipped);
  g_autofree MsHostLinkFile *g = ms_host_link_file_read (FIXTURE, err, sizeof err);
  g_assert_nonnull (g);
  compare (f, g, TRUE);
  g_assert_cmpfloat (ms_host_link_total (&g->link, MS_HOST_LINK_D2H, 4, true), ==, 127.6);
  char side[512];
  g_assert_true (ms_meta_sidecar_path (path, side, sizeof side));
  g_assert_cmpint (unlink (side), ==, 0);
  g_autofree MsHostLinkFile *h = ms_host_link_file_read (path, err, sizeof err);
  g_assert_nonnull (h);
  g_assert_nonnull (strstr (h->meta_unknown, "fx-host-link-meta.json"));
  compare (f, h, FALSE);
}

/* Each replacement in a written file's text must be refused at that line. */
static void
test_malformed (void)
{
  g_autofree MsHostLinkFile *f = file_from_log ();
  char err[512] = "";
  const char *good_path = ms_test_tmp_path ("good-host-link.csv");
  g_assert_true (ms_host_link_file_write (f, good_path, err, sizeof err));
  g_autofree char *good = read_text (good_path);
  static const struct {
    const char *from, *to, *line;
  } cases[] = {
    { "h2d,22,16777216,\"0\",", "h3d,22,16777216,\"0\",", ":2:" },
    { "h2d,22,16777216,\"0\",", "h2d,22,16777215,\"0\",", ":2:" },
    { "h2d,22,16777216,\"1\",", "h2d,22,16777216,\"0\",", ":3:" }, /* a second row */
    { "h2d,22,16777216,\"1\",", "h2d,22,16777216,\"x\",", ":3:" },
    { "h2d,22,16777216,\"1\",", "h2d,22,16777216,\"7\",", "no row for h2d at 2^22 on GPU 1" },
    { "\"0\",39.000,54.900,0.710", "\"0\",39.000,54.900,0.810", ":2:" },
    { "\"all\",156.800", "\"all\",150.800", ":" }, /* not the sum */
    { "\"0\",39.000,54.900,0.710,0.249", "\"0\",39.000,54.900,0.710,0.349", ":" },
    { "h2d,22,16777216,\"3\",39.300,54.900,0.716,0.251\n", "", ":" },
    { "direction,exponent,bytes,gpu,", "direction,exp,bytes,gpu,", ":1:" },
  };
  const char *bad_path = ms_test_tmp_path ("bad-host-link.csv");
  for (size_t k = 0; k < G_N_ELEMENTS (cases); k++) {
    const char *at = strstr (good, cases[k].from);
    if (!at)
      g_test_message ("case %zu: no %s", k, cases[k].from);
    g_assert_nonnull (at);
    g_autofree char *bad = g_strdup_printf ("%.*s%s%s", (int) (at - good), good, cases[k].to,
                                            at + strlen (cases[k].from));
    ms_test_tmp_file ("bad-host-link.csv", bad);
    g_autofree MsHostLinkFile *g = ms_host_link_file_read (bad_path, err, sizeof err);
    if (g || !strstr (err, cases[k].line))
      g_test_message ("case %zu: %s -> %s: %s", k, cases[k].from, cases[k].to, err);
    g_assert_null (g);
    g_assert_true (strstr (err, bad_path) == err);
    g_assert_nonnull (strstr (err, cases[k].line));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/host-link-file/round-trip", test_round_trip);
  g_test_add_func ("/host-link-file/fixture", test_fixture);
  g_test_add_func ("/host-link-file/malformed", test_malformed);
  int rc = g_test_run ();
  ms_test_tmp_clean ();
  return rc;
}
