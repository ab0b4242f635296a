/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-export.c: charts into files through the same draw routines. */
#include "ms-export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "ms-atomic-file.h"

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

static cairo_status_t
write_to_file (void *file, const unsigned char *data, unsigned int len)
{
  return ms_atomic_file_write (file, data, len) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static cairo_surface_t *
create_surface (const char *ext, int width, int height, MsAtomicFile *file)
{
  if (!g_ascii_strcasecmp (ext, "svg"))
    return cairo_svg_surface_create_for_stream (write_to_file, file, width, height);
  if (!g_ascii_strcasecmp (ext, "pdf"))
    return cairo_pdf_surface_create_for_stream (write_to_file, file, width, height);
  return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
}

/* Every step's status counts: drawing, finishing the surface (where PDF and
 * SVG write), encoding the PNG, then the file's sync, close and rename. */
gboolean
ms_export_drawing (const char *path, int width, int height, MsDrawFunc draw, gpointer data,
                   GError **error)
{
  const char *ext = extension (path);
  char err[1024];

  if (width < 16 || height < 16 || width > 16384 || height > 16384) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 _("%s: size %d × %d is outside 16..16384 pixels"), path, width, height);
    return FALSE;
  }
  if (!ms_export_format_known (path)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 _("%s: unknown format '%s' (use .png, .svg or .pdf)"), path, ext);
    return FALSE;
  }
  MsAtomicFile *file = ms_atomic_file_open (path, err, sizeof err);
  if (!file) {
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err);
    return FALSE;
  }
  cairo_surface_t *surface = create_surface (ext, width, height, file);
  cairo_t *cr = cairo_create (surface);
  draw (cr, width, height, data);
  cairo_status_t status = cairo_status (cr);
  cairo_destroy (cr);
  if (!g_ascii_strcasecmp (ext, "png")) {
    if (status == CAIRO_STATUS_SUCCESS)
      status = cairo_surface_write_to_png_stream (surface, write_to_file, file);
  } else {
    cairo_surface_finish (surface);
    if (status == CAIRO_STATUS_SUCCESS)
      status = cairo_surface_status (surface);
  }
  cairo_surface_destroy (surface);
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
