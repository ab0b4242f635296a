/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-fleet-report.h: what a fleet report holds: the key figures, each
 * node's values and verdicts, and where each spread between processes came
 * from. Both halves of the report use it: ms-fleet.c reads the nodes,
 * ms-fleet-spread.c judges them (and describes the spreads' sources), so
 * neither needs the other's header for the types. */
#pragma once

#include "memsweep.h"
#include "analysis/ms-compare.h"

typedef enum {
  MS_FLEET_PINNED_H2D,
  MS_FLEET_PINNED_D2H,
  MS_FLEET_ZERO_COPY, /* end-to-end: the kernel reads and writes host memory */
  MS_FLEET_HOST,      /* the CPU's c = a + b, end-to-end */
  MS_FLEET_N_FIGURES
} MsFleetFigure;

/* Where the spread between processes that a node's figure is judged with
 * came from, in the order tried: the node file's own run-to-run profile,
 * else the shipped profile of its GPU model (the order and the function
 * `memsweep compare` uses); where that knows nothing of the figure's mode,
 * the fleet's own spread over the nodes of the same GPU model; else none,
 * and no figure is then called FASTER or SLOWER. */
typedef enum {
  MS_FLEET_SPREAD_UNKNOWN,
  MS_FLEET_SPREAD_OWN,
  MS_FLEET_SPREAD_SHIPPED,
  MS_FLEET_SPREAD_FLEET,
  MS_FLEET_SPREAD_COUNT
} MsFleetSpreadSource;

/* The fewest nodes of one GPU model holding a figure whose spread the
 * fleet takes as that of its nodes' processes. */
#define MS_FLEET_SPREAD_MIN_NODES 5

/* "unknown", "own-profile", "shipped-profile", "fleet-spread": stable, for
 * JSON, CSV and OpenMetrics labels. */
const char *ms_fleet_spread_key (MsFleetSpreadSource source);

typedef struct {
  MsFleetSpreadSource source;
  double sd;   /* of ln(value) between processes; 0 where unknown */
  int df;      /* the degrees of freedom of that estimate */
  int n_nodes; /* MS_FLEET_SPREAD_FLEET: the nodes it was measured over */
} MsFleetSpread;

/* One source as the entries of a figure used it: the report names them all
 * (at most MS_FLEET_MAX_SPREAD_USES; entries beyond are counted apart). */
#define MS_FLEET_MAX_SPREAD_USES 8
typedef struct {
  MsFleetSpreadSource source;
  char device[128]; /* the GPU model of a shipped profile or a fleet spread, else "" */
  int n_nodes;      /* MS_FLEET_SPREAD_FLEET: the nodes it was measured over */
  int entries;      /* the entries judged with it */
} MsFleetSpreadUse;

/* The use in words, translated: "own profile", "shipped profile of
 * MODEL", "fleet spread of N nodes of MODEL", "unknown". */
void ms_fleet_spread_use_describe (const MsFleetSpreadUse *use, char *buf, size_t len);

#define MS_FLEET_FLAG_LINK (1u << MS_FLEET_N_FIGURES)
/* Figure f faster than the fleet's median beyond the threshold. */
#define MS_FLEET_FLAG_HIGH(f) (1u << (MS_FLEET_N_FIGURES + 1 + (f)))

typedef struct {
  char node[128];
  char gpu[16];    /* the GPU's index on its node from the stamp; "" none */
  char bus_id[32]; /* its PCI bus id from the stamp; "" unknown */
  char file[256];
  char device[128];
  char serials[512];
  int pcie_gen, pcie_width; /* the worst link of the node's GPUs; 0 unknown */
  /* GB/s per figure and size; 0 where the node has no OK cell. */
  double at[MS_FLEET_N_FIGURES][MS_MAX_EXPONENT + 1];
  /* Their 95% intervals in GB/s; lo == hi == 0 where none is known (the
   * value then stands as a point). */
  double at_lo[MS_FLEET_N_FIGURES][MS_MAX_EXPONENT + 1];
  double at_hi[MS_FLEET_N_FIGURES][MS_MAX_EXPONENT + 1];
  bool at_valid[MS_FLEET_N_FIGURES][MS_MAX_EXPONENT + 1];
  double value[MS_FLEET_N_FIGURES];     /* at the report's size; 0: none */
  double deviation[MS_FLEET_N_FIGURES]; /* (value - median) / median */
  /* The spread between processes: own, or the shipped profile of the
   * node's GPU model (ms_compare_profile_of); valid false: neither. */
  MsRunToRun profile;
  MsFleetSpreadSource profile_source; /* OWN or SHIPPED where profile.valid */
  /* Why the file's own run-to-run profile, or a line of it, could not be
   * read ("" when it could or there is none): said, and the node judged
   * by what comes next in the order. */
  char profile_error[256];
  MsFleetSpread spread[MS_FLEET_N_FIGURES];
  /* Against the fleet's median by ms_verdict_judgement: SLOWER sets bit f,
   * FASTER MS_FLEET_FLAG_HIGH (f); AMBIGUOUS (the node's interval reaches
   * the median, the spread between processes is unknown, fewer than 6
   * repetitions) flags nothing; why says which. A figure the node lacks is
   * AMBIGUOUS with MS_WHY_NO_MEDIAN. */
  MsVerdict verdict[MS_FLEET_N_FIGURES];
  MsVerdictWhy why[MS_FLEET_N_FIGURES];
  unsigned flags; /* bit f: figure f slower; MS_FLEET_FLAG_LINK; MS_FLEET_FLAG_HIGH (f) */
  bool readable;
  bool missing;    /* expected (MS_FLEET_EXPECTED_FILE) and never reported */
  char error[256]; /* why the file could not be read */
  /* Why the file's metadata (its stamp, device and link) is unknown: its
   * sidecar missing, damaged or another file's (another node's copied
   * over it); "" when it was read. Said, as show says it. */
  char metadata_unknown[512];
} MsFleetNode;

/* A second file of a node already in the report (a copy of its samples
 * file, stamped with its name): left out, and said. */
typedef struct {
  char file[256];
  char node[128];
  char kept[256]; /* the node's file that is counted */
} MsFleetCopy;

typedef struct {
  MsFleetNode *nodes; /* sorted by node name */
  size_t n_nodes;
  MsFleetCopy *copies; /* files left out as copies; n_copies of them */
  size_t n_copies;
  double threshold;   /* 0.10: flag 10% from the median (ms-compare.h's rule) */
  int exponent[MS_FLEET_N_FIGURES]; /* the largest size every node has; -1 */
  double median[MS_FLEET_N_FIGURES];
  int n_values[MS_FLEET_N_FIGURES]; /* the entries the median is of */
  MsFleetSpreadUse spread_use[MS_FLEET_N_FIGURES][MS_FLEET_MAX_SPREAD_USES];
  int n_spread_uses[MS_FLEET_N_FIGURES];
  int spread_uses_left_out[MS_FLEET_N_FIGURES]; /* entries whose use had no room */
  int common_gen, common_width; /* the fleet's most common link; 0 unknown */
  int n_outliers;
  /* Entries with a figure beyond the threshold that is AMBIGUOUS only for
   * want of a spread between processes (MS_WHY_NO_SPREAD). */
  int n_no_spread;
  int n_unreadable; /* files that could not be read */
  int n_missing;    /* expected entries with no file */
} MsFleetReport;
