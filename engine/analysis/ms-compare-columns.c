/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-columns.c: the verdict table's columns and each cell's value
 * in them (ms-compare-columns.h). A cell's own figures, then its mode's
 * pooled verdict and the whole run's, repeated on each row so that a data
 * tool needs no join. */
#include <math.h>

#include "ms-compare-columns.h"
#include "ms-compare-pool.h"
#include "ms-csv-field.h"
#include "ms-csv-private.h"
#include "ms-modes.h"

enum {
  COL_MODE, COL_EXPONENT, COL_BYTES, COL_VARIANT, COL_FIGURE,
  COL_A, COL_A_LOW, COL_A_HIGH, COL_B, COL_B_LOW, COL_B_HIGH,
  COL_RATIO, COL_RATIO_LOW, COL_RATIO_HIGH, COL_THRESHOLD,
  COL_VERDICT, COL_WHY, COL_DETECTABLE, COL_DECIDE_BY,
  COL_MODE_VERDICT, COL_MODE_RATIO, COL_MODE_RATIO_LOW, COL_MODE_RATIO_HIGH,
  COL_MODE_DETECTABLE, COL_RUN_VERDICT,
};

const MsCompareColumn ms_compare_columns[MS_COMPARE_N_COLUMNS] = {
  [COL_MODE] = { "mode", MS_COMPARE_TEXT },
  [COL_EXPONENT] = { "exponent", 0 },
  [COL_BYTES] = { "bytes_per_vector", 0 },
  [COL_VARIANT] = { "variant", MS_COMPARE_TEXT },
  [COL_FIGURE] = { "figure", MS_COMPARE_TEXT },
  [COL_A] = { "a_median_us", 3 },
  [COL_A_LOW] = { "a_low_us", 3 },
  [COL_A_HIGH] = { "a_high_us", 3 },
  [COL_B] = { "b_median_us", 3 },
  [COL_B_LOW] = { "b_low_us", 3 },
  [COL_B_HIGH] = { "b_high_us", 3 },
  [COL_RATIO] = { "ratio", 4 },
  [COL_RATIO_LOW] = { "ratio_low", 4 },
  [COL_RATIO_HIGH] = { "ratio_high", 4 },
  [COL_THRESHOLD] = { "threshold", 4 },
  [COL_VERDICT] = { "verdict", MS_COMPARE_TEXT },
  [COL_WHY] = { "why", MS_COMPARE_TEXT },
  [COL_DETECTABLE] = { "detectable", 4 },
  [COL_DECIDE_BY] = { "decide_by", MS_COMPARE_TEXT },
  [COL_MODE_VERDICT] = { "mode_verdict", MS_COMPARE_TEXT },
  [COL_MODE_RATIO] = { "mode_ratio", 4 },
  [COL_MODE_RATIO_LOW] = { "mode_ratio_low", 4 },
  [COL_MODE_RATIO_HIGH] = { "mode_ratio_high", 4 },
  [COL_MODE_DETECTABLE] = { "mode_detectable", 4 },
  [COL_RUN_VERDICT] = { "run_verdict", MS_COMPARE_TEXT },
};

static bool
both (const MsCompareCell *c)
{
  return c->in_a && c->in_b;
}

const char *
ms_compare_text (const MsComparison *cmp, size_t row, int column)
{
  const MsCompareCell *c = &cmp->cells[row];
  const MsPooledVerdict *pooled = &cmp->pooled[c->mode];
  switch (column) {
  case COL_MODE:
    return ms_mode_name (c->mode);
  case COL_VARIANT:
    return c->variant;
  case COL_FIGURE:
    return ms_figure_name (cmp->figure);
  case COL_VERDICT:
    return both (c) ? ms_verdict_key (c->verdict) : c->in_a ? "only-a" : "only-b";
  case COL_WHY:
    return ms_verdict_why_key (both (c) ? c->judgement.why : MS_WHY_NO_MEDIAN);
  case COL_DECIDE_BY:
    /* Words for a person: what would decide an undecided cell. */
    return ms_verdict_remedy_text (both (c) ? c->judgement.why : MS_WHY_NO_MEDIAN);
  case COL_MODE_VERDICT:
    return pooled->method != MS_POOL_NONE ? ms_verdict_key (pooled->verdict) : "";
  case COL_RUN_VERDICT:
    return ms_verdict_key (cmp->pooled_run.verdict);
  default:
    return "";
  }
}

static double
pooled_number (const MsPooledVerdict *v, double value)
{
  return v->method != MS_POOL_NONE ? value : NAN;
}

double
ms_compare_number (const MsComparison *cmp, size_t row, int column)
{
  const MsCompareCell *c = &cmp->cells[row];
  const MsPooledVerdict *v = &cmp->pooled[c->mode];
  switch (column) {
  case COL_EXPONENT:
    return c->exponent;
  case COL_BYTES:
    return (double) (4ull << c->exponent);
  case COL_A:
    return c->a.median;
  case COL_A_LOW:
    return c->a.lo;
  case COL_A_HIGH:
    return c->a.hi;
  case COL_B:
    return c->b.median;
  case COL_B_LOW:
    return c->b.lo;
  case COL_B_HIGH:
    return c->b.hi;
  case COL_RATIO:
    return c->ratio;
  case COL_RATIO_LOW:
    return both (c) ? c->judgement.lo : NAN;
  case COL_RATIO_HIGH:
    return both (c) ? c->judgement.hi : NAN;
  case COL_THRESHOLD:
    return cmp->threshold;
  case COL_DETECTABLE:
    return both (c) ? c->judgement.detectable : NAN;
  case COL_MODE_RATIO:
    return pooled_number (v, v->ratio);
  case COL_MODE_RATIO_LOW:
    return pooled_number (v, v->lo);
  case COL_MODE_RATIO_HIGH:
    return pooled_number (v, v->hi);
  case COL_MODE_DETECTABLE:
    return pooled_number (v, v->detectable);
  default:
    return NAN;
  }
}

static void
write_value (FILE *out, const MsComparison *cmp, size_t row, int k)
{
  if (ms_compare_columns[k].decimals == MS_COMPARE_TEXT) {
    ms_csv_field_write (out, ms_compare_text (cmp, row, k));
    return;
  }
  double v = ms_compare_number (cmp, row, k);
  if (isfinite (v))
    fprintf (out, "%.*f", ms_compare_columns[k].decimals, v);
}

bool
ms_comparison_write_csv (const MsComparison *cmp, FILE *out)
{
  /* Numbers with a point whatever the program's locale. */
  locale_t old = ms_csv_enter_c_locale ();
  for (int k = 0; k < MS_COMPARE_N_COLUMNS; k++)
    fprintf (out, "%s%s", k ? "," : "", ms_compare_columns[k].name);
  fputc ('\n', out);
  for (size_t i = 0; i < cmp->n_cells; i++) {
    for (int k = 0; k < MS_COMPARE_N_COLUMNS; k++) {
      if (k)
        fputc (',', out);
      write_value (out, cmp, i, k);
    }
    fputc ('\n', out);
  }
  ms_csv_leave_c_locale (old);
  return fflush (out) == 0 && !ferror (out);
}
