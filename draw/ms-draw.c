/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-draw.c: colours, text, markers and axis steps shared by every chart. */
#include "ms-draw.h"
#include "ms-engine.h"
#include "ms-palette.h"

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

double
ms_style_marker_radius (const MsChartStyle *s)
{
  return ms_style_font_size (s) * 0.35 * sqrt (s->line_scale);
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
  gboolean cut; /* ellipsized: the words went on past its width */
  double size;  /* user units, as asked for */
  gboolean bold;
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

static const MsTextEntry *text_layout (cairo_t *cr, const char *text, double size, gboolean bold,
                                       double max_w, int mode);

/* The height of a capital's ink ("H", laid out as every text of the
 * drawing is) at size, in user units (the window's pixels, on screen). */
static double
cap_height (cairo_t *cr, double size)
{
  PangoRectangle ink;
  pango_layout_get_extents (text_layout (cr, "H", size, FALSE, -1, 0)->layout, &ink, NULL);
  return ink.height / (double) PANGO_SCALE;
}

/* The least sizes on cr: the words', the figures' capital height (0:
 * none) and the size that reaches it. */
typedef struct {
  double text, cap, figure;
} LeastSizes;

static const cairo_user_data_key_t least_sizes_key;

static LeastSizes
least_sizes (cairo_t *cr)
{
  const LeastSizes *least = cairo_get_user_data (cr, &least_sizes_key);
  return least ? *least : (LeastSizes){ 0 };
}

static void
set_least_sizes (cairo_t *cr, LeastSizes sizes)
{
  LeastSizes *least = g_memdup2 (&sizes, sizeof sizes);
  cairo_set_user_data (cr, &least_sizes_key, least, g_free);
  /* A figure size not found yet: the least whose capitals reach the cap,
   * found once for the drawing (the words' least size in force), a
   * quarter of a unit at a time from the cap (a capital is less than its
   * font's size). */
  if (least->cap > 0 && least->figure == 0)
    for (least->figure = least->cap;
         cap_height (cr, least->figure) < least->cap && least->figure < least->cap * 4;)
      least->figure += 0.25;
}

double
ms_draw_get_least_text (cairo_t *cr)
{
  return least_sizes (cr).text;
}

double
ms_draw_figure_size (cairo_t *cr, double size)
{
  return MAX (size, least_sizes (cr).figure);
}

MsLeastSizes
ms_draw_slide_sizes_begin (cairo_t *cr, const MsChartStyle *style, double height)
{
  LeastSizes now = least_sizes (cr);
  MsLeastSizes before = { now.text, now.cap };
  if (ms_draw_is_slide (style, height)) {
    now.text = MAX (now.text, ms_style_font_size (style));
    /* The figures of the slide itself, a Lessons page projected alone
     * (1024x768: 540 to 636 px high, 28 lines and more); a lesson pane
     * beside the cards keeps its figures at the body size, its rows too
     * low for larger ones, and so does a window's, not projected (a pane
     * 400 px high drew them at a projector's size, off its edges). */
    if (now.cap == 0 && !style->paper
        && (style->slide
            || (style->text_scale > 1 && height >= ms_style_font_size (style) * 26)))
      now.cap = MS_SLIDE_FIGURE_CAP;
    set_least_sizes (cr, now);
  }
  return before;
}

void
ms_draw_slide_sizes_end (cairo_t *cr, MsLeastSizes before)
{
  LeastSizes now = least_sizes (cr);
  if (now.cap != before.figure_cap)
    now = (LeastSizes){ .cap = before.figure_cap };
  now.text = before.text;
  set_least_sizes (cr, now);
}

/* The layout of text at size and weight, max_w user units wide (< 0: no
 * limit) and wrapped or ellipsized there as mode says, measured; laid out
 * when first asked for, then reused. */
static const MsTextEntry *
text_layout (cairo_t *cr, const char *text, double size, gboolean bold, double max_w, int mode)
{
  MsTextContext *t = text_context (cr);
  size = MAX (size, ms_draw_get_least_text (cr));
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
    e->size = size;
    e->bold = bold != FALSE;
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
    e->cut = pango_layout_is_ellipsized (e->layout);
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
  MsTextRecorder cut_recorder;
  gpointer cut_data;
  MsTextSizeRecorder size_recorder;
  gpointer size_data;
} MsTextRecording;

static GPrivate text_recording_key = G_PRIVATE_INIT (g_free);

static MsTextRecording *
text_recording (void)
{
  MsTextRecording *r = g_private_get (&text_recording_key);
  if (!r) {
    r = g_new0 (MsTextRecording, 1);
    g_private_set (&text_recording_key, r);
  }
  return r;
}

void
ms_draw_set_text_recorder (MsTextRecorder recorder, gpointer user_data)
{
  MsTextRecording *r = text_recording ();
  r->recorder = recorder;
  r->user_data = user_data;
}

void
ms_draw_set_cut_recorder (MsTextRecorder recorder, gpointer user_data)
{
  MsTextRecording *r = text_recording ();
  r->cut_recorder = recorder;
  r->cut_data = user_data;
}

void
ms_draw_set_size_recorder (MsTextSizeRecorder recorder, gpointer user_data)
{
  MsTextRecording *r = text_recording ();
  r->size_recorder = recorder;
  r->size_data = user_data;
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

static const cairo_user_data_key_t text_only_key;
static const cairo_user_data_key_t data_only_key;

/* Everything clipped away, the mode marked on cr: a drawing lifts the
 * clip for what the mode keeps (text, or a chart's data). */
static void
keep_only_begin (cairo_t *cr, const cairo_user_data_key_t *key)
{
  cairo_save (cr);
  cairo_new_path (cr);
  cairo_rectangle (cr, 0, 0, 0, 0);
  cairo_clip (cr);
  cairo_set_user_data (cr, key, GINT_TO_POINTER (1), NULL);
}

static void
keep_only_end (cairo_t *cr, const cairo_user_data_key_t *key)
{
  cairo_set_user_data (cr, key, NULL, NULL);
  cairo_restore (cr);
}

void
ms_draw_text_only_begin (cairo_t *cr)
{
  keep_only_begin (cr, &text_only_key);
}

void
ms_draw_text_only_end (cairo_t *cr)
{
  keep_only_end (cr, &text_only_key);
}

void
ms_draw_data_only_begin (cairo_t *cr)
{
  keep_only_begin (cr, &data_only_key);
}

void
ms_draw_data_only_end (cairo_t *cr)
{
  keep_only_end (cr, &data_only_key);
}

gboolean
ms_draw_is_data_only (cairo_t *cr)
{
  return cairo_get_user_data (cr, &data_only_key) != NULL;
}

gboolean
ms_draw_is_slide (const MsChartStyle *style, double height)
{
  return style->slide || height < ms_style_font_size (style) * 34;
}

double
ms_draw_fade_alpha (const MsChartStyle *style, double alpha)
{
  return style->dark && alpha < 1 ? 1 - (1 - alpha) / 2 : alpha;
}

gboolean
ms_draw_faded (cairo_t *cr, double alpha, MsFadedDraw draw, gpointer data)
{
  if (alpha >= 1 || ms_draw_is_data_only (cr))
    return draw (cr, data);
  cairo_save (cr);
  cairo_push_group (cr);
  gboolean drawn = draw (cr, data);
  cairo_pop_group_to_source (cr);
  if (drawn)
    cairo_paint_with_alpha (cr, alpha);
  cairo_restore (cr);
  if (drawn && !ms_draw_has_text_sink (cr)) {
    ms_draw_text_only_begin (cr);
    draw (cr, data);
    ms_draw_text_only_end (cr);
  }
  return drawn;
}

gboolean
ms_draw_has_text_sink (cairo_t *cr)
{
  return cairo_get_user_data (cr, &text_sink_key) != NULL;
}

static void
show_layout (cairo_t *cr, const MsTextEntry *e, const char *text, double x, double y)
{
  if (cairo_get_user_data (cr, &data_only_key))
    return;
  if (cairo_get_user_data (cr, &text_only_key)) {
    /* The words again over a faded drawing, past the pass's empty clip;
     * recorded once, by the drawing under them. */
    cairo_save (cr);
    cairo_reset_clip (cr);
    emit_layout (cr, e, x, y);
    cairo_restore (cr);
    return;
  }
  emit_layout (cr, e, x, y);
  record_text (cr, text, x, y, e->w, e->h);
  MsTextRecording *r = g_private_get (&text_recording_key);
  if (r && r->size_recorder) {
    /* The size of e's font on the device: its size in user units times the
     * matrix's scale (the square root of its determinant, which a rotation
     * leaves alone). */
    cairo_matrix_t m;
    cairo_get_matrix (cr, &m);
    r->size_recorder (text, e->size * sqrt (fabs (m.xx * m.yy - m.xy * m.yx)), e->bold,
                      r->size_data);
  }
  if (e->cut && r && r->cut_recorder)
    r->cut_recorder (text, x, y, e->w, e->h, r->cut_data);
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
ms_draw_note (cairo_t *cr, const MsChartStyle *style, const char *text, double x, double y,
              double max_w, gboolean draw)
{
  /* Full strength, as a chart's foot note: grey notes washed out on a
   * projector. */
  if (draw)
    ms_set_color (cr, &style->fg, 1);
  return ms_draw_text_wrapped (cr, text, x, y, ms_style_font_size (style), max_w, FALSE, draw);
}

double
ms_draw_runs_line_height (cairo_t *cr, const MsChartStyle *style, const char *text,
                          double height)
{
  if (!text || !*text)
    return 0;
  double size = ms_style_font_size (style) * 0.85, h;
  ms_draw_text (cr, text, 0, 0, size, -1, 0, FALSE, NULL, &h);
  double strip = h + size * 0.6;
  return strip > height / 4 ? 0 : strip;
}

double
ms_draw_runs_line (cairo_t *cr, const MsChartStyle *style, const char *text, double width,
                   double height)
{
  double strip = ms_draw_runs_line_height (cr, style, text, height);
  if (strip == 0)
    return 0;
  double size = ms_style_font_size (style) * 0.85;
  /* Its own strip under the drawing, so that it covers nothing. */
  ms_set_color (cr, &style->bg, 1);
  cairo_rectangle (cr, 0, height - strip, width, strip);
  cairo_fill (cr);
  ms_set_color (cr, &style->fg, 0.8);
  ms_draw_text_max (cr, text, size, height - strip + size * 0.3, size, width - 2 * size);
  return strip;
}

char *
ms_text_join_units (const char *text)
{
  /* The units memsweep writes after a figure; a word that merely starts
   * like one ("16 streams", "2 Bytes") is not one. */
  static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "GB/s", "MB/s", "GB",
                                       "MB",  "B",   "ns",  "µs",  "ms",   "s" };
  GString *out = g_string_sized_new (strlen (text) + 16);
  for (const char *p = text; *p; p++) {
    gboolean joined = FALSE;
    if (*p == ' ' && p > text && g_ascii_isdigit (p[-1]))
      for (guint i = 0; i < G_N_ELEMENTS (units) && !joined; i++) {
        gsize n = strlen (units[i]);
        joined = strncmp (p + 1, units[i], n) == 0 && !g_ascii_isalnum (p[1 + n]);
      }
    /* A name equal to a figure, "n = 6", in one piece: the register
     * handout broke "from n" from "= 6". */
    if (*p == ' ' && p > text && g_ascii_isalnum (p[-1]) && strncmp (p, " = ", 3) == 0
        && g_ascii_isdigit (p[3]))
      joined = TRUE;
    if (*p == ' ' && p - text >= 2 && p[-1] == '=' && p[-2] == ' ' && g_ascii_isdigit (p[1]))
      joined = TRUE;
    if (joined)
      g_string_append (out, "\u00a0");
    else
      g_string_append_c (out, *p);
  }
  return g_string_free (out, FALSE);
}

gboolean
ms_draw_fonts_ready (void)
{
  /* Families may still be listed then; a digit laid out shows whether a
   * face could be opened: its ink is empty, or its size nonsense. */
  /* A context of the font map alone: a surface made here would number
   * the SVG's surfaces one on. */
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  PangoLayout *layout = pango_layout_new (context);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 12");
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "0", -1);
  PangoRectangle ink, logical;
  pango_layout_get_pixel_extents (layout, &ink, &logical);
  gboolean ready = ink.height > 0 && logical.height > 0 && logical.height < 100 &&
                   pango_layout_get_unknown_glyphs_count (layout) == 0;
  pango_font_description_free (font);
  g_object_unref (layout);
  g_object_unref (context);
  return ready;
}

double
ms_draw_text_wrapped (cairo_t *cr, const char *text, double x, double y, double size,
                      double max_w, gboolean bold, gboolean draw)
{
  g_autofree char *copy = NULL;
  text = valid_text (text, &copy);
  /* Laid out joined; recorded as written, which the tests search. */
  g_autofree char *joined = ms_text_join_units (text);
  const MsTextEntry *e = text_layout (cr, joined, size, bold, MAX (max_w, size), MS_TEXT_WRAPPED);
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

double
ms_draw_text_width (cairo_t *cr, const char *text, double size, gboolean bold)
{
  double w;
  ms_draw_text (cr, text, 0, 0, size, -1, 0, bold, &w, NULL);
  return w;
}

void
ms_draw_line (cairo_t *cr, double line_width, double x0, double y0, double x1, double y1)
{
  cairo_set_line_width (cr, line_width);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y1);
  cairo_stroke (cr);
}

/* The lengths of dash (as ms_set_dash takes it) for line_width into
 * pattern; returns how many (0 for solid). */
static guint
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

/* A polygon marker's corners (shapes 1 to 4) around (x, y), as x, y
 * pairs in pts; returns how many. */
static guint
marker_corners (guint shape, double x, double y, double r, double pts[8])
{
  switch (shape % MS_MARKER_SHAPES) {
  case 1: {
    const double h = r * 0.9, square[8] = { x - h, y - h, x + h, y - h, x + h, y + h, x - h, y + h };
    memcpy (pts, square, sizeof square);
    return 4;
  }
  case 2:
  case 4: {
    /* Pointing up, or down for 4. */
    const double s = shape % MS_MARKER_SHAPES == 2 ? 1 : -1;
    const double tri[6] = { x, y - s * r * 1.15, x + r * 1.05, y + s * r * 0.75,
                            x - r * 1.05, y + s * r * 0.75 };
    memcpy (pts, tri, sizeof tri);
    return 3;
  }
  default: {
    const double d = r * 1.2, diamond[8] = { x, y - d, x + d, y, x, y + d, x - d, y };
    memcpy (pts, diamond, sizeof diamond);
    return 4;
  }
  }
}

static void
polygon_path (cairo_t *cr, const double *pts, guint n)
{
  for (guint i = 0; i < n; i++)
    (i ? cairo_line_to : cairo_move_to) (cr, pts[2 * i], pts[2 * i + 1]);
  cairo_close_path (cr);
}

void
ms_marker_path (cairo_t *cr, guint shape, double x, double y, double r)
{
  if (shape % MS_MARKER_SHAPES == 0) {
    cairo_new_sub_path (cr);
    cairo_arc (cr, x, y, r, 0, 2 * G_PI);
    return;
  }
  double pts[8];
  polygon_path (cr, pts, marker_corners (shape, x, y, r, pts));
}

static void
markers_path (cairo_t *cr, guint shape, const double *xy, guint n, double r)
{
  for (guint i = 0; i < n; i++)
    ms_marker_path (cr, shape, xy[2 * i], xy[2 * i + 1], r);
}

/* How far (x, y) lies inside the half of a marker at (cx, cy) that fill
 * names: the lower, upper, left or right one. */
static double
half_side (MsMarkerFill fill, double cx, double cy, double x, double y)
{
  switch (fill) {
  case MS_FILL_LOWER_HALF: return y - cy;
  case MS_FILL_UPPER_HALF: return cy - y;
  case MS_FILL_LEFT_HALF: return cx - x;
  default: return x - cx;
  }
}

/* The half of a marker that fill names, as a path of its own: a half
 * disc, or the polygon cut along the line through its centre. A path and
 * not a clip, so that a series' halves go out in one fill. */
static void
half_marker_path (cairo_t *cr, guint shape, MsMarkerFill fill, double x, double y, double r)
{
  if (shape % MS_MARKER_SHAPES == 0) {
    static const double start[] = { [MS_FILL_LOWER_HALF] = 0, [MS_FILL_UPPER_HALF] = G_PI,
                                    [MS_FILL_LEFT_HALF] = G_PI / 2,
                                    [MS_FILL_RIGHT_HALF] = -G_PI / 2 };
    cairo_new_sub_path (cr);
    cairo_arc (cr, x, y, r, start[fill], start[fill] + G_PI);
    cairo_close_path (cr);
    return;
  }
  double in[8], out[10];
  guint n = marker_corners (shape, x, y, r, in), m = 0;
  /* One cut of a convex polygon: keep the corners inside, add where an
   * edge crosses the line. */
  for (guint i = 0; i < n; i++) {
    const double *p = in + 2 * i, *q = in + 2 * ((i + 1) % n);
    double sp = half_side (fill, x, y, p[0], p[1]), sq = half_side (fill, x, y, q[0], q[1]);
    if (sp >= 0) {
      out[2 * m] = p[0];
      out[2 * m++ + 1] = p[1];
    }
    if ((sp < 0) != (sq < 0)) {
      double t = sp / (sp - sq);
      out[2 * m] = p[0] + t * (q[0] - p[0]);
      out[2 * m++ + 1] = p[1] + t * (q[1] - p[1]);
    }
  }
  if (m >= 3)
    polygon_path (cr, out, m);
}

void
ms_draw_markers (cairo_t *cr, guint shape, MsMarkerFill fill, const double *xy, guint n, double r,
                 double line_width, const MsColor *face)
{
  if (n == 0)
    return;
  cairo_set_line_width (cr, line_width);
  if (face && fill != MS_FILL_SOLID && fill != MS_FILL_HALO) {
    cairo_pattern_t *ink = cairo_pattern_reference (cairo_get_source (cr));
    markers_path (cr, shape, xy, n, r);
    ms_set_color (cr, face, 1);
    cairo_fill (cr);
    cairo_set_source (cr, ink);
    cairo_pattern_destroy (ink);
  }
  markers_path (cr, shape, xy, n, r);
  switch (fill) {
  case MS_FILL_SOLID:
    cairo_fill (cr);
    return;
  case MS_FILL_HALO:
    cairo_fill (cr);
    markers_path (cr, shape, xy, n, r * 1.7);
    cairo_set_line_width (cr, line_width * 0.7);
    break;
  case MS_FILL_DOT:
    cairo_stroke (cr);
    for (guint i = 0; i < n; i++)
      ms_marker_path (cr, 0, xy[2 * i], xy[2 * i + 1], r * 0.4);
    cairo_fill (cr);
    return;
  case MS_FILL_LOWER_HALF:
  case MS_FILL_UPPER_HALF:
  case MS_FILL_LEFT_HALF:
  case MS_FILL_RIGHT_HALF:
    cairo_stroke (cr);
    for (guint i = 0; i < n; i++)
      half_marker_path (cr, shape, fill, xy[2 * i], xy[2 * i + 1], r);
    cairo_fill (cr);
    return;
  case MS_FILL_HOLLOW:
  default:
    break;
  }
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

/* The ticks of the x axis xs, a time in µs where time (its unit
 * MS_SCALE_TIME_US picks µs, ms or s), and its grid lines from top to
 * bottom. Returns how many. */
static guint
grid_x (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, gboolean time, double top,
        double bottom, double spacing_px, MsTick ticks[16])
{
  MsScale scale = *xs;
  scale.unit = time ? MS_SCALE_TIME_US : xs->unit;
  guint n = ms_axis_ticks (&scale, xs->pixel_hi - xs->pixel_lo, spacing_px, ticks, 16);
  ms_set_color (cr, &st->fg, MS_GRID_ALPHA);
  ms_grid_path_x (cr, xs, ticks, n, top, bottom, 1);
  cairo_fill (cr);
  return n;
}

void
ms_draw_time_grid (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, double top,
                   double bottom, double spacing_px)
{
  MsTick ticks[16];
  grid_x (cr, st, xs, TRUE, top, bottom, spacing_px, ticks);
}

/* Grid lines and their labels under bottom, the last with unit after it
 * where one is given. */
static void
draw_axis_x (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, gboolean time, double top,
             double bottom, double spacing_px, double right_edge, const char *unit)
{
  const double fs = ms_style_font_size (st), tfs = ms_draw_figure_size (cr, fs);
  MsTick ticks[16];
  guint n = grid_x (cr, st, xs, time, top, bottom, spacing_px, ticks);
  ms_set_color (cr, &st->fg, 0.8);
  double last_right = -G_MAXDOUBLE;
  for (guint i = 0; i < n; i++) {
    double px = round (ms_scale_to_pixel (xs, ticks[i].value)) + 0.5, tw;
    g_autofree char *label = i + 1 == n && unit ? g_strdup_printf ("%s %s", ticks[i].label, unit)
                                                : g_strdup (ticks[i].label);
    ms_draw_text (cr, label, 0, 0, tfs, -1, 0, FALSE, &tw, NULL);
    /* Centred under its line, but never past the edge: the last tick's
     * label was cut in a narrow window. A label that would run into the
     * one before it is left out (its line stays): on a short log axis in
     * large text "90 µs" covered "100 µs". */
    double x = MAX (MIN (px - tw / 2, right_edge - tw), 0);
    if (x < last_right + fs * 0.5)
      continue;
    ms_draw_text (cr, label, x, bottom + fs * 0.3, tfs, 0, 0, FALSE, NULL, NULL);
    last_right = x + tw;
  }
}

void
ms_draw_time_axis (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, double top,
                   double bottom, double spacing_px, double right_edge)
{
  draw_axis_x (cr, st, xs, TRUE, top, bottom, spacing_px, right_edge, NULL);
}

void
ms_draw_value_axis (cairo_t *cr, const MsChartStyle *st, const MsScale *xs, double top,
                    double bottom, double spacing_px, double right_edge, const char *unit)
{
  draw_axis_x (cr, st, xs, FALSE, top, bottom, spacing_px, right_edge, unit);
}

void
ms_draw_phase_swatch (cairo_t *cr, const MsChartStyle *st, MsPhase phase, const char *label,
                      double x, double y)
{
  const double fs = ms_style_font_size (st);
  MsColor c;
  ms_phase_color (phase, st->dark, &c);
  ms_set_color (cr, &c, 1);
  cairo_rectangle (cr, x, y + fs * 0.2, fs, fs);
  cairo_fill (cr);
  ms_set_color (cr, &st->fg, 0.9);
  ms_draw_text (cr, label, x + fs * 1.3, y, fs, 0, 0, FALSE, NULL, NULL);
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
    ms_draw_text (cr, ms_phase_label (p), 0, 0, fs, -1, 0, FALSE, &tw, &th);
    if (cx > x && cx + fs * 1.3 + tw > max_x) {
      cx = x;
      cy += th * 1.3;
    }
    if (draw)
      ms_draw_phase_swatch (cr, st, p, ms_phase_label (p), cx, cy);
    cx += fs * 1.3 + tw + fs * 1.0;
  }
  return cy + th - y;
}
