/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-draw.c: colours, text, markers and axis steps shared by every chart. */
#include "ms-draw.h"

#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

void
ms_chart_style_init_light (MsChartStyle *s)
{
  memset (s, 0, sizeof *s);
  s->fg = (MsColor){ 0.13, 0.13, 0.13, 1 };
  s->bg = (MsColor){ 1, 1, 1, 1 };
  s->text_scale = 1;
  s->line_scale = 1;
}

void
ms_chart_style_init_dark (MsChartStyle *s)
{
  memset (s, 0, sizeof *s);
  s->fg = (MsColor){ 1, 1, 1, 1 };
  s->bg = (MsColor){ 0.12, 0.12, 0.12, 1 };
  s->dark = TRUE;
  s->text_scale = 1;
  s->line_scale = 1;
}

double
ms_style_font_size (const MsChartStyle *s)
{
  return 12.0 * s->text_scale;
}

double
ms_style_line_width (const MsChartStyle *s)
{
  return 1.6 * s->line_scale;
}

/* Phase colours: Okabe & Ito's palette, distinguishable with the common
 * colour vision deficiencies; each style gets a variant of yellow and black,
 * which do not read on every background. Phase names are written in black
 * on these bars, so all of them are light enough for that. */
static const guint32 phase_light[] = { 0xE69F00, 0x56B4E9, 0x009E73, 0xB89E00,
                                       0x0072B2, 0xD55E00, 0xCC79A7, 0x444444 };
static const guint32 phase_dark[] = { 0xF0A818, 0x72C4F2, 0x19C496, 0xF0E442,
                                      0x4EA3E8, 0xF07B2A, 0xE39BC2, 0xDDDDDD };

/* Series colours, one per mode. Eight colours served eleven modes before
 * and three pairs were the same; these were searched (greedy, then one
 * colour at a time, over a 16-level sRGB grid) for the largest smallest
 * CIEDE2000 distance between any two, counting the distance with
 * deuteranopia and protanopia simulated (Machado 2009) twice, among colours
 * at least 25 from the background and of a lightness a line shows in
 * (L* 28..80 light, 45..92 dark). Markers and dashes tell apart what colour
 * alone cannot for every reader. */
