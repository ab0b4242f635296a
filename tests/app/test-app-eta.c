/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-eta.c: the sweep's time left from measured cost. Cells whose
 * cost grows with size (a latency plus a cost per element, different per
 * mode) must be predicted from the sizes measured so far, where the share
 * of cells done (the old estimate) is far off. */
#include "ms-eta.h"
#include "ms-sweep-test.h"

typedef struct {
  double latency_s, per_element_s;
} Cost;

static const Cost costs[MS_MODE_COUNT] = {
  [MS_MODE_PINNED] = { 20e-6, 0.5e-9 },
  [MS_MODE_HOST] = { 2e-6, 4e-9 },
};

static double
cell_seconds (const MsSweep *s, MsMode m, int e)
{
  return (s->reps + s->warmup) * (costs[m].latency_s + costs[m].per_element_s * (1 << e));
}

static MsSweep
two_mode_sweep (int rounds)
{
  MsSweep s;
  ms_test_sweep_init (&s, "pinned,host", 10, 24, 10);
  s.step = 1, s.warmup = 2, s.rounds = rounds;
  return s;
}

/* Feeds the cells in the runner's order up to `stop` (exclusive); returns
 * the true time of the rest. */
static double
feed (MsEta *eta, const MsSweep *s, int stop)
{
  int index = 0;
  double rest = 0;
  for (int round = 0; round < s->rounds; round++)
    for (int e = s->min_exp; e <= s->max_exp; e += s->step)
      for (int m = 0; m < MS_MODE_COUNT; m++) {
        if (!s->modes[m])
          continue;
        MsCell cell = { .mode = m, .exponent = e, .n_reps = s->reps, .status = MS_CELL_OK };
        double t = cell_seconds (s, m, e);
        if (index < stop)
          ms_eta_add (eta, index, &cell, t);
        else
          rest += t;
        index++;
      }
  return rest;
}

static void
test_eta_uneven_cells (void)
{
  MsSweep s = two_mode_sweep (1);
  g_autoptr (MsEta) eta = ms_eta_new (&s);
  /* One size per mode cannot tell latency from cost per element. */
  feed (eta, &s, 2);
  g_assert_cmpfloat (ms_eta_seconds_left (eta), ==, -1);
  g_autofree char *unknown = ms_eta_format (-1);
  g_assert_cmpstr (unknown, ==, "estimating the time left");

  g_autoptr (MsEta) eta2 = ms_eta_new (&s);
  double rest = feed (eta2, &s, 6); /* three sizes of 15 measured */
  double left = ms_eta_seconds_left (eta2);
  g_assert_cmpfloat_with_epsilon (left / rest, 1, 0.01);
  /* Here the share of cells done would say 0.1 s: the big cells come last. */
  double done = 0;
  for (int e = 10; e <= 12; e++)
    done += cell_seconds (&s, MS_MODE_PINNED, e) + cell_seconds (&s, MS_MODE_HOST, e);
  g_assert_cmpfloat (done / (6.0 / 30) - done, <, rest / 10);
  g_autofree char *text = ms_eta_format (left);
  g_assert_true (g_str_has_prefix (text, "about "));
}

/* A second round costs what the first did for the same cell; a failed cell
 * is not run again. */
static void
test_eta_rounds (void)
{
  MsSweep s = two_mode_sweep (2);
  g_autoptr (MsEta) eta = ms_eta_new (&s);
  double rest = feed (eta, &s, 31);
  g_assert_cmpfloat_with_epsilon (ms_eta_seconds_left (eta) / rest, 1, 1e-9);

  g_autoptr (MsEta) failing = ms_eta_new (&s);
  rest = feed (failing, &s, 30) - cell_seconds (&s, MS_MODE_PINNED, 10);
  MsCell bad = { .mode = MS_MODE_PINNED, .exponent = 10, .n_reps = 0, .status = MS_CELL_FAILED };
  ms_eta_add (failing, 0, &bad, 0.5);
  g_assert_cmpfloat_with_epsilon (ms_eta_seconds_left (failing) / rest, 1, 1e-9);
}

static void
test_eta_format (void)
{
  g_autofree char *a = ms_eta_format (39.2);
  g_autofree char *b = ms_eta_format (190);
  g_assert_cmpstr (a, ==, "about 40 s left");
  g_assert_cmpstr (b, ==, "about 3 min 10 s left");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/eta/uneven-cells", test_eta_uneven_cells);
  g_test_add_func ("/eta/rounds", test_eta_rounds);
  g_test_add_func ("/eta/format", test_eta_format);
  return g_test_run ();
}
