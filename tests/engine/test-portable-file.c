/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-portable-file.c: the portable pinned memory file: every rate, note,
 * pinned flag and device fact comes back as written, the table plain and
 * the metadata in its sidecar, gzip bytes under a .gz name; without a
 * sidecar the rows still read, the sidecar named; the form written to a
 * pipe reads (the fixture); malformed files are refused with their line. */
#define _GNU_SOURCE
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ms-compare.h"
#include "ms-file-kinds.h"
#include "ms-meta-sidecar.h"
#include "ms-portable-file.h"
#include "ms-tmp-test.h"

#define FIXTURE MS_TESTS_DATA_DIR "/portable/fixture-x2-portable.csv"

static char *
read_text (const char *path)
{
  gchar *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Three GPUs, one failed copy, a name that would break a field. */
static void
make_file (MsPortableFile *f)
{
  memset (f, 0, sizeof *f);
  MsPortableResults *r = &f->portable;
  r->n_devices = 3;
  r->bytes = 1 << 26;
  for (int i = 0; i < 3; i++) {
    r->devices[i] = 2 * i + 1;
    snprintf (f->device[i].name, sizeof f->device[i].name, "NVIDIA H100, \"SXM\" %d", i);
    snprintf (f->device[i].pci_bus_id, sizeof f->device[i].pci_bus_id, "00000000:%02X:00.0", i);
    f->device[i].pcie_gen = 5;
    f->device[i].pcie_width = 16;
    f->device[i].cc_major = 9;
    for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
      MsPortableCell *c = &r->cell[k][i];
      c->ok = !(k == MS_PORTABLE_FOREIGN && i == 2);
      c->h2d_gbps = c->ok ? 50 + k + 0.125 * i : 0;
      c->d2h_gbps = c->ok ? 40 + k + 0.25 * i : 0;
      c->pinned_path = k != MS_PORTABLE_FOREIGN || i == 0;
      snprintf (c->note, sizeof c->note, c->ok ? "seen as pinned, %d" : "out of memory, %d", i);
    }
  }
  f->reps = 11;
  snprintf (f->date, sizeof f->date, "2026-11-26T08:00:00Z");
  snprintf (f->host, sizeof f->host, "gpu-host");
  snprintf (f->version, sizeof f->version, "1.0");
}

static void
compare (const MsPortableFile *a, const MsPortableFile *b, gboolean meta)
{
  const MsPortableResults *x = &a->portable, *y = &b->portable;
  g_assert_cmpint (y->n_devices, ==, x->n_devices);
  for (int i = 0; i < x->n_devices; i++) {
    g_assert_cmpint (y->devices[i], ==, x->devices[i]);
    for (int k = 0; k < MS_PORTABLE_COUNT; k++) {
      const MsPortableCell *c = &x->cell[k][i], *d = &y->cell[k][i];
      g_assert_true (c->ok == d->ok);
      g_assert_true (c->pinned_path == d->pinned_path);
      g_assert_cmpfloat (fabs (c->h2d_gbps - d->h2d_gbps), <=, 0.0005);
      g_assert_cmpfloat (fabs (c->d2h_gbps - d->d2h_gbps), <=, 0.0005);
      g_assert_cmpstr (d->note, ==, c->note);
    }
    if (meta) {
      g_assert_cmpstr (b->device[i].name, ==, a->device[i].name);
      g_assert_cmpstr (b->device[i].pci_bus_id, ==, a->device[i].pci_bus_id);
      g_assert_cmpint (b->device[i].pcie_width, ==, a->device[i].pcie_width);
      g_assert_cmpint (b->device[i].cc_major, ==, a->device[i].cc_major);
    }
  }
  if (meta) {
    g_assert_true (y->bytes == x->bytes);
    g_assert_cmpint (b->reps, ==, a->reps);
    g_assert_cmpstr (b->date, ==, a->date);
    g_assert_cmpstr (b->host, ==, a->host);
  }
}

static void
test_round_trip (void)
{
  static const char *const names[] = { "rt-portable.csv", "rt-portable.csv.gz" };
  MsPortableFile *f = calloc (1, sizeof *f);
  make_file (f);
  for (size_t n = 0; n < G_N_ELEMENTS (names); n++) {
    char err[512] = "", path[512], side[512];
    snprintf (path, sizeof path, "%s", ms_test_tmp_path (names[n]));
    g_assert_true (ms_portable_file_write (f, path, err, sizeof err));
    g_assert_true (ms_meta_sidecar_path (path, side, sizeof side));
    g_assert_true (g_str_has_suffix (side, "rt-portable-meta.json"));
    g_assert_true (access (side, R_OK) == 0);
    g_autofree char *meta = read_text (side);
    g_assert_nonnull (strstr (meta, "\"portable\""));
    g_autofree char *text = read_text (path);
    if (n == 0) {
      g_assert_true (g_str_has_prefix (text, "buffer,gpu,h2d_gbps,d2h_gbps,pinned,note\n"));
      g_assert_null (strstr (text, "\n#"));
      g_assert_nonnull (strstr (text, "\nforeign,5,,,0,\"out of memory, 2\"\n"));
      g_assert_nonnull (strstr (text, "\nportable,3,51.125,41.250,1,\"seen as pinned, 1\"\n"));
      g_assert_cmpint (ms_file_kind (path), ==, MS_FILE_KIND_PORTABLE);
    } else {
      g_assert_true ((unsigned char) text[0] == 0x1f && (unsigned char) text[1] == 0x8b);
    }
    MsPortableFile *g = ms_portable_file_read (path, err, sizeof err);
    g_assert_nonnull (g);
    g_assert_cmpstr (g->meta_unknown, ==, "");
    compare (f, g, TRUE);
    free (g);
  }
  /* No devices: nothing to write. */
  char err[256];
  f->portable.n_devices = 0;
  g_assert_false (ms_portable_file_write (f, ms_test_tmp_path ("none-portable.csv"), err,
                                          sizeof err));
  free (f);
}