static const guint32 series_light[] = {
  [MS_MODE_PAGEABLE] = 0xCC6644,   [MS_MODE_PINNED] = 0x0099FF,
  [MS_MODE_REGISTERED] = 0x00AA77, [MS_MODE_WRITE_COMBINED] = 0xCC55BB,
  [MS_MODE_ZERO_COPY] = 0xEEBB00,  [MS_MODE_UVA] = 0x885500,
  [MS_MODE_MANAGED] = 0x770088,    [MS_MODE_MANAGED_PREFETCH] = 0x9999AA,
  [MS_MODE_STREAMS] = 0x337788,    [MS_MODE_DEVICE] = 0x005533,
  [MS_MODE_HOST] = 0x444455,
};
static const guint32 series_dark[] = {
  [MS_MODE_PAGEABLE] = 0xFF2277,   [MS_MODE_PINNED] = 0x77DDFF,
  [MS_MODE_REGISTERED] = 0x33FF55, [MS_MODE_WRITE_COMBINED] = 0xCC00FF,
  [MS_MODE_ZERO_COPY] = 0xAA9900,  [MS_MODE_UVA] = 0xAA5500,
  [MS_MODE_MANAGED] = 0xEEBBBB,    [MS_MODE_MANAGED_PREFETCH] = 0x7788AA,
  [MS_MODE_STREAMS] = 0x00FFDD,    [MS_MODE_DEVICE] = 0x447766,
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
    [MS_PHASE_FREE] = -2,      [MS_PHASE_LAUNCH] = -3,
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

void
ms_set_color (cairo_t *cr, const MsColor *c, double alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

void
ms_draw_background (cairo_t *cr, const MsChartStyle *st)
{
  ms_set_color (cr, &st->bg, 1);
  cairo_paint (cr);
}

/* Laid-out labels are kept across draws, per thread: a chart lays out the
 * same few dozen labels every frame (and measures most of them before
 * drawing them), and laying them out was a quarter of a draw. One context
 * per thread is shared by every layout and kept in step with the target's
 * matrix and font options, so that a change there, or in the fonts, makes
 * each layout lay itself out again; rotated text has a context of its own,
 * so that the y axis title does not throw the others away on every frame.
 * pango_cairo_update_context marks its context changed on every call
 * (Pango 1.50), which alone made every label lay itself out again each
 * time: it is called only when the matrix or the options differ. */
enum { MS_TEXT_PLAIN, MS_TEXT_ELLIPSIZED, MS_TEXT_WRAPPED };
enum { MS_TEXT_CACHE_MAX = 512 };

typedef struct {
  double size;
  int width; /* Pango units; -1 for none */
  guint8 bold, mode;
  char text[];
} MsTextKey;

static guint
text_key_hash (gconstpointer p)
{
  const MsTextKey *k = p;
  return g_str_hash (k->text) ^ g_double_hash (&k->size) ^ (guint) k->width * 31u ^
         (guint) (k->bold | k->mode << 1) * 7919u;
}

static gboolean
text_key_equal (gconstpointer a, gconstpointer b)
{
  const MsTextKey *x = a, *y = b;
  return x->size == y->size && x->width == y->width && x->bold == y->bold &&
         x->mode == y->mode && strcmp (x->text, y->text) == 0;
}

/* A layout with its size and baseline, measured when the context last
 * changed: Pango measures a layout afresh on every call (font metrics
 * included), which cost more than the glyphs. */
typedef struct {
  PangoLayout *layout;
  guint serial; /* the context's when measured */
  int w, h;     /* pixels */
  int baseline; /* Pango units */
  gboolean one_line;
} MsTextEntry;

static void
text_entry_free (gpointer data)
{
  MsTextEntry *e = data;
  g_object_unref (e->layout);
  g_free (e);
}

typedef struct {
  PangoContext *context;
  GHashTable *layouts; /* MsTextKey -> MsTextEntry */
  /* What the context was last updated from: the matrix without its
   * translation, the target's and the cairo_t's font options merged. */
  double xx, yx, xy, yy;
  cairo_font_options_t *options, *scratch;
} MsTextContext;

typedef struct {
  MsTextContext upright, rotated;
  PangoFontDescription *font;
} MsTextCache;

static void
text_context_clear (MsTextContext *t)
{
  g_clear_pointer (&t->layouts, g_hash_table_unref);
  g_clear_object (&t->context);
  g_clear_pointer (&t->options, cairo_font_options_destroy);
  g_clear_pointer (&t->scratch, cairo_font_options_destroy);
}

/* Brings the context in step with cr when the matrix or the font options
 * differ from the last time. */
static void
text_context_update (MsTextContext *t, cairo_t *cr, const cairo_matrix_t *m)
{
  cairo_surface_get_font_options (cairo_get_target (cr), t->scratch);
  cairo_font_options_t *own = cairo_font_options_create ();
  cairo_get_font_options (cr, own);
  cairo_font_options_merge (t->scratch, own);
  cairo_font_options_destroy (own);
  if (t->xx == m->xx && t->yx == m->yx && t->xy == m->xy && t->yy == m->yy &&
      cairo_font_options_equal (t->options, t->scratch))
    return;
  pango_cairo_update_context (cr, t->context);
  cairo_font_options_destroy (t->options);
  t->options = cairo_font_options_copy (t->scratch);
  t->xx = m->xx;
  t->yx = m->yx;
  t->xy = m->xy;
  t->yy = m->yy;
}

static void
text_cache_free (gpointer data)
{
  MsTextCache *c = data;
  text_context_clear (&c->upright);
  text_context_clear (&c->rotated);
  g_clear_pointer (&c->font, pango_font_description_free);
  g_free (c);
}

static GPrivate text_cache_key = G_PRIVATE_INIT (text_cache_free);

static MsTextContext *
text_context (cairo_t *cr)
{
  MsTextCache *c = g_private_get (&text_cache_key);
  if (!c) {
    c = g_new0 (MsTextCache, 1);
    c->font = pango_font_description_new ();
    pango_font_description_set_family (c->font, "Sans");
    g_private_set (&text_cache_key, c);
  }
  cairo_matrix_t m;
  cairo_get_matrix (cr, &m);
  MsTextContext *t = m.xy != 0 || m.yx != 0 ? &c->rotated : &c->upright;
  if (!t->context) {
    t->context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
    t->layouts = g_hash_table_new_full (text_key_hash, text_key_equal, g_free, text_entry_free);
    t->options = cairo_font_options_create ();
    t->scratch = cairo_font_options_create ();
    t->xx = NAN; /* the first update always happens */
  }
  text_context_update (t, cr, &m);
  return t;
}

/* The layout of text at size and weight, max_w user units wide (< 0: no
 * limit) and wrapped or ellipsized there as mode says, measured; laid out
 * when first asked for, then reused. */
static const MsTextEntry *
text_layout (cairo_t *cr, const char *text, double size, gboolean bold, double max_w, int mode)
{
  MsTextContext *t = text_context (cr);
  gsize len = strlen (text);
  MsTextKey *key = g_malloc (sizeof (MsTextKey) + len + 1);
  key->size = size;
  key->width = max_w < 0 ? -1 : (int) (max_w * PANGO_SCALE);
  key->bold = bold != FALSE;
  key->mode = mode;
  memcpy (key->text, text, len + 1);
  MsTextEntry *e = g_hash_table_lookup (t->layouts, key);
  if (e) {
    g_free (key);
  } else {
    /* Time axes label every zoom level afresh: dropping everything now
     * and then bounds the memory and costs one frame's layouts. */
    if (g_hash_table_size (t->layouts) >= MS_TEXT_CACHE_MAX)
      g_hash_table_remove_all (t->layouts);
    MsTextCache *c = g_private_get (&text_cache_key);
    e = g_new0 (MsTextEntry, 1);
    e->layout = pango_layout_new (t->context);
    pango_font_description_set_absolute_size (c->font, size * PANGO_SCALE);
    pango_font_description_set_weight (c->font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description (e->layout, c->font);
    pango_layout_set_text (e->layout, text, (int) len);
    pango_layout_set_width (e->layout, key->width);
    if (mode == MS_TEXT_ELLIPSIZED)
      pango_layout_set_ellipsize (e->layout, PANGO_ELLIPSIZE_END);
    else if (mode == MS_TEXT_WRAPPED)
      pango_layout_set_wrap (e->layout, PANGO_WRAP_WORD_CHAR);
    e->serial = pango_context_get_serial (t->context) - 1;
    g_hash_table_insert (t->layouts, key, e);
  }
  guint serial = pango_context_get_serial (t->context);
  if (e->serial != serial) {
    pango_layout_get_pixel_size (e->layout, &e->w, &e->h);
    e->baseline = pango_layout_get_baseline (e->layout);
    e->one_line = pango_layout_get_line_count (e->layout) == 1;
    e->serial = serial;
  }
  return e;
}

typedef struct {
  MsTextSink sink;
  gpointer data;
} MsTextSinkSlot;

static const cairo_user_data_key_t text_sink_key;

void
ms_draw_set_text_sink (cairo_t *cr, MsTextSink sink, gpointer data)
{
  MsTextSinkSlot *slot = NULL;
  if (sink) {
    slot = g_new (MsTextSinkSlot, 1);
    *slot = (MsTextSinkSlot){ sink, data };
  }
  cairo_set_user_data (cr, &text_sink_key, slot, g_free);
}

/* Glyphs with their top left at (x, y), or the SVG export's <text>
 * through the sink. A single line goes out as that line at its baseline:
 * the same glyphs, without the walk over the layout that measures it
 * again. */
static void
emit_layout (cairo_t *cr, const MsTextEntry *e, double x, double y)
{
  MsTextSinkSlot *slot = cairo_get_user_data (cr, &text_sink_key);
  if (slot) {
    cairo_move_to (cr, x, y);
    slot->sink (cr, e->layout, slot->data);
  } else if (e->one_line) {
    cairo_move_to (cr, x, y + e->baseline / (double) PANGO_SCALE);
    pango_cairo_show_layout_line (cr, pango_layout_get_line_readonly (e->layout, 0));
  } else {
    cairo_move_to (cr, x, y);
    pango_cairo_show_layout (cr, e->layout);
  }
}

typedef struct {
  MsTextRecorder recorder;
  gpointer user_data;
} MsTextRecording;

static GPrivate text_recording_key = G_PRIVATE_INIT (g_free);

void
ms_draw_set_text_recorder (MsTextRecorder recorder, gpointer user_data)
{
  MsTextRecording *r = g_private_get (&text_recording_key);
  if (!r) {
    r = g_new0 (MsTextRecording, 1);
    g_private_set (&text_recording_key, r);
  }
  r->recorder = recorder;
  r->user_data = user_data;
}

/* Reports the box (x, y, w, h) in user units, as the device box around
 * its corners (rotated axis titles included). */
static void
record_text (cairo_t *cr, const char *text, double x, double y, double w, double h)
{
  MsTextRecording *r = g_private_get (&text_recording_key);
  if (!r || !r->recorder)
    return;
  double xs[4] = { x, x + w, x, x + w }, ys[4] = { y, y, y + h, y + h };
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (int i = 0; i < 4; i++) {
    cairo_user_to_device (cr, &xs[i], &ys[i]);
    x0 = MIN (x0, xs[i]);
    x1 = MAX (x1, xs[i]);
    y0 = MIN (y0, ys[i]);
    y1 = MAX (y1, ys[i]);
  }
  r->recorder (text, x0, y0, x1 - x0, y1 - y0, r->user_data);
}

static void
show_layout (cairo_t *cr, const MsTextEntry *e, const char *text, double x, double y)
{
  emit_layout (cr, e, x, y);
  record_text (cr, text, x, y, e->w, e->h);
}

/* Text from files (labels, device names) may not be UTF-8: Pango would
 * warn and stop drawing, an SVG would not parse. Returns text, or a valid
 * copy in *copy. */
static const char *
valid_text (const char *text, char **copy)
{
  *copy = g_utf8_validate (text, -1, NULL) ? NULL : g_utf8_make_valid (text, -1);
  return *copy ? *copy : text;
}

void
ms_draw_text_max (cairo_t *cr, const char *text, double x, double y, double size, double max_w)
{
  g_autofree char *copy = NULL;
  text = valid_text (text, &copy);
  show_layout (cr, text_layout (cr, text, size, FALSE, max_w, MS_TEXT_ELLIPSIZED), text, x, y);
}

double
ms_draw_text_wrapped (cairo_t *cr, const char *text, double x, double y, double size,
                      double max_w, gboolean bold, gboolean draw)
{
  g_autofree char *copy = NULL;
  text = valid_text (text, &copy);
  const MsTextEntry *e = text_layout (cr, text, size, bold, MAX (max_w, size), MS_TEXT_WRAPPED);
  if (draw)
    show_layout (cr, e, text, x, y);
  return e->h;
}

void
ms_draw_text (cairo_t *cr, const char *text, double x, double y, double size, double align_x,
              double align_y, gboolean bold, double *w_out, double *h_out)
{
  g_autofree char *copy = NULL;
  text = valid_text (text, &copy);
  const MsTextEntry *e = text_layout (cr, text, size, bold, -1, MS_TEXT_PLAIN);
  if (w_out)
    *w_out = e->w;
  if (h_out)
    *h_out = e->h;
  if (align_x >= 0)
    show_layout (cr, e, text, x - e->w * align_x, y - e->h * align_y);
}

guint
ms_dash_pattern (guint dash, double lw, double pattern[4])
{
  static const double shapes[3][4] = { { 6, 3 }, { 1, 2.5 }, { 6, 2.5, 1, 2.5 } };
  static const guint counts[3] = { 2, 2, 4 };
  if (dash == 0)
    return 0;
  guint k = MIN (dash, 3) - 1;
  for (guint i = 0; i < counts[k]; i++)
    pattern[i] = shapes[k][i] * lw;
  return counts[k];
}

void
ms_set_dash (cairo_t *cr, guint dash, double lw)
{
  double pattern[4];
  guint n = ms_dash_pattern (dash, lw, pattern);
  cairo_set_dash (cr, n ? pattern : NULL, (int) n, 0);
}

void
ms_marker_path (cairo_t *cr, guint shape, double x, double y, double r)
{
  switch (shape % MS_MARKER_SHAPES) {
  case 0:
    cairo_new_sub_path (cr);
    cairo_arc (cr, x, y, r, 0, 2 * G_PI);
    break;
  case 1:
    cairo_rectangle (cr, x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8);
    break;
  case 2:
    cairo_move_to (cr, x, y - r * 1.15);
    cairo_line_to (cr, x + r * 1.05, y + r * 0.75);
    cairo_line_to (cr, x - r * 1.05, y + r * 0.75);
    cairo_close_path (cr);
    break;
  case 4:
    cairo_move_to (cr, x, y + r * 1.15);
    cairo_line_to (cr, x + r * 1.05, y - r * 0.75);
    cairo_line_to (cr, x - r * 1.05, y - r * 0.75);
    cairo_close_path (cr);
    break;
  default:
    cairo_move_to (cr, x, y - r * 1.2);
    cairo_line_to (cr, x + r * 1.2, y);
    cairo_line_to (cr, x, y + r * 1.2);
    cairo_line_to (cr, x - r * 1.2, y);
    cairo_close_path (cr);
    break;
  }
}

void
ms_draw_marker (cairo_t *cr, guint shape, double x, double y, double r, gboolean filled)
{
  ms_marker_path (cr, shape, x, y, r);
  if (filled)
    cairo_fill (cr);
  else
    cairo_stroke (cr);
}

guint
ms_axis_ticks (const MsScale *scale, double length_px, double spacing_px, MsTick *ticks,
               guint cap)
{
  guint wanted = (guint) MAX (2, length_px / spacing_px);
  return ms_scale_ticks (scale, ticks, MIN (wanted, cap));
}

/* Grid lines are rectangles to fill, not lines to stroke: the same pixels,
 * but Cairo fills axis-aligned rectangles several times faster. */
void
ms_grid_boxes (const MsScale *scale, const MsTick *ticks, guint n, double lo, double hi,
               double line_width, gboolean vertical, double *boxes)
{
  for (guint i = 0; i < n; i++) {
    double at = round (ms_scale_to_pixel (scale, ticks[i].value)) + 0.5 - line_width / 2;
    double *b = boxes + 4 * i;
    b[0] = vertical ? at : lo;
    b[1] = vertical ? lo : at;
    b[2] = vertical ? line_width : hi - lo;
    b[3] = vertical ? hi - lo : line_width;
  }
}

void
ms_boxes_path (cairo_t *cr, const double *boxes, guint n)
{
  for (guint i = 0; i < n; i++)
    cairo_rectangle (cr, boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]);
}

static void
grid_path (cairo_t *cr, const MsScale *scale, const MsTick *ticks, guint n, double lo, double hi,
           double line_width, gboolean vertical)
{
  double *boxes = g_new (double, 4 * MAX (n, 1));
  ms_grid_boxes (scale, ticks, n, lo, hi, line_width, vertical, boxes);
  ms_boxes_path (cr, boxes, n);
  g_free (boxes);
}

void
ms_grid_path_x (cairo_t *cr, const MsScale *xs, const MsTick *ticks, guint n, double y0, double y1,
                double line_width)
{
  grid_path (cr, xs, ticks, n, y0, y1, line_width, TRUE);
}

void
ms_grid_path_y (cairo_t *cr, const MsScale *ys, const MsTick *ticks, guint n, double x0, double x1,
                double line_width)
{
  grid_path (cr, ys, ticks, n, x0, x1, line_width, FALSE);
}

void
ms_frame_boxes (double x, double y, double w, double h, double line_width, double boxes[16])
{
  /* Four strips that do not overlap: Cairo's fast path for boxes, where
   * an even-odd pair of rectangles costs a general polygon. */
  double x0 = x + 0.5 - line_width / 2, y0 = y + 0.5 - line_width / 2;
  double x1 = x + w - 0.5 + line_width / 2, y1 = y + h - 0.5 + line_width / 2;
  const double strips[16] = {
    x0, y0, x1 - x0, line_width,
    x0, y1 - line_width, x1 - x0, line_width,
    x0, y0 + line_width, line_width, y1 - y0 - 2 * line_width,
    x1 - line_width, y0 + line_width, line_width, y1 - y0 - 2 * line_width,
  };
  memcpy (boxes, strips, sizeof strips);
}

void
ms_frame_rect (cairo_t *cr, double x, double y, double w, double h, double line_width)
{
  double boxes[16];
  ms_frame_boxes (x, y, w, h, line_width, boxes);
  ms_boxes_path (cr, boxes, 4);
  cairo_fill (cr);
}

void
ms_draw_time_axis (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, double top,
                   double bottom, double spacing_px, double right_edge)
{
  const double fs = ms_style_font_size (st);
  MsTick ticks[16];
  MsScale scale = *xs;
  scale.unit = MS_SCALE_TIME_US;
  guint n = ms_axis_ticks (&scale, xs->pixel_hi - xs->pixel_lo, spacing_px, ticks, 16);
  ms_set_color (cr, &st->fg, 0.12);
  ms_grid_path_x (cr, xs, ticks, n, top, bottom, 1);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 0.8);
  for (guint i = 0; i < n; i++) {
    double px = round (ms_scale_to_pixel (xs, ticks[i].value)) + 0.5, tw;
    ms_draw_text (cr, ticks[i].label, 0, 0, fs, -1, 0, FALSE, &tw, NULL);
    /* Centred under its line, but never past the edge: the last tick's
     * label was cut in a narrow window. */
    double x = MIN (px - tw / 2, right_edge - tw);
    ms_draw_text (cr, ticks[i].label, MAX (x, 0), bottom + fs * 0.3, fs, 0, 0, FALSE, NULL, NULL);
  }
}

double
ms_draw_phase_legend (cairo_t *cr, const gboolean seen[MS_PHASE_COUNT], const MsChartStyle *st,
                      double x, double y, double max_x, gboolean draw)
{
  const double fs = ms_style_font_size (st);
  double tw, th = fs, cx = x, cy = y;
  for (int p = 0; p < MS_PHASE_COUNT; p++) {
    if (!seen[p])
      continue;
    ms_draw_text (cr, ms_phase_name (p), 0, 0, fs, -1, 0, FALSE, &tw, &th);
    if (cx > x && cx + fs * 1.3 + tw > max_x) {
      cx = x;
      cy += th * 1.3;
    }
    if (!draw) {
      cx += fs * 1.3 + tw + fs * 1.0;
      continue;
    }
    MsColor c;
    ms_phase_color (p, st->dark, &c);
    ms_set_color (cr, &c, 1);
    cairo_rectangle (cr, cx, cy + fs * 0.2, fs, fs);
    cairo_fill (cr);
    ms_set_color (cr, &st->fg, 0.9);
    ms_draw_text (cr, ms_phase_name (p), cx + fs * 1.3, cy, fs, 0, 0, FALSE, NULL, NULL);
    cx += fs * 1.3 + tw + fs * 1.0;
  }
  return cy + th - y;
}
