/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet-report-json.c: `memsweep fleet-report --format json|csv|markdown`:
 * the table of ms-cli-fleet-report.c as one document
 * (data/schema/memsweep-fleet-report.json), or as CSV. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-cli-common.h"
#include "ms-cli-fleet-report-json.h"
#include "ms-cli-json.h"

#define FLEET_SCHEMA "memsweep-fleet-report"
#define FLEET_SCHEMA_VERSION 2

static void
put_link (FILE *f, int gen, int width)
{
  if (gen > 0)
    fprintf (f, "{\"gen\":%d,\"width\":%d}", gen, width);
  else
    fputs ("null", f);
}

static void
put_string_or_null (FILE *f, const char *s)
{
  if (s && s[0])
    ms_json_put_string (f, s);
  else
    fputs ("null", f);
}

/* Where the figure's spreads between processes came from: each source
 * with the entries judged by it. */
static void
put_spread_uses (FILE *f, const MsFleetReport *r, MsFleetFigure i)
{
  fputs ("\"spread_sources\":[", f);
  for (int k = 0; k < r->n_spread_uses[i]; k++) {
    const MsFleetSpreadUse *use = &r->spread_use[i][k];
    fputs (k ? ",{\"source\":" : "{\"source\":", f);
    ms_json_put_string (f, ms_fleet_spread_key (use->source));
    fputs (",\"device\":", f);
    put_string_or_null (f, use->device);
    fputs (",\"n_entries\":", f);
    use->source == MS_FLEET_SPREAD_FLEET ? fprintf (f, "%d", use->n_nodes) : fputs ("null", f);
    fprintf (f, ",\"judged\":%d}", use->entries);
  }
  fprintf (f, "],\"spread_sources_left_out\":%d", r->spread_uses_left_out[i]);
}

static void
put_figures (FILE *f, const MsFleetReport *r)
{
  fputs ("\"figures\":[", f);
  bool first = true;
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++) {
    if (r->exponent[i] < 0)
      continue;
    fputs (first ? "{\"name\":" : ",{\"name\":", f);
    first = false;
    ms_json_put_string (f, ms_fleet_figure_name ((MsFleetFigure) i));
    fprintf (f, ",\"exponent\":%d,\"bytes_per_vector\":%llu,\"median_gbps\":", r->exponent[i],
             4ull << r->exponent[i]);
    ms_json_put_number (f, r->median[i]);
    fprintf (f, ",\"n_entries\":%d,", r->n_values[i]);
    put_spread_uses (f, r, (MsFleetFigure) i);
    fputc ('}', f);
  }
  fputs ("]", f);
}

/* The spread between processes the figure was judged with; null where the
 * node has no value. */
static void
put_spread (FILE *f, const MsFleetNode *node, int i, bool has)
{
  if (!has) {
    fputs ("null", f);
    return;
  }
  const MsFleetSpread *sp = &node->spread[i];
  bool known = sp->source != MS_FLEET_SPREAD_UNKNOWN;
  fputs ("{\"source\":", f);
  ms_json_put_string (f, ms_fleet_spread_key (sp->source));
  fputs (",\"sd\":", f);
  known ? ms_json_put_number (f, sp->sd) : (void) fputs ("null", f);
  known ? fprintf (f, ",\"df\":%d", sp->df) : fputs (",\"df\":null", f);
  sp->source == MS_FLEET_SPREAD_FLEET ? fprintf (f, ",\"n_entries\":%d}", sp->n_nodes)
                                      : fputs (",\"n_entries\":null}", f);
}

/* One figure of a node: its GB/s, its deviation from the median, whether
 * it is flagged (low, high or null), its verdict and why, by the spread
 * between processes it was judged with. */