/* The fixture, of the inline form, reads; written again it is plain and
 * reads back the same; without its sidecar its rows still read. */
static void
test_fixture (void)
{
  char err[512] = "";
  MsPortableFile *f = ms_portable_file_read (FIXTURE, err, sizeof err);
  g_assert_nonnull (f);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (f->portable.n_devices, ==, 2);
  g_assert_cmpstr (f->device[1].name, ==, "NVIDIA H100 80GB HBM3");
  g_assert_cmpfloat (f->portable.cell[MS_PORTABLE_FOREIGN][1].h2d_gbps, ==, 41.2);
  char name[64];
  ms_portable_file_gpu_name (f, 1, name, sizeof name);
  g_assert_cmpstr (name, ==, "H100 80GB HBM3");
  const char *path = ms_test_tmp_path ("fx-portable.csv");
  g_assert_true (ms_portable_file_write (f, path, err, sizeof err));
  MsPortableFile *g = ms_portable_file_read (path, err, sizeof err);
  g_assert_nonnull (g);
  compare (f, g, TRUE);
  free (g);
  char side[512];
  g_assert_true (ms_meta_sidecar_path (path, side, sizeof side));
  g_assert_cmpint (unlink (side), ==, 0);
  g = ms_portable_file_read (path, err, sizeof err);
  g_assert_nonnull (g);
  g_assert_nonnull (strstr (g->meta_unknown, "fx-portable-meta.json"));
  compare (f, g, FALSE);
  ms_portable_file_gpu_name (g, 1, name, sizeof name);
  g_assert_cmpstr (name, ==, "GPU 1");
  free (g);
  free (f);
}

/* Each replacement in the fixture's text must be refused at that line. */
static void
test_malformed (void)
{
  g_autofree char *good = read_text (FIXTURE);
  static const struct {
    const char *from, *to, *line;
  } cases[] = {
    { "per-gpu,0,", "per-cpu,0,", ":20:" },
    { "per-gpu,1,", "per-gpu,7,", ":21:" },
    { "portable,1,", "portable,0,", ":23:" }, /* a second row */
    { "foreign,1,41.200,", "foreign,1,abc,", ":25:" },
    { "foreign,1,41.200,", "foreign,1,-4,", ":25:" },
    { "foreign,1,41.200,44.800,", "foreign,1,41.200,,", ":25:" },
    { "foreign,1,41.200,44.800,1,", "foreign,1,41.200,44.800,yes,", ":25:" },
    { "foreign,1,41.200,44.800,1,seen", "foreign,1,41.200,44.800,1,se\"en", ":25:" },
    { "foreign,1,41.200,44.800,1,seen", "foreign,1,41.200,44.800,1,a,b", ":25:" },
    { "foreign,1,41.200,44.800,1,seen from device 1 as pinned host memory\n", "", ":" },
    { "# devices: 2", "# devices: 0", ":8:" },
    { "# devices: 2", "# devices: 1", ":14:" },
    { "# format: 1", "# format: 2", ":2:" },
    { "# gpu-1-pcie: gen5 x16", "# gpu-1-pcie: fast", ":17:" },
    { "# gpu-1-index: 1\n", "", ":" },
    { "# bytes: 268435456\n", "", ":" },
    { "buffer,gpu,h2d_gbps,d2h_gbps,pinned,note", "buffer,gpu,gbps", ":" },
    { "# memsweep portable pinned memory", "# memsweep peer matrix", ":1:" },
  };
  const char *bad_path = ms_test_tmp_path ("bad-portable.csv");
  for (size_t k = 0; k < G_N_ELEMENTS (cases); k++) {
    const char *at = strstr (good, cases[k].from);
    g_assert_nonnull (at);
    g_autofree char *bad = g_strdup_printf ("%.*s%s%s", (int) (at - good), good, cases[k].to,
                                            at + strlen (cases[k].from));
    ms_test_tmp_file ("bad-portable.csv", bad);
    char err[512] = "";
    MsPortableFile *g = ms_portable_file_read (bad_path, err, sizeof err);
    if (g)
      g_test_message ("case %zu read: %s -> %s", k, cases[k].from, cases[k].to);
    g_assert_null (g);
    if (!strstr (err, cases[k].line))
      g_test_message ("case %zu: %s", k, err);
    g_assert_true (strstr (err, bad_path) == err);
    g_assert_nonnull (strstr (err, cases[k].line));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/portable-file/round-trip", test_round_trip);
  g_test_add_func ("/portable-file/fixture", test_fixture);
  g_test_add_func ("/portable-file/malformed", test_malformed);
  int rc = g_test_run ();
  ms_test_tmp_clean ();
  return rc;
}
