/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-verdict.c: a verdict's words and its SAME band (ms-verdict.h). */
#include "ms-verdict.h"

#include "ms-i18n.h"
#include "ms-names.h"

static const char *const verdict_keys[] = { "same", "faster", "slower", "ambiguous" };
static const char *const siblings_keys[] = { "alike", "differs", "undecided" };

const char *
ms_verdict_key (MsVerdict verdict)
{
  return verdict >= 0 && verdict < MS_VERDICT_COUNT ? verdict_keys[verdict] : "?";
}

MS_DEFINE_FROM_NAME (ms_verdict_from_key, MsVerdict, verdict_keys, MS_VERDICT_COUNT)

const char *
ms_verdict_label (MsVerdict verdict)
{
  static const char *const labels[]
      = { MS_N_ ("SAME"), MS_N_ ("FASTER"), MS_N_ ("SLOWER"), MS_N_ ("AMBIGUOUS") };
  return verdict >= 0 && verdict < MS_VERDICT_COUNT ? ms_gettext (labels[verdict]) : "?";
}

const char *
ms_siblings_result_key (MsSiblingsResult result)
{
  return result >= 0 && result < MS_SIBLINGS_RESULT_COUNT ? siblings_keys[result] : "undecided";
}

MS_DEFINE_FROM_NAME (ms_siblings_result_from_key, MsSiblingsResult, siblings_keys,
                     MS_SIBLINGS_RESULT_COUNT)

void
ms_verdict_band (double threshold, double *lo, double *hi)
{
  *lo = 1 - threshold;
  *hi = 1 + threshold;
}

double
ms_verdict_band_detectable (double threshold, double widen)
{
  double lo, hi;
  ms_verdict_band (threshold, &lo, &hi);
  return hi * widen - 1;
}
