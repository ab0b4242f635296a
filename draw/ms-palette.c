/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-palette.c: the series palette, the modes' and runs' looks and the
 * phase colours, light and dark. */
#include <glib/gi18n.h>
#include <math.h>

#include "ms-engine.h"
#include "ms-mode-list.h"
#include "ms-palette.h"

/* Phase colours: Okabe & Ito's palette, distinguishable with the common
 * colour vision deficiencies, each made as dark (on white) or light (on
 * dark) as it takes to stand 3:1 from its background (WCAG's contrast for
 * graphics: Okabe & Ito's orange and yellow were 2.3:1 on white), and no
 * darker, since phase names are written in black on the bars. One
 * exception: d2h on white keeps Okabe & Ito's sky blue (2.3:1), since any
 * blue dark enough for 3:1 is one blue with h2d beside it, unless h2d goes
 * too dark for its black names. On dark, h2d and d2h (Okabe & Ito's two
 * blues) are pulled apart in lightness and hue: lightened alike they were
 * one blue to the eye. The launch call is the kernel's colour, darker (on
 * dark only as dark as 3:1 allows: darker, it vanished there); the host
 * call a grey brown, apart from the kernel's orange. */
static const guint32 phase_light[] = { 0xC38700, 0x56B4E9, 0x009E73, 0xA58E00,
                                       0x0072B2, 0xD55E00, 0xCC79A7, 0x444444,
                                       0x8E44AD, 0x8B6F4E, 0x6B4A00 };
static const guint32 phase_dark[] = { 0xF0A818, 0x8AD7F5, 0x19C496, 0xF0E442,
                                      0x4F7CF0, 0xF07B2A, 0xE39BC2, 0xDDDDDD,
                                      0xC08FDD, 0xC49A5A, 0x9C6D0F };
G_STATIC_ASSERT (G_N_ELEMENTS (phase_light) == G_N_ELEMENTS (phase_dark));
/* How each mode looks: its series colour on light and on dark, its marker
 * and its dash, one line per mode by its id (MS_MODE_ID): the table below
 * is made through the mode list, so a mode without its line here fails to
 * compile (LOOK_ID undeclared).
 *
 * Colours: one hue in both styles, so that a mode keeps its colour when a
 * class switches to dark, only lighter. Searched (light and dark together,
 * over a 24-level sRGB grid, hues kept within 4 degrees of each other in
 * CIELAB) for the largest smallest CIEDE2000 distance between any two (with
 * deuteranopia and protanopia simulated, Machado 2009, held to half that
 * distance), among colours at least 25 from the background. On white every
 * colour reaches 3:1 (WCAG's contrast ratio for graphics) so that it reads
 * on a projector; on dark 4.5:1, since thin dotted lines on a projector read
 * as their colour's lightness. Host CPU is a grey in both. The rules a
 * colour must pass, with their reasons, are tests/fixtures/ms-palette-rules.h
 * (the render-layout test checks them); tools/palette-colours proposes
 * colours that pass them, for a new mode or a changed colour.
 *
 * Markers and dashes tell apart what colour alone cannot for every reader:
 * every { shape, dash } pair differs, and the modes whose curves lie on top
 * of each other (pinned, registered, write-combined, streams; zero-copy and
 * UVA; the two managed modes) differ in both.
 *
 * Registered on dark is a soft green (chroma 63 in CIELAB, where the
 * search's 0x21FF37 and then 0x60EA5A had 86 and more: neon, the loudest
 * thing on any dark slide). The rules leave no green that soft beside
 * device's dark 0x4EB185, which held the soft greens' place: device went a
 * little duller (0x50A480), the two chosen together, each with its light
 * colour kept. */
typedef struct {
  guint32 light, dark;
  guint8 shape, dash;
} MsModeLook;

/*                    light     dark      shape dash */
#define LOOK_PAGEABLE         0xB15921, 0xBC7A59, 0, 0
#define LOOK_PINNED           0x0B6FDE, 0x2185F4, 1, 0
#define LOOK_REGISTERED       0x649B64, 0x7CD46C, 2, 1
#define LOOK_WRITE_COMBINED   0xA685BC, 0xD3A6FF, 3, 2
#define LOOK_ZERO_COPY        0xB19000, 0xBC9600, 4, 0
#define LOOK_UVA              0x594300, 0xF4D8A4, 0, 3
#define LOOK_MANAGED          0x7A0B6F, 0xF40BD3, 3, 1
#define LOOK_MANAGED_PREFETCH 0x9B5964, 0xFFA6B1, 1, 2
#define LOOK_STREAMS          0x007A85, 0x44929D, 4, 3
#define LOOK_DEVICE           0x214E37, 0x50A480, 2, 0
#define LOOK_HOST             0x858585, 0xC8E9E9, 0, 2