static void
put_node_figure (FILE *f, const MsFleetNode *node, int i)
{
  fputs ("{\"name\":", f);
  ms_json_put_string (f, ms_fleet_figure_name ((MsFleetFigure) i));
  bool has = node->value[i] > 0;
  fputs (",\"gbps\":", f);
  has ? ms_json_put_number (f, node->value[i]) : (void) fputs ("null", f);
  fputs (",\"deviation\":", f);
  has ? ms_json_put_number (f, node->deviation[i]) : (void) fputs ("null", f);
  const char *flag = node->flags & (1u << i)               ? "\"low\""
                     : node->flags & MS_FLEET_FLAG_HIGH (i) ? "\"high\""
                                                             : "null";
  fprintf (f, ",\"flag\":%s,\"verdict\":", flag);
  has ? ms_json_put_string (f, ms_verdict_key (node->verdict[i])) : (void) fputs ("null", f);
  fputs (",\"why\":", f);
  has ? ms_json_put_string (f, ms_verdict_why_key (node->why[i])) : (void) fputs ("null", f);
  fputs (",\"spread\":", f);
  put_spread (f, node, i, has);
  fputc ('}', f);
}

static void
put_node (FILE *f, const MsFleetReport *r, const MsFleetNode *node)
{
  fputs ("{\"node\":", f);
  ms_json_put_string (f, node->node);
  /* One entry per GPU where the node's GPUs were measured one by one. */
  fputs (",\"gpu\":", f);
  put_string_or_null (f, node->gpu);
  fputs (",\"bus_id\":", f);
  put_string_or_null (f, node->bus_id);
  fputs (",\"file\":", f);
  ms_json_put_string (f, node->file);
  fputs (",\"device\":", f);
  put_string_or_null (f, node->device);
  fprintf (f, ",\"readable\":%s,\"missing\":%s,\"error\":", node->readable ? "true" : "false",
           node->missing ? "true" : "false");
  put_string_or_null (f, node->readable ? NULL : node->error);
  fputs (",\"profile_error\":", f);
  put_string_or_null (f, node->profile_error);
  fputs (",\"link\":", f);
  put_link (f, node->pcie_gen, node->pcie_width);
  fprintf (f, ",\"link_below_common\":%s,\"figures\":[",
           node->flags & MS_FLEET_FLAG_LINK ? "true" : "false");
  bool first = true;
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++) {
    if (r->exponent[i] < 0)
      continue;
    fputs (first ? "" : ",", f);
    first = false;
    put_node_figure (f, node, i);
  }
  fputs ("]}", f);
}

static void
put_copies (FILE *f, const MsFleetReport *r)
{
  fputs ("\"copies\":[", f);
  for (size_t i = 0; i < r->n_copies; i++) {
    fputs (i ? ",{\"file\":" : "{\"file\":", f);
    ms_json_put_string (f, r->copies[i].file);
    fputs (",\"node\":", f);
    ms_json_put_string (f, r->copies[i].node);
    fputs (",\"kept\":", f);
    ms_json_put_string (f, r->copies[i].kept);
    fputc ('}', f);
  }
  fputs ("]", f);
}

bool
ms_cli_fleet_report_json (FILE *f, const MsFleetReport *r, bool only_outliers)
{
  void *state = ms_json_begin ();
  fprintf (f, "{\"schema\":\"" FLEET_SCHEMA "\",\"schema_version\":%d,\"threshold_pct\":",
           FLEET_SCHEMA_VERSION);
  ms_json_put_number (f, r->threshold * 100);
  fprintf (f,
           ",\"n_nodes\":%zu,\"n_outliers\":%d,\"n_unreadable\":%d,\"n_missing\":%d,"
           "\"n_no_spread\":%d,\"common_link\":",
           r->n_nodes, r->n_outliers, r->n_unreadable, r->n_missing, r->n_no_spread);
  put_link (f, r->common_gen, r->common_width);
  fputs (",\n", f);
  put_figures (f, r);
  fprintf (f, ",\n\"only_outliers\":%s,\"nodes\":[", only_outliers ? "true" : "false");
  bool first = true;
  for (size_t i = 0; i < r->n_nodes; i++) {
    const MsFleetNode *node = &r->nodes[i];
    if (only_outliers && !node->flags && node->readable)
      continue;
    fputs (first ? "\n" : ",\n", f);
    first = false;
    put_node (f, r, node);
  }
  fputs ("],\n", f);
  put_copies (f, r);
  fputs ("}\n", f);
  ms_json_end (state);
  return !ferror (f);
}

