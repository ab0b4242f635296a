/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-svg-text.h: records the text of a drawing on an SVG surface and puts
 * it into the finished SVG as <text> elements (real, searchable text)
 * instead of cairo's glyph outlines. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _MsSvgText MsSvgText;

MsSvgText *ms_svg_text_new (void);
void ms_svg_text_free (MsSvgText *t);
/* From now on the drawing helpers' text on cr is recorded, not drawn. */
void ms_svg_text_attach (MsSvgText *t, cairo_t *cr);
/* Inserts the recorded elements before the closing </svg> of a finished
 * SVG document; FALSE when it has none. */
gboolean ms_svg_text_insert (const MsSvgText *t, GByteArray *svg);
/* The elements recorded. */
const char *ms_svg_text_elements (const MsSvgText *t, gsize *len);
/* text as XML 1.0 may hold it, escaped for an element or an attribute:
 * made valid UTF-8, and the control characters XML forbids even as
 * references (all below U+0020 but tab and line breaks, a device name's
 * ESC) replaced by U+FFFD. Free with g_free. */
char *ms_svg_text_escape (const char *text);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MsSvgText, ms_svg_text_free)

G_END_DECLS
