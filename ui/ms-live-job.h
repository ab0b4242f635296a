/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-live-job.h: a live comparison for the Compare page: `memsweep compare
 * --live` in a process of its own, which measures A and B in processes
 * that take turns until every cell is decided or the budget is spent
 * (docs/compare.md), then both sides read back as runs. The command line
 * does the measuring because a compare-grade run is several processes of
 * memsweep itself; the app follows its clock and can stop it (the
 * engine's supervisor, which starts it, tells it once: the command judges
 * and keeps what both sides measured). */
#pragma once

#include <gio/gio.h>

#include "ms-run.h"

G_BEGIN_DECLS

typedef struct _MsLiveJob MsLiveJob;

typedef struct {
  const char *a_options; /* `memsweep run` options of side A; NULL or "" for none */
  const char *b_options; /* of side B */
  double budget_s;       /* the most time to measure */
  double threshold_pct;  /* as the Compare page's */
  const char *prefix;    /* the runs' files: PREFIX-a-samples.csv, PREFIX-b-... */
} MsLiveRequest;

/* Main context, while the owner is alive: the share of the budget spent. */
typedef void (*MsLiveJobProgress) (GObject *owner, double fraction, double elapsed_s);
/* Main context, once, when the owner is still alive: both sides as runs
 * (transfer full), or NULL and NULL with error. */
typedef void (*MsLiveJobDone) (GObject *owner, MsRun *a, MsRun *b, const char *error);

/* Starts it; NULL with error when the command cannot be started. */
MsLiveJob *ms_live_job_start (GObject *owner, const MsLiveRequest *request,
                              MsLiveJobProgress progress, MsLiveJobDone done, GError **error);
/* Stops the measuring; done still comes, with what both sides measured. */
void ms_live_job_stop (MsLiveJob *job);

G_END_DECLS
