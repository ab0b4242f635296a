/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-glyphs.c: labels collected as glyphs through ms-draw's text
 * sink and shown a font at a time (see ms-timeline-glyphs.h). Positions
 * are worked out as Pango 1.50's cairo renderer does for a line: the run's
 * offset in Pango units over the current point, then each glyph's. */
#include "ms-timeline-glyphs.h"

#include <pango/pangocairo.h>

#include "ms-draw.h"

/* One label's glyphs in a font's array. */
typedef struct {
  double y, x; /* the first glyph's */
  guint first, n;
} MsGlyphLabel;

typedef struct {
  PangoFont *font; /* held */
  GArray *glyphs;  /* cairo_glyph_t */
  GArray *labels;  /* MsGlyphLabel */
} MsFontGlyphs;

/* A glyph of a laid-out label, in Pango units from its baseline origin,
 * kept apart as the renderer adds them: the run's offset, then the glyph's. */
typedef struct {
  MsFontGlyphs *font;
  gulong index;
  int run_x, run_y, x, y;
} MsGlyphPlace;

/* What one laid-out text (ms-draw.c keeps each) shows, worked out once per
 * batch: labels repeat a few texts hundreds of times. */
typedef struct {
  PangoLayout *layout; /* held: another at its address would not be it */
  double baseline;
  gboolean plain;
  GArray *places; /* MsGlyphPlace */
} MsGlyphTemplate;

struct _MsGlyphBatch {
  GPtrArray *fonts;     /* MsFontGlyphs, a handful */
  GPtrArray *templates; /* MsGlyphTemplate */
};

static void
font_glyphs_free (gpointer data)
{
  MsFontGlyphs *f = data;
  g_object_unref (f->font);
  g_array_unref (f->glyphs);
  g_array_unref (f->labels);
  g_free (f);
}

static MsFontGlyphs *
glyphs_for (MsGlyphBatch *b, PangoFont *font)
{
  for (guint i = 0; i < b->fonts->len; i++) {
    MsFontGlyphs *f = g_ptr_array_index (b->fonts, i);
    if (f->font == font)
      return f;
  }
  MsFontGlyphs *f = g_new (MsFontGlyphs, 1);
  f->font = g_object_ref (font);
  f->glyphs = g_array_new (FALSE, FALSE, sizeof (cairo_glyph_t));
  f->labels = g_array_new (FALSE, FALSE, sizeof (MsGlyphLabel));
  g_ptr_array_add (b->fonts, f);
  return f;
}

/* What the renderer would draw otherwise than as plain glyphs: missing
 * glyphs (boxes), attributes, shaped or vertical runs. */
static gboolean
plain_line (PangoLayout *layout, PangoLayoutLine *line)
{
  if (pango_layout_get_line_count (layout) != 1 || pango_layout_get_attributes (layout))
    return FALSE;
  for (GSList *l = line->runs; l; l = l->next) {
    PangoGlyphItem *run = l->data;
    if (run->item->analysis.flags & PANGO_ANALYSIS_FLAG_CENTERED_BASELINE)
      return FALSE;
    if (!PANGO_IS_CAIRO_FONT (run->item->analysis.font))
      return FALSE;
    for (int i = 0; i < run->glyphs->num_glyphs; i++)
      if (run->glyphs->glyphs[i].glyph & PANGO_GLYPH_UNKNOWN_FLAG)
        return FALSE;
  }
  return TRUE;
}

static void
template_free (gpointer data)
{
  MsGlyphTemplate *t = data;
  g_object_unref (t->layout);
  g_array_unref (t->places);
  g_free (t);
}

static MsGlyphTemplate *
template_for (MsGlyphBatch *b, PangoLayout *layout)
{
  for (guint i = 0; i < b->templates->len; i++) {
    MsGlyphTemplate *t = g_ptr_array_index (b->templates, i);
    if (t->layout == layout)
      return t;
  }
  MsGlyphTemplate *t = g_new0 (MsGlyphTemplate, 1);
  t->layout = g_object_ref (layout);
  t->baseline = pango_layout_get_baseline (layout) / (double) PANGO_SCALE;
  t->places = g_array_new (FALSE, FALSE, sizeof (MsGlyphPlace));
  g_ptr_array_add (b->templates, t);
  PangoLayoutLine *line = pango_layout_get_line_readonly (layout, 0);
  t->plain = plain_line (layout, line);
  if (!t->plain)
    return t;
  int x_off = 0;
  for (GSList *l = line->runs; l; l = l->next) {
    PangoGlyphItem *run = l->data;
    MsFontGlyphs *f = glyphs_for (b, run->item->analysis.font);
    x_off += run->start_x_offset;
    int x_position = 0;
    for (int i = 0; i < run->glyphs->num_glyphs; i++) {
      const PangoGlyphInfo *gi = &run->glyphs->glyphs[i];
      MsGlyphPlace place = { f, gi->glyph, x_off, -run->y_offset,
                             x_position + gi->geometry.x_offset, gi->geometry.y_offset };
      if (gi->glyph != PANGO_GLYPH_EMPTY)
        g_array_append_val (t->places, place);
      x_position += gi->geometry.width;
    }
    x_off += pango_glyph_string_get_width (run->glyphs) + run->end_x_offset;
  }
  return t;
}

