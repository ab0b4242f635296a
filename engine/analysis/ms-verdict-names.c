/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-verdict-names.c: a verdict and its reason by name, stable for files
 * and translated for tables (declared in ms-compare.h). Apart from
 * ms-compare.c so that the pooled verdicts (ms-compare-pool.c), which
 * ms-compare.c calls, name their verdicts without calling back into it. */
#include "ms-compare.h"
#include "ms-i18n.h"

const char *
ms_verdict_key (MsVerdict verdict)
{
  static const char *const keys[] = { "same", "faster", "slower", "ambiguous" };
  return verdict >= 0 && verdict < MS_VERDICT_COUNT ? keys[verdict] : "?";
}

const char *
ms_verdict_label (MsVerdict verdict)
{
  static const char *const labels[]
      = { MS_N_ ("SAME"), MS_N_ ("FASTER"), MS_N_ ("SLOWER"), MS_N_ ("AMBIGUOUS") };
  return verdict >= 0 && verdict < MS_VERDICT_COUNT ? ms_gettext (labels[verdict]) : "?";
}

const char *
ms_verdict_why_key (MsVerdictWhy why)
{
  static const char *const keys[]
      = { "inside", "outside", "crosses", "no-spread", "few-reps", "two-states", "no-median" };
  return why >= 0 && why < MS_WHY_COUNT ? keys[why] : "?";
}
