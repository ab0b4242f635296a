/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-k-stats.cu: the median that the probes (the kernel probe, the
 * reference copy) and the multi-GPU measurements report of their
 * samples. A leaf, so that the files of the probes need not call each
 * other for it. */
#include <stdlib.h>

#include "ms-k-stats.h"

static int
k_cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
k_median (double *values, int n)
{
  qsort (values, n, sizeof (double), k_cmp_double);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}
