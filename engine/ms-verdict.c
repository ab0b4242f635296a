/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-verdict.c: a verdict's words and its SAME band (ms-verdict.h). */
#include "ms-verdict.h"

#include "ms-i18n.h"
#include "ms-names.h"

static const char *const verdict_keys[] = { "same", "faster", "slower", "ambiguous" };
static const char *const siblings_keys[] = { "alike", "differs", "undecided" };
static const char *const verdict_labels[]
    = { MS_N_ ("SAME"), MS_N_ ("FASTER"), MS_N_ ("SLOWER"), MS_N_ ("AMBIGUOUS") };

MS_DEFINE_LOOKUP (ms_verdict_key, const char *, MsVerdict, MS_VERDICT_COUNT, verdict_keys[i], "?")
MS_DEFINE_FROM_NAME (ms_verdict_from_key, MsVerdict, verdict_keys, MS_VERDICT_COUNT)
MS_DEFINE_LOOKUP (ms_verdict_label, const char *, MsVerdict, MS_VERDICT_COUNT,
                  ms_gettext (verdict_labels[i]), "?")
MS_DEFINE_LOOKUP (ms_siblings_result_key, const char *, MsSiblingsResult,
                  MS_SIBLINGS_RESULT_COUNT, siblings_keys[i], "undecided")
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
