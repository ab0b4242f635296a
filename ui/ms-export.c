/* ms-export.c: charts into files through the same draw routines. */
#include "ms-export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

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

gboolean
ms_export_drawing (const char *path, int width, int height, MsDrawFunc draw, gpointer data,
                   GError **error)
{
  const char *ext = extension (path);
  g_autofree char *tmp = g_strdup_printf ("%s.part-%u", path, g_random_int ());
  cairo_surface_t *surface;
  cairo_status_t status;

  if (width < 16 || height < 16 || width > 16384 || height > 16384) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 "%s: size %d × %d is outside 16..16384 pixels", path, width, height);
    return FALSE;
  }
  if (!g_ascii_strcasecmp (ext, "svg"))
    surface = cairo_svg_surface_create (tmp, width, height);
  else if (!g_ascii_strcasecmp (ext, "pdf"))
    surface = cairo_pdf_surface_create (tmp, width, height);
  else if (!g_ascii_strcasecmp (ext, "png"))
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  else {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 "%s: unknown format '%s' (use .png, .svg or .pdf)", path, ext);
    return FALSE;
  }
  cairo_t *cr = cairo_create (surface);
  draw (cr, width, height, data);
  cairo_destroy (cr);
  if (!g_ascii_strcasecmp (ext, "png"))
    status = cairo_surface_write_to_png (surface, tmp);
  else {
    cairo_surface_finish (surface);
    status = cairo_surface_status (surface);
  }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS) {
    g_unlink (tmp);
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                 status == CAIRO_STATUS_WRITE_ERROR ? "cannot write the file (folder missing, "
                                                      "not writable, or disk full)"
                                                    : cairo_status_to_string (status));
    return FALSE;
  }
  if (g_rename (tmp, path) != 0) {
    int saved = errno;
    g_unlink (tmp);
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                 g_strerror (saved));
    return FALSE;
  }
  return TRUE;
}
