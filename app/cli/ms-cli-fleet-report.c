/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-cli-fleet-report.c: `memsweep fleet-report DIR`, nodes x key figures
 * with each node's deviation from the fleet median and its flags. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>
#include <math.h>

#include "ms-cli-common.h"
#include "ms-cli-json.h"
#include "ms-cli-options.h"
#include "ms-cli-output.h"
#include "ms-cli-parse.h"
#include "ms-engine.h"
#include "ms-cli-tables.h"
#include "ms-i18n.h"

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

typedef struct {
  const MsFleetReport *r;
  bool only_outliers;
} ReportView;

static bool
row_of (const MsFleetNode *node, bool only_outliers)
{
  return !only_outliers || node->flags || !node->readable;
}

/* The report's document (data/schema/memsweep-fleet-report.json) on f,
 * the nodes of the table only when only_outliers. */
static void
report_json (FILE *f, void *user)
{
  const ReportView *v = user;
  const MsFleetReport *r = v->r;
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
  ms_json_set_bool (doc, "only_outliers", v->only_outliers);
  MsJson *nodes = ms_json_array_new ();
  for (size_t i = 0; i < r->n_nodes; i++)
    if (row_of (&r->nodes[i], v->only_outliers))
      ms_json_append (nodes, node_json (r, &r->nodes[i]));
  ms_json_set (doc, "nodes", nodes);
  ms_json_set (doc, "copies", copies_json (r));
  ms_json_print (f, doc);
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

/* The report as a table (CSV, markdown): a node a row, per figure its
 * GB/s, deviation, flag, verdict, why and where its spread between
 * processes came from (columns named after the figure: pinned_h2d_gbps). */
static MsCliTable *
report_table (const MsFleetReport *r, bool only_outliers)
{
  static MsCliColumn columns[N_NODE_COLUMNS + MS_FLEET_N_FIGURES * FIGURE_COLUMNS];
  MsCliTable *t = ms_cli_table_new (columns, report_columns (r, columns));
  for (size_t i = 0; i < r->n_nodes; i++)
    if (row_of (&r->nodes[i], only_outliers))
      put_node_row (t, r, &r->nodes[i]);
  return t;
}

static void
print_link (FILE *out, const MsFleetNode *node)
{
  if (node->pcie_gen > 0)
    fprintf (out, "gen%d x%-3d", node->pcie_gen, node->pcie_width);
  else
    fprintf (out, "%-9s", "unknown");
}

static void
print_flags (FILE *out, const MsFleetReport *r, const MsFleetNode *node)
{
  if (node->missing) {
    fputs (ms_gettext ("  NEVER REPORTED"), out);
    return;
  }
  if (!node->readable) {
    char clean[4 * sizeof node->error];
    fprintf (out, "  UNREADABLE: %s", ms_report_clean (node->error, clean, sizeof clean));
    return;
  }
  const char *sep = "  ";
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++) {
    if (node->flags & (1u << f)) {
      fprintf (out, "%sLOW %s", sep, ms_fleet_figure_name (f));
      sep = ", ";
    }
    if (node->flags & MS_FLEET_FLAG_HIGH (f)) {
      fprintf (out, "%sHIGH %s", sep, ms_fleet_figure_name (f));
      sep = ", ";
    }
  }
  if (node->flags & MS_FLEET_FLAG_LINK)
    fprintf (out, "%sLINK below gen%d x%d", sep, r->common_gen, r->common_width);
}

/* Entries are sorted by node: one per GPU of a node are adjacent. */
static size_t
distinct_nodes (const MsFleetReport *r)
{
  size_t n = 0;
  for (size_t i = 0; i < r->n_nodes; i++)
    n += i == 0 || strcmp (r->nodes[i].node, r->nodes[i - 1].node) != 0;
  return n;
}

/* Where the figure's spreads between processes came from, and for how
 * many entries each. */
static void
print_spread_uses (FILE *out, const MsFleetReport *r, MsFleetFigure f)
{
  fputs (ms_gettext ("             spread between processes:"), out);
  for (int k = 0; k < r->n_spread_uses[f]; k++) {
    char what[512], clean[4 * sizeof what];
    ms_fleet_spread_use_describe (&r->spread_use[f][k], what, sizeof what);
    fprintf (out, "%s %s (%d)", k ? "," : "", ms_report_clean (what, clean, sizeof clean),
             r->spread_use[f][k].entries);
  }
  if (r->spread_uses_left_out[f] > 0)
    fprintf (out, ms_gettext (", others (%d)"), r->spread_uses_left_out[f]);
  if (r->n_spread_uses[f] == 0)
    fprintf (out, " -");
  fputc ('\n', out);
}

