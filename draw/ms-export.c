/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-export.c: charts into files through the same draw routines. */
#include "ms-export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ms-engine.h"
#include "ms-svg-text.h"

static const char *
extension (const char *path)
{
  const char *dot = strrchr (path, '.');
  return dot ? dot + 1 : "";
}

gboolean
ms_export_format_known (const char *path)
{
  const char *ext = extension (path);
  return !g_ascii_strcasecmp (ext, "png") || !g_ascii_strcasecmp (ext, "svg") ||
         !g_ascii_strcasecmp (ext, "pdf");
}

char *
ms_export_name_with_extension (const char *path, gboolean has_extension, const char *ext,
                               GError **error)
{
  if (has_extension)
    return g_strdup (path);
  g_autofree char *named = g_strdup_printf ("%s.%s", path, ext);
  GStatBuf st;
  if (g_lstat (named, &st) == 0) {
    g_autofree char *display = g_filename_display_name (named);
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                 _("%s already exists and was not replaced: to replace it, choose it by its "
                   "full name"), display);
    return NULL;
  }
  return g_steal_pointer (&named);
}

/* A cairo_write_func_t into an MsAtomicFile. */
static cairo_status_t
stream_to_file (void *file, const unsigned char *data, unsigned int len)
{
  return ms_atomic_file_write (file, data, len) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Finishes (where PDF and SVG write) and destroys surface: the first
 * failing status of status and the surface's. */
static cairo_status_t
finish_surface (cairo_surface_t *surface, cairo_status_t status)
{
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return status;
}

static cairo_status_t
write_to_bytes (void *bytes, const unsigned char *data, unsigned int len)
{
  g_byte_array_append (bytes, data, len);
  return CAIRO_STATUS_SUCCESS;
}

/* The headline in bold at half as large again as the chart's text, as the
 * Lessons page sets a takeaway over its picture; returns the height it
 * takes (none without one, or where it would take over a third). */
static double
headline_draw (cairo_t *cr, const char *headline, const MsChartStyle *style, double width,
               double height)
{
  if (!headline || !*headline)
    return 0;
  double size = ms_style_font_size (style) * 1.5, max_w = width - 2 * size * 0.6;
  double text_h = ms_draw_text_wrapped (cr, headline, 0, 0, size, max_w, TRUE, FALSE);
  double top = text_h + size * 1.2;
  if (top > height / 3)
    return 0;
  ms_set_color (cr, &style->fg, 1);
  ms_draw_text_wrapped (cr, headline, size * 0.6, size * 0.6, size, max_w, TRUE, TRUE);
  return top;
}

/* The height lines take at size, each wrapped to the picture's width less a margin either side:
 * a line longer than the picture is wide wraps rather than lose its end. */
static double
caption_height (cairo_t *cr, GStrv lines, double size, double width)
{
  double strip = size;
  for (guint i = 0; lines[i]; i++)
    strip += ms_draw_text_wrapped (cr, lines[i], size, 0, size, width - 2 * size, FALSE, FALSE)
             + size * 0.45;
  return strip;
}

/* The caption within room: smaller, down to seven tenths of *size, then its first lines and one
 * that says how many more (every run's line, the settings last, ran past a third of the
 * picture with three runs open, and the whole caption went, asked for or not). Returns its
 * height, *size the text's. */
static double
caption_fit (cairo_t *cr, GStrv lines, double *size, double width, double room)
{
  const double least = *size * 0.7;
  double strip = caption_height (cr, lines, *size, width);
  while (strip > room && *size * 0.9 >= least)
    strip = caption_height (cr, lines, *size *= 0.9, width);
  guint n = g_strv_length (lines), kept = n;
  while (strip > room && kept > 1) {
    kept--;
    g_free (lines[kept]);
    lines[kept] = NULL;
    g_free (lines[kept - 1]);
    /* TRANSLATORS: the last line of an exported chart's caption where the rest did not fit. */
    lines[kept - 1] = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more line",
                                                    "… and %u more lines", n - kept + 1),
                                       n - kept + 1);
    strip = caption_height (cr, lines, *size, width);
  }
  return strip <= room ? strip : 0;
}

void
ms_export_draw_captioned (cairo_t *cr, double width, double height, MsDrawFunc draw,
                          gpointer data, const MsExportOptions *options)
{
  const char *caption = options ? options->caption : NULL;
  const char *headline = options ? options->headline : NULL;
  if ((!caption || !*caption) && (!headline || !*headline)) {
    draw (cr, width, height, data);
    return;
  }
  MsChartStyle light;
  ms_chart_style_init_light (&light);
  const MsChartStyle *style = options->style ? options->style : &light;
  g_auto (GStrv) lines = g_strsplit (caption ? caption : "", "\n", 0);
  double size = ms_style_font_size (style) * 0.85;
  double strip = lines[0] ? caption_fit (cr, lines, &size, width, height / 3) : 0;
  double max_w = width - 2 * size;
  ms_draw_background (cr, style);
  double top = headline_draw (cr, headline, style, width, height);
  cairo_save (cr);
  cairo_rectangle (cr, 0, top, width, height - strip - top);
  cairo_clip (cr);
  cairo_translate (cr, 0, top);
  draw (cr, width, height - strip - top, data);
  cairo_restore (cr);
  if (strip == 0)
    return;
  ms_set_color (cr, &style->fg, 0.75);
  double y = height - strip + size * 0.5;
  for (guint i = 0; lines[i]; i++)
    y += ms_draw_text_wrapped (cr, lines[i], size, y, size, max_w, FALSE, TRUE) + size * 0.45;
}

