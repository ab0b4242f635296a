/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fault-export.c: writes one chart through ms_export_drawing, for the fault
 * matrix: fault-export PATH; exit 1 with the error on stderr. */
#include <stdio.h>

#include "ms-export.h"

static void
draw (cairo_t *cr, double width, double height, gpointer data)
{
  (void) data;
  cairo_set_source_rgb (cr, 0.2, 0.4, 0.8);
  cairo_rectangle (cr, width / 4, height / 4, width / 2, height / 2);
  cairo_fill (cr);
  cairo_move_to (cr, 10, 20);
  cairo_show_text (cr, "memsweep fault matrix");
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  if (argc != 2) {
    fprintf (stderr, "usage: fault-export PATH.{png,svg,pdf}\n");
    return 2;
  }
  if (!ms_export_drawing (argv[1], 640, 400, draw, NULL, &error)) {
    fprintf (stderr, "fault-export: %s\n", error->message);
    g_error_free (error);
    return 1;
  }
  return 0;
}
