/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-compare-options.c: a comparison's options, the threshold's one owner
 * (ms-compare-options.h). */
#include <stdio.h>
#include <string.h>

#include "ms-compare-options.h"
#include "ms-csv-number.h"
#include "ms-i18n.h"

void
ms_compare_options_init (MsCompareOptions *options)
{
  *options = (MsCompareOptions){ .threshold_pct = MS_COMPARE_DEFAULT_THRESHOLD_PCT };
}

bool
ms_compare_options_parse_threshold (MsCompareOptions *options, const char *text, char *err,
                                    size_t errlen)
{
  double pct;
  /* The files' decimal rule: digits with a point, no locale's comma. */
  if (!ms_csv_parse_decimal (text, strlen (text), &pct)) {
    snprintf (err, errlen, ms_gettext ("'%s' is not a number"), text);
    return false;
  }
  if (!(pct >= MS_COMPARE_MIN_THRESHOLD_PCT && pct <= MS_COMPARE_MAX_THRESHOLD_PCT)) {
    snprintf (err, errlen, ms_gettext ("the threshold is a percentage from %g to %g"),
              MS_COMPARE_MIN_THRESHOLD_PCT, MS_COMPARE_MAX_THRESHOLD_PCT);
    return false;
  }
  options->threshold_pct = pct;
  return true;
}

double
ms_compare_threshold_fraction (double pct)
{
  return pct / 100;
}

double
ms_compare_options_fraction (const MsCompareOptions *options)
{
  return ms_compare_threshold_fraction (options->threshold_pct);
}