#define LOOK_ENTRY(id, ...) [MS_MODE_##id] = { LOOK_##id },
static const MsModeLook looks[] = { MS_MODE_LIST (LOOK_ENTRY) };
G_STATIC_ASSERT (G_N_ELEMENTS (looks) == MS_MODE_COUNT);

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
  return G_N_ELEMENTS (looks);
}

void
ms_chart_palette_color (guint index, gboolean dark, MsColor *out)
{
  const MsModeLook *look = &looks[index % G_N_ELEMENTS (looks)];
  color_from_hex (dark ? look->dark : look->light, out);
}

void
ms_mode_look (MsMode mode, guint *color, guint *shape, guint *dash)
{
  guint m = (guint) mode < MS_MODE_COUNT ? (guint) mode : 0;
  *color = m;
  *shape = looks[m].shape;
  *dash = looks[m].dash;
}

MsMarkerFill
ms_run_fill (guint run)
{
  return (MsMarkerFill) (run % MS_RUN_STYLES);
}

void
ms_mode_variant_look (MsMode mode, guint variant, guint *color, guint *shape, guint *dash,
                      MsMarkerFill *fill)
{
  /* The reuse lesson runs pinned, zero-copy, UVA and managed: its
   * variants borrow the colours of modes it does not run. */
  static const struct {
    MsMode color;
    guint8 dash;
    MsMarkerFill fill;
  } variants[] = {
    { MS_MODE_REGISTERED, 1, MS_FILL_SOLID },
    { MS_MODE_PAGEABLE, 2, MS_FILL_HOLLOW },
    { MS_MODE_STREAMS, 3, MS_FILL_DOT },
  };
  ms_mode_look (mode, color, shape, dash);
  *fill = MS_FILL_SOLID;
  if (variant == 0)
    return;
  guint v = (variant - 1) % G_N_ELEMENTS (variants);
  *color = variants[v].color;
  *shape = 2;
  *dash = variants[v].dash;
  *fill = variants[v].fill;
}

/* Allocation and release are bookkeeping rather than data movement: neutral
 * greys (3:1 from either background too), the rest from the palette. */
const char *
ms_phase_label (MsPhase phase)
{
  /* TRANSLATORS: a phase in a timeline's key and on its bars; h2d and d2h
   * stay as they are (the key says what they are). */
  switch (phase) {
  case MS_PHASE_KERNEL: return C_ ("phase", "kernel");
  case MS_PHASE_LAUNCH: return C_ ("phase", "launch");
  case MS_PHASE_INIT: return C_ ("phase", "init");
  case MS_PHASE_VERIFY: return C_ ("phase", "verify");
  case MS_PHASE_HOST_FUNC: return C_ ("phase", "host-func");
  default: return ms_phase_name (phase);
  }
}

void
ms_phase_color (MsPhase phase, gboolean dark, MsColor *out)
{
  static const int map[MS_PHASE_COUNT] = {
    [MS_PHASE_ALLOC] = -1,     [MS_PHASE_INIT] = 3,   [MS_PHASE_REGISTER] = 6,
    [MS_PHASE_PREFETCH] = 2,   [MS_PHASE_H2D] = 4,    [MS_PHASE_KERNEL] = 0,
    [MS_PHASE_D2H] = 1,        [MS_PHASE_VERIFY] = 5, [MS_PHASE_UNREGISTER] = 7,
    [MS_PHASE_FREE] = -2,      [MS_PHASE_LAUNCH] = 10, [MS_PHASE_HOST_FUNC] = 8,
    [MS_PHASE_CALL] = 9,
  };
  int m = (unsigned) phase < MS_PHASE_COUNT ? map[phase] : -1;
  if (m >= 0) {
    color_from_hex ((dark ? phase_dark : phase_light)[m], out);
    return;
  }
  double g = m == -1 ? 0.55 : (dark ? 0.42 : 0.4);
  *out = (MsColor){ g, g, g, 1 };
}

/* WCAG's relative luminance of an sRGB colour. */
static double
luminance (const MsColor *c)
{
  const double v[3] = { c->red, c->green, c->blue }, w[3] = { 0.2126, 0.7152, 0.0722 };
  double l = 0;
  for (int i = 0; i < 3; i++)
    l += w[i] * (v[i] <= 0.04045 ? v[i] / 12.92 : pow ((v[i] + 0.055) / 1.055, 2.4));
  return l;
}

void
ms_ink_on (const MsColor *fill, MsColor *out)
{
  double l = luminance (fill);
  double on_black = (l + 0.05) / 0.05, on_white = 1.05 / (l + 0.05);
  double v = on_black >= 4.5 || on_black >= on_white ? 0 : 1;
  *out = (MsColor){ v, v, v, 1 };
}
