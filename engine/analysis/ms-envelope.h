/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-envelope.h: reference envelopes (ms-envelope.c): the expected range
 * of a run's key figures per GPU model and PCIe link, read from a CSV file
 * (data/envelopes.csv, docs/envelopes.md), and a run judged against it:
 * per figure normal, low, high, no envelope, or not in this run. Plain C,
 * no GLib. */
#pragma once

#include "memsweep.h"

typedef enum {
  MS_ENV_PINNED_H2D_4M,
  MS_ENV_PINNED_D2H_4M,
  MS_ENV_PINNED_H2D_256M,
  MS_ENV_PINNED_D2H_256M,
  MS_ENV_PAGEABLE_H2D_4M,
  MS_ENV_PAGEABLE_H2D_256M,
  MS_ENV_DUPLEX_16M,
  MS_ENV_PINNED_LATENCY_4K,
  MS_ENV_N_FIGURES
} MsEnvFigure;

/* "pinned-h2d-4MiB": the figure column of the file. */
const char *ms_env_figure_id (MsEnvFigure f);
/* "pinned h2d at 4 MiB", translated. */
const char *ms_env_figure_label (MsEnvFigure f);
/* "GB/s" or "us". */
const char *ms_env_figure_unit (MsEnvFigure f);
/* The figure as the engine measures it (a steady-state copy rate, an
 * end-to-end median, the duplex rate); false when the run has no such
 * cell. */
bool ms_env_figure_value (const MsResults *results, MsEnvFigure f, double *value);

typedef struct {
  char gpu[64]; /* matched in the device's name: "H100" */
  int gen, width;
  MsEnvFigure figure;
  double low, high;
  char source[512];
  int line;
} MsEnvRow;

typedef struct {
  char path[512];
  MsEnvRow *rows;
  int n_rows;
  int n_refused;       /* rows refused (each in problems) */
  char problems[2048]; /* "path:line: why" lines, the first ones */
} MsEnvelopes;

/* Reads an envelope file: comment lines (#) and blank lines skipped, the
 * header row required, every damaged or foreign row refused with
 * "path:line: why" and the rest kept. NULL (with err) only when the file
 * cannot be read or is not an envelope file at all. */
MsEnvelopes *ms_envelopes_read (const char *path, char *err, size_t errlen);
void ms_envelopes_free (MsEnvelopes *env);
/* The file to read: $MEMSWEEP_ENVELOPES, else the installed
 * share/memsweep/envelopes.csv, else the source tree's; false when none
 * exists. */
bool ms_envelopes_default_path (char *buf, size_t len);

typedef enum {
  MS_ENV_NOT_MEASURED, /* the run has no such cell */
  MS_ENV_NO_ENVELOPE,  /* no row for this GPU, link and figure */
  MS_ENV_NORMAL,
  MS_ENV_LOW,
  MS_ENV_HIGH,
} MsEnvVerdictKind;

typedef struct {
  MsEnvFigure figure;
  MsEnvVerdictKind kind;
  double value;
  const MsEnvRow *row; /* the envelope, NULL without one */
  double off_pct;      /* LOW: % below low; HIGH: % above high */
  char text[400];      /* the verdict in words */
} MsEnvVerdict;

typedef struct {
  char gpu[64];           /* the envelope's GPU name, "" when none matched */
  int gen, width;         /* the envelope's link */
  int ran_gen, ran_width; /* the link the run ran at; 0 unknown */
  bool link_under_load;   /* ran_gen, ran_width read under load (else at the device query) */
  /* The GPU has no envelope for the link the run ran at (one trained
   * down): judged against the device's maximum link instead. */
  bool at_maximum;
  double theory_gbps; /* ms_pcie_theoretical_gbps of the link it ran at; 0 unknown */
  MsEnvVerdict v[MS_ENV_N_FIGURES];
  int n_normal, n_low, n_high, n_judged;
  char summary[400]; /* one line over all figures */
} MsEnvJudgement;

/* Judges results against env (NULL: no envelopes at all). */
void ms_envelope_judge (const MsEnvelopes *env, const MsResults *results, MsEnvJudgement *out);
