/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-peer-file.c: the peer matrix file: every value, note, device fact
 * and link comes back as written, the table plain and the metadata in its
 * sidecar; without a sidecar (missing, damaged, another file's) the rows
 * still read, the sidecar named; the form before the sidecar still reads;
 * malformed files are refused with their line; a failed write leaves the
 * old file. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-modes.h"
#include "ms-peer-file.h"
#include "ms-peer-test.h"
#include "ms-sidecar-test.h"
#include "ms-tmp-test.h"

static char *
read_text (const char *path)
{
  FILE *f = fopen (path, "rb");
  char *text = calloc (1, 1 << 20);
  size_t n = f ? fread (text, 1, (1 << 20) - 1, f) : 0;
  text[n] = '\0';
  if (f)
    fclose (f);
  return text;
}

static void
write_text (const char *path, const char *text)
{
  FILE *f = fopen (path, "wb");
  fputs (text, f);
  fclose (f);
}

static void
compare (const MsPeerFile *a, const MsPeerFile *b)
{
  const MsPeerResults *x = &a->peer, *y = &b->peer;
  g_assert_cmpint (x->n_devices, ==, y->n_devices);
  g_assert_true (x->bytes == y->bytes);
  g_assert_true (a->reps == b->reps);
  g_assert_cmpstr (b->date, ==, a->date);
  g_assert_cmpstr (b->host, ==, a->host);
  g_assert_true (y->topo.nvml == x->topo.nvml);
  for (int i = 0; i < x->n_devices; i++) {
    g_assert_true (x->devices[i] == y->devices[i]);
    g_assert_cmpstr (b->device[i].name, ==, a->device[i].name);
    g_assert_cmpstr (y->topo.serial[i], ==, x->topo.serial[i]);
    g_assert_cmpstr (y->topo.bus_id[i], ==, x->topo.bus_id[i]);
    g_assert_true (b->device[i].pcie_gen == a->device[i].pcie_gen);
    g_assert_true (b->device[i].pcie_width == a->device[i].pcie_width);
    g_assert_true (b->device[i].cc_major == a->device[i].cc_major);
    for (int j = 0; j < x->n_devices; j++) {
      g_assert_true (x->topo.nvlinks[i][j] == y->topo.nvlinks[i][j]);
      g_assert_true (x->topo.pcie_path[i][j] == y->topo.pcie_path[i][j]);
      g_assert_true (x->can_access[i][j] == y->can_access[i][j]);
      for (int m = 0; m <= MS_PEER_METHOD_COUNT; m++) {
        for (int bi = 0; bi < 2; bi++)
          g_assert_cmpfloat (fabs ((double)(ms_peer_file_value (y, m, bi, i, j))
                                   - (double)(ms_peer_file_value (x, m, bi, i, j))),
                             <=, 0.0005);
        if (m < MS_PEER_METHOD_COUNT && i != j) {
          g_assert_cmpstr (y->cell[m][i][j].note, ==, x->cell[m][i][j].note);
          g_assert_true (y->cell[m][i][j].ok == x->cell[m][i][j].ok);
        }
      }
    }
  }
}

static void
test_round_trip (void)
{
  for (int n = 2; n <= 5; n += 3) {
    MsPeerFile *f = calloc (1, sizeof *f);
    ms_test_peer_file (n, f);
    /* A name that would break a line or a field. */
    snprintf (f->device[0].name, sizeof f->device[0].name, "NVIDIA, \"H200\"");
    char err[512] = "";
    const char *path = ms_test_tmp_path ("rt-peer.csv");
    g_assert_true (ms_peer_file_write (f, path, err, sizeof err));
    MsPeerFile *g = ms_peer_file_read (path, err, sizeof err);
    g_assert_nonnull (g);
    if (g)
      compare (f, g);
    /* The failed pairs are there with their reasons. */
    if (n == 5 && g) {
      g_assert_false (g->peer.cell[MS_PEER_COPY_ENABLED][0][2].ok);
      g_assert_nonnull (strstr (g->peer.cell[MS_PEER_COPY_ENABLED][0][2].note, "not possible"));
      g_assert_cmpfloat (fabs ((double)(ms_peer_file_value (&g->peer, MS_PEER_STAGED, true, 3, 1))
                               - (double)(ms_test_peer_gbps (MS_PEER_STAGED, 3, 1, 1))),
                         <=, 0.0005);
    }
    free (g);
    free (f);
  }
}

static void
test_nominal (void)
{
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (4, f);
  char what[96];
  g_assert_cmpfloat (
      fabs ((double)(ms_peer_nominal_gbps (&f->peer, f->device, 0, 1, what, sizeof what))
            - (double)(450)),
      <=, 0);
  g_assert_nonnull (strstr (what, "18"));
  /* Across the sockets: the slower PCIe link, gen5 x8 on device 3. */
  g_assert_cmpfloat (
      fabs ((double)(ms_peer_nominal_gbps (&f->peer, f->device, 0, 3, what, sizeof what))
            - (double)(ms_pcie_theoretical_gbps (5, 8))),
      <=, 1e-9);
  free (f);
}

/* Each replacement of a good file's text must be refused at that line. */
static void
test_malformed (void)
{
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (2, f);
  char err[512], path[512], bad_path[512];
  snprintf (path, sizeof path, "%s", ms_test_tmp_path ("good-peer.csv"));
  snprintf (bad_path, sizeof bad_path, "%s", ms_test_tmp_path ("bad-peer.csv"));
  g_assert_true (ms_peer_file_write (f, path, err, sizeof err));
  char *good = read_text (path);
  /* The metadata cases need it inline: the form before the sidecar. */
  g_autofree char *inline_text = ms_test_inline_form (path, "# memsweep peer matrix");
  static const struct {
    const char *from, *to, *line;
  } cases[] = {
    { "copy-access-on,uni,0,1,", "teleport,uni,0,1,", ":" },
    { "copy-access-on,uni,0,1,", "copy-access-on,sideways,0,1,", ":" },
    { "copy-access-on,uni,0,1,", "copy-access-on,uni,0,7,", ":" },
    { "copy-access-on,uni,0,1,", "copy-access-on,uni,1,1,", ":" },
    { "copy-access-on,uni,1,0,", "copy-access-on,uni,0,1,", ":" }, /* a second row */
    { "reference,uni,0,1,", "reference,bi,0,1,", ":" },
    { "staged,uni,0,1,", "staged,uni,0,1,abc", ":" },
    { "staged,uni,0,1,", "staged,uni,0,1,-5", ":" },
    { "staged,uni,0,1,", "staged,uni,0,1,nan", ":" },
    { "staged,bi,0,1,", "staged,bi,0,1,\"", ":" },
    { "# devices: 2", "# devices: 1", ":9:" },
    { "# devices: 2", "# devices: 99", ":9:" },
    { "# format: 1", "# format: 2", ":2:" },
    { "# gpu-1-pcie: gen5 x16", "# gpu-1-pcie: fast", ":" },
    { "# link-0-1: nvlinks 18", "# link-0-2: nvlinks 18", ":" },
    { "method,direction,src,dst,gbps,note", "method,src,dst", ":" },
    { "# gpu-1-index: 1\n", "", ":" },
    { "# memsweep peer matrix", "# memsweep samples file", ":1:" },
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    char *text = g_strdup (inline_text);
    char *at = strstr (text, cases[k].from);
    g_assert_nonnull (at);
    if (!at) {
      free (text);
      continue;
    }
    char *bad = calloc (1, strlen (text) + 256);
    memcpy (bad, text, at - text);
    strcat (bad, cases[k].to);
    strcat (bad, at + strlen (cases[k].from));
    write_text (bad_path, bad);
    err[0] = '\0';
    MsPeerFile *g = ms_peer_file_read (bad_path, err, sizeof err);
    g_assert_null (g);
    g_assert_true (strstr (err, bad_path) == err);
    g_assert_nonnull (strstr (err, cases[k].line));
    free (g);
    free (bad);
    g_free (text);
  }
  /* Not a peer file at all, a folder, a missing file. */
  ms_test_tmp_file ("samples.csv", "# memsweep samples\nmode,size\n");
  const char *others[] = { ms_test_tmp_path ("samples.csv"), ms_test_tmp_dir (),
                           "/nonexistent/x-peer.csv" };
  for (size_t k = 0; k < 3; k++) {
    char p[512];
    snprintf (p, sizeof p, "%s", others[k]);
    MsPeerFile *g = ms_peer_file_read (p, err, sizeof err);
    g_assert_null (g);
    g_assert_true (strstr (err, p) == err);
    free (g);
  }
  /* A failed write says why and leaves the file there as it was. */
  chmod (path, 0444);
  if (access (path, W_OK) != 0) {
    f->peer.bytes = 1;
    g_assert_false (ms_peer_file_write (f, path, err, sizeof err));
    char *after = read_text (path);
    g_assert_cmpstr (after, ==, good);
    free (after);
  }
  chmod (path, 0644);
  f->peer.n_devices = 1;
  g_assert_false (ms_peer_file_write (f, ms_test_tmp_path ("one-peer.csv"), err, sizeof err));
  free (good);
  free (f);
}

static void
copy_file (const char *from, const char *to)
{
  char *text = read_text (from);
  write_text (to, text);
  free (text);
}

/* The new form: a plain table, header on line 1, its sidecar beside it. */
static void
test_sidecar (void)
{
  MsPeerFile *f = calloc (1, sizeof *f);
  ms_test_peer_file (3, f);
  char err[512], path[512], side[512];
  snprintf (path, sizeof path, "%s", ms_test_tmp_path ("plain-peer.csv"));
  g_assert_true (ms_peer_file_write (f, path, err, sizeof err));
  char *text = read_text (path);
  g_assert_true (g_str_has_prefix (text, "method,direction,src,dst,gbps,note\n"));
  g_assert_null (strstr (text, "\n#"));
  snprintf (side, sizeof side, "%s", ms_test_tmp_path ("plain-peer-meta.json"));
  g_assert_true (access (side, R_OK) == 0);
  MsPeerFile *g = ms_peer_file_read (path, err, sizeof err);
  g_assert_nonnull (g);
  g_assert_cmpstr (g->meta_unknown, ==, "");
  compare (f, g);
  free (g);

  /* A bad value in the sidecar: refused, naming the file and its sidecar. */
  char *meta = read_text (side);
  char *devices = strstr (meta, "\"devices\": \"3\"");
  g_assert_nonnull (devices);
  devices[strlen ("\"devices\": \"")] = 'x';
  write_text (side, meta);
  g_assert_null (ms_peer_file_read (path, err, sizeof err));
  g_assert_true (g_str_has_prefix (err, path));
  g_assert_nonnull (strstr (err, "plain-peer-meta.json: devices wants"));
  devices[strlen ("\"devices\": \"")] = '3';
  write_text (side, meta);
  free (meta);

  /* Without its sidecar, the rows and the indices they name. */
  static const struct {
    const char *name, *sidecar, *why;
  } cases[] = {
    { "alone-peer.csv", NULL, "alone-peer-meta.json: not found" },
    { "broken-peer.csv", "{\"format\": \"memsweep-meta\", \"run-id\": \n", "broken-peer-meta.json" },
    { "other-peer.csv", "", "other-peer-meta.json: it describes another run" },
  };
  for (size_t k = 0; k < G_N_ELEMENTS (cases); k++) {
    char copy[512], copy_side[512];
    snprintf (copy, sizeof copy, "%s", ms_test_tmp_path (cases[k].name));
    copy_file (path, copy);
    g_assert_true (ms_meta_sidecar_path (copy, copy_side, sizeof copy_side));
    if (cases[k].sidecar && cases[k].sidecar[0]) {
      write_text (copy_side, cases[k].sidecar);
    } else if (cases[k].sidecar) {
      /* A sidecar of this name, describing a file of another size. */
      FILE *a = fopen (copy, "ab");
      fputs ("staged,uni,0,1,1.000,\n", a);
      fclose (a);
      copy_file (side, copy_side);
    }
    char *before = cases[k].sidecar ? read_text (copy_side) : NULL;
    g = ms_peer_file_read (copy, err, sizeof err);
    if (k == 2) {
      /* The appended row is a second one for its pair. */
      g_assert_null (g);
      g_assert_nonnull (strstr (err, "other-peer.csv:"));
      /* Without it, the sidecar of another size is named. */
      write_text (copy, text);
      FILE *a = fopen (copy, "ab");
      fputs ("\n", a);
      fclose (a);
      g = ms_peer_file_read (copy, err, sizeof err);
    }
    g_assert_nonnull (g);
    g_assert_nonnull (strstr (g->meta_unknown, cases[k].why));
    g_assert_cmpint (g->peer.n_devices, ==, 3);
    for (int i = 0; i < 3; i++) {
      g_assert_cmpint (g->peer.devices[i], ==, f->peer.devices[i]);
      g_assert_cmpstr (g->device[i].name, ==, "");
    }
    g_assert_cmpfloat (fabs (ms_peer_file_value (&g->peer, MS_PEER_STAGED, true, 2, 1) -
                             ms_peer_file_value (&f->peer, MS_PEER_STAGED, true, 2, 1)),
                       <=, 0.0005);
    if (before) {
      char *after = read_text (copy_side);
      g_assert_cmpstr (after, ==, before); /* nothing written over an input */
      free (after);
    }
    free (before);
    free (g);
  }
  free (text);
  free (f);
}

/* A file of the form before the sidecar, as shipped. */
static void
test_old_form (void)
{
  char err[512];
  MsPeerFile *g = ms_peer_file_read (MS_OLD_FORMAT_DIR "/h200x2-peer.csv", err, sizeof err);
  g_assert_nonnull (g);
  g_assert_cmpstr (g->meta_unknown, ==, "");
  g_assert_cmpint (g->peer.n_devices, ==, 2);
  g_assert_cmpstr (g->device[1].name, ==, "NVIDIA H200");
  g_assert_cmpint (g->peer.topo.nvlinks[0][1], ==, 18);
  g_assert_cmpint ((int) g->peer.bytes, ==, 268435456);
  g_assert_cmpfloat (fabs (ms_peer_file_value (&g->peer, MS_PEER_COPY_ENABLED, false, 0, 1) -
                           393.351),
                     <=, 1e-9);
  free (g);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/peer-file/round-trip", test_round_trip);
  g_test_add_func ("/peer-file/nominal", test_nominal);
  g_test_add_func ("/peer-file/malformed", test_malformed);
  g_test_add_func ("/peer-file/sidecar", test_sidecar);
  g_test_add_func ("/peer-file/old-form", test_old_form);
  return g_test_run ();
}