static void
print_header (FILE *out, const MsFleetReport *r)
{
  char pct[16];
  snprintf (pct, sizeof pct, "%.0f%%", r->threshold * 100);
  size_t nodes = distinct_nodes (r);
  fprintf (out, ms_gettext ("fleet: %zu nodes, %d flagged, %d unreadable; flagged: more than %s "
                            "from the median with the node's interval apart from it and the "
                            "spread between processes known (LOW, HIGH), or a link below the "
                            "most common"),
           nodes, r->n_outliers, r->n_unreadable, pct);
  if (nodes != r->n_nodes)
    fprintf (out, ms_gettext ("; %zu entries, one per GPU"), r->n_nodes);
  if (r->n_missing > 0)
    fprintf (out, ms_gettext ("; %d never reported"), r->n_missing);
  if (r->common_gen > 0)
    fprintf (out, " (gen%d x%d)", r->common_gen, r->common_width);
  if (r->n_no_spread > 0)
    fprintf (out,
             ms_gettext ("; %d beyond the threshold but not flagged, the spread between "
                         "processes unknown (no-spread: calibrate the nodes)"),
             r->n_no_spread);
  fprintf (out, "\n");
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++) {
    if (r->exponent[f] < 0)
      continue;
    char size[32];
    ms_format_bytes (ms_exponent_bytes (r->exponent[f]), size, sizeof size);
    fprintf (out, ms_gettext ("  %-10s at 2^%d (%s per vector), median %.2f GB/s\n"),
             ms_fleet_figure_name (f), r->exponent[f], size, r->median[f]);
    print_spread_uses (out, r, (MsFleetFigure) f);
  }
  fputs (ms_gettext ("  why: the reason of each verdict, as memsweep compare gives it: inside "
                     "(SAME), outside (SLOWER or FASTER: flagged), crosses, no-spread, few-reps, "
                     "two-states (AMBIGUOUS)\n"),
         out);
  fprintf (out, "\n%-20s %-9s", "node", "link");
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++)
    if (r->exponent[f] >= 0)
      fprintf (out, " %10s %7s %-10s", ms_fleet_figure_name (f), "vs med", "why");
  fprintf (out, "  flags\n");
}

static void
print_node (FILE *out, const MsFleetReport *r, const MsFleetNode *node)
{
  /* The node's name comes from its file's stamp: no control characters
   * reach the terminal. */
  char name[4 * sizeof node->node], gpu[4 * sizeof node->gpu], entry[sizeof name + sizeof gpu + 8];
  ms_report_clean (node->node, name, sizeof name);
  ms_report_clean (node->gpu, gpu, sizeof gpu);
  /* One entry per GPU where the node's GPUs were measured one by one. */
  if (node->gpu[0])
    snprintf (entry, sizeof entry, "%s/gpu%s", name, gpu);
  else
    snprintf (entry, sizeof entry, "%s", name);
  /* Padded by terminal columns: a host name may be any UTF-8. */
  ms_cli_put_padded (out, entry, -20);
  fputc (' ', out);
  print_link (out, node);
  for (int f = 0; f < MS_FLEET_N_FIGURES; f++) {
    if (r->exponent[f] < 0)
      continue;
    if (node->value[f] > 0)
      fprintf (out, " %10.2f %+6.1f%% %-10s", node->value[f], node->deviation[f] * 100,
               ms_verdict_why_key (node->why[f]));
    else
      fprintf (out, " %10s %7s %-10s", "-", "", "");
  }
  print_flags (out, r, node);
  fprintf (out, "\n");
}

/* The entries fleet expected (its list in DIR) that left no file: said
 * once more, together, on standard error. */
static void
print_missing (FILE *out, const MsFleetReport *r)
{
  if (r->n_missing == 0)
    return;
  ms_cli_error (ms_gettext ("%d expected entries never reported:"), r->n_missing);
  for (size_t i = 0; i < r->n_nodes; i++) {
    char name[4 * sizeof r->nodes[i].node], gpu[4 * sizeof r->nodes[i].gpu];
    if (r->nodes[i].missing)
      fprintf (out, " %s%s%s", ms_report_clean (r->nodes[i].node, name, sizeof name),
               r->nodes[i].gpu[0] ? "/gpu" : "",
               ms_report_clean (r->nodes[i].gpu, gpu, sizeof gpu));
  }
  fprintf (out, "\n");
}

