/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fleet-spread.c: the fleet report's verdicts. Each node's figure is
 * judged against the fleet's median by the rule `memsweep compare` uses
 * (ms-compare.h), with the spread between processes that rule needs:
 *
 *   1. the node file's own run-to-run profile (calibrate on that node),
 *   2. else the profile of its GPU model shipped with memsweep: both picked
 *      by ms_compare_profile_of, the function compare uses;
 *   3. where the profile knows nothing of the figure's mode, the fleet's
 *      own spread: with at least MS_FLEET_SPREAD_MIN_NODES entries of the
 *      same GPU model holding the figure, 1.4826 x the median absolute
 *      deviation of ln(value) over them, with n - 1 degrees of freedom.
 *      Each of those entries is another process, so the spread holds the
 *      variation between processes; it also holds the differences between
 *      the machines, which makes it wider than the between-process spread
 *      alone: a node flagged by it stands out of its fleet, not merely of
 *      its own noise. A median absolute deviation is used, not an sd, so
 *      that the few nodes the report is looking for do not widen it. A
 *      spread of exactly 0 (the values tie: copies of one file, a model
 *      backend) measures nothing and is taken as unknown;
 *   4. else unknown: the judgement can then say AMBIGUOUS with the reason
 *      "no-spread", never FASTER or SLOWER.
 *
 * For pinned h2d and d2h the profile's value is the pinned mode's at the
 * report's size, for zero-copy and host their own (ms_run_to_run_between). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms-fleet-spread.h"
#include "ms-i18n.h"
#include "ms-names.h"
#include "ms-meta.h"
#include "ms-modes.h"
#include "ms-run-to-run.h"
#include "ms-stats.h"

/* sd of ln(value) from the median absolute deviation, for normal values. */
#define MAD_TO_SD 1.4826
/* The standard error of the median of n normal values is sqrt(pi/2) sd /
 * sqrt(n). */
#define MEDIAN_SE_FACTOR 1.2533141373155003

static const char *const spread_keys[MS_FLEET_SPREAD_COUNT]
    = { "unknown", "own-profile", "shipped-profile", "fleet-spread" };

MS_DEFINE_LOOKUP (ms_fleet_spread_key, const char *, MsFleetSpreadSource, MS_FLEET_SPREAD_COUNT,
                  spread_keys[i], "?")

void
ms_fleet_spread_use_describe (const MsFleetSpreadUse *use, char *buf, size_t len)
{
  switch (use->source) {
  case MS_FLEET_SPREAD_OWN:
    snprintf (buf, len, "%s", ms_gettext ("the node's own run-to-run profile"));
    break;
  case MS_FLEET_SPREAD_SHIPPED:
    snprintf (buf, len, ms_gettext ("the shipped profile of %s"), use->device);
    break;
  case MS_FLEET_SPREAD_FLEET:
    snprintf (buf, len, ms_gettext ("the fleet's spread over %d entries of %s"), use->n_nodes,
              use->device);
    break;
  case MS_FLEET_SPREAD_UNKNOWN:
  case MS_FLEET_SPREAD_COUNT:
  default:
    snprintf (buf, len, "%s", ms_gettext ("unknown"));
    break;
  }
}

/* ---- the node's profile ------------------------------------------------ */

void
ms_fleet_profile_line (const char *line, MsFleetProfileLines *seen)
{
  const char *header = ms_meta_table (MS_META_RUN_TO_RUN)->key;
  const char *sd = ms_meta_table (MS_META_RUN_TO_RUN_SD)->key;
  if (strncmp (line, "# ", 2) != 0)
    return;
  const char *key = line + 2, *colon = strstr (key, ": ");
  if (!colon)
    return;
  size_t len = (size_t) (colon - key), sd_len = strlen (sd);
  MsMode mode;
  char name[64];
  if (len == strlen (header) && strncmp (key, header, len) == 0) {
    seen->header = true;
  } else if (len > sd_len && strncmp (key, sd, sd_len) == 0) {
    snprintf (name, sizeof name, "%.*s", (int) (len - sd_len), key + sd_len);
    if (ms_mode_from_name (name, &mode))
      seen->modes |= 1u << mode;
  }
}

