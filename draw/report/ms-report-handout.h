/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-handout.h: one lesson's run as a one-page PDF handout to print
 * for a class (ms-report-handout.c): the lesson's title and question, its
 * takeaway, its answer drawn as the Lessons page draws it, the caption and
 * the run in words. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "memsweep.h"

G_BEGIN_DECLS

/* The page in points: A4 portrait (ms-report-handout.c says why). */
#define MS_HANDOUT_PAGE_W 595.0
#define MS_HANDOUT_PAGE_H 842.0

/* NULL when run can have a handout (it is a lesson's run), else why not. */
const char *ms_report_handout_unavailable (const MsResults *run);
/* Draws the handout of run on cr, MS_HANDOUT_PAGE_W x MS_HANDOUT_PAGE_H;
 * source names the run's file in the footer (NULL: its label). */
void ms_report_handout_draw (cairo_t *cr, const MsResults *run, const char *source);
/* Writes it as a one-page PDF through an atomic file. */
gboolean ms_report_write_handout (const char *path, const MsResults *run, const char *source,
                                  GError **error);

G_END_DECLS
