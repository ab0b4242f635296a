/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-palette.c: the series palette, the modes' and runs' looks and the
 * phase colours, light and dark. */
#include "ms-palette.h"

/* Phase colours: Okabe & Ito's palette, distinguishable with the common
 * colour vision deficiencies; each style gets a variant of yellow and black,
 * which do not read on every background. Phase names are written in black
 * on these bars, so all of them are light enough for that. On dark, h2d
 * and d2h (Okabe & Ito's two blues) are pulled apart in lightness and hue:
 * lightened alike they were one blue to the eye. */
static const guint32 phase_light[] = { 0xE69F00, 0x56B4E9, 0x009E73, 0xB89E00,
                                       0x0072B2, 0xD55E00, 0xCC79A7, 0x444444,
                                       0x8E44AD, 0xA6761D };
static const guint32 phase_dark[] = { 0xF0A818, 0x8AD7F5, 0x19C496, 0xF0E442,
                                      0x4F7CF0, 0xF07B2A, 0xE39BC2, 0xDDDDDD,
                                      0xC08FDD, 0xC49A5A };
/* Series colours, one per mode. Eight colours served eleven modes before
 * and three pairs were the same; these were searched (greedy, then one
 * colour at a time, over a 16-level sRGB grid) for the largest smallest
 * CIEDE2000 distance between any two, counting the distance with
 * deuteranopia and protanopia simulated (Machado 2009) twice, among colours
 * at least 25 from the background and of a lightness a line shows in
 * (L* 28..80 light, 45..92 dark). On white every colour reaches 3:1
 * (WCAG's contrast ratio for graphics) so that it reads on a projector:
 * zero-copy's yellow became a dark gold, and pageable, pinned, registered,
 * UVA and managed + prefetch moved the least that kept them apart from it
 * and from each other. Markers and dashes tell apart what colour alone
 * cannot for every reader. */
static const guint32 series_light[] = {
  [MS_MODE_PAGEABLE] = 0xBB6644,   [MS_MODE_PINNED] = 0x0088FF,
  [MS_MODE_REGISTERED] = 0x119966, [MS_MODE_WRITE_COMBINED] = 0xCC55BB,
  [MS_MODE_ZERO_COPY] = 0xBB8800,  [MS_MODE_UVA] = 0x775511,
  [MS_MODE_MANAGED] = 0x770088,    [MS_MODE_MANAGED_PREFETCH] = 0xFF5577,
  [MS_MODE_STREAMS] = 0x337788,    [MS_MODE_DEVICE] = 0x005533,
  [MS_MODE_HOST] = 0x444455,
};
/* On dark, every colour reaches 4.5:1 against the background (WCAG's
 * contrast ratio), since thin dotted lines on a projector read as their
 * colour's lightness: device only, UVA, zero-copy and managed + prefetch
 * were lightened from the search above (3.2:1 at the least before). */
static const guint32 series_dark[] = {
  [MS_MODE_PAGEABLE] = 0xFF2277,   [MS_MODE_PINNED] = 0x77DDFF,
  [MS_MODE_REGISTERED] = 0x33FF55, [MS_MODE_WRITE_COMBINED] = 0xDD22FF,
  [MS_MODE_ZERO_COPY] = 0x99BB00,  [MS_MODE_UVA] = 0xAA8833,
  [MS_MODE_MANAGED] = 0xEEBBBB,    [MS_MODE_MANAGED_PREFETCH] = 0x8899BB,
  [MS_MODE_STREAMS] = 0x00FFDD,    [MS_MODE_DEVICE] = 0x669988,
  [MS_MODE_HOST] = 0xEEDDAA,
};
G_STATIC_ASSERT (G_N_ELEMENTS (series_light) == MS_MODE_COUNT);
G_STATIC_ASSERT (G_N_ELEMENTS (series_dark) == MS_MODE_COUNT);

static void
color_from_hex (guint32 c, MsColor *out)
{
  out->red = ((c >> 16) & 0xff) / 255.0;
  out->green = ((c >> 8) & 0xff) / 255.0;
  out->blue = (c & 0xff) / 255.0;
  out->alpha = 1;
}

guint
ms_chart_palette_size (void)
{
  return G_N_ELEMENTS (series_light);
}

void
ms_chart_palette_color (guint index, gboolean dark, MsColor *out)
{
  color_from_hex ((dark ? series_dark : series_light)[index % G_N_ELEMENTS (series_light)], out);
}

void
ms_mode_look (MsMode mode, guint *color, guint *shape, guint *dash)
{
  /* { shape, dash }: every pair differs, and the modes whose curves lie
   * on top of each other (pinned, registered, write-combined, streams;
   * zero-copy and UVA; the two managed modes) differ in both. */
  static const guint8 look[MS_MODE_COUNT][2] = {
    [MS_MODE_PAGEABLE] = { 0, 0 },       [MS_MODE_PINNED] = { 1, 0 },
    [MS_MODE_REGISTERED] = { 2, 1 },     [MS_MODE_WRITE_COMBINED] = { 3, 2 },
    [MS_MODE_ZERO_COPY] = { 4, 0 },      [MS_MODE_UVA] = { 0, 3 },
    [MS_MODE_MANAGED] = { 3, 1 },        [MS_MODE_MANAGED_PREFETCH] = { 1, 2 },
    [MS_MODE_STREAMS] = { 4, 3 },        [MS_MODE_DEVICE] = { 2, 0 },
    [MS_MODE_HOST] = { 0, 2 },
  };
  guint m = (guint) mode < MS_MODE_COUNT ? (guint) mode : 0;
  *color = m;
  *shape = look[m][0];
  *dash = look[m][1];
}

MsMarkerFill
ms_run_fill (guint run)
{
  return (MsMarkerFill) (run % MS_RUN_STYLES);
}

static void
phase_palette_color (guint index, gboolean dark, MsColor *out)
{
  color_from_hex ((dark ? phase_dark : phase_light)[index % G_N_ELEMENTS (phase_light)], out);
}

/* Allocation and release are bookkeeping rather than data movement: neutral
 * greys, the rest from the palette. */
void
ms_phase_color (MsPhase phase, gboolean dark, MsColor *out)
{
  static const int map[MS_PHASE_COUNT] = {
    [MS_PHASE_ALLOC] = -1,     [MS_PHASE_INIT] = 3,   [MS_PHASE_REGISTER] = 6,
    [MS_PHASE_PREFETCH] = 2,   [MS_PHASE_H2D] = 4,    [MS_PHASE_KERNEL] = 0,
    [MS_PHASE_D2H] = 1,        [MS_PHASE_VERIFY] = 5, [MS_PHASE_UNREGISTER] = 7,
    [MS_PHASE_FREE] = -2,      [MS_PHASE_LAUNCH] = -3,    [MS_PHASE_HOST_FUNC] = 8,
    [MS_PHASE_CALL] = 9,
  };
  int m = (unsigned) phase < MS_PHASE_COUNT ? map[phase] : -1;
  if (m >= 0) {
    phase_palette_color (m, dark, out);
    return;
  }
  if (m == -3) {
    /* The launch call belongs to the kernel: its colour, darker. */
    phase_palette_color (map[MS_PHASE_KERNEL], dark, out);
    out->red *= 0.55;
    out->green *= 0.55;
    out->blue *= 0.55;
    return;
  }
  double g = m == -1 ? (dark ? 0.55 : 0.6) : (dark ? 0.42 : 0.45);
  *out = (MsColor){ g, g, g, 1 };
}