/* A node file whose run-to-run profile did not survive reading: said, and
 * the node judged by what comes next (the report says what). */
static void
print_damaged_profiles (const MsFleetReport *r)
{
  for (size_t i = 0; i < r->n_nodes; i++) {
    const MsFleetNode *node = &r->nodes[i];
    char file[4 * sizeof node->file], why[4 * sizeof node->profile_error];
    if (node->profile_error[0])
      ms_cli_error ("%s: %s\n", ms_report_clean (node->file, file, sizeof file),
                    ms_report_clean (node->profile_error, why, sizeof why));
  }
}

/* A file the report could not read, with the reason, and a file read
 * whose metadata is unknown (its sidecar another node's, say): the table
 * alone would show an empty row or a blank device. */
static void
print_unreadable (const MsFleetReport *r)
{
  for (size_t i = 0; i < r->n_nodes; i++) {
    const MsFleetNode *node = &r->nodes[i];
    char why[4 * sizeof node->metadata_unknown];
    if (!node->readable && !node->missing)
      ms_cli_error (ms_gettext ("%s: left out of the report\n"),
                    ms_report_clean (node->error, why, sizeof why));
    else if (node->readable && node->metadata_unknown[0])
      ms_cli_error (ms_gettext ("warning: %s\n"),
                    ms_report_clean (node->metadata_unknown, why, sizeof why));
  }
}

/* A summary without its samples file, said; 1 where it is no summary at
 * all (another kind of file under a summary's name). */
static int
say_lone_summary (const char *path)
{
  char clean[4 * PATH_MAX];
  MsFileKind kind = ms_file_kind_of_file (path);
  if (kind == MS_FILE_KIND_SUMMARY) {
    ms_cli_error (ms_gettext ("%s has no samples file beside it: not counted\n"),
                  ms_report_clean (path, clean, sizeof clean));
    return 0;
  }
  ms_cli_error (ms_gettext ("%s is %s, not a run's summary: left out of the report\n"),
                ms_report_clean (path, clean, sizeof clean), ms_file_kind_describe (kind));
  return 1;
}

/* What DIR holds of a node's measurements that the report cannot count,
 * said rather than passed over: a run kept in a folder of its own when
 * it could not be written (memsweep-kept-*), a summary without its
 * samples file (the figures come from the samples). How many of those
 * files are no run's at all (a peer matrix renamed as a summary): left
 * out, as an unreadable file is. */
static int
print_uncounted (const char *dir)
{
  int strangers = 0;
  char sibling[PATH_MAX + 256], path[PATH_MAX + 256], clean[4 * sizeof path];
  struct stat st;
  DIR *d = opendir (dir);
  for (struct dirent *e; d && (e = readdir (d));) {
    snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
    if (strncmp (e->d_name, "memsweep-kept-", 14) == 0 && stat (path, &st) == 0 &&
        S_ISDIR (st.st_mode))
      ms_cli_error (ms_gettext ("%s holds a run kept where it could not "
                                "be written: not counted (move its files into %s)\n"),
                    ms_report_clean (path, clean, sizeof clean), dir);
    else if (e->d_name[0] != '.' && ms_csv_name_stem (e->d_name, "-summary.csv") > 0 &&
             ms_csv_pair_samples_path (path, sibling, sizeof sibling) &&
             stat (sibling, &st) != 0)
      strangers += say_lone_summary (path);
  }
  if (d)
    closedir (d);
  return strangers;
}

/* --openmetrics FILE: the report for a Prometheus textfile collector; the
 * file must not be one of the inputs. */
static bool
write_openmetrics (const MsFleetReport *r, const char *path)
{
  char err[PATH_MAX + 512];
  if (!ms_fleet_write_openmetrics (r, path, err, sizeof err)) {
    /* A reader that stopped reading (| head) took what it wanted: a quiet
     * success, as for every command's standard output. */
    if (strcmp (path, "/dev/stdout") == 0 && ms_cli_stdout_reader_gone ())
      return true;
    ms_cli_error ("--openmetrics: %s\n", err);
    return false;
  }
  return true;
}

static void
report_text (FILE *f, void *user)
{
  const ReportView *v = user;
  print_header (f, v->r);
  for (size_t i = 0; i < v->r->n_nodes; i++)
    if (row_of (&v->r->nodes[i], v->only_outliers))
      print_node (f, v->r, &v->r->nodes[i]);
}

/* 2 when nothing could be compared (bad input, not a clean fleet); else
 * an output that failed; else 1 when a file was left out (a report
 * without a node is not the fleet's, whatever a script reads of it:
 * docs/multi-gpu.md), or for --fail-on-outliers' reasons. */
