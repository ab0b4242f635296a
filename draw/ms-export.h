/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-export.h: a drawing to PNG, SVG or PDF (by the file's extension),
 * written through ms-atomic-file.h (temporary file, sync, rename; links
 * followed, read-only files refused, devices written in place), so a failure
 * leaves an existing file as it was. SVG text comes out as <text> elements
 * (ms-svg-text.h). */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ms-engine.h"
#include "ms-draw.h"

G_BEGIN_DECLS

typedef void (*MsDrawFunc) (cairo_t *cr, double width, double height, gpointer data);

typedef struct {
  /* Lines under the drawing (device, date, version, settings), or NULL for
   * none; in style's colours and text size (light when NULL). */
  const char *caption;
  const MsChartStyle *style;
  /* "png", "svg" or "pdf" where the path has no extension to say it (the
   * command line's standard output); NULL: by the path's extension. */
  const char *format;
  /* A line over the drawing in large type, or NULL: a lesson's takeaway,
   * which the Lessons page shows over its picture. */
  const char *headline;
  /* A PDF's title (memsweep its creator), or NULL for none: the report's
   * and a handout's, whose pages draw puts on cr (cairo_show_page). */
  const char *title;
} MsExportOptions;

gboolean ms_export_drawing (const char *path, int width, int height, MsDrawFunc draw,
                            gpointer data, GError **error);
gboolean ms_export_drawing_full (const char *path, int width, int height, MsDrawFunc draw,
                                 gpointer data, const MsExportOptions *options, GError **error);
/* Whether a path ends in .png, .svg or .pdf. */
gboolean ms_export_format_known (const char *path);
/* The file a save dialog's answer names: path where it has_extension, else
 * path.ext. The dialog asked before replacing path, not path.ext: an
 * existing path.ext is not replaced (NULL with an error that says to give
 * the full name). */
char *ms_export_name_with_extension (const char *path, gboolean has_extension, const char *ext,
                                     GError **error);

/* Draws into width x height with the headline over the drawing and the
 * caption strip under it. */
void ms_export_draw_captioned (cairo_t *cr, double width, double height, MsDrawFunc draw,
                               gpointer data, const MsExportOptions *options);
/* The drawing as an SVG document with real text, for pages that inline it
 * (the HTML report); NULL on a drawing error. */
GBytes *ms_export_svg_bytes (int width, int height, MsDrawFunc draw, gpointer data,
                             const MsExportOptions *options);

/* Writes path through an atomic file: write's status and the file's
 * (sync, close, rename) both count; a failure leaves the old file. */
typedef cairo_status_t (*MsExportWriter) (MsAtomicFile *file, gpointer data);
gboolean ms_export_write_file (const char *path, MsExportWriter write, gpointer data,
                               GError **error);

G_END_DECLS
