/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fleet-openmetrics.c: the fleet report as OpenMetrics text, the format
 * a Prometheus textfile collector reads: per node and GPU its rate at the
 * report's size, its deviation from the fleet's median, its flags, its
 * verdicts with their reasons and the spread between processes they were
 * judged with, and whether it reported at all. */
#include <stdio.h>
#include <string.h>

#include "ms-atomic-file.h"
#include "ms-fleet.h"
#include "ms-utf8.h"

static void
put (MsAtomicFile *w, const char *text)
{
  ms_atomic_file_write (w, text, strlen (text));
}

/* How the character at p goes into a label value: NULL as it is, or its
 * escape in buf; *len the bytes it takes. The format's own escapes for
 * backslash, quote and line feed. A value is data (a node's name comes
 * from a file's name or its sidecar) and the format is UTF-8 throughout,
 * so a byte that is not UTF-8, or another control character, becomes the
 * text \xNN (C1: \u00NN), as fleet-report's table shows it: one bad name
 * never spoils the file. */
static const char *
label_escape (const char *p, char *buf, size_t buflen, size_t *len)
{
  const unsigned char *u = (const unsigned char *) p;
  *len = ms_utf8_char_length (p, strlen (p));
  if (*p == '\\' || *p == '"' || *p == '\n')
    return *p == '\\' ? "\\\\" : *p == '"' ? "\\\"" : "\\n";
  if (*len == 2 && u[0] == 0xc2 && u[1] <= 0x9f)
    return (snprintf (buf, buflen, "\\\\u%04x", u[1]), buf);
  if (*len != 0 && u[0] >= 0x20 && u[0] != 0x7f)
    return NULL;
  *len = 1;
  return (snprintf (buf, buflen, "\\\\x%02x", u[0]), buf);
}

static void
put_label (MsAtomicFile *w, const char *name, const char *value, bool first)
{
  put (w, first ? name : ",");
  if (!first)
    put (w, name);
  put (w, "=\"");
  for (const char *p = value; *p;) {
    char buf[16];
    size_t len;
    const char *escaped = label_escape (p, buf, sizeof buf, &len);
    if (escaped)
      put (w, escaped);
    else
      ms_atomic_file_write (w, p, len);
    p += len;
  }
  put (w, "\"");
}

static void
put_family (MsAtomicFile *w, const char *name, const char *help)
{
  char line[512];
  snprintf (line, sizeof line, "# TYPE %s gauge\n# HELP %s %s\n", name, name, help);
  put (w, line);
}

/* Labels after a sample's own: name and value pairs, NULL ended. */
typedef struct {
  const char *name[4];
  const char *value[4];
} Extra;

/* name{node="..",gpu="..",bus_id=".."[,figure=".."][,extra..]} value */
static void
put_sample (MsAtomicFile *w, const char *name, const MsFleetNode *node, const char *figure,
            const Extra *extra, double value)
{
  char number[64];
  put (w, name);
  put (w, "{");
  put_label (w, "node", node->node, true);
  put_label (w, "gpu", node->gpu, false);
  put_label (w, "bus_id", node->bus_id, false);
  if (figure)
    put_label (w, "figure", figure, false);
  for (int k = 0; extra && k < 4 && extra->name[k]; k++)
    put_label (w, extra->name[k], extra->value[k], false);
  snprintf (number, sizeof number, "} %.17g\n", value);
  put (w, number);
}

static void
put_rates (MsAtomicFile *w, const MsFleetReport *r)
{
  put_family (w, "memsweep_fleet_bytes_per_second",
              "Rate at the report's size (memsweep_fleet_size_bytes) in bytes per second");
  for (size_t i = 0; i < r->n_nodes; i++)
    for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
      if (r->nodes[i].value[f] > 0)
        put_sample (w, "memsweep_fleet_bytes_per_second", &r->nodes[i], ms_fleet_figure_name (f),
                    NULL, r->nodes[i].value[f] * 1e9);
  put_family (w, "memsweep_fleet_deviation_ratio",
              "(rate - fleet median) / fleet median at the report's size");
  for (size_t i = 0; i < r->n_nodes; i++)
    for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
      if (r->nodes[i].value[f] > 0 && r->median[f] > 0)
        put_sample (w, "memsweep_fleet_deviation_ratio", &r->nodes[i], ms_fleet_figure_name (f),
                    NULL, r->nodes[i].deviation[f]);
}

/* Per entry and figure: -1 slower than the median, 1 faster, 0 neither;
 * figure "link": 1 when a link runs below the fleet's most common. */
