/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-results.c: the median's confidence interval, the constrained fit,
 * the stop rule and the summary columns. */
#include <stdint.h>

#include "memsweep.h"
#include "ms-test.h"

/* The largest l with P(B <= l - 1) <= 2.5%, B ~ Binomial(n, 1/2), from
 * exact integer binomial coefficients: independent of the engine's
 * logarithmic sum. Valid for n <= 60. */
static int
exact_lower_rank (int n)
{
  uint64_t coef = 1; /* C(n, k) */
  double tail = 0;
  int l = 0;
  for (int k = 0; k < n; k++) {
    tail += ldexp ((double) coef, -n);
    if (tail > 0.025)
      break;
    l = k + 1;
    coef = coef * (uint64_t) (n - k) / (uint64_t) (k + 1);
  }
  return l;
}

static void
test_ci_ranks (void)
{
  /* Published tables of distribution-free intervals for the median. */
  static const struct { int n, lo, hi; } table[] = {
    { 6, 1, 6 }, { 10, 2, 9 }, { 20, 6, 15 }, { 30, 10, 21 }, { 50, 18, 33 }, { 100, 40, 61 },
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    int lo = -1, hi = -1;
    bool ok = ms_median_ci_ranks (table[i].n, &lo, &hi);
    MS_CHECK (ok && lo == table[i].lo && hi == table[i].hi, "n=%d: ranks %d..%d, want %d..%d",
              table[i].n, lo, hi, table[i].lo, table[i].hi);
  }
  for (int n = 1; n <= 60; n++) {
    int lo = -1, hi = -1;
    int want = exact_lower_rank (n);
    bool ok = ms_median_ci_ranks (n, &lo, &hi);
    if (want == 0)
      MS_CHECK (!ok && lo == 1 && hi == n, "n=%d too small: %d %d %d", n, ok, lo, hi);
    else
      MS_CHECK (ok && lo == want && hi == n + 1 - want, "n=%d: %d..%d, want %d", n, lo, hi, want);
  }
  /* Large n: the interval shrinks like 1/sqrt(n) around the middle rank, and
   * the normal approximation n/2 - 0.98 sqrt(n) is good to a rank or two. */
  static const int big[] = { 1000, 12345, 100000 };
  for (size_t i = 0; i < 3; i++) {
    int n = big[i], lo, hi;
    bool ok = ms_median_ci_ranks (n, &lo, &hi);
    double approx = n / 2.0 - 0.98 * sqrt ((double) n);
    MS_CHECK (ok && fabs (lo - approx) <= 2 && hi == n + 1 - lo, "n=%d: %d..%d near %.1f", n, lo,
              hi, approx);
  }
}

static void
test_median_ci (void)
{
  /* Unsorted 1..10: ranks 2 and 9 are the values 2 and 9. */
  double v[] = { 7, 3, 10, 1, 9, 2, 8, 5, 4, 6 };
  double med, lo, hi;
  MS_CHECK (ms_median_ci (v, 10, &med, &lo, &hi), "n=10 has a 95%% interval");
  MS_CHECK (med == 5.5 && lo == 2 && hi == 9, "median %g [%g, %g]", med, lo, hi);
  MS_CHECK (v[0] == 7 && v[9] == 6, "values left in their order");
  /* Five samples: no 95% interval; min and max stand in. */
  MS_CHECK (!ms_median_ci (v, 5, &med, &lo, &hi), "n=5 is too small");
  MS_CHECK (med == 7 && lo == 1 && hi == 10, "median %g [%g, %g]", med, lo, hi);
  MS_CHECK (!ms_median_ci (v, 0, &med, &lo, &hi), "n=0");
  MsStat st = ms_stat_compute (v, 10);
  MS_CHECK (st.ci_valid && st.ci_low == 2 && st.ci_high == 9 && st.min == 1 && st.max == 10,
            "MsStat carries the interval");
}

int
main (void)
{
  MS_RUN (test_ci_ranks);
  MS_RUN (test_median_ci);
  return ms_test_finish ();
}
