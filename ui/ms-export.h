/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-export.h: a drawing to PNG, SVG or PDF (by the file's extension),
 * written through ms-atomic-file.h (temporary file, sync, rename; links
 * followed, read-only files refused, devices written in place), so a failure
 * leaves an existing file as it was. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef void (*MsDrawFunc) (cairo_t *cr, double width, double height, gpointer data);

gboolean ms_export_drawing (const char *path, int width, int height, MsDrawFunc draw,
                            gpointer data, GError **error);
/* Whether a path ends in .png, .svg or .pdf. */
gboolean ms_export_format_known (const char *path);

G_END_DECLS