static void
put_flags (MsAtomicFile *w, const MsFleetReport *r)
{
  put_family (w, "memsweep_fleet_flag",
              "-1 slower or 1 faster than the fleet median beyond the threshold, 0 neither; "
              "link: 1 below the most common link");
  for (size_t i = 0; i < r->n_nodes; i++) {
    const MsFleetNode *node = &r->nodes[i];
    if (!node->readable)
      continue;
    for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
      if (node->value[f] > 0)
        put_sample (w, "memsweep_fleet_flag", node, ms_fleet_figure_name (f), NULL,
                    (node->flags & (1u << f))                ? -1
                    : (node->flags & MS_FLEET_FLAG_HIGH (f)) ? 1
                                                             : 0);
    put_sample (w, "memsweep_fleet_flag", node, "link", NULL,
                (node->flags & MS_FLEET_FLAG_LINK) ? 1 : 0);
  }
  put_family (w, "memsweep_fleet_reported",
              "1 when the entry's samples file was read, 0 unreadable or never reported");
  for (size_t i = 0; i < r->n_nodes; i++)
    put_sample (w, "memsweep_fleet_reported", &r->nodes[i], NULL, NULL,
                r->nodes[i].readable ? 1 : 0);
}

/* Per entry and figure, flagged or not: its verdict against the median,
 * why, and where the spread between processes it was judged with came
 * from, as labels of a sample of 1; that spread's sd of ln(rate) where it
 * is known. */
static void
put_verdicts (MsAtomicFile *w, const MsFleetReport *r)
{
  put_family (w, "memsweep_fleet_verdict",
              "1 for the entry's verdict against the fleet median (same, faster, slower, "
              "ambiguous), why (memsweep compare's reasons) and the source of the spread "
              "between processes it was judged with");
  for (size_t i = 0; i < r->n_nodes; i++)
    for (int f = 0; f < MS_FLEET_N_FIGURES; f++) {
      const MsFleetNode *node = &r->nodes[i];
      Extra labels = { { "verdict", "why", "spread", NULL },
                       { ms_verdict_key (node->verdict[f]), ms_verdict_why_key (node->why[f]),
                         ms_fleet_spread_key (node->spread[f].source), NULL } };
      if (node->value[f] > 0 && r->median[f] > 0)
        put_sample (w, "memsweep_fleet_verdict", node, ms_fleet_figure_name (f), &labels, 1);
    }
  put_family (w, "memsweep_fleet_between_process_sd",
              "The sd of ln(rate) between processes the entry's figure was judged with, where "
              "known");
  for (size_t i = 0; i < r->n_nodes; i++)
    for (int f = 0; f < MS_FLEET_N_FIGURES; f++) {
      const MsFleetNode *node = &r->nodes[i];
      Extra labels = { { "spread", NULL }, { ms_fleet_spread_key (node->spread[f].source), NULL } };
      if (node->value[f] > 0 && node->spread[f].source != MS_FLEET_SPREAD_UNKNOWN)
        put_sample (w, "memsweep_fleet_between_process_sd", node, ms_fleet_figure_name (f),
                    &labels, node->spread[f].sd);
    }
}

/* Per figure, each source of the spreads between processes: the entries
 * judged with it, labelled with the GPU model of a shipped profile or a
 * fleet spread and the entries a fleet spread was measured over. */
static void
put_spread_uses (MsAtomicFile *w, const MsFleetReport *r)
{
  put_family (w, "memsweep_fleet_spread_entries",
              "Entries judged with each source of the spread between processes, per figure");
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
    for (int k = 0; r->exponent[f] >= 0 && k < r->n_spread_uses[f]; k++) {
      const MsFleetSpreadUse *use = &r->spread_use[f][k];
      char nodes[16] = "", line[64];
      if (use->source == MS_FLEET_SPREAD_FLEET)
        snprintf (nodes, sizeof nodes, "%d", use->n_nodes);
      put (w, "memsweep_fleet_spread_entries{");
      put_label (w, "figure", ms_fleet_figure_name (f), true);
      put_label (w, "spread", ms_fleet_spread_key (use->source), false);
      put_label (w, "device", use->device, false);
      put_label (w, "measured_over", nodes, false);
      snprintf (line, sizeof line, "} %d\n", use->entries);
      put (w, line);
    }
}

/* The fleet-wide figures: one sample per figure, no node. */
static void
put_fleet (MsAtomicFile *w, const MsFleetReport *r)
{
  char line[256];
  put_family (w, "memsweep_fleet_median_bytes_per_second",
              "The fleet's median rate at the report's size in bytes per second");
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
    if (r->exponent[f] >= 0 && r->median[f] > 0) {
      snprintf (line, sizeof line, "memsweep_fleet_median_bytes_per_second{figure=\"%s\"} %.17g\n",
                ms_fleet_figure_name (f), r->median[f] * 1e9);
      put (w, line);
    }
  put_family (w, "memsweep_fleet_size_bytes", "The size each figure is compared at, per vector");
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
    if (r->exponent[f] >= 0) {
      snprintf (line, sizeof line, "memsweep_fleet_size_bytes{figure=\"%s\"} %llu\n",
                ms_fleet_figure_name (f), 4ull << r->exponent[f]);
      put (w, line);
    }
}

bool
ms_fleet_write_openmetrics (const MsFleetReport *report, const char *path, char *err,
                            size_t errlen)
{
  MsAtomicFile *w = ms_atomic_file_open (path, err, errlen);
  if (!w)
    return false;
  put_rates (w, report);
  put_flags (w, report);
  put_verdicts (w, report);
  put_fleet (w, report);
  put_spread_uses (w, report);
  put (w, "# EOF\n");
  return ms_atomic_file_commit (w, err, errlen);
}