static bool
knows_mode (const MsRunToRun *rr, MsMode mode)
{
  for (int e = 0; e <= MS_MAX_EXPONENT; e++)
    if (rr->sd[mode][e] >= 0)
      return true;
  return false;
}

/* The results reader drops a profile line it cannot read whole: a line the
 * file has and the results lack was damaged. */
static void
check_profile_lines (MsFleetNode *node, const MsRunToRun *own, const MsFleetProfileLines *seen)
{
  size_t len = sizeof node->profile_error;
  if (seen->header && !own->valid) {
    snprintf (node->profile_error, len, "%s",
              ms_gettext ("its run-to-run line cannot be read: its profile is left out"));
    return;
  }
  if (!seen->header && seen->modes) {
    snprintf (node->profile_error, len, "%s",
              ms_gettext ("it has run-to-run-sd lines without their run-to-run line: its profile "
                          "is left out"));
    return;
  }
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if ((seen->modes & (1u << m)) && !knows_mode (own, (MsMode) m)) {
      snprintf (node->profile_error, len,
                ms_gettext ("its run-to-run-sd-%s line cannot be read: its profile knows nothing "
                            "of that mode"),
                ms_mode_name ((MsMode) m));
      return;
    }
}

void
ms_fleet_node_profile (MsFleetNode *node, const MsResults *results,
                       const MsFleetProfileLines *seen)
{
  node->profile_error[0] = '\0';
  check_profile_lines (node, &results->run_to_run, seen);
  MsRunToRun shipped;
  const MsRunToRun *rr = ms_compare_profile_of (results, NULL, &shipped);
  ms_run_to_run_clear (&node->profile);
  node->profile_source = MS_FLEET_SPREAD_UNKNOWN;
  if (rr) {
    node->profile = *rr;
    node->profile_source
        = rr == &results->run_to_run ? MS_FLEET_SPREAD_OWN : MS_FLEET_SPREAD_SHIPPED;
  }
}

/* ---- the fleet's own spread ------------------------------------------- */

typedef struct {
  const char *device;
  double sd; /* 0: fewer than MS_FLEET_SPREAD_MIN_NODES entries, or a tie */
  int n;
} Group;

typedef struct {
  Group *groups;
  size_t n;
} Groups;

static Group
measure_group (const MsFleetReport *report, MsFleetFigure f, const char *device, double *scratch)
{
  Group g = { device, 0, 0 };
  for (size_t i = 0; i < report->n_nodes; i++) {
    const MsFleetNode *node = &report->nodes[i];
    if (node->value[f] > 0 && strcmp (node->device, device) == 0)
      scratch[g.n++] = log (node->value[f]);
  }
  if (g.n < MS_FLEET_SPREAD_MIN_NODES)
    return g;
  double centre = ms_median (scratch, g.n);
  for (int i = 0; i < g.n; i++)
    scratch[i] = fabs (scratch[i] - centre);
  g.sd = MAD_TO_SD * ms_median (scratch, g.n);
  return g;
}

/* The group of the node's GPU model, measured the first time it is asked
 * for; NULL for a node whose model is unknown: no name, or "none", which
 * a run without a GPU records (the host mode alone): nodes that name no
 * GPU may differ in anything. */
static const Group *
group_of (Groups *cache, const MsFleetReport *report, MsFleetFigure f, const MsFleetNode *node,
          double *scratch)
{
  if (!node->device[0] || strcmp (node->device, "none") == 0)
    return NULL;
  for (size_t k = 0; k < cache->n; k++)
    if (strcmp (cache->groups[k].device, node->device) == 0)
      return &cache->groups[k];
  cache->groups[cache->n] = measure_group (report, f, node->device, scratch);
  return &cache->groups[cache->n++];
}

/* ---- judging ----------------------------------------------------------- */

static MsMode
figure_mode (MsFleetFigure f)
{
  return f == MS_FLEET_ZERO_COPY ? MS_MODE_ZERO_COPY
         : f == MS_FLEET_HOST    ? MS_MODE_HOST
                                 : MS_MODE_PINNED;
}

