/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-siblings.c: the verdicts of turns (ms-turns.c) and which GPU the
 * sibling check names (ms-siblings.c), from fixed process values (no
 * timing: PITFALLS 35): one slowed GPU of 3, 4, 8 and 16 named alone and
 * slower, and its siblings not named faster; one faster in one mode;
 * alike when all agree; two GPUs that differ a split; two against two a
 * split; wide spread undecided; the first process's excess fitted out;
 * a verdict, once decided, final; the looks counted and their schedule. */
#include <glib.h>
#include <math.h>

#include "ms-siblings.h"

/* A fixed small spread: the k-th process's offset, in ln. */
static double
wobble (int g, int k, double sd)
{
  static const double z[] = { 0.3, -1.1, 0.8, -0.4, 1.2, -0.9, 0.1, 0.6, -0.7, -0.2 };
  return sd * z[(3 * g + k) % G_N_ELEMENTS (z)];
}

/* k processes of each of n GPUs in pinned and pageable, GPU odd's times
 * factor times the others' in mode odd_mode; taking turns; looks due. */
static void
fill (MsTurns *t, int n, int k, double sd, int odd, MsMode odd_mode, double factor)
{
  ms_turns_init (t, n, 0.10);
  for (int r = 0; r < k; r++) {
    for (int i = 0; i < n; i++) {
      int g = (r + i) % n;
      for (int m = MS_MODE_PAGEABLE; m <= MS_MODE_PINNED; m++) {
        double x = wobble (g, r, sd) + (g == odd && m == (int) odd_mode ? log (factor) : 0);
        ms_turns_add (t, (MsMode) m, g, x, i == 0);
      }
    }
    if (ms_turns_look_due (r + 1))
      ms_turns_look (t, r + 1.0);
  }
}

static const bool *
two_modes (void)
{
  static bool judged[MS_MODE_COUNT];
  judged[MS_MODE_PAGEABLE] = judged[MS_MODE_PINNED] = true;
  return judged;
}

/* Whether any mode still needs measuring. */
static bool
any_open (const MsTurns *t)
{
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (ms_turns_mode_open (t, (MsMode) m))
      return true;
  return false;
}

static void
test_one_slowed (void)
{
  static const int counts[] = { 3, 4, 8, 16 };
  for (guint c = 0; c < G_N_ELEMENTS (counts); c++) {
    int n = counts[c], g = n - 2;
    MsTurns *t = g_new (MsTurns, 1);
    MsSiblingFinding *f = g_new (MsSiblingFinding, 1);
    fill (t, n, 6, 0.01, g, MS_MODE_PINNED, 1.25);
    ms_siblings_name (t, two_modes (), f);
    g_assert_cmpint (f->result, ==, MS_SIBLINGS_DIFFERS);
    g_assert_cmpint (f->n_named, ==, 1);
    for (int h = 0; h < n; h++)
      g_assert_cmpint (f->gpu_named[h], ==, h == g);
    g_assert_true (f->named[MS_MODE_PINNED][g]);
    g_assert_cmpint (f->verdict[MS_MODE_PINNED][g].verdict, ==, MS_VERDICT_SLOWER);
    g_assert_cmpfloat_with_epsilon (f->verdict[MS_MODE_PINNED][g].ratio, 1.25, 0.02);
    g_assert_false (f->split[MS_MODE_PINNED]);
    /* Its siblings read 1.25^(-1/(n-1)) of the others' mean: never named. */
    g_assert_false (f->named[MS_MODE_PINNED][(g + 1) % n]);
    g_free (t);
    g_free (f);
  }
}

/* A card 40% slower pulls its three siblings' mean by 13%: they must not
 * be named faster for it. */
static void
test_far_slower_names_one (void)
{
  MsTurns t;
  MsSiblingFinding f;
  fill (&t, 4, 6, 0.005, 1, MS_MODE_PAGEABLE, 1.40);
  ms_siblings_name (&t, two_modes (), &f);
  g_assert_cmpint (f.n_named, ==, 1);
  g_assert_true (f.gpu_named[1]);
  g_assert_cmpint (f.verdict[MS_MODE_PAGEABLE][1].verdict, ==, MS_VERDICT_SLOWER);
}

