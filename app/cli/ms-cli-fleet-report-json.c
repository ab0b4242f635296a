/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet-report-json.c: `memsweep fleet-report --format json|csv`:
 * the table of ms-cli-fleet-report.c as one document
 * (data/schema/memsweep-fleet-report.json), or as CSV. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>

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

/* "pinned h2d" as a column's stem: pinned_h2d. */
static void
put_figure_column (FILE *f, int i, const char *what)
{
  fputc (',', f);
  for (const char *p = ms_fleet_figure_name ((MsFleetFigure) i); *p; p++)
    fputc (*p == ' ' ? '_' : *p, f);
  fprintf (f, "_%s", what);
}

static bool
csv_row_of (const MsFleetNode *node, bool only_outliers)
{
  return !only_outliers || node->flags || !node->readable;
}

/* links: whether the link's columns are written (some node has one: a
 * column without any value would read as text, not as the integer it is). */
static void
put_csv_node (FILE *f, const MsFleetReport *r, const MsFleetNode *node, bool links)
{
  ms_cli_csv_field (f, node->node);
  fputc (',', f);
  ms_cli_csv_field (f, node->gpu);
  fputc (',', f);
  ms_cli_csv_field (f, node->bus_id);
  fputc (',', f);
  ms_cli_csv_field (f, node->file);
  fputc (',', f);
  ms_cli_csv_field (f, node->device);
  fprintf (f, ",%s,%s,", node->readable ? "true" : "false", node->missing ? "true" : "false");
  ms_cli_csv_field (f, node->readable ? "" : node->error);
  fputc (',', f);
  ms_cli_csv_field (f, node->profile_error);
  if (links && node->pcie_gen > 0)
    fprintf (f, ",%d,%d", node->pcie_gen, node->pcie_width);
  else if (links)
    fputs (",,", f);
  fprintf (f, ",%s", node->flags & MS_FLEET_FLAG_LINK ? "true" : "false");
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++) {
    if (r->exponent[i] < 0)
      continue;
    bool has = node->value[i] > 0;
    fputc (',', f);
    ms_cli_csv_number (f, has ? node->value[i] : NAN);
    fputc (',', f);
    ms_cli_csv_number (f, has ? node->deviation[i] : NAN);
    fputs (node->flags & (1u << i)               ? ",low"
           : node->flags & MS_FLEET_FLAG_HIGH (i) ? ",high"
                                                   : ",",
           f);
    if (has)
      fprintf (f, ",%s,%s,%s", ms_verdict_key (node->verdict[i]), ms_verdict_why_key (node->why[i]),
               ms_fleet_spread_key (node->spread[i].source));
    else
      fputs (",,,", f);
  }
  fputc ('\n', f);
}

bool
ms_cli_fleet_report_csv (FILE *f, const MsFleetReport *r, bool only_outliers)
{
  bool links = false;
  for (size_t i = 0; i < r->n_nodes; i++)
    if (csv_row_of (&r->nodes[i], only_outliers) && r->nodes[i].pcie_gen > 0)
      links = true;
  fputs (links ? "node,gpu,bus_id,file,device,readable,missing,error,profile_error,link_gen,"
                 "link_width,link_below_common"
               : "node,gpu,bus_id,file,device,readable,missing,error,profile_error,"
                 "link_below_common",
         f);
  for (int i = 0; i < MS_FLEET_N_FIGURES; i++) {
    if (r->exponent[i] < 0)
      continue;
    put_figure_column (f, i, "gbps");
    put_figure_column (f, i, "deviation");
    put_figure_column (f, i, "flag");
    put_figure_column (f, i, "verdict");
    put_figure_column (f, i, "why");
    put_figure_column (f, i, "spread");
  }
  fputc ('\n', f);
  for (size_t i = 0; i < r->n_nodes; i++)
    if (csv_row_of (&r->nodes[i], only_outliers))
      put_csv_node (f, r, &r->nodes[i], links);
  return !ferror (f);
}
