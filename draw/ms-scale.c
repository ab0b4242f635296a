/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-scale.c: axes for the charts. */
#include "ms-scale.h"

#include <math.h>

void
ms_format_size_label (double bytes, char *buf, gsize len)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    u++;
  }
  if (fabs (bytes - round (bytes)) < 1e-9)
    g_snprintf (buf, len, "%.0f %s", bytes, units[u]);
  else
    g_snprintf (buf, len, "%.1f %s", bytes, units[u]);
}

/* v rounded to three significant digits. */
static double
round_sig3 (double v)
{
  if (v == 0 || !isfinite (v))
    return v;
  double mag = pow (10, floor (log10 (fabs (v))) - 2);
  return round (v / mag) * mag;
}

void
ms_format_value (double v, char *buf, gsize len)
{
  double r = round_sig3 (v), a = fabs (r);
  if (a == 0)
    g_snprintf (buf, len, "0");
  else if (a >= 1e7 || a < 1e-3)
    g_snprintf (buf, len, "%.2e", r);
  else if (a >= 100)
    g_snprintf (buf, len, "%.0f", r);
  else
    g_snprintf (buf, len, "%.3g", r);
}

/* The unit a linear time axis up to max_us counts in: its size in µs, and
 * its name in name (µs, ms or s). */
static double
ms_time_unit (double max_us, const char **name)
{
  /* Rounded first, so that 999.7 µs reads "1 ms" and not "1000 µs". */
  double a = fabs (round_sig3 (max_us));
  if (a >= 1e6) {
    *name = "s";
    return 1e6;
  }
  if (a >= 1e3) {
    *name = "ms";
    return 1e3;
  }
  *name = "µs";
  return 1;
}

void
ms_format_time_us (double us, char *buf, gsize len)
{
  const char *name;
  double unit = ms_time_unit (us, &name);
  char v[32];
  ms_format_value (us / unit, v, sizeof v);
  g_snprintf (buf, len, "%s %s", v, name);
}

/* A tick's value exactly as the step makes it (2500, 0.125), in unit. */
static void
format_tick (const MsScale *s, double value, double unit, const char *unit_name, char *buf,
             gsize len)
{
  if (s->unit != MS_SCALE_TIME_US) {
    g_snprintf (buf, len, "%.6g", value);
    return;
  }
  if (s->kind != MS_SCALE_LINEAR) {
    ms_format_time_us (value, buf, len);
    return;
  }
  g_snprintf (buf, len, "%.6g %s", value / unit, unit_name);
}

static double
nice_step (double span, int target)
{
  double raw = span / MAX (target, 1);
  double mag = pow (10, floor (log10 (raw)));
  double f = raw / mag;
  double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return nice * mag;
}

void
ms_scale_fit (MsScale *scale, MsScaleKind kind, double lo, double hi)
{
  scale->kind = kind;
  if (!(lo <= hi) || !isfinite (lo) || !isfinite (hi)) {
    lo = kind == MS_SCALE_LINEAR ? 0 : 1;
    hi = kind == MS_SCALE_LINEAR ? 1 : 10;
  }
  switch (kind) {
  case MS_SCALE_LINEAR: {
    if (lo > 0)
      lo = 0;
    if (hi <= lo)
      hi = lo + 1;
    double step = nice_step (hi - lo, 5);
    scale->min = floor (lo / step) * step;
    scale->max = ceil (hi / step) * step;
    break;
  }
  case MS_SCALE_LOG10:
    if (lo <= 0)
      lo = hi > 0 ? hi / 1000 : 1;
    if (hi <= lo)
      hi = lo * 10;
    scale->min = pow (10, floor (log10 (lo) + 1e-9));
    scale->max = pow (10, ceil (log10 (hi) - 1e-9));
    if (scale->max <= scale->min)
      scale->max = scale->min * 10;
    break;
  case MS_SCALE_LOG2:
    if (lo <= 0)
      lo = 1;
    if (hi < lo)
      hi = lo;
    /* Half a step of margin each side so end points are not on the frame. */
    scale->min = pow (2, floor (log2 (lo) + 1e-9) - 0.5);
    scale->max = pow (2, ceil (log2 (hi) - 1e-9) + 0.5);
    break;
  }
}

/* The round value at or below v (down) or at or above it: a mantissa of
 * 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 or 10. */