static void
test_one_faster_one_mode (void)
{
  MsTurns t;
  MsSiblingFinding f;
  fill (&t, 4, 6, 0.01, 0, MS_MODE_PAGEABLE, 0.77);
  ms_siblings_name (&t, two_modes (), &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_true (f.named[MS_MODE_PAGEABLE][0]);
  g_assert_cmpint (f.verdict[MS_MODE_PAGEABLE][0].verdict, ==, MS_VERDICT_FASTER);
  g_assert_false (f.named[MS_MODE_PINNED][0]);
  g_assert_cmpint (f.verdict[MS_MODE_PINNED][0].verdict, ==, MS_VERDICT_SAME);
}

static void
test_alike (void)
{
  MsTurns t;
  MsSiblingFinding f;
  fill (&t, 4, 5, 0.01, -1, MS_MODE_PINNED, 1);
  ms_siblings_name (&t, two_modes (), &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_ALIKE);
  g_assert_cmpint (f.n_named, ==, 0);
  g_assert_cmpint (f.n_open, ==, 0);
  g_assert_cmpstr (ms_siblings_result_key (f.result), ==, "alike");
  /* Decided: nothing left to measure. */
  g_assert_false (any_open (&t));
}

/* Of two GPUs, one that differs cannot say which moved. */
static void
test_two_gpus_split (void)
{
  MsTurns t;
  MsSiblingFinding f;
  fill (&t, 2, 6, 0.01, 1, MS_MODE_PINNED, 1.3);
  ms_siblings_name (&t, two_modes (), &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_true (f.split[MS_MODE_PINNED]);
  g_assert_cmpint (f.n_named, ==, 0);
}

static void
test_two_against_two (void)
{
  MsTurns t;
  MsSiblingFinding f;
  ms_turns_init (&t, 4, 0.10);
  for (int r = 0; r < 6; r++)
    for (int i = 0; i < 4; i++) {
      int g = (r + i) % 4;
      ms_turns_add (&t, MS_MODE_PINNED, g, wobble (g, r, 0.01) + (g < 2 ? log (1.5) : 0), i == 0);
    }
  ms_turns_look (&t, 1);
  bool judged[MS_MODE_COUNT] = { [MS_MODE_PINNED] = true };
  ms_siblings_name (&t, judged, &f);
  /* Each pair reads +-20% against its three siblings' mean: more than
   * half named is groups. */
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_DIFFERS);
  g_assert_true (f.split[MS_MODE_PINNED]);
  g_assert_cmpint (f.n_named, ==, 0);
}

static void
test_wide_is_undecided (void)
{
  MsTurns t;
  MsSiblingFinding f;
  fill (&t, 4, 3, 0.15, -1, MS_MODE_PINNED, 1);
  ms_siblings_name (&t, two_modes (), &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_UNDECIDED);
  g_assert_cmpint (f.n_open, ==, 8);
  g_assert_true (ms_turns_mode_open (&t, MS_MODE_PINNED));
  g_assert_cmpstr (ms_siblings_result_key (f.result), ==, "undecided");
}

/* Every first process of a turn 8% slower: the rotation and the fit take
 * it out, and the GPUs are alike. */
static void
test_order_fitted_out (void)
{
  MsTurns t;
  MsSiblingFinding f;
  ms_turns_init (&t, 4, 0.10);
  for (int r = 0; r < 8; r++)
    for (int i = 0; i < 4; i++)
      ms_turns_add (&t, MS_MODE_PINNED, (r + i) % 4,
                    wobble ((r + i) % 4, r, 0.01) + (i == 0 ? log (1.08) : 0), i == 0);
  ms_turns_look (&t, 1);
  bool judged[MS_MODE_COUNT] = { [MS_MODE_PINNED] = true };
  ms_siblings_name (&t, judged, &f);
  g_assert_cmpint (f.result, ==, MS_SIBLINGS_ALIKE);
  g_assert_cmpfloat_with_epsilon (t.order[MS_MODE_PINNED], log (1.08), 0.01);
}

/* SAME, once decided, stands: wild processes after it change nothing. */
static void
test_final (void)
{
  MsTurns t;
  fill (&t, 2, 5, 0.01, -1, MS_MODE_PINNED, 1);
  g_assert_cmpint (t.v[MS_MODE_PINNED][1].verdict, ==, MS_VERDICT_SAME);
  int look = t.v[MS_MODE_PINNED][1].look;
  for (int k = 0; k < 3; k++)
    ms_turns_add (&t, MS_MODE_PINNED, 1, log (2.0), false);
  ms_turns_look (&t, 9);
  g_assert_cmpint (t.v[MS_MODE_PINNED][1].verdict, ==, MS_VERDICT_SAME);
  g_assert_cmpint (t.v[MS_MODE_PINNED][1].look, ==, look);
}

/* The looks: after 3, 4, 5, 6, 8, 10, 12, 15, 18, 22 and 27 processes, no
 * others, no more than MS_TURNS_MAX_LOOKS; each at Pocock's level. */
static void
test_looks (void)
{
  static const int due[] = { 3, 4, 5, 6, 8, 10, 12, 15, 18, 22, 27 };
  int n = 0;
  for (int p = 0; p <= MS_MAX_PROCESSES; p++)
    n += ms_turns_look_due (p);
  g_assert_cmpint (n, ==, MS_TURNS_MAX_LOOKS);
  for (guint i = 0; i < G_N_ELEMENTS (due); i++)
    g_assert_true (ms_turns_look_due (due[i]));
  g_assert_false (ms_turns_look_due (7));
  g_assert_false (ms_turns_look_due (2));
  /* Student's t at 1 - 0.0085: 2.387 with many degrees of freedom. */
  g_assert_cmpfloat_with_epsilon (ms_turns_quantile (100000), 2.387, 0.001);
  g_assert_cmpfloat (ms_turns_quantile (5), >, 3.2);
  MsTurns t;
  fill (&t, 4, 3, 0.15, -1, MS_MODE_PINNED, 1);
  for (int k = 0; k < 20; k++)
    ms_turns_look (&t, k);
  g_assert_cmpint (t.looks, ==, MS_TURNS_MAX_LOOKS);
  g_assert_false (any_open (&t));
}

/* The error the looks spend: a statistic that is a normal random walk's,
 * looked at after the processes ms_turns_look_due names, crosses the
 * looks' quantile at one of them in 4.1% of 200,000 draws (Pocock's level
 * for the schedule, a part of MS_TURNS_ALPHA); at one look alone 0.85%. */
static void
test_looks_spend_alpha (void)
{
  enum { DRAWS = 200000 };
  GRand *rng = g_rand_new_with_seed (81);
  double z = ms_turns_quantile (1000000);
  int crossed = 0;
  for (int d = 0; d < DRAWS; d++) {
    double walk = 0;
    int n = 0;
    bool over = false;
    for (int p = 1; p <= MS_MAX_PROCESSES && !over; p++) {
      double u = g_rand_double (rng), v = g_rand_double (rng);
      walk += sqrt (-2 * log (1 - u)) * cos (2 * G_PI * v);
      n = p;
      over = ms_turns_look_due (p) && walk / sqrt (n) > z;
    }
    crossed += over;
  }
  g_rand_free (rng);
  g_test_message ("crossed at some look: %.2f%%", 100.0 * crossed / DRAWS);
  g_assert_cmpfloat ((double) crossed / DRAWS, <=, MS_TURNS_ALPHA);
  g_assert_cmpfloat ((double) crossed / DRAWS, >=, MS_TURNS_ALPHA - 0.015);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/siblings/one-slowed", test_one_slowed);
  g_test_add_func ("/siblings/far-slower-names-one", test_far_slower_names_one);
  g_test_add_func ("/siblings/one-faster-one-mode", test_one_faster_one_mode);
  g_test_add_func ("/siblings/alike", test_alike);
  g_test_add_func ("/siblings/two-gpus-split", test_two_gpus_split);
  g_test_add_func ("/siblings/two-against-two", test_two_against_two);
  g_test_add_func ("/siblings/wide-is-undecided", test_wide_is_undecided);
  g_test_add_func ("/siblings/order-fitted-out", test_order_fitted_out);
  g_test_add_func ("/siblings/final", test_final);
  g_test_add_func ("/siblings/looks", test_looks);
  g_test_add_func ("/siblings/looks-spend-alpha", test_looks_spend_alpha);
  return g_test_run ();
}
