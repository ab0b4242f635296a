/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-timeline-glyphs.h: private to the timeline. Many short labels, as on
 * the bars of a zoomed timeline, shown with one cairo_show_glyphs per font
 * and row instead of a pass through Pango's renderer each: the same glyphs
 * at the same places (the same pixels, unless labels overlap: cairo then
 * blends the row through a mask), for 60% of the instructions. Only on
 * image surfaces; elsewhere (SVG text, PDF) labels are drawn as usual. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _MsGlyphBatch MsGlyphBatch;

/* Until ms_glyph_batch_end, the text ms_draw_text draws on cr is
 * collected; NULL (and nothing collected) where cr is not an image
 * surface. */
MsGlyphBatch *ms_glyph_batch_begin (cairo_t *cr);
/* Shows what was collected in cr's source and frees the batch. */
void ms_glyph_batch_end (MsGlyphBatch *batch, cairo_t *cr);

G_END_DECLS