typedef struct {
  MsDrawFunc draw;
  gpointer data;
  const MsExportOptions *options;
  MsSvgText *text; /* SVG only */
} DrawJob;

/* Draws onto surface; the status of the drawing. */
static cairo_status_t
run_draw (cairo_surface_t *surface, int width, int height, const DrawJob *job)
{
  cairo_t *cr = cairo_create (surface);
  if (job->text)
    ms_svg_text_attach (job->text, cr);
  ms_export_draw_captioned (cr, width, height, job->draw, job->data, job->options);
  cairo_status_t status = cairo_status (cr);
  cairo_destroy (cr);
  return status;
}

/* An SVG document in memory: cairo's output with the text it left out
 * put in before the closing tag. */
static GByteArray *
svg_document (int width, int height, const DrawJob *job, cairo_status_t *status)
{
  g_autoptr (MsSvgText) text = ms_svg_text_new ();
  GByteArray *svg = g_byte_array_new ();
  DrawJob with_text = *job;
  with_text.text = text;
  cairo_surface_t *surface = cairo_svg_surface_create_for_stream (write_to_bytes, svg, width,
                                                                  height);
  /* width="1600" (user units, that is CSS pixels), not cairo's default
   * "1600pt", which browsers show 4/3 as large as the image. */
  cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_USER);
  *status = finish_surface (surface, run_draw (surface, width, height, &with_text));
  if (*status == CAIRO_STATUS_SUCCESS && !ms_svg_text_insert (text, svg))
    *status = CAIRO_STATUS_WRITE_ERROR;
  return svg;
}

GBytes *
ms_export_svg_bytes (int width, int height, MsDrawFunc draw, gpointer data,
                     const MsExportOptions *options)
{
  DrawJob job = { draw, data, options, NULL };
  cairo_status_t status;
  GByteArray *svg = svg_document (width, height, &job, &status);
  if (status != CAIRO_STATUS_SUCCESS) {
    g_byte_array_unref (svg);
    return NULL;
  }
  return g_byte_array_free_to_bytes (svg);
}

/* Draws and encodes into file; the first failing status. */
static cairo_status_t
write_drawing (const char *ext, int width, int height, const DrawJob *job, MsAtomicFile *file)
{
  cairo_status_t status;
  if (!g_ascii_strcasecmp (ext, "svg")) {
    GByteArray *svg = svg_document (width, height, job, &status);
    if (status == CAIRO_STATUS_SUCCESS && !ms_atomic_file_write (file, svg->data, svg->len))
      status = CAIRO_STATUS_WRITE_ERROR;
    g_byte_array_unref (svg);
    return status;
  }
  gboolean pdf = !g_ascii_strcasecmp (ext, "pdf");
  cairo_surface_t *surface =
    pdf ? cairo_pdf_surface_create_for_stream (stream_to_file, file, width, height)
        : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  if (pdf && job->options && job->options->title) {
    cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, job->options->title);
    cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "memsweep " MS_VERSION);
  }
  status = run_draw (surface, width, height, job);
  if (!pdf && status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png_stream (surface, stream_to_file, file);
  return finish_surface (surface, status);
}

gboolean
ms_export_drawing (const char *path, int width, int height, MsDrawFunc draw, gpointer data,
                   GError **error)
{
  return ms_export_drawing_full (path, width, height, draw, data, NULL, error);
}

/* Every step's status counts: the writer's (drawing, finishing the
 * surface, encoding), then the file's sync, close and rename. */
gboolean
ms_export_write_file (const char *path, MsExportWriter write, gpointer data, GError **error)
{
  char err[1024];
  MsAtomicFile *file = ms_atomic_file_open (path, err, sizeof err);
  if (!file) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err);
    return FALSE;
  }
  cairo_status_t status = write (file, data);
  /* A write error is the file's: its message names the reason. */
  if (!ms_atomic_file_finish (file, err, sizeof err) ||
      (status == CAIRO_STATUS_SUCCESS && !ms_atomic_file_commit (g_steal_pointer (&file), err,
                                                                 sizeof err))) {
    ms_atomic_file_abort (file);
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err);
    return FALSE;
  }
  if (status != CAIRO_STATUS_SUCCESS) {
    ms_atomic_file_abort (file);
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot draw the chart: %s"), path,
                 cairo_status_to_string (status));
    return FALSE;
  }
  return TRUE;
}

typedef struct {
  const char *ext;
  int width, height;
  DrawJob job;
} FileJob;

static cairo_status_t
write_file_job (MsAtomicFile *file, gpointer data)
{
  FileJob *fj = data;
  return write_drawing (fj->ext, fj->width, fj->height, &fj->job, file);
}

gboolean
ms_export_drawing_full (const char *path, int width, int height, MsDrawFunc draw, gpointer data,
                        const MsExportOptions *options, GError **error)
{
  const char *ext = options && options->format ? options->format : extension (path);
  if (width < 16 || height < 16 || width > 16384 || height > 16384) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 _("%s: size %d × %d is outside 16..16384 pixels"), path, width, height);
    return FALSE;
  }
  if (!(options && options->format) && !ms_export_format_known (path)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 _("%s: unknown format '%s' (use .png, .svg or .pdf)"), path, ext);
    return FALSE;
  }
  FileJob fj = { ext, width, height, { draw, data, options, NULL } };
  return ms_export_write_file (path, write_file_job, &fj, error);
}
