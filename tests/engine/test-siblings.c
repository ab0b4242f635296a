/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-siblings.c: which GPU the sibling check names, from fixed pooled
 * verdicts (no timing: PITFALLS 35): one slowed GPU of 4, 8 and 16 named
 * alone and slower; one faster; none when all are SAME; two GPUs that
 * differ named neither but differ; two against two a split; a lone
 * decided pair names nothing; AMBIGUOUS pairs leave it undecided; a GPU
 * named in some modes only. */
#include <glib.h>
#include <math.h>

#include "ms-siblings.h"

/* Every mode of pinned and pageable run; all pairs SAME, ratios 1. */
static void
all_same (MsSiblingVerdicts *v, int n)
{
  memset (v, 0, sizeof *v);
  v->n = n;
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    v->has_mode[m] = m == MS_MODE_PINNED || m == MS_MODE_PAGEABLE;
    for (int a = 0; a < n; a++)
      for (int b = 0; b < n; b++) {
        v->verdict[m][a][b] = MS_VERDICT_SAME;
        v->ratio[m][a][b] = a == b ? NAN : 1.0;
      }
  }
}

/* GPU g's end-to-end time is factor times the others' (1.25: slower) in
 * mode m, decided both ways round. */
static void
set_odd (MsSiblingVerdicts *v, int m, int g, double factor)
{
  for (int h = 0; h < v->n; h++) {
    if (h == g)
      continue;
    v->verdict[m][h][g] = factor > 1 ? MS_VERDICT_SLOWER : MS_VERDICT_FASTER;
    v->verdict[m][g][h] = factor > 1 ? MS_VERDICT_FASTER : MS_VERDICT_SLOWER;
    v->ratio[m][h][g] = factor;
    v->ratio[m][g][h] = 1 / factor;
  }
}

static void
test_one_slowed (void)
{
  static const int counts[] = { 3, 4, 8, 16 };
  for (guint k = 0; k < G_N_ELEMENTS (counts); k++) {
    int n = counts[k], g = n - 2;
    MsSiblingVerdicts *v = g_new (MsSiblingVerdicts, 1);
    MsSiblingFinding *f = g_new (MsSiblingFinding, 1);
    all_same (v, n);
    set_odd (v, MS_MODE_PINNED, g, 1.25);
    set_odd (v, MS_MODE_PAGEABLE, g, 1.18);
    ms_siblings_name (v, f);
    g_assert_cmpint (f->result, ==, MS_SIBLINGS_DIFFERS);
    g_assert_cmpint (f->n_named, ==, 1);
    for (int h = 0; h < n; h++)
      g_assert_cmpint (f->gpu_named[h], ==, h == g);
    g_assert_true (f->named[MS_MODE_PINNED][g]);
    g_assert_cmpint (f->direction[MS_MODE_PINNED][g], ==, MS_VERDICT_SLOWER);
    g_assert_cmpfloat_with_epsilon (f->ratio[MS_MODE_PINNED][g], 1.25, 1e-12);
    g_assert_cmpfloat_with_epsilon (f->ratio[MS_MODE_PAGEABLE][g], 1.18, 1e-12);
    g_assert_false (f->split[MS_MODE_PINNED]);
    g_free (v);
    g_free (f);
  }
}

static void
test_one_faster_one_mode (void)
{
  MsSiblingVerdicts v;
  MsSiblingFinding f;
  all_same (&v, 4);
  set_odd (&v, MS_MODE_PAGEABLE, 0, 0.77);
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_true (f.named[MS_MODE_PAGEABLE][0]);
  g_assert_false (f.named[MS_MODE_PINNED][0]);
  g_assert_cmpint (f.direction[MS_MODE_PAGEABLE][0], ==, MS_VERDICT_FASTER);
  g_assert_cmpint (f.n_named, ==, 1);
}

static void
test_all_same (void)
{
  MsSiblingVerdicts v;
  MsSiblingFinding f;
  all_same (&v, 4);
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_SAME);
  g_assert_cmpint (f.n_named, ==, 0);
  g_assert_cmpint (f.n_ambiguous, ==, 0);
}

/* Two GPUs: which one moved cannot be told. */
static void
test_two_gpus (void)
{
  MsSiblingVerdicts v;
  MsSiblingFinding f;
  all_same (&v, 2);
  set_odd (&v, MS_MODE_PINNED, 1, 1.25);
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_cmpint (f.n_named, ==, 0);
  g_assert_true (f.split[MS_MODE_PINNED]);
}

/* 0 and 1 against 2 and 3: groups, no odd one out. */
static void
test_two_groups (void)
{
  MsSiblingVerdicts v;
  MsSiblingFinding f;
  all_same (&v, 4);
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++)
      if (a / 2 != b / 2) {
        v.verdict[MS_MODE_PINNED][a][b] = b / 2 ? MS_VERDICT_SLOWER : MS_VERDICT_FASTER;
        v.ratio[MS_MODE_PINNED][a][b] = b / 2 ? 1.25 : 0.8;
      }
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_cmpint (f.n_named, ==, 0);
  g_assert_true (f.split[MS_MODE_PINNED]);
}

/* One pair decided different on its own: nobody named, not a split. */
static void
test_lone_pair (void)
{
  MsSiblingVerdicts v;
  MsSiblingFinding f;
  all_same (&v, 4);
  v.verdict[MS_MODE_PINNED][0][1] = MS_VERDICT_SLOWER;
  v.verdict[MS_MODE_PINNED][1][0] = MS_VERDICT_FASTER;
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_UNDECIDED);
  g_assert_cmpint (f.n_named, ==, 0);
  g_assert_false (f.split[MS_MODE_PINNED]);
  g_assert_cmpint (f.n_isolated, ==, 1);
}

/* A slowed GPU whose verdict against one sibling is still AMBIGUOUS: two
 * of three decided is most of them. */
static void
test_ambiguous (void)
{
  MsSiblingVerdicts v;
  MsSiblingFinding f;
  all_same (&v, 4);
  v.verdict[MS_MODE_PAGEABLE][2][3] = v.verdict[MS_MODE_PAGEABLE][3][2] = MS_VERDICT_AMBIGUOUS;
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_UNDECIDED);
  set_odd (&v, MS_MODE_PINNED, 3, 1.25);
  v.verdict[MS_MODE_PINNED][0][3] = v.verdict[MS_MODE_PINNED][3][0] = MS_VERDICT_AMBIGUOUS;
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_true (f.named[MS_MODE_PINNED][3]);
  g_assert_cmpint (f.n_named, ==, 1);
  /* One of three decided is not most: nobody named. */
  v.verdict[MS_MODE_PINNED][1][3] = v.verdict[MS_MODE_PINNED][3][1] = MS_VERDICT_AMBIGUOUS;
  ms_siblings_name (&v, &f);
  g_assert_cmpint (f.n_named, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/siblings/one-slowed", test_one_slowed);
  g_test_add_func ("/siblings/one-faster-one-mode", test_one_faster_one_mode);
  g_test_add_func ("/siblings/all-same", test_all_same);
  g_test_add_func ("/siblings/two-gpus", test_two_gpus);
  g_test_add_func ("/siblings/two-groups", test_two_groups);
  g_test_add_func ("/siblings/lone-pair", test_lone_pair);
  g_test_add_func ("/siblings/ambiguous", test_ambiguous);
  return g_test_run ();
}
