/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-multi-results.h: what runs beyond one GPU give back: a sweep's results
 * per device and their aggregate figures, the portable pinned memory cases
 * the peer copy matrix and the host link under every GPU
 * (ms-multi-results.c). Run by run/ms-multi.h and run/ms-host-link.h;
 * written and read by files/ms-multi-file.h, files/ms-peer-file.h,
 * files/ms-portable-file.h and files/ms-host-link-file.h.
 * Plain C like the rest of the engine. */
#pragma once

#include "memsweep.h"
#include "devices/ms-topo.h"

typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES];
  /* One per device, in the order of devices; each holds that device's cells
   * and facts as a single-device run would. */
  MsResults *per_device[MS_MULTI_MAX_DEVICES];
} MsMultiResults;

void ms_multi_results_free (MsMultiResults *results);

typedef struct {
  int n_ok;         /* devices with an OK cell at this (mode, size) */
  double h2d_gbps;  /* sum over those devices of their own figures */
  double d2h_gbps;
  double e2e_gbps;
  double h2d_min_gbps; /* the slowest device, to see an unfair share */
  double d2h_min_gbps;
} MsMultiAggregate;

/* Aggregate of one (mode, size) over the devices; false when no device has
 * an OK cell there. */
bool ms_multi_aggregate (const MsMultiResults *results, MsMode mode, int exponent,
                         MsMultiAggregate *agg);

typedef enum {
  MS_PORTABLE_PER_DEVICE, /* one cudaMallocHost buffer per GPU, made on it */
  MS_PORTABLE_SHARED,     /* one cudaHostAlloc(Portable) buffer for all GPUs */
  MS_PORTABLE_FOREIGN,    /* cudaMallocHost on device 0, used from the others */
  MS_PORTABLE_COUNT
} MsPortableCase;

const char *ms_portable_case_name (MsPortableCase c);

typedef struct {
  bool ok;
  double h2d_gbps; /* median of the samples, each GPU alone */
  double d2h_gbps;
  bool pinned_path; /* the runtime saw the buffer as pinned for this GPU */
  char note[256];   /* the error, or what the runtime said about the buffer */
} MsPortableCell;

typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES]; /* CUDA indices; slot 0 pinned the foreign buffer */
  uint64_t bytes;
  MsPortableCell cell[MS_PORTABLE_COUNT][MS_MULTI_MAX_DEVICES];
  char error[256];
} MsPortableResults;

typedef enum {
  MS_PEER_COPY_ENABLED,  /* cudaMemcpyPeerAsync, peer access enabled */
  MS_PEER_COPY_DISABLED, /* cudaMemcpyPeerAsync without peer access */
  MS_PEER_KERNEL_READ,   /* a kernel on dst reads src's memory directly */
  MS_PEER_STAGED,        /* through pinned host memory: the baseline */
  MS_PEER_METHOD_COUNT
} MsPeerMethod;

const char *ms_peer_method_name (MsPeerMethod m);

typedef struct {
  bool ok;
  double uni_gbps; /* src -> dst alone */
  double bi_gbps;  /* src -> dst and dst -> src at once, both directions
                    * counted */
  char note[160];  /* why not, when !ok */
} MsPeerCell;

typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES];
  uint64_t bytes;
  bool can_access[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  /* [method][src][dst]; the diagonal stays empty. */
  MsPeerCell cell[MS_PEER_METHOD_COUNT][MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES];
  double reference_gbps[MS_MULTI_MAX_DEVICES][MS_MULTI_MAX_DEVICES]; /* plain loop */
  MsTopology topo;
  char error[256];
} MsPeerResults;

#define MS_HOST_LINK_MAX_SIZES 8

typedef enum {
  MS_HOST_LINK_H2D,
  MS_HOST_LINK_D2H,
  MS_HOST_LINK_BOTH, /* both ways at once, both counted */
  MS_HOST_LINK_COUNT
} MsHostLinkDirection;

/* Copies only, each GPU between its own pinned host buffer and its memory,
 * all GPUs at once and each alone. */
typedef struct {
  int n_devices;
  int devices[MS_MULTI_MAX_DEVICES];
  int n_sizes;
  int exps[MS_HOST_LINK_MAX_SIZES]; /* 2^E floats a copy */
  /* GB/s of each GPU, all at once and alone; 0 where it failed. */
  double together[MS_HOST_LINK_COUNT][MS_HOST_LINK_MAX_SIZES][MS_MULTI_MAX_DEVICES];
  double alone[MS_HOST_LINK_COUNT][MS_HOST_LINK_MAX_SIZES][MS_MULTI_MAX_DEVICES];
  char error[256];
} MsHostLinkResults;

/* "h2d", "d2h", "both", then NULL: the directions' names in files and
 * tables. */
extern const char *const ms_host_link_direction_keys[MS_HOST_LINK_COUNT + 1];

/* "h2d", "d2h", "both"; "?" for anything else. */
const char *ms_host_link_direction_key (MsHostLinkDirection d);

/* The sum over the GPUs of a size and direction, all at once (together)
 * or each alone. */
double ms_host_link_total (const MsHostLinkResults *r, MsHostLinkDirection d, int size,
                           bool together);
