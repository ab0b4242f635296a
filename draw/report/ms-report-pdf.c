/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-pdf.c: the report as pages of a Cairo PDF surface. */
#include <glib/gi18n.h>

#include "ms-export.h"
#include "ms-report-content.h"
#include "ms-report-views.h"

/* A4 landscape in points. */
#define PAGE_W 842.0
#define PAGE_H 595.0
#define MARGIN 48.0
#define TABLE_ROW_H 13.0

typedef struct {
  const MsReportInput *in;
  cairo_t *cr;
  int page;
} Pdf;

/* Wrapped text at (x, y), width wide (on one line when width <= 0);
 * returns its height, and only measures where x < 0. */
static double
text_at (Pdf *p, const char *text, double x, double y, double width, double size, gboolean bold)
{
  double h;
  if (width > 0)
    return ms_draw_text_wrapped (p->cr, text, x, y, size, width, bold, x >= 0);
  ms_draw_text (p->cr, text, x, y, size, x >= 0 ? 0 : -1, 0, bold, NULL, &h);
  return h;
}

/* Where the page number's line starts: text stays above it. */
#define FOOT_Y (PAGE_H - MARGIN * 0.6)

/* Ends a page with its number at the foot. */
static void
end_page (Pdf *p)
{
  p->page++;
  g_autofree char *foot = g_strdup_printf (_("memsweep report · page %d"), p->page);
  cairo_set_source_rgb (p->cr, 0.4, 0.4, 0.4);
  text_at (p, foot, MARGIN, FOOT_Y, -1, 8, FALSE);
  cairo_show_page (p->cr);
}

/* y, or the top of a new page when height more would reach the foot. */
static double
room_for (Pdf *p, double y, double height)
{
  if (y + height <= FOOT_Y - 6 || y <= MARGIN)
    return y;
  end_page (p);
  cairo_set_source_rgb (p->cr, 0.1, 0.1, 0.1);
  return MARGIN;
}

static void
title_page (Pdf *p)
{
  cairo_set_source_rgb (p->cr, 0.1, 0.1, 0.1);
  double y = MARGIN;
  y += text_at (p, _("memsweep report: host ↔ device memory"), MARGIN, y, PAGE_W - 2 * MARGIN,
                24, TRUE) + 8;
  g_autofree char *made = g_strdup_printf (_("Made %s by memsweep %s"), p->in->generated,
                                           MS_VERSION);
  y += text_at (p, made, MARGIN, y, -1, 10, FALSE) + 16;
  const double value_w = PAGE_W - 2 * MARGIN - 180;
  for (guint r = 0; r < p->in->runs->len; r++) {
    const MsResults *run = g_ptr_array_index (p->in->runs, r);
    g_auto (GStrv) facts = ms_report_facts (run);
    /* A run's facts start on a new page when they do not fit (the foot
     * printed over "Copy engines"); a run longer than a page is split. */
    double block = text_at (p, run->label, -1, 0, -1, 13, TRUE) + 4;
    for (guint i = 0; facts[i] && facts[i + 1]; i += 2)
      block += text_at (p, facts[i + 1], -1, 0, value_w, 10, FALSE) + 3;
    y = room_for (p, y, MIN (block, FOOT_Y - 6 - MARGIN));
    y += text_at (p, run->label, MARGIN, y, -1, 13, TRUE) + 4;
    for (guint i = 0; facts[i] && facts[i + 1]; i += 2) {
      y = room_for (p, y, text_at (p, facts[i + 1], -1, 0, value_w, 10, FALSE));
      text_at (p, facts[i], MARGIN, y, 170, 10, TRUE);
      y += text_at (p, facts[i + 1], MARGIN + 180, y, value_w, 10, FALSE) + 3;
    }
    y += 12;
  }
  end_page (p);
}

static void
chart_pages (Pdf *p)
{
  MsReportViewJob job = { p->in->runs };
  ms_chart_style_init_light (&job.style);
  for (int v = 0; v < MS_REPORT_N_VIEWS; v++) {
    if (ms_report_view_unavailable (p->in->runs, v))
      continue;
    job.view = v;
    g_autofree char *caption = ms_report_view_caption (p->in->runs, v);
    MsExportOptions options = { caption, &job.style };
    cairo_save (p->cr);
    ms_export_draw_captioned (p->cr, PAGE_W, PAGE_H - MARGIN * 0.6, ms_report_view_draw, &job,
                              &options);
    cairo_restore (p->cr);
    end_page (p);
  }
}