static void
add_label (MsFontGlyphs *font, const MsGlyphLabel *label)
{
  if (font && label->n)
    g_array_append_val (font->labels, *label);
}

/* The sink: the layout's top left is the current point. */
static void
collect (cairo_t *cr, PangoLayout *layout, gpointer data)
{
  MsGlyphBatch *b = data;
  MsGlyphTemplate *t = template_for (b, layout);
  double x, y;
  cairo_get_current_point (cr, &x, &y);
  if (!t->plain) {
    pango_cairo_show_layout (cr, layout);
    return;
  }
  /* As ms-draw.c would: the line at its baseline, the point read back. */
  cairo_move_to (cr, x, y + t->baseline);
  cairo_get_current_point (cr, &x, &y);
  cairo_new_path (cr);
  /* A label's glyphs in one font are one label of that font. */
  MsFontGlyphs *font = NULL;
  MsGlyphLabel label = { 0 };
  for (guint i = 0; i < t->places->len; i++) {
    const MsGlyphPlace *p = &g_array_index (t->places, MsGlyphPlace, i);
    double base_x = x + (double) p->run_x / PANGO_SCALE;
    double base_y = y + (double) p->run_y / PANGO_SCALE;
    cairo_glyph_t g = { p->index, base_x + (double) p->x / PANGO_SCALE,
                        p->y == 0 ? base_y : base_y + (double) p->y / PANGO_SCALE };
    if (p->font != font) {
      add_label (font, &label);
      font = p->font;
      label = (MsGlyphLabel){ g.y, g.x, font->glyphs->len, 0 };
    }
    g_array_append_val (font->glyphs, g);
    label.n++;
  }
  add_label (font, &label);
}

MsGlyphBatch *
ms_glyph_batch_begin (cairo_t *cr)
{
  if (cairo_surface_get_type (cairo_get_target (cr)) != CAIRO_SURFACE_TYPE_IMAGE)
    return NULL;
  MsGlyphBatch *b = g_new0 (MsGlyphBatch, 1);
  b->fonts = g_ptr_array_new_with_free_func (font_glyphs_free);
  b->templates = g_ptr_array_new_with_free_func (template_free);
  ms_draw_set_text_sink (cr, collect, b);
  return b;
}

static int
cmp_label_place (gconstpointer a, gconstpointer b)
{
  const MsGlyphLabel *p = a, *q = b;
  if (p->y != q->y)
    return p->y < q->y ? -1 : 1;
  return (p->x > q->x) - (p->x < q->x);
}

/* A font's labels a line at a time, left to right: cairo composites glyphs
 * that each lie clear of those before them one by one, where glyphs it
 * finds overlapping go through a mask as large as all of them. */
static void
show_font (cairo_t *cr, MsFontGlyphs *f)
{
  g_array_sort (f->labels, cmp_label_place);
  g_autoptr (GArray) line = g_array_new (FALSE, FALSE, sizeof (cairo_glyph_t));
  for (guint i = 0; i < f->labels->len; i++) {
    const MsGlyphLabel *l = &g_array_index (f->labels, MsGlyphLabel, i);
    g_array_append_vals (line, &g_array_index (f->glyphs, cairo_glyph_t, l->first), l->n);
    if (i + 1 == f->labels->len || g_array_index (f->labels, MsGlyphLabel, i + 1).y != l->y) {
      cairo_show_glyphs (cr, (cairo_glyph_t *) line->data, (int) line->len);
      g_array_set_size (line, 0);
    }
  }
}

void
ms_glyph_batch_end (MsGlyphBatch *b, cairo_t *cr)
{
  if (!b)
    return;
  ms_draw_set_text_sink (cr, NULL, NULL);
  cairo_save (cr);
  for (guint i = 0; i < b->fonts->len; i++) {
    MsFontGlyphs *f = g_ptr_array_index (b->fonts, i);
    cairo_scaled_font_t *sf = pango_cairo_font_get_scaled_font (PANGO_CAIRO_FONT (f->font));
    if (!sf || cairo_scaled_font_status (sf) != CAIRO_STATUS_SUCCESS)
      continue;
    cairo_set_scaled_font (cr, sf);
    show_font (cr, f);
  }
  cairo_restore (cr);
  g_ptr_array_unref (b->templates);
  g_ptr_array_unref (b->fonts);
  g_free (b);
}