static int
report_status (const MsFleetReport *r, bool fail_on, int output_status)
{
  if (r->n_nodes > 0 && r->n_unreadable + r->n_missing == (int) r->n_nodes) {
    ms_cli_error (ms_gettext ("no node's results could be read\n"));
    return 2;
  }
  if (output_status != EXIT_OK)
    return output_status;
  return r->n_unreadable > 0 || (fail_on && (r->n_outliers > 0 || r->n_missing > 0)) ? 1 : 0;
}

int
ms_cli_fleet_report (int argc, char **argv)
{
  MsCliArgs args;
  double threshold = 10;
  bool only_outliers = false, fail_on = false;
  MsCliOutput output = { 0 };
  const char *openmetrics = NULL;
  const MsCliBind binds[] = {
    { 't', &threshold }, { 'o', &only_outliers }, { 'f', &fail_on }, { 'm', &openmetrics }, { 0 }
  };
  ms_cli_args_init (&args, "fleet-report", argc, argv);
  if (ms_cli_args_next_bound (&args, &output, binds) != -1)
    return 2;
  if (ms_cli_args_n_operands (&args) != 1) {
    ms_cli_error (ms_gettext ("exactly one DIR is needed (the fleet's folder)\n"));
    return ms_cli_bad_usage ("fleet-report");
  }
  const char *dir = argv[args.operand];
  /* --openmetrics -: standard output holds the OpenMetrics text alone. */
  if (openmetrics && strcmp (openmetrics, MS_CLI_STDIO) == 0) {
    if (output.format != MS_CLI_FORMAT_TEXT) {
      ms_cli_error (ms_gettext ("--openmetrics - puts OpenMetrics on "
                                "standard output, which holds one document: export the "
                                "table into a file\n"));
      return 2;
    }
    output.stdout_off = true;
  }
  /* OpenMetrics is text: .prom (a textfile collector's), .txt or a name
   * of no kind; never a picture's or a table's name. */
  size_t n = openmetrics ? strlen (openmetrics) : 0;
  bool prom = n > 5 && strcasecmp (openmetrics + n - 5, ".prom") == 0;
  if (!ms_cli_output_ready (&output) ||
      (openmetrics && !prom &&
       !ms_cli_name_is_format ("--openmetrics", openmetrics, MS_CLI_FORMAT_TEXT,
                              "OpenMetrics")) ||
      (openmetrics && !ms_cli_plan_file ("--openmetrics", openmetrics)))
    return 2;
  if (openmetrics && strcmp (openmetrics, MS_CLI_STDIO) == 0)
    openmetrics = "/dev/stdout";
  char err[512];
  /* Percent as given; the verdicts take the fraction its one owner makes. */
  MsFleetReport *r = ms_fleet_report_dir (dir, ms_compare_threshold_fraction (threshold), err,
                                          sizeof err);
  if (!r) {
    ms_cli_error ("%s\n", err);
    return 2;
  }
  if (!ms_cli_stdout_not_input ()) {
    ms_fleet_report_free (r);
    return 2;
  }
  for (size_t i = 0; i < r->n_copies; i++) {
    char file[4 * sizeof r->copies[i].file], node[4 * sizeof r->copies[i].node],
      kept[4 * sizeof r->copies[i].kept];
    ms_cli_error (ms_gettext ("%s is another file of node %s (%s is "
                              "counted): left out\n"),
                  ms_report_clean (r->copies[i].file, file, sizeof file),
                  ms_report_clean (r->copies[i].node, node, sizeof node),
                  ms_report_clean (r->copies[i].kept, kept, sizeof kept));
  }
  print_unreadable (r);
  print_damaged_profiles (r);
  int strangers = print_uncounted (dir);
  /* A file that could not be written: 4, as for every command. */
  if (openmetrics && !write_openmetrics (r, openmetrics)) {
    ms_fleet_report_free (r);
    return EXIT_WRITE;
  }
  ReportView view = { r, only_outliers };
  MsCliTable *table = report_table (r, only_outliers);
  MsCliDocument doc = { report_text, report_json, table, &view };
  bool written = ms_cli_output_write (&output, &doc);
  ms_cli_table_free (table);
  print_missing (stderr, r);
  int rc = report_status (r, fail_on, ms_cli_output_status (written));
  if (rc == 0 && strangers > 0)
    rc = 1;
  ms_fleet_report_free (r);
  return rc;
}