static MsFleetSpread
spread_of (const MsFleetReport *report, MsFleetFigure f, const MsFleetNode *node, Groups *cache,
           double *scratch)
{
  MsFleetSpread sp = { MS_FLEET_SPREAD_UNKNOWN, 0, 0, 0 };
  double sd;
  int df;
  if (node->profile.valid &&
      ms_run_to_run_between (&node->profile, figure_mode (f), report->exponent[f], &sd, &df))
    return (MsFleetSpread){ node->profile_source, sd, df, 0 };
  const Group *g = group_of (cache, report, f, node, scratch);
  if (g && g->sd > 0)
    sp = (MsFleetSpread){ MS_FLEET_SPREAD_FLEET, g->sd, g->n - 1, g->n };
  return sp;
}

/* The entry's figure against the fleet's median. The median is of
 * n_values entries, each measured in its own process: its own value moves
 * between processes too, by about sqrt(pi/2) sd / sqrt(n) for a spread sd
 * between processes, and is given that (the node's sd standing for every
 * entry's: the machines' differences are what the report looks for, not
 * noise). Its interval on its own is a point, since it is no repeated
 * measurement of one thing. */
static void
judge_node (MsFleetReport *report, MsFleetFigure f, MsFleetNode *node, const MsFleetSpread *sp)
{
  int e = report->exponent[f];
  double value = node->value[f], median = report->median[f];
  bool known = sp->source != MS_FLEET_SPREAD_UNKNOWN;
  MsInterval own = { value, value, value, true, known, sp->sd, sp->df, false };
  if (node->at_lo[f][e] > 0 || node->at_hi[f][e] > 0) {
    own.lo = node->at_lo[f][e];
    own.hi = node->at_hi[f][e];
    own.valid = node->at_valid[f][e];
  }
  double se = MEDIAN_SE_FACTOR * sp->sd / sqrt ((double) report->n_values[f]);
  MsInterval fleet = { median, median, median, true, known, se, sp->df, false };
  MsJudgement j = ms_verdict_judgement (&fleet, &own, report->threshold, false);
  node->verdict[f] = j.verdict;
  node->why[f] = j.why;
  if (j.verdict == MS_VERDICT_SLOWER)
    node->flags |= 1u << f;
  else if (j.verdict == MS_VERDICT_FASTER)
    node->flags |= MS_FLEET_FLAG_HIGH (f);
}

/* Counts the entry under its spread's source, a new one while there is
 * room. */
static void
note_use (MsFleetReport *report, MsFleetFigure f, const MsFleetNode *node)
{
  const MsFleetSpread *sp = &node->spread[f];
  bool of_model = sp->source == MS_FLEET_SPREAD_SHIPPED || sp->source == MS_FLEET_SPREAD_FLEET;
  const char *device = of_model ? node->device : "";
  MsFleetSpreadUse *uses = report->spread_use[f];
  int n = report->n_spread_uses[f];
  for (int k = 0; k < n; k++)
    if (uses[k].source == sp->source && uses[k].n_nodes == sp->n_nodes &&
        strcmp (uses[k].device, device) == 0) {
      uses[k].entries++;
      return;
    }
  if (n == MS_FLEET_MAX_SPREAD_USES) {
    report->spread_uses_left_out[f]++;
    return;
  }
  uses[n] = (MsFleetSpreadUse){ sp->source, "", sp->n_nodes, 1 };
  snprintf (uses[n].device, sizeof uses[n].device, "%s", device);
  report->n_spread_uses[f]++;
}

bool
ms_fleet_judge_figure (MsFleetReport *report, MsFleetFigure f, double *scratch)
{
  Groups cache = { calloc (report->n_nodes + 1, sizeof *cache.groups), 0 };
  report->n_spread_uses[f] = report->spread_uses_left_out[f] = 0;
  for (size_t i = 0; i < report->n_nodes; i++) {
    MsFleetNode *node = &report->nodes[i];
    node->spread[f] = (MsFleetSpread){ MS_FLEET_SPREAD_UNKNOWN, 0, 0, 0 };
    node->verdict[f] = MS_VERDICT_AMBIGUOUS;
    node->why[f] = MS_WHY_NO_MEDIAN;
    if (!cache.groups || node->value[f] <= 0 || !(report->median[f] > 0))
      continue;
    node->spread[f] = spread_of (report, f, node, &cache, scratch);
    judge_node (report, f, node, &node->spread[f]);
    note_use (report, f, node);
  }
  bool judged = cache.groups != NULL;
  free (cache.groups);
  return judged;
}
