/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet-report-json.c: `memsweep fleet-report --format json|csv|markdown`:
 * the table of ms-cli-fleet-report.c as one document
 * (data/schema/memsweep-fleet-report.json), or as CSV. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ms-cli-fleet-report-json.h"
#include "ms-cli-json.h"

/* Where the figure's spreads between processes came from: each source
 * with the entries judged by it. */
static void
set_spread_uses (MsJson *figure, const MsFleetReport *r, MsFleetFigure i)
{
  MsJson *uses = ms_json_array_new ();
  for (int k = 0; k < r->n_spread_uses[i]; k++) {
    const MsFleetSpreadUse *use = &r->spread_use[i][k];
    MsJson *o = ms_json_object_new ();
    ms_json_set_string (o, "source", ms_fleet_spread_key (use->source));
    ms_json_set_text (o, "device", use->device);
    ms_json_set (o, "n_entries", use->source == MS_FLEET_SPREAD_FLEET
                                   ? ms_json_int_new (use->n_nodes)
                                   : NULL);
    ms_json_set_int (o, "judged", use->entries);
    ms_json_append (uses, o);
  }
  ms_json_set (figure, "spread_sources", uses);
  ms_json_set_int (figure, "spread_sources_left_out", r->spread_uses_left_out[i]);
}

static MsJson *
figures_json (const MsFleetReport *r)
{
  MsJson *figures = ms_json_array_new ();
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++) {
    if (r->exponent[i] < 0)
      continue;
    MsJson *o = ms_json_object_new ();
    ms_json_set_string (o, "name", ms_fleet_figure_name ((MsFleetFigure) i));
    ms_json_set_int (o, "exponent", r->exponent[i]);
    ms_json_set_int (o, "bytes_per_vector", (long long) (4ull << r->exponent[i]));
    ms_json_set_number (o, "median_gbps", r->median[i]);
    ms_json_set_int (o, "n_entries", r->n_values[i]);
    set_spread_uses (o, r, (MsFleetFigure) i);
    ms_json_append (figures, o);
  }
  return figures;
}

/* The spread between processes the figure was judged with; null where the
 * node has no value. */
static MsJson *
spread_json (const MsFleetNode *node, int i, bool has)
{
  if (!has)
    return NULL;
  const MsFleetSpread *sp = &node->spread[i];
  bool known = sp->source != MS_FLEET_SPREAD_UNKNOWN;
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "source", ms_fleet_spread_key (sp->source));
  ms_json_set_number (o, "sd", known ? sp->sd : NAN);
  ms_json_set (o, "df", known ? ms_json_int_new (sp->df) : NULL);
  ms_json_set (o, "n_entries",
               sp->source == MS_FLEET_SPREAD_FLEET ? ms_json_int_new (sp->n_nodes) : NULL);
  return o;
}

/* One figure of a node: its GB/s, its deviation from the median, whether
 * it is flagged (low, high or null), its verdict and why, by the spread
 * between processes it was judged with. */
static MsJson *
node_figure_json (const MsFleetNode *node, int i)
{
  bool has = node->value[i] > 0;
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "name", ms_fleet_figure_name ((MsFleetFigure) i));
  ms_json_set_number (o, "gbps", has ? node->value[i] : NAN);
  ms_json_set_number (o, "deviation", has ? node->deviation[i] : NAN);
  ms_json_set_string (o, "flag", node->flags & (1u << i)               ? "low"
                                 : node->flags & MS_FLEET_FLAG_HIGH (i) ? "high"
                                                                         : NULL);
  ms_json_set_string (o, "verdict", has ? ms_verdict_key (node->verdict[i]) : NULL);
  ms_json_set_string (o, "why", has ? ms_verdict_why_key (node->why[i]) : NULL);
  ms_json_set (o, "spread", spread_json (node, i, has));
  return o;
}

static MsJson *
node_json (const MsFleetReport *r, const MsFleetNode *node)
{
  MsJson *o = ms_json_object_new ();
  ms_json_set_string (o, "node", node->node);
  /* One entry per GPU where the node's GPUs were measured one by one. */
  ms_json_set_text (o, "gpu", node->gpu);
  ms_json_set_text (o, "bus_id", node->bus_id);
  ms_json_set_string (o, "file", node->file);
  ms_json_set_text (o, "device", node->device);
  ms_json_set_bool (o, "readable", node->readable);
  ms_json_set_bool (o, "missing", node->missing);
  ms_json_set_text (o, "error", node->readable ? NULL : node->error);
  ms_json_set_text (o, "profile_error", node->profile_error);
  ms_json_set (o, "link", node->pcie_gen > 0 ? ms_json_link (node->pcie_gen, node->pcie_width)
                                             : NULL);
  ms_json_set_bool (o, "link_below_common", node->flags & MS_FLEET_FLAG_LINK);
  MsJson *figures = ms_json_array_new ();
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++)
    if (r->exponent[i] >= 0)
      ms_json_append (figures, node_figure_json (node, i));
  ms_json_set (o, "figures", figures);
  return o;
}

static MsJson *
copies_json (const MsFleetReport *r)
{
  MsJson *copies = ms_json_array_new ();
  for (size_t i = 0; i < r->n_copies; i++) {
    MsJson *o = ms_json_object_new ();
    ms_json_set_string (o, "file", r->copies[i].file);
    ms_json_set_string (o, "node", r->copies[i].node);
    ms_json_set_string (o, "kept", r->copies[i].kept);
    ms_json_append (copies, o);
  }
  return copies;
}

bool
ms_cli_fleet_report_json (FILE *f, const MsFleetReport *r, bool only_outliers)
{
  MsJson *doc = ms_json_object_new ();
  ms_file_kind_stamp (doc, MS_FILE_KIND_FLEET_JSON);
  ms_json_set_number (doc, "threshold_pct", r->threshold * 100);
  ms_json_set_int (doc, "n_nodes", (long long) r->n_nodes);
  ms_json_set_int (doc, "n_outliers", r->n_outliers);
  ms_json_set_int (doc, "n_unreadable", r->n_unreadable);
  ms_json_set_int (doc, "n_missing", r->n_missing);
  ms_json_set_int (doc, "n_no_spread", r->n_no_spread);
  ms_json_set (doc, "common_link",
               r->common_gen > 0 ? ms_json_link (r->common_gen, r->common_width) : NULL);
  ms_json_set (doc, "figures", figures_json (r));
  ms_json_set_bool (doc, "only_outliers", only_outliers);
  MsJson *nodes = ms_json_array_new ();
  for (size_t i = 0; i < r->n_nodes; i++) {
    const MsFleetNode *node = &r->nodes[i];
    if (!only_outliers || node->flags || !node->readable)
      ms_json_append (nodes, node_json (r, node));
  }
  ms_json_set (doc, "nodes", nodes);
  ms_json_set (doc, "copies", copies_json (r));
  return ms_json_print (f, doc) && !ferror (f);
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
