/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-report-html.c: the report as one self-contained HTML page: charts as
 * inline SVG (real text), the table as a <table>. */
#include <glib/gi18n.h>

#include "ms-export.h"
#include "ms-report-content.h"
#include "ms-report-views.h"
#include "ms-svg-text.h"

#define CHART_W 1100
#define CHART_H 690

/* Every text goes through here, escaped between before and after (markup):
 * labels, device names, notes and file names may not be UTF-8 (a raw file
 * name), and the page must be. */
static void
append_escaped (GString *s, const char *before, const char *text, const char *after)
{
  g_autofree char *e = ms_svg_text_escape (text);
  g_string_append (s, before);
  g_string_append (s, e);
  g_string_append (s, after);
}

static void
html_facts (GString *s, const MsReportInput *in)
{
  for (guint r = 0; r < in->runs->len; r++) {
    const MsResults *run = g_ptr_array_index (in->runs, r);
    g_auto (GStrv) facts = ms_report_facts (run);
    append_escaped (s, "<h2>", run->label, "</h2>\n<dl>\n");
    for (guint i = 0; facts[i] && facts[i + 1]; i += 2) {
      append_escaped (s, "<dt>", facts[i], "</dt>");
      append_escaped (s, "<dd>", facts[i + 1], "</dd>\n");
    }
    g_string_append (s, "</dl>\n");
  }
}

/* Each chart as SVG without its XML declaration. */
static gboolean
html_charts (GString *s, const MsReportInput *in)
{
  MsReportViewJob job = { in->runs };
  ms_chart_style_init_light (&job.style);
  for (int v = 0; v < MS_REPORT_N_VIEWS; v++) {
    if (ms_report_view_unavailable (in->runs, v))
      continue;
    job.view = v;
    g_autofree char *caption = ms_report_view_caption (in->runs, v);
    MsExportOptions options = { caption, &job.style };
    g_autoptr (GBytes) svg = ms_export_svg_bytes (CHART_W, CHART_H, ms_report_view_draw, &job,
                                                  &options);
    if (!svg)
      return FALSE;
    gsize len;
    const char *data = g_bytes_get_data (svg, &len);
    const char *start = g_strstr_len (data, len, "<svg");
    if (!start)
      return FALSE;
    g_string_append_printf (s, "<figure id=\"%s\">\n", ms_report_view_name (v));
    g_string_append_len (s, start, len - (start - data));
    g_string_append (s, "</figure>\n");
  }
  return TRUE;
}

static void
html_table (GString *s, const MsResults *run)
{
  append_escaped (s, "<table>\n<caption>", run->label, "</caption>\n<thead><tr>");
  for (int c = 0; c < MS_REPORT_TABLE_COLUMNS; c++)
    append_escaped (s, "<th>", ms_report_table_heading (c), "</th>");
  g_string_append (s, "</tr></thead>\n<tbody>\n");
  for (guint i = 0; i < run->n_cells; i++) {
    char *cols[MS_REPORT_TABLE_COLUMNS];
    ms_report_table_row (run, i, cols);
    g_string_append (s, "<tr>");
    for (int c = 0; c < MS_REPORT_TABLE_COLUMNS; c++)
      append_escaped (s, c < 3 ? "<td>" : "<td class=\"n\">", cols[c], "</td>");
    g_string_append (s, "</tr>\n");
    ms_report_table_row_clear (cols);
  }
  g_string_append (s, "</tbody>\n</table>\n");
}

static const char style_sheet[] =
  "body{font-family:sans-serif;max-width:1140px;margin:2em auto;color:#222;background:#fff}"
  "dl{display:grid;grid-template-columns:14em 1fr;gap:.2em 1em}dt{font-weight:bold}"
  "figure{margin:1.5em 0}figure svg{width:100%;height:auto}"
  "table{border-collapse:collapse;font-size:90%;margin:1em 0}"
  "th,td{padding:.15em .6em;border-bottom:1px solid #ddd}td.n{text-align:right}"
  "caption{font-weight:bold;text-align:left}\n";

static GString *
html_document (const MsReportInput *in)
{
  GString *s = g_string_new (NULL);
  append_escaped (s, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>",
                  _("memsweep report"), "</title>\n<style>");
  g_string_append_printf (s, "%s</style>\n</head>\n<body>\n", style_sheet);
  append_escaped (s, "<h1>", _("memsweep report: host ↔ device memory"), "</h1>\n");
  g_autofree char *made = g_strdup_printf (_("Made %s by memsweep %s"), in->generated, MS_VERSION);
  append_escaped (s, "<p>", made, "</p>\n");
  html_facts (s, in);
  if (!html_charts (s, in)) {
    g_string_free (s, TRUE);
    return NULL;
  }
  append_escaped (s, "<h2>", _("Summary table"), "</h2>\n");
  for (guint r = 0; r < in->runs->len; r++)
    html_table (s, g_ptr_array_index (in->runs, r));
  append_escaped (s, "<h2>", _("What the data says"), "</h2>\n");
  for (guint r = 0; r < in->runs->len; r++) {
    g_auto (GStrv) captions = ms_report_captions (g_ptr_array_index (in->runs, r));
    g_string_append (s, "<ul class=\"captions\">\n");
    for (guint i = 0; captions[i]; i++)
      append_escaped (s, "<li>", captions[i], "</li>\n");
    g_string_append (s, "</ul>\n");
  }
  g_string_append (s, "</body>\n</html>\n");
  return s;
}

static cairo_status_t
write_html (MsAtomicFile *file, gpointer data)
{
  GString *s = html_document (data);
  if (!s)
    return CAIRO_STATUS_NO_MEMORY;
  gboolean ok = ms_atomic_file_write (file, s->str, s->len);
  g_string_free (s, TRUE);
  return ok ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

gboolean
ms_report_write_html (const char *path, const MsReportInput *input, GError **error)
{
  return ms_export_write_file (path, write_html, (gpointer) input, error);
}
