/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-compare-plot.c: `memsweep compare --plot FILE`, the difference
 * chart (draw/ms-compare-chart.c) exported as PNG, SVG or PDF. */
#include "ms-cli-common.h"
#include "ms-cli-compare.h"

bool
ms_cli_compare_plot (const char *path, const MsComparison *cmp, const MsResults *a,
                     const MsResults *b)
{
  (void) path;
  (void) cmp;
  (void) a;
  (void) b;
  return false;
}
