/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-svg-text.c: chart text as SVG <text> elements. Cairo's SVG surface
 * writes glyph outlines, which cannot be searched, copied or re-styled; the
 * drawing helpers hand their laid-out text here instead (ms_draw_set_text_sink)
 * and it is written as text with its font size, weight, colour and
 * transformation. */
#include "ms-svg-text.h"

#include <string.h>

#include "ms-draw.h"

struct _MsSvgText {
  GString *elements;
  guint count;
};

MsSvgText *
ms_svg_text_new (void)
{
  MsSvgText *t = g_new0 (MsSvgText, 1);
  t->elements = g_string_new (NULL);
  return t;
}

void
ms_svg_text_free (MsSvgText *t)
{
  if (!t)
    return;
  g_string_free (t->elements, TRUE);
  g_free (t);
}

char *
ms_svg_text_escape (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *clean = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p; p++) {
    if (((guchar) *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7f)
      g_string_append (clean, "\xef\xbf\xbd"); /* U+FFFD */
    else
      g_string_append_c (clean, *p);
  }
  char *escaped = g_markup_escape_text (clean->str, -1);
  g_string_free (clean, TRUE);
  return escaped;
}

/* The text an ellipsized line shows: the longest prefix that fits the
 * layout's width with "…" after it. */
static char *
ellipsized_text (PangoLayout *layout, const char *text, int len)
{
  int width = pango_layout_get_width (layout);
  PangoLayout *probe = pango_layout_copy (layout);
  pango_layout_set_width (probe, -1);
  pango_layout_set_ellipsize (probe, PANGO_ELLIPSIZE_NONE);
  glong n_chars = g_utf8_strlen (text, len), lo = 0, hi = n_chars;
  while (lo < hi) {
    glong mid = (lo + hi + 1) / 2;
    const char *end = g_utf8_offset_to_pointer (text, mid);
    g_autofree char *s = g_strdup_printf ("%.*s…", (int) (end - text), text);
    int w;
    pango_layout_set_text (probe, s, -1);
    pango_layout_get_size (probe, &w, NULL);
    if (w <= width)
      lo = mid;
    else
      hi = mid - 1;
  }
  g_object_unref (probe);
  const char *end = g_utf8_offset_to_pointer (text, lo);
  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}

static void
append_text (MsSvgText *t, cairo_t *cr, PangoLayout *layout, const char *text, double x,
             double y)
{
  const PangoFontDescription *fd = pango_layout_get_font_description (layout);
  double size = fd ? pango_font_description_get_size (fd) / (double) PANGO_SCALE : 12;
  gboolean bold = fd && pango_font_description_get_weight (fd) >= PANGO_WEIGHT_BOLD;
  const char *family = fd && pango_font_description_get_family (fd)
                         ? pango_font_description_get_family (fd)
                         : "Sans";
  double r = 0, g = 0, b = 0, a = 1;
  cairo_pattern_get_rgba (cairo_get_source (cr), &r, &g, &b, &a);
  cairo_matrix_t m;
  cairo_get_matrix (cr, &m);
  /* The line is broken already: its no-break spaces (between a figure
   * and its unit) are plain ones again, so that "4 MiB" is found. */
  g_auto (GStrv) words = g_strsplit (text, "\u00a0", -1);
  g_autofree char *plain = g_strjoinv (" ", words);
  g_autofree char *escaped = ms_svg_text_escape (plain);
  char num[6][G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append (t->elements, "<text");
  if (m.xx != 1 || m.yx != 0 || m.xy != 0 || m.yy != 1 || m.x0 != 0 || m.y0 != 0)
    g_string_append_printf (t->elements, " transform=\"matrix(%s %s %s %s %s %s)\"",
                            g_ascii_formatd (num[0], sizeof num[0], "%.4g", m.xx),
                            g_ascii_formatd (num[1], sizeof num[1], "%.4g", m.yx),
                            g_ascii_formatd (num[2], sizeof num[2], "%.4g", m.xy),
                            g_ascii_formatd (num[3], sizeof num[3], "%.4g", m.yy),
                            g_ascii_formatd (num[4], sizeof num[4], "%.2f", m.x0),
                            g_ascii_formatd (num[5], sizeof num[5], "%.2f", m.y0));
  g_string_append_printf (
    t->elements,
    " x=\"%s\" y=\"%s\" font-family=\"%s, sans-serif\" font-size=\"%s\"%s"
    " fill=\"#%02x%02x%02x\"",
    g_ascii_formatd (num[0], sizeof num[0], "%.2f", x),
    g_ascii_formatd (num[1], sizeof num[1], "%.2f", y), family,
    g_ascii_formatd (num[2], sizeof num[2], "%.2f", size), bold ? " font-weight=\"bold\"" : "",
    (int) (CLAMP (r, 0, 1) * 255 + 0.5), (int) (CLAMP (g, 0, 1) * 255 + 0.5),
    (int) (CLAMP (b, 0, 1) * 255 + 0.5));
  if (a < 1)
    g_string_append_printf (t->elements, " fill-opacity=\"%s\"",
                            g_ascii_formatd (num[3], sizeof num[3], "%.3f", a));
  g_string_append_printf (t->elements, " xml:space=\"preserve\">%s</text>\n", escaped);
  t->count++;
}

/* Each line of the layout at its baseline, from the current point. */
static void
record (cairo_t *cr, PangoLayout *layout, gpointer data)
{
  MsSvgText *t = data;
  double x0, y0;
  if (!cairo_has_current_point (cr))
    return;
  cairo_get_current_point (cr, &x0, &y0);
  const char *text = pango_layout_get_text (layout);
  PangoLayoutIter *it = pango_layout_get_iter (layout);
  do {
    PangoLayoutLine *line = pango_layout_iter_get_line_readonly (it);
    PangoRectangle logical;
    pango_layout_iter_get_line_extents (it, NULL, &logical);
    double baseline = pango_layout_iter_get_baseline (it) / (double) PANGO_SCALE;
    int len = line->length;
    while (len > 0 && (text[line->start_index + len - 1] == '\n'))
      len--;
    if (len <= 0)
      continue;
    g_autofree char *shown = pango_layout_is_ellipsized (layout)
                               ? ellipsized_text (layout, text + line->start_index, len)
                               : g_strndup (text + line->start_index, len);
    append_text (t, cr, layout, shown, x0 + logical.x / (double) PANGO_SCALE, y0 + baseline);
  } while (pango_layout_iter_next_line (it));
  pango_layout_iter_free (it);
}

void
ms_svg_text_attach (MsSvgText *t, cairo_t *cr)
{
  ms_draw_set_text_sink (cr, record, t);
}

const char *
ms_svg_text_elements (const MsSvgText *t, gsize *len)
{
  *len = t->elements->len;
  return t->elements->str;
}

gboolean
ms_svg_text_insert (const MsSvgText *t, GByteArray *svg)
{
  const char *at = g_strrstr_len ((const char *) svg->data, svg->len, "</svg>");
  if (!at)
    return FALSE;
  /* Above everything else, as text drawn last would be. */
  gsize pos = at - (const char *) svg->data, n = t->elements->len;
  g_byte_array_set_size (svg, svg->len + n);
  memmove (svg->data + pos + n, svg->data + pos, svg->len - n - pos);
  memcpy (svg->data + pos, t->elements->str, n);
  return TRUE;
}