static bool
row_of (const MsFleetNode *node, bool only_outliers)
{
  return !only_outliers || node->flags || !node->readable;
}

/* The columns before the figures'; link_gen and link_width are numbers, so
 * that CSV leaves them out where no node's link is known. */
static const MsCliColumn node_columns[] = {
  { "node" },     { "gpu" },           { "bus_id" },        { "file" },
  { "device" },   { "readable" },      { "missing" },       { "error" },
  { "profile_error" }, { "link_gen", true }, { "link_width", true }, { "link_below_common" },
};
enum { N_NODE_COLUMNS = sizeof node_columns / sizeof *node_columns, FIGURE_COLUMNS = 6 };
static const char *const figure_parts[FIGURE_COLUMNS] = { "gbps",    "deviation", "flag",
                                                          "verdict", "why",       "spread" };

/* The columns of the figures the report has: "pinned h2d" as
 * pinned_h2d_gbps ...; one report a process, so their names are kept here. */
static int
report_columns (const MsFleetReport *r, MsCliColumn *columns)
{
  static char names[MS_FLEET_N_FIGURES * FIGURE_COLUMNS][64];
  int n = N_NODE_COLUMNS;
  memcpy (columns, node_columns, sizeof node_columns);
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++) {
    if (r->exponent[i] < 0)
      continue;
    for (int p = 0; p < FIGURE_COLUMNS; p++) {
      char *name = names[i * FIGURE_COLUMNS + p];
      snprintf (name, sizeof names[0], "%s_%s", ms_fleet_figure_name ((MsFleetFigure) i),
                figure_parts[p]);
      for (char *c = name; *c; c++)
        *c = *c == ' ' ? '_' : *c;
      columns[n++] = (MsCliColumn) { name, p < 2 };
    }
  }
  return n;
}

static void
put_node_row (MsCliTable *t, const MsFleetReport *r, const MsFleetNode *node)
{
  ms_cli_table_add_row (t);
  const char *text[] = { node->node,
                         node->gpu,
                         node->bus_id,
                         node->file,
                         node->device,
                         node->readable ? "true" : "false",
                         node->missing ? "true" : "false",
                         node->readable ? "" : node->error,
                         node->profile_error };
  for (int c = 0; c < (int) (sizeof text / sizeof *text); c++)
    ms_cli_table_text (t, c, text[c]);
  if (node->pcie_gen > 0) {
    ms_cli_table_integer (t, 9, node->pcie_gen);
    ms_cli_table_integer (t, 10, node->pcie_width);
  }
  ms_cli_table_text (t, 11, node->flags & MS_FLEET_FLAG_LINK ? "true" : "false");
  int c = N_NODE_COLUMNS;
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++) {
    if (r->exponent[i] < 0)
      continue;
    bool has = node->value[i] > 0;
    ms_cli_table_number (t, c, has ? node->value[i] : NAN, -1);
    ms_cli_table_number (t, c + 1, has ? node->deviation[i] : NAN, -1);
    ms_cli_table_text (t, c + 2, node->flags & (1u << i)               ? "low"
                                 : node->flags & MS_FLEET_FLAG_HIGH (i) ? "high"
                                                                         : NULL);
    if (has) {
      ms_cli_table_text (t, c + 3, ms_verdict_key (node->verdict[i]));
      ms_cli_table_text (t, c + 4, ms_verdict_why_key (node->why[i]));
      ms_cli_table_text (t, c + 5, ms_fleet_spread_key (node->spread[i].source));
    }
    c += FIGURE_COLUMNS;
  }
}

MsCliTable *
ms_cli_fleet_report_table (const MsFleetReport *r, bool only_outliers)
{
  static MsCliColumn columns[N_NODE_COLUMNS + MS_FLEET_N_FIGURES * FIGURE_COLUMNS];
  MsCliTable *t = ms_cli_table_new (columns, report_columns (r, columns));
  for (size_t i = 0; i < r->n_nodes; i++)
    if (row_of (&r->nodes[i], only_outliers))
      put_node_row (t, r, &r->nodes[i]);
  return t;
}