static double
round_nice (double v, gboolean down)
{
  static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
  const int n = G_N_ELEMENTS (steps);
  double mag = pow (10, floor (log10 (v))), f = v / mag;
  if (down) {
    for (int i = n - 1; i >= 0; i--)
      if (steps[i] <= f * (1 + 1e-9))
        return steps[i] * mag;
    return mag;
  }
  for (int i = 0; i < n; i++)
    if (steps[i] >= f * (1 - 1e-9))
      return steps[i] * mag;
  return 10 * mag;
}

void
ms_scale_fit_tight (MsScale *scale, MsScaleKind kind, double lo, double hi)
{
  ms_scale_fit (scale, kind, lo, hi);
  if (kind != MS_SCALE_LOG10 || !(lo > 0) || !(hi >= lo) || !isfinite (hi))
    return;
  /* A tenth of room each way, so that no marker sits on the frame. */
  scale->min = round_nice (lo / 1.1, TRUE);
  scale->max = round_nice (hi * 1.1, FALSE);
}

void
ms_scale_keep_clear (MsScale *s, double lo, double hi, double length_px, double px_lo,
                     double px_hi)
{
  if (s->kind != MS_SCALE_LOG10 || !(lo > 0) || !(hi >= lo) || !isfinite (hi) ||
      px_lo + px_hi >= length_px / 2)
    return;
  /* Twice: widening one end moves the other end's pixels. */
  for (int pass = 0; pass < 2; pass++) {
    double min = log (s->min), max = log (s->max), a = log (lo), b = log (hi);
    double k_lo = px_lo / length_px, k_hi = px_hi / length_px;
    if (a - min < k_lo * (max - min))
      s->min = round_nice (exp ((a - k_lo * max) / (1 - k_lo)), TRUE);
    min = log (s->min);
    if (max - b < k_hi * (max - min))
      s->max = round_nice (exp ((b - k_hi * min) / (1 - k_hi)), FALSE);
  }
}

static double
to_unit (const MsScale *s, double v)
{
  switch (s->kind) {
  case MS_SCALE_LOG10:
  case MS_SCALE_LOG2:
    /* The base cancels out: two logarithms instead of six (a chart maps
     * thousands of values per draw). */
    return log (v / s->min) / log (s->max / s->min);
  case MS_SCALE_LINEAR:
  default:
    return (v - s->min) / (s->max - s->min);
  }
}

double
ms_scale_to_pixel (const MsScale *s, double value)
{
  if (s->kind != MS_SCALE_LINEAR && value <= 0)
    return s->pixel_lo;
  return s->pixel_lo + to_unit (s, value) * (s->pixel_hi - s->pixel_lo);
}

gboolean
ms_scale_contains (const MsScale *s, double value)
{
  double eps = (s->max - s->min) * 1e-9;
  return value >= s->min - eps && value <= s->max + eps;
}

/* The mantissas of the ticks of a log axis, sparsest first. */
static const double mantissas[][10] = {
  { 1 }, { 1, 2, 5 }, { 1, 2, 3, 5 }, { 1, 2, 3, 4, 5, 6, 7, 8, 9 },
  { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 },
};

static guint
log_ticks_of (const MsScale *s, MsTick *ticks, guint max_ticks, int lo, int hi, guint set)
{
  guint n = 0;
  for (int e = lo; e <= hi; e++)
    for (guint k = 0; k < 10 && mantissas[set][k] > 0; k++) {
      double v = mantissas[set][k] * pow (10, e);
      if (v < s->min * (1 - 1e-9) || v > s->max * (1 + 1e-9))
        continue;
      if (n >= max_ticks)
        return max_ticks + 1;
      if (ticks) {
        ticks[n].value = v;
        ticks[n].major = TRUE;
        format_tick (s, v, 1, NULL, ticks[n].label, sizeof ticks[n].label);
      }
      n++;
    }
  return n;
}

/* Whether the ticks of a set lie on both sides of a power of ten inside
 * the range (a ratio axis around 1 must be readable above and below it). */
static gboolean
log_ticks_both_sides (const MsScale *s, guint set, int lo, int hi)
{
  MsTick ticks[64];
  guint n = log_ticks_of (s, ticks, G_N_ELEMENTS (ticks), lo, hi, set);
  for (int e = lo; e <= hi; e++) {
    double p = pow (10, e);
    if (p <= s->min * (1 + 1e-9) || p >= s->max * (1 - 1e-9))
      continue;
    gboolean below = FALSE, above = FALSE;
    for (guint k = 0; k < MIN (n, G_N_ELEMENTS (ticks)); k++) {
      below = below || ticks[k].value < p * (1 - 1e-9);
      above = above || ticks[k].value > p * (1 + 1e-9);
    }
    if (!below || !above)
      return FALSE;
  }
  return TRUE;
}

