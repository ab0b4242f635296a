/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-color-test.h: colour science for the render tests: sRGB to CIELAB
 * (D65), colour vision deficiency simulated after Machado, Oliveira and
 * Fernandes (2009, severity 1), and the CIEDE2000 difference (Sharma, Wu
 * and Dalal 2005). */
#pragma once

#include <math.h>

#include "ms-draw.h"

static inline double
ms_test_linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static inline double
ms_test_lab_f (double t)
{
  return t > 216.0 / 24389 ? cbrt (t) : (24389.0 / 27 * t + 16) / 116;
}

/* vision: 0 normal, 1 deuteranopia, 2 protanopia. */
static inline void
ms_test_lab (const MsColor *c, int vision, double lab[3])
{
  static const double cvd[3][3][3] = {
    { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
    { { 0.367322, 0.860646, -0.227968 },
      { 0.280085, 0.672501, 0.047413 },
      { -0.011820, 0.042940, 0.968881 } },
    { { 0.152286, 1.052583, -0.204868 },
      { 0.114503, 0.786281, 0.099216 },
      { -0.003882, -0.048116, 1.051998 } },
  };
  double lin[3] = { ms_test_linear (c->red), ms_test_linear (c->green),
                    ms_test_linear (c->blue) };
  double rgb[3];
  for (int i = 0; i < 3; i++) {
    const double *m = cvd[vision][i];
    rgb[i] = fmin (1, fmax (0, m[0] * lin[0] + m[1] * lin[1] + m[2] * lin[2]));
  }
  double x = 0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2];
  double y = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2];
  double z = 0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2];
  double fx = ms_test_lab_f (x / 0.95047), fy = ms_test_lab_f (y), fz = ms_test_lab_f (z / 1.08883);
  lab[0] = 116 * fy - 16;
  lab[1] = 500 * (fx - fy);
  lab[2] = 200 * (fy - fz);
}

static inline double
ms_test_deg (double rad)
{
  return rad * 180 / G_PI;
}

static inline double
ms_test_rad (double deg)
{
  return deg * G_PI / 180;
}

static inline double
ms_test_hue (double b, double a)
{
  if (a == 0 && b == 0)
    return 0;
  double h = ms_test_deg (atan2 (b, a));
  return h < 0 ? h + 360 : h;
}

static inline double
ms_test_ciede2000 (const double lab1[3], const double lab2[3])
{
  double c1 = hypot (lab1[1], lab1[2]), c2 = hypot (lab2[1], lab2[2]);
  double cm7 = pow ((c1 + c2) / 2, 7);
  double g = 0.5 * (1 - sqrt (cm7 / (cm7 + pow (25, 7))));
  double a1 = (1 + g) * lab1[1], a2 = (1 + g) * lab2[1];
  double c1p = hypot (a1, lab1[2]), c2p = hypot (a2, lab2[2]);
  double h1 = ms_test_hue (lab1[2], a1), h2 = ms_test_hue (lab2[2], a2);
  double dl = lab2[0] - lab1[0], dc = c2p - c1p, dh = 0;
  if (c1p * c2p != 0) {
    dh = h2 - h1;
    dh = dh > 180 ? dh - 360 : dh < -180 ? dh + 360 : dh;
  }
  double dhh = 2 * sqrt (c1p * c2p) * sin (ms_test_rad (dh / 2));
  double lm = (lab1[0] + lab2[0]) / 2, cmp = (c1p + c2p) / 2, hm = h1 + h2;
  if (c1p * c2p != 0) {
    hm = (h1 + h2) / 2;
    if (fabs (h1 - h2) > 180)
      hm += hm < 180 ? 180 : -180;
  }
  double t = 1 - 0.17 * cos (ms_test_rad (hm - 30)) + 0.24 * cos (ms_test_rad (2 * hm)) +
             0.32 * cos (ms_test_rad (3 * hm + 6)) - 0.20 * cos (ms_test_rad (4 * hm - 63));
  double dtheta = 30 * exp (-pow ((hm - 275) / 25, 2));
  double cmp7 = pow (cmp, 7);
  double rc = 2 * sqrt (cmp7 / (cmp7 + pow (25, 7)));
  double sl = 1 + 0.015 * pow (lm - 50, 2) / sqrt (20 + pow (lm - 50, 2));
  double sc = 1 + 0.045 * cmp, sh = 1 + 0.015 * cmp * t;
  double rt = -sin (ms_test_rad (2 * dtheta)) * rc;
  return sqrt (pow (dl / sl, 2) + pow (dc / sc, 2) + pow (dhh / sh, 2) +
               rt * (dc / sc) * (dhh / sh));
}
