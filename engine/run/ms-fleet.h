/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fleet.h: one sweep per node of a cluster, compared.
 *
 * Each node runs `memsweep run` and stamps its samples file with who it is
 * (node name, GPU serials, every GPU's PCIe link) as extra `# key: value`
 * metadata lines, which other readers ignore. The report reads a folder of
 * such files and compares every node's key figures with the fleet's
 * median. Plain C like the rest of the engine.
 */
#pragma once

#include "memsweep.h"
#include "ms-fleet-report.h"

typedef struct {
  char node[128];
  char serials[512]; /* "1650224012345,1650224012346" or "" */
  char links[256];   /* every GPU's current link: "gen5x16,gen5x16" or "" */
  char gpu[16];      /* the measured GPU's index on its node, "" for none */
  char bus_id[32];   /* its PCI bus id, "" unknown */
} MsFleetStamp;

/* Adds the stamp's metadata lines after the file's own, replacing earlier
 * stamp lines; the file is rewritten through a temporary file. */
bool ms_fleet_stamp (const char *path, const MsFleetStamp *stamp, char *err, size_t errlen);

/* "pinned h2d" */
const char *ms_fleet_figure_name (MsFleetFigure f);

/* The file `memsweep fleet` leaves in DIR: one line per node it submitted,
 * "NODE GPUS JOB" (GPUS 0: the node's run was not per GPU; JOB "-" when
 * the submission failed). The report adds an entry, marked missing, for
 * every node or GPU listed there that left no samples file. */
#define MS_FLEET_EXPECTED_FILE "fleet-expected.txt"

typedef struct {
  char node[128];
  int gpus;
  char job[32];
} MsFleetExpected;

bool ms_fleet_write_expected (const char *dir, const MsFleetExpected *expected, size_t n,
                              char *err, size_t errlen);

/* Reads every *-samples.csv in dir. NULL with a message when dir cannot be
 * read or holds no samples file; unreadable files are nodes with an error.
 * A node is counted once: of several files naming it, NODE-samples.csv (the
 * one fleet-node writes), else the first by name; the others are copies. */
MsFleetReport *ms_fleet_report_dir (const char *dir, double threshold, char *err,
                                    size_t errlen);
/* The report as OpenMetrics text for a Prometheus textfile collector:
 * memsweep_fleet_* gauges labelled node, gpu, bus_id (and figure), ending
 * with "# EOF"; written through a temporary file so that a collector never
 * reads half of it. */
bool ms_fleet_write_openmetrics (const MsFleetReport *report, const char *path, char *err,
                                 size_t errlen);
/* The comparison alone, on nodes already filled (values per size, links,
 * profiles): medians, spreads, deviations, verdicts, flags. */
void ms_fleet_report_compute (MsFleetReport *report);
void ms_fleet_report_free (MsFleetReport *report);