static const double column_x[MS_REPORT_TABLE_COLUMNS] = { 0, 120, 190, 270, 320, 400, 470, 550,
                                                          630 };

/* A row of the table at y, each text wrapped to its own column (at the first column's width,
 * "95% interval ±%" ran over "E2E GB/s"); returns its height. */
static double
table_row (Pdf *p, char **cols, double y, gboolean bold)
{
  double h = 0;
  for (int c = 0; c < MS_REPORT_TABLE_COLUMNS; c++) {
    double end = c + 1 < MS_REPORT_TABLE_COLUMNS ? column_x[c + 1] : PAGE_W - 2 * MARGIN;
    h = MAX (h, text_at (p, cols[c], MARGIN + column_x[c], y, end - column_x[c] - 6, 9, bold));
  }
  return h;
}

static void
table_pages (Pdf *p)
{
  const int per_page = (int) ((PAGE_H - 3 * MARGIN - 40) / TABLE_ROW_H);
  const char *headings[MS_REPORT_TABLE_COLUMNS];
  for (int c = 0; c < MS_REPORT_TABLE_COLUMNS; c++)
    headings[c] = ms_report_table_heading (c);
  for (guint r = 0; r < p->in->runs->len; r++) {
    const MsResults *run = g_ptr_array_index (p->in->runs, r);
    int pages = MAX (1, ((int) run->n_cells + per_page - 1) / per_page);
    for (int page = 0; page < pages; page++) {
      cairo_set_source_rgb (p->cr, 0.1, 0.1, 0.1);
      g_autofree char *title = g_strdup_printf (_("Summary table: %s (%d of %d)"), run->label,
                                                page + 1, pages);
      double y = MARGIN + text_at (p, title, MARGIN, MARGIN, -1, 14, TRUE) + 10;
      y += MAX (TABLE_ROW_H, table_row (p, (char **) headings, y, TRUE)) + 4;
      for (int i = page * per_page; i < MIN ((int) run->n_cells, (page + 1) * per_page); i++) {
        char *cols[MS_REPORT_TABLE_COLUMNS];
        ms_report_table_row (run, i, cols);
        table_row (p, cols, y, FALSE);
        ms_report_table_row_clear (cols);
        y += TABLE_ROW_H;
      }
      end_page (p);
    }
  }
}

static void
captions_page (Pdf *p)
{
  cairo_set_source_rgb (p->cr, 0.1, 0.1, 0.1);
  double y = MARGIN;
  y += text_at (p, _("What the data says"), MARGIN, y, -1, 18, TRUE) + 10;
  for (guint r = 0; r < p->in->runs->len; r++) {
    const MsResults *run = g_ptr_array_index (p->in->runs, r);
    g_auto (GStrv) captions = ms_report_captions (run);
    y += text_at (p, run->label, MARGIN, y, -1, 12, TRUE) + 4;
    if (!captions[0])
      y += text_at (p, _("The run has too few cells with data for any of the captions."), MARGIN,
                    y, PAGE_W - 2 * MARGIN, 10, FALSE) + 4;
    for (guint i = 0; captions[i]; i++) {
      if (y > PAGE_H - 2 * MARGIN) {
        end_page (p);
        y = MARGIN;
      }
      g_autofree char *item = g_strdup_printf ("• %s", captions[i]);
      y += text_at (p, item, MARGIN, y, PAGE_W - 2 * MARGIN, 10, FALSE) + 6;
    }
    y += 8;
  }
  end_page (p);
}

static void
draw_pages (cairo_t *cr, double width, double height, gpointer data)
{
  Pdf p = { data, cr };
  title_page (&p);
  chart_pages (&p);
  table_pages (&p);
  captions_page (&p);
}

gboolean
ms_report_write_pdf (const char *path, const MsReportInput *input, GError **error)
{
  MsExportOptions options = { .format = "pdf", .title = _("memsweep report") };
  return ms_export_drawing_full (path, PAGE_W, PAGE_H, draw_pages, (gpointer) input, &options,
                                 error);
}