/* 0 while the decades give four ticks or more; else the densest set of
 * mantissas that keeps within max_ticks, stopping once four are reached
 * (in a range under a factor of 4, with ticks on both sides of any power
 * of ten inside it). */
static guint
log_ticks (const MsScale *s, MsTick *ticks, guint max_ticks, int lo, int hi)
{
  if (log_ticks_of (s, NULL, max_ticks, lo, hi, 0) >= 4)
    return 0;
  guint best = 0;
  for (guint set = 1; set < G_N_ELEMENTS (mantissas); set++) {
    guint n = log_ticks_of (s, NULL, max_ticks, lo, hi, set);
    if (n > max_ticks)
      break;
    best = set;
    /* A narrow range (a ratio's around 1) needs both sides; a wide one
     * would crowd its decades' tops. */
    if (n >= 4 && (s->max > 4 * s->min || log_ticks_both_sides (s, set, lo, hi)))
      break;
  }
  return best ? log_ticks_of (s, ticks, max_ticks, lo, hi, best) : 0;
}

guint
ms_scale_ticks (const MsScale *s, MsTick *ticks, guint max_ticks)
{
  guint n = 0;
  if (max_ticks == 0)
    return 0;
  switch (s->kind) {
  case MS_SCALE_LINEAR: {
    double step = nice_step (s->max - s->min, MIN ((int) max_ticks - 1, 6));
    const char *unit_name;
    double unit = ms_time_unit (MAX (fabs (s->min), fabs (s->max)), &unit_name);
    for (double v = ceil (s->min / step - 1e-9) * step; v <= s->max + step * 1e-9 && n < max_ticks;
         v += step) {
      double value = fabs (v) < step * 1e-9 ? 0 : v;
      ticks[n].value = value;
      ticks[n].major = TRUE;
      format_tick (s, value, unit, unit_name, ticks[n].label, sizeof ticks[n].label);
      n++;
    }
    break;
  }
  case MS_SCALE_LOG10: {
    int lo = (int) floor (log10 (s->min) + 1e-9), hi = (int) ceil (log10 (s->max) - 1e-9);
    /* A range of a decade or two gets 1-2-5 (or every mantissa) ticks
     * when the decades alone would leave fewer than four to read by. */
    guint dense = log_ticks (s, ticks, max_ticks, lo, hi);
    if (dense > 0)
      return dense;
    /* The decades inside the range (a tight one need not end on them). */
    lo = (int) ceil (log10 (s->min) - 1e-9);
    hi = (int) floor (log10 (s->max) + 1e-9);
    /* Every decade when they fit, else every second (third ...), counted
     * from the top so that the largest keeps its label. */
    int every = 1;
    while ((hi - lo + every) / every > (int) max_ticks)
      every++;
    for (int e = hi - ((hi - lo) / every) * every; e <= hi && n < max_ticks; e += every) {
      ticks[n].value = pow (10, e);
      ticks[n].major = TRUE;
      format_tick (s, ticks[n].value, 1, NULL, ticks[n].label, sizeof ticks[n].label);
      n++;
    }
    break;
  }
  case MS_SCALE_LOG2: {
    int lo = (int) ceil (log2 (s->min) - 1e-9), hi = (int) floor (log2 (s->max) + 1e-9);
    int count = hi - lo + 1;
    /* Label every power of two when they fit, else every second or fourth,
     * counted from the largest so that the last size keeps its label. */
    int every = 1;
    while ((count + every - 1) / every > (int) max_ticks && every < 64)
      every *= 2;
    int first = hi - ((hi - lo) / every) * every;
    for (int e = first; e <= hi && n < max_ticks; e += every) {
      ticks[n].value = pow (2, e);
      ticks[n].major = TRUE;
      ms_scale_size_label (s, ticks[n].value, ticks[n].label, sizeof ticks[n].label);
      n++;
    }
    break;
  }
  }
  return n;
}

void
ms_scale_size_label (const MsScale *scale, double value, char *buf, gsize len)
{
  if (scale->unit == MS_SCALE_COUNT)
    g_snprintf (buf, len, "%.0f", value);
  else
    ms_format_size_label (value, buf, len);
}
